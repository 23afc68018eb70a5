"""Why a join or a host failed, in words a player can act on (``unotui join``, the menu,
``unotui host`` and ``unotui serve``)."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from unotui.net.addresses import listen_error, unreachable


@pytest.mark.parametrize(
    ("exc", "words"),
    [
        (ConnectionRefusedError(111, "Connection refused"), "nothing is listening there"),
        (socket.gaierror(-2, "Name or service not known"), "that host name is not known here"),
        (TimeoutError(), "no answer; check the address, and that a firewall lets the port through"),
        (OSError(113, "No route to host"), "No route to host"),
    ],
)
def test_each_failure_says_what_to_check_and_names_the_error(exc: BaseException, words: str) -> None:
    why = unreachable(exc)
    assert words in why and why.endswith(f"({type(exc).__name__})")


def test_unotui_join_to_a_port_nobody_listens_on_says_so_and_exits_1() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    run = subprocess.run(
        [sys.executable, "-m", "unotui", "join", f"127.0.0.1:{port}"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 1
    assert f"cannot reach 127.0.0.1:{port}: nothing is listening there" in run.stdout + run.stderr


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (errno.EADDRINUSE, "the port is in use (another unotui host, or another program); choose"),
        (errno.EACCES, "ports below 1024 need privileges"),
        (errno.EADDRNOTAVAIL, "this machine has no such address; check --bind"),
    ],
)
def test_a_port_that_cannot_be_listened_on_says_what_to_change(code: int, words: str) -> None:
    assert words in listen_error(OSError(code, os.strerror(code)))


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (["host", "--headless"], "unotui host: cannot listen on 127.0.0.1:{port}: the port is in use"),
        (["host"], "unotui: cannot listen on 127.0.0.1:{port}: the port is in use"),
        (["serve", "--ssh-port", "0", "--data-dir", "{tmp}"], "choose another with --port or --ssh-port"),
    ],
    ids=["headless", "screen", "serve"],
)
def test_hosting_on_a_port_in_use_says_so_and_exits_1(command: list[str], words: str, tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        args = [a.replace("{tmp}", str(tmp_path)) for a in command]
        run = subprocess.run(
            [sys.executable, "-m", "unotui", *args, "--bind", "127.0.0.1", "--port", str(port)],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )
    assert run.returncode == 1, run
    assert words.format(port=port) in run.stdout + run.stderr
    assert "Traceback" not in run.stderr
