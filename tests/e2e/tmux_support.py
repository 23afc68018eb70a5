"""Driving a real terminal (tmux) in end-to-end tests: run a command, read the screen."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable


def tmux(*args: str) -> str:
    """Run a tmux command; its output."""
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def wait_for(session: str, needle: str, timeout: float = 15) -> str:
    """The screen of ``session`` once it shows ``needle``; fail with the screen after ``timeout``."""
    return _screen_once(session, lambda screen: needle in screen, f"{needle!r} never appeared", timeout)


def wait_match(session: str, pattern: str, timeout: float = 15) -> str:
    """The screen of ``session`` once the regular expression ``pattern`` matches it (a
    field's value, whatever the spaces before it); fail with the screen after ``timeout``."""
    return _screen_once(session, lambda screen: re.search(pattern, screen) is not None,
                        f"{pattern!r} never matched", timeout)


def _screen_once(session: str, shown: Callable[[str], bool], never: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if shown(screen):
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{never}; screen was:\n{screen}")
