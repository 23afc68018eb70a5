"""Driving a real terminal (tmux) in end-to-end tests: run a command, read the screen."""

from __future__ import annotations

import subprocess
import time


def tmux(*args: str) -> str:
    """Run a tmux command; its output."""
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def wait_for(session: str, needle: str, timeout: float = 15) -> str:
    """The screen of ``session`` once it shows ``needle``; fail with the screen after ``timeout``."""
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if needle in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{needle!r} never appeared; screen was:\n{screen}")
