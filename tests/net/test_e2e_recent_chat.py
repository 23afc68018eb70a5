"""End to end, in real terminals (tmux) over loopback: the recent chat a newcomer and a
killed ``unotui join`` run again see (issue 18 item 8), at a LAN table and in the SSH
lobby with a real ``ssh``.  The lines say "(earlier)" beside the chat marker."""

from __future__ import annotations

import os
import shutil
import signal
import time
import uuid
from pathlib import Path

import pytest

from ..e2e.tmux_support import tmux as _tmux
from ..e2e.tmux_support import wait_for
from ..lobby.test_e2e_ssh import start, stop
from ..ssh.ssh_support import Terminal, make_key, ssh_argv
from .test_e2e_lan import EXE, _headless, _read_until

pytestmark = [
    pytest.mark.skipif(not (shutil.which("tmux") and shutil.which("ssh")), reason="needs tmux and ssh"),
    pytest.mark.timeout(120),
]

MARK = "» "
#: a tmux server may hand new sessions a COLUMNS/LINES of its own: the app must read the pane
NO_SIZE = "env -u COLUMNS -u LINES"
NO_SIZE_ARGV = NO_SIZE.split()


def test_a_killed_join_run_again_sees_the_tables_recent_chat_marked_earlier(tmp_path: Path) -> None:
    sessions = {who: f"unotui-chat-{uuid.uuid4().hex[:8]}" for who in ("Ann", "Bob", "Bob again")}
    with _headless(tmp_path, 3, list(sessions.values())) as (host, port):
        def join(who: str, name: str, size: tuple[str, str]) -> None:
            command = (f"{NO_SIZE} UNOTUI_CONFIG_DIR={tmp_path} {EXE} join 127.0.0.1:{port} --name {name}; "
                       "sleep 30")
            _tmux("new-session", "-d", "-s", sessions[who], "-x", size[0], "-y", size[1], command)

        join("Ann", "Ann", ("80", "24"))
        _read_until(host, "Ann joined seat 1")
        join("Bob", "Bob", ("80", "24"))
        _read_until(host, "match started")
        ann = wait_for(sessions["Ann"], "playable", 20)
        wait_for(sessions["Bob"], "playable", 20)
        speaker = "Bob" if "Name a colour" in ann else "Ann"  # (a first-card Wild asks Ann for a colour)
        _tmux("send-keys", "-t", sessions[speaker], "/")
        wait_for(sessions[speaker], "Say to the table", 20)
        _tmux("send-keys", "-t", sessions[speaker], "-l", "good luck")
        _tmux("send-keys", "-t", sessions[speaker], "Enter")
        wait_for(sessions["Bob"], f"{MARK}{speaker}: good luck", 20)
        shell = _tmux("display-message", "-p", "-t", sessions["Bob"], "#{pane_pid}").strip()
        os.kill(int(Path(f"/proc/{shell}/task/{shell}/children").read_text().split()[0]), signal.SIGKILL)
        _read_until(host, "Bob dropped (seat held)")
        join("Bob again", "Bob", ("120", "40"))
        screen = wait_for(sessions["Bob again"], f"{MARK}(earlier) {speaker}: good luck", 20)
        assert "playable" in screen and screen.count("good luck") == 1
        _read_until(host, "Bob is back at seat 2")


def test_someone_arriving_in_the_ssh_lobby_sees_its_recent_chat(tmp_path: Path,
                                                                 terminals: list[Terminal]) -> None:
    lobby = start(tmp_path / "data")
    try:
        ann_dir = tmp_path / "ann"
        ann_dir.mkdir()
        ann_key, _ = make_key(ann_dir)
        ann = Terminal([*NO_SIZE_ARGV, *ssh_argv(lobby.ssh_port, ann_dir, "-t", key=ann_key, user="ann")],
                       tmp_path, (80, 24))
        terminals.append(ann)
        ann.wait("you are ann")
        ann.keys("/")
        ann.wait("Say to everyone in the lobby")
        ann.keys("-l", "who is up for a game at eight? I open a table with the classic rules")
        ann.keys("Enter")
        ann.wait(f"{MARK}ann: who is up")
        bob = Terminal([*NO_SIZE_ARGV, *ssh_argv(lobby.ssh_port, tmp_path, "-t", user="bob")],
                       tmp_path, (120, 40))
        terminals.append(bob)
        screen = bob.wait(f"{MARK}(earlier) ann: who is up for a game at eight?", timeout=30)
        assert "the classic" in screen and "rules" in screen and screen.count("who is up") == 1
        time.sleep(0.3)
        assert "(earlier)" not in _tmux("capture-pane", "-p", "-t", ann.name)  # ann's own line is not earlier
    finally:
        stop(lobby)
