"""``unotui serve`` end to end: real OpenSSH clients and a ``unotui join`` peer in tmux.

Two SSH players (each with a key) and one TCP player sit at one table and a spectator
watches it; a player whose connection dies comes back to the same seat with the same
key; a hostile SSH user name is shown as literal text; the host key survives a restart.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..ssh.ssh_support import Terminal, make_key, ssh_argv

pytestmark = [
    pytest.mark.skipif(not (shutil.which("tmux") and shutil.which("ssh")), reason="needs tmux and ssh"),
    pytest.mark.timeout(120),
]

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Lobby:
    process: subprocess.Popen[str]
    ssh_port: int
    tcp_port: int
    fingerprint: str
    log: list[str]


def start(data: Path, *options: str) -> Lobby:
    command = [sys.executable, "-m", "unotui", "serve", "--bind", "127.0.0.1", "--ssh-port", "0",
               "--port", "0", "--data-dir", str(data), *options]
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO,
                               env=env)
    assert process.stdout is not None
    log: list[str] = []
    ports: dict[str, int] = {}
    fingerprint = ""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and "tcp" not in ports:
        line = process.stdout.readline()
        if not line:
            break
        log.append(line)
        if found := re.search(r"SSH lobby on port (\d+)", line):
            ports["ssh"] = int(found[1])
        if found := re.search(r"host key fingerprint: (\S+)", line):
            fingerprint = found[1]
        if found := re.search(r"TCP lobby on port (\d+)", line):
            ports["tcp"] = int(found[1])
    assert "tcp" in ports and "ssh" in ports, log
    return Lobby(process, ports["ssh"], ports["tcp"], fingerprint, log)


def stop(lobby: Lobby) -> None:
    lobby.process.terminate()
    try:
        lobby.process.wait(15)
    except subprocess.TimeoutExpired:
        lobby.process.kill()
        lobby.process.wait()


def test_two_ssh_players_and_a_tcp_player_share_a_table_a_spectator_watches_and_a_key_comes_back(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    lobby = start(tmp_path / "data", "--public-host", "uno.example.test")
    assert any(f"ssh -p {lobby.ssh_port} NAME@uno.example.test" in line for line in lobby.log), lobby.log
    try:
        ann_dir, bob_dir = tmp_path / "ann", tmp_path / "bob"
        ann_dir.mkdir()
        bob_dir.mkdir()
        ann_key, _ = make_key(ann_dir)
        bob_key, _ = make_key(bob_dir)

        ann = Terminal(ssh_argv(lobby.ssh_port, ann_dir, key=ann_key, user="ann"), tmp_path, (80, 24))
        terminals.append(ann)
        ann.wait("unotui lobby")
        ann.wait("you are ann")
        ann.keys("n")
        ann.wait("A new table")
        ann.keys("Tab", "Tab", "Enter")  # the computer players' drop-down (2)...
        ann.wait("▲")  # (open: keys sent before it is would go to the form; CI once lost them)
        ann.keys("Up", "Enter")  # ...down to 1: a seat left for cy
        ann.wait_match(r"Computer players\s+1\s+▼")
        ann.keys("C-s")
        screen = ann.wait("table code")
        code = re.search(r"table code (\w+)", screen)
        assert code is not None, screen
        table = code[1]
        assert f"ssh -t -p {lobby.ssh_port} uno.example.test join {table}" in screen  # --public-host

        bob = Terminal(ssh_argv(lobby.ssh_port, bob_dir, key=bob_key, user="bob"), tmp_path, (120, 40))
        terminals.append(bob)
        bob.wait(table)  # the lobby lists ann's table
        bob.keys("Enter")
        bob.wait("(you)")

        cy = Terminal([sys.executable, "-m", "unotui", "join", f"127.0.0.1:{lobby.tcp_port}",
                       "--table", table, "--name", "cy"], tmp_path, (100, 30))
        terminals.append(cy)
        for who in (ann, bob, cy):  # 4 seats, 1 computer player: the third person starts it
            who.wait("Round 1", timeout=30)

        watcher = Terminal([*ssh_argv(lobby.ssh_port, tmp_path, "-t", user="watcher"), "spectate", table],
                           tmp_path, (100, 30))
        terminals.append(watcher)
        screen = watcher.wait("Round", timeout=30)
        assert "ann" in screen and "bob" in screen

        bob.close()  # bob's connection dies: the seat is held for his key
        time.sleep(1.0)
        bob = Terminal(ssh_argv(lobby.ssh_port, bob_dir, key=bob_key, user="bob"), tmp_path, (120, 40))
        terminals.append(bob)
        screen = bob.wait("Round", timeout=30)
        assert ">" in screen and "bob" in screen
    finally:
        stop(lobby)
    text = "".join(lobby.log) + (lobby.process.stdout.read() if lobby.process.stdout else "")
    assert "bob is back" in text


@pytest.mark.parametrize("per_process", ["8", "1"], ids=["worker", "process"])
def test_a_hostile_user_name_is_literal_and_the_host_key_survives_a_restart(
    tmp_path: Path, terminals: list[Terminal], per_process: str
) -> None:
    """Sessions in a worker (the default) and each in a process of its own."""
    data = tmp_path / "data"
    lobby = start(data, "--sessions-per-process", per_process)
    try:
        eve = Terminal(ssh_argv(lobby.ssh_port, tmp_path, user="[b]x[/b]"), tmp_path, (80, 24))
        terminals.append(eve)
        screen = eve.wait("unotui lobby")
        assert "[b]x[/b]" in screen  # markup shown as typed, never interpreted
        eve.wait("online")
        eve.keys("/")
        eve.wait("Say to everyone in the lobby")
        eve.keys("-l", "[@click=app.quit]boom [red]x[/red]")
        eve.keys("Enter")
        # The line as sent, in the lobby's chat (a link or markup would vanish). Waited for
        # whole: "boom" alone matched the chat field while the rest was still being typed.
        eve.wait("» [b]x[/b]: [@click=app.quit]boom [red]x[/red]")
        eve.keys("q")  # and the session still works: a quick match (yes) deals a hand
        eve.wait("Start a quick match?")
        eve.keys("y")
        eve.wait("Round 1", timeout=30)
        eve.keys("C-q")
        eve.wait("leave this match?")
        eve.keys("C-q")
        assert eve.exit_status() == 0
    finally:
        stop(lobby)
    started = [line for line in (data / "ssh.log").read_text().splitlines() if "started in" in line]
    assert started and all(("started in worker" in line) == (per_process != "1") for line in started)
    again = start(data)
    try:
        assert again.fingerprint == lobby.fingerprint
        guest = Terminal(ssh_argv(again.ssh_port, tmp_path, user="ann"), tmp_path, (80, 24))
        terminals.append(guest)
        guest.wait("unotui lobby")  # the known_hosts entry from the first run still matches
    finally:
        stop(again)


def test_one_key_under_another_user_name_is_the_same_player_and_leaves_its_seat_alone(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``ssh carol@`` with alice's key, while alice's terminal sits at her table: the lobby
    greets alice, says her seat is in use in the other terminal, and Enter on the table
    asks before taking it over; no keeps it there, yes moves it, and alice's terminal is
    told why and goes back to the lobby with Escape."""
    lobby = start(tmp_path / "data")
    try:
        home = tmp_path / "alice"
        home.mkdir()
        key, _ = make_key(home)
        alice = Terminal(ssh_argv(lobby.ssh_port, home, key=key, user="alice"), tmp_path, (80, 24))
        terminals.append(alice)
        alice.wait("you are alice")
        alice.keys("n")
        alice.wait("A new table")
        alice.keys("C-s")  # 4 seats, 2 computer players: it waits for one more person
        found = re.search(r"table code (\w+)", alice.wait("table code"))
        assert found is not None
        table = found[1]

        carol = Terminal(ssh_argv(lobby.ssh_port, home, key=key, user="carol"), tmp_path, (120, 40))
        terminals.append(carol)
        screen = carol.wait("you are alice")
        assert "you are carol" not in screen
        carol.wait("carol is not used")  # the greeting: the key is alice's
        carol.wait("is in use in another")  # why the lobby did not send carol to alice's seat
        carol.wait(table)
        carol.keys("Enter")  # the only table: alice's
        carol.wait("Take it over here?")
        carol.keys("n")
        screen = carol.wait("stays in your other terminal")
        assert "(you)" not in screen  # not seated
        screen = alice.wait("table code")  # alice's terminal still holds the seat
        assert "Game closed" not in screen and "another connection" not in screen
        carol.wait(table)
        carol.keys("Enter")
        carol.wait("Take it over here?")
        carol.keys("y")
        carol.wait("table code")  # carol's terminal is in the waiting room, in alice's seat
        alice.wait("moved to another terminal")  # told why, not closed silently
        alice.keys("Escape")
        alice.wait("unotui lobby")  # back in the lobby
    finally:
        stop(lobby)
