"""Why a join failed, in words a player can act on (``unotui join`` and the menu's Join)."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from unotui.net.remote import unreachable


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
