"""End to end: a headless ``unotui host`` and two ``unotui join`` processes in real
terminals (tmux), over loopback.  The match starts when both have joined, each sees its
own hand and the other's name, a chat line reaches the other terminal as literal text,
and stopping the host tells both players, with no traceback anywhere."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..e2e.tmux_support import tmux as _tmux
from ..e2e.tmux_support import wait_for

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
    pytest.mark.timeout(90),
]

EXE = Path(sys.executable).with_name("unotui")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _read_until(proc: subprocess.Popen[str], needle: str, timeout: float = 20) -> list[str]:
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if needle in line:
            return lines
    raise AssertionError(f"{needle!r} never printed; got {lines}")


@contextlib.contextmanager
def _headless(tmp_path: Path, seats: int, sessions: list[str]) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A headless ``unotui host`` (one computer player) ready for joins; on the way out
    the tmux ``sessions`` and the host are stopped, whatever happened."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "TMUX"} | {"UNOTUI_CONFIG_DIR": str(tmp_path)}
    host = subprocess.Popen(
        [str(EXE), "host", "--headless", "--bind", "127.0.0.1", "--port", str(port), "--seats", str(seats),
         "--bots", "1", "--rules", "classic"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        _read_until(host, "join with: unotui join 127.0.0.1:")
        yield host, port
    finally:
        for session in sessions:
            subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
        if host.poll() is None:
            host.kill()
            host.wait()


def test_headless_host_and_two_joins_in_terminals(tmp_path: Path) -> None:
    sessions = [f"unotui-lan-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    with _headless(tmp_path, 3, sessions) as (host, port):
        for session, name in zip(sessions, ("Ann", "Bob"), strict=True):
            status = tmp_path / f"{name}.status"
            command = (f"UNOTUI_CONFIG_DIR={tmp_path} {EXE} join 127.0.0.1:{port} --name {name}; "
                       f"echo $? > {status}; sleep 30")
            _tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
            if name == "Ann":
                wait_for(session, "The match starts when 1 more player joins.", 20)  # (it starts itself)
        lines = _read_until(host, "match started")
        assert any("Ann joined seat 1" in line for line in lines)
        ann = wait_for(sessions[0], "playable", 20)
        bob = wait_for(sessions[1], "playable", 20)
        assert "Ann" in ann and "Bob" in ann and "Ann" in bob and "Bob" in bob
        assert "Round 1" in ann and "Round 1" in bob
        # Chat from a player with no dialog open (a first-card Wild asks seat 1 for a colour).
        speaker, listener, name = (0, 1, "Ann") if "Name a colour" not in ann else (1, 0, "Bob")
        _tmux("send-keys", "-t", sessions[speaker], "/")
        wait_for(sessions[speaker], "Say to the table", 20)
        _tmux("send-keys", "-t", sessions[speaker], "-l", "hi [b]you[/b]")
        _tmux("send-keys", "-t", sessions[speaker], "Enter")
        wait_for(sessions[listener], f"{name}: hi [b]you[/b]", 20)
        host.send_signal(signal.SIGINT)
        out, err = host.communicate(timeout=20)
        assert host.returncode == 0 and "Traceback" not in err
        assert "stopping" in out
        for session in sessions:
            wait_for(session, "Game closed", 20)
            assert "Traceback" not in _tmux("capture-pane", "-p", "-t", session)


def test_a_killed_join_takes_its_seat_back_by_joining_again(tmp_path: Path) -> None:
    """``kill -9`` on a player's ``unotui join`` mid-match: the host holds the seat, and the
    same command run again sits the player back down (a newcomer would be refused)."""
    sessions = [f"unotui-back-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    with _headless(tmp_path, 2, sessions) as (host, port):
        command = f"UNOTUI_CONFIG_DIR={tmp_path} {EXE} join 127.0.0.1:{port} --name Ann; sleep 30"
        _tmux("new-session", "-d", "-s", sessions[0], "-x", "80", "-y", "24", command)
        _read_until(host, "match started")
        wait_for(sessions[0], "playable", 20)
        shell = _tmux("display-message", "-p", "-t", sessions[0], "#{pane_pid}").strip()
        join_pid = int(Path(f"/proc/{shell}/task/{shell}/children").read_text().split()[0])
        os.kill(join_pid, signal.SIGKILL)
        _read_until(host, "Ann dropped (seat held)")
        _tmux("new-session", "-d", "-s", sessions[1], "-x", "120", "-y", "40", command)
        screen = wait_for(sessions[1], "playable", 20)
        assert "Round 1" in screen and "Ann" in screen and "The match has started" not in screen
        _read_until(host, "Ann is back at seat 1")


def _join_pid(session: str) -> int:
    """The ``unotui join`` process running under ``session``'s shell."""
    shell = _tmux("display-message", "-p", "-t", session, "#{pane_pid}").strip()
    return int(Path(f"/proc/{shell}/task/{shell}/children").read_text().split()[0])


def test_a_killed_join_takes_back_its_own_names_seat_not_another(tmp_path: Path) -> None:
    """Bob and Cleo join from one settings directory (one account, two terminals), Bob
    first, so Cleo's token is the one written last; Cleo is the settings' name, and joins
    with no ``--name``.  Bob's ``unotui join`` is killed and run again with ``--name
    Bob``: Bob is back at his own seat and Cleo plays on; then ``--name Dan``, who has no
    seat remembered, is refused as a newcomer would be; then Cleo's is killed and run
    again with no ``--name``, at ``localhost``: Cleo is back."""
    (tmp_path / "config.toml").write_text('name = "Cleo"\n')
    names = ("Bob", "Cleo", "Bob again", "Dan", "Cleo again")
    sessions = {name: f"unotui-own-{uuid.uuid4().hex[:8]}" for name in names}
    with _headless(tmp_path, 3, list(sessions.values())) as (host, port):
        def join(who: str, name: str, size: tuple[str, str] = ("80", "24"), at: str = "127.0.0.1") -> None:
            named = f" --name {name}" if name else ""
            command = (f"UNOTUI_CONFIG_DIR={tmp_path} {EXE} join {at}:{port}{named}; "
                       f"echo EXIT=$?; sleep 30")
            _tmux("new-session", "-d", "-s", sessions[who], "-x", size[0], "-y", size[1], command)

        join("Bob", "Bob")
        _read_until(host, "Bob joined seat 1")
        join("Cleo", "")
        _read_until(host, "match started")
        wait_for(sessions["Bob"], "playable", 20)
        wait_for(sessions["Cleo"], "playable", 20)
        os.kill(_join_pid(sessions["Bob"]), signal.SIGKILL)
        _read_until(host, "Bob dropped (seat held)")

        join("Bob again", "Bob", ("120", "40"))
        screen = wait_for(sessions["Bob again"], "playable", 20)
        assert "The match has started" not in screen
        back = _read_until(host, " is back at seat ")
        assert "Bob is back at seat 1" in back[-1]  # (the old memory gave Bob Cleo's seat 2)

        join("Dan", "Dan")
        refused = wait_for(sessions["Dan"], "EXIT=1", 20)
        assert "The match has started" in refused and "Traceback" not in refused
        time.sleep(0.5)  # (a wrong resume would have reached Cleo's screen by now)
        for who in ("Cleo", "Bob again"):
            screen = _tmux("capture-pane", "-p", "-t", sessions[who])
            assert "Game closed" not in screen and "another connection" not in screen, screen
        os.kill(_join_pid(sessions["Cleo"]), signal.SIGKILL)
        lines = _read_until(host, "Cleo dropped (seat held)")
        assert not any("is back at seat" in line for line in lines)  # nobody was resumed for Dan
        join("Cleo again", "", ("120", "40"), at="localhost")
        wait_for(sessions["Cleo again"], "playable", 20)
        back = _read_until(host, " is back at seat ")
        assert "Cleo is back at seat 2" in back[-1]  # the settings' name, at localhost
        screen = _tmux("capture-pane", "-p", "-t", sessions["Bob again"])
        assert "Game closed" not in screen and "another connection" not in screen, screen
