"""End to end with the real OpenSSH client in a real terminal (tmux): connect with a key
or as a guest, see the game, resize, Ctrl+C, quit clean; the host key survives a restart;
a crash resets its own terminal while another session goes on; the session cap's banner."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from ..e2e.tmux_support import tmux
from .ssh_support import CliServer, Terminal, cli_server, make_key, ssh_argv

pytestmark = [
    pytest.mark.skipif(not (shutil.which("tmux") and shutil.which("ssh")), reason="needs tmux and ssh"),
    pytest.mark.timeout(90),
]

PLAY = "tests.ssh.entries:play"
PLAY_APP = "tests.ssh.entries:play_app"  # the same in a worker's thread
#: on the table's first screen whatever the deal: the players panel's title (a first card
#: that asks for a colour covers the draw pile with its dialog)
TABLE = "Players, "
CRASH = "tests.ssh.entries:crash_app"


def records(path: Path) -> list[dict[str, object]]:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not path.exists():
        time.sleep(0.05)
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("grouping", [(), ("--sessions-per-process", "2", "--app-entry", PLAY_APP)],
                         ids=["process", "worker"])
def test_key_login_plays_resizes_survives_ctrl_c_and_quits_clean(
    tmp_path: Path, terminals: list[Terminal], grouping: tuple[str, ...]
) -> None:
    key, fingerprint = make_key(tmp_path)
    record = tmp_path / "specs.jsonl"
    with cli_server(tmp_path / "data", PLAY, "--extra", f"record={record}", *grouping) as server:
        term = Terminal(ssh_argv(server.port, tmp_path, key=key, user="ada"), tmp_path)
        terminals.append(term)
        screen = term.wait(TABLE)
        assert "ada" in screen
        [spec] = records(record)
        assert spec["fingerprint"] == fingerprint and spec["user"] == "ada"
        assert spec["size"] == [100, 30] and str(spec["term"]).startswith(("tmux", "screen"))
        assert term.flag("alternate_on") == "1"
        # Resize: the app lays out again for the new width (the log's right edge moves).
        before = max(len(line.rstrip()) for line in screen.splitlines())
        tmux("resize-window", "-t", term.name, "-x", "130", "-y", "36")
        deadline = time.monotonic() + 10
        after = before
        while time.monotonic() < deadline and after <= 100:
            lines = tmux("capture-pane", "-p", "-t", term.name).splitlines()
            after = max(len(line.rstrip()) for line in lines)
            time.sleep(0.1)
        assert before <= 100 < after <= 130
        # Ctrl+C is a key the app reads (Textual says how to quit), not the end of the session.
        term.keys("C-c")
        term.wait("ctrl+q")
        assert not term.status.exists() and TABLE in term.wait(TABLE)
        term.keys("C-q")
        term.wait("leave this match?")
        term.keys("y")
        assert term.exit_status() == 0
        # The terminal is restored.  (Not checked on the screen's text: after a resize in
        # the alternate screen, tmux 3.3 keeps part of it on the normal one, for a local
        # `unotui play` just the same.)
        assert term.flag("alternate_on") == "0"
        assert term.flag("mouse_any_flag") == "0" and term.flag("cursor_flag") == "1"
    log = (tmp_path / "data" / "ssh.log").read_text().splitlines()
    started = [line for line in log if "started in" in line]
    assert len(started) == 1 and ("started in worker" in started[0]) == bool(grouping)


def test_a_guest_without_a_key_gets_in_without_a_prompt(tmp_path: Path, terminals: list[Terminal]) -> None:
    record = tmp_path / "specs.jsonl"
    home = tmp_path / "home"  # no keys here: OpenSSH has nothing to offer
    home.mkdir()
    with cli_server(tmp_path / "data", PLAY, "--extra", f"record={record}") as server:
        argv = ssh_argv(server.port, tmp_path, user="guest")
        term = Terminal(["env", f"HOME={home}", *argv], tmp_path)
        terminals.append(term)
        term.wait(TABLE)
        [spec] = records(record)
        assert spec["fingerprint"] is None and spec["user"] == "guest"


def test_the_host_key_survives_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    key, _ = make_key(tmp_path)

    def knock(server: CliServer, checking: str) -> subprocess.CompletedProcess[str]:
        # No -t: once the host key is checked the server answers one line, status 2.  The
        # alias makes known_hosts ignore the port (each start takes a free one).
        options = ("-o", f"StrictHostKeyChecking={checking}", "-o", "HostKeyAlias=unotui-test")
        argv = ssh_argv(server.port, tmp_path, *options, key=key)
        return subprocess.run([*argv, "join", "ABC"], capture_output=True, text=True, timeout=20)

    with cli_server(data, PLAY) as first:
        run = knock(first, "accept-new")
        assert run.returncode == 2 and "ssh with -t" in run.stdout, run.stderr
    with cli_server(data, PLAY) as second:
        assert second.fingerprint == first.fingerprint
        run = knock(second, "yes")  # known_hosts must still accept it
        assert run.returncode == 2 and "ssh with -t" in run.stdout, run.stderr
    public = str(data / "ssh_host_ed25519_key.pub")
    listed = subprocess.run(["ssh-keygen", "-lf", public], capture_output=True, text=True, check=True)
    assert listed.stdout.split()[1] == first.fingerprint
    assert oct((data / "ssh_host_ed25519_key").stat().st_mode & 0o777) == "0o600"


def test_a_crash_resets_its_terminal_while_another_session_goes_on(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    key, _ = make_key(tmp_path)
    with cli_server(tmp_path / "data", CRASH) as server:
        crashing = Terminal(ssh_argv(server.port, tmp_path, key=key, user="crash"), tmp_path)
        other = Terminal(ssh_argv(server.port, tmp_path, key=key, user="other"), tmp_path)
        terminals += [crashing, other]
        crashing.wait("count 0")
        other.wait("count 0")
        assert crashing.flag("alternate_on") == "1" and crashing.flag("mouse_any_flag") == "1"
        crashing.keys("x")  # SIGSEGV: Textual has no chance to restore anything
        assert crashing.exit_status() == 1
        screen = crashing.wait("ended unexpectedly")
        assert "Traceback" not in screen and "Fatal Python error" not in screen
        assert crashing.flag("alternate_on") == "0" and crashing.flag("mouse_any_flag") == "0"
        assert crashing.flag("cursor_flag") == "1"
        other.keys("c")
        other.wait("count 1")
        other.keys("t")  # an exception inside the app: the traceback goes to the server's log
        assert other.exit_status() == 1
        assert "boom" not in tmux("capture-pane", "-p", "-t", other.name)
    log = (tmp_path / "data" / "ssh.log").read_text()
    assert "Fatal Python error: Segmentation fault" in log
    assert "RuntimeError: boom from the crash app" in log


def test_over_the_session_cap_openssh_shows_why(tmp_path: Path, terminals: list[Terminal]) -> None:
    key, _ = make_key(tmp_path)
    with cli_server(tmp_path / "data", CRASH, "--max-sessions", "1") as server:
        first = Terminal(ssh_argv(server.port, tmp_path, key=key), tmp_path)
        terminals.append(first)
        first.wait("count 0")
        second = Terminal(ssh_argv(server.port, tmp_path, key=key), tmp_path)
        terminals.append(second)
        second.wait("The server is full right now")
        assert second.exit_status() == 1
        first.keys("c")
        first.wait("count 1")
