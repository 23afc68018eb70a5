"""Shared fixtures."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

# A terminal size in the environment (COLUMNS/LINES, as some shells export) is what every
# program started from here believes, whatever its tmux window's size: a tmux server
# started by a test inherits it, and a "120x40" end-to-end test would draw at 80x24.
for _size in ("COLUMNS", "LINES"):
    os.environ.pop(_size, None)

# Byte-code is written, whatever the environment says (PYTHONDONTWRITEBYTECODE=1, as some
# machines set, this one and CI's included): otherwise each of the suite's processes, the
# test workers and every program a test starts, compiles unotui anew, and each worker
# rewrites the asserts of every test module again (11 s of a worker's CPU for collection
# alone, against 1 s with the cache). Set here, before the workers and programs start.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


@pytest.fixture(scope="session", autouse=True)
def _tmux_server_stays_up() -> Iterator[None]:
    """One idle tmux session for the whole run (per worker): tmux ends its server when the
    last session closes, and a test starting a session just then fails ("server exited
    unexpectedly") while another test's session ends; with this one the server never has
    no session.  Nothing if tmux is not installed."""
    if shutil.which("tmux") is None:
        yield
        return
    name = f"unotui-tests-keeper-{os.getpid()}"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "sleep 86400"], capture_output=True)
    try:
        yield
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


@pytest.fixture
def fast_keys(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Key presses in Textual's pilot without its 20 ms idle polls (see tests.ui.tui_support.settle)."""
    import textual.app
    import textual.pilot

    from .ui.tui_support import quick_idle

    monkeypatch.setattr(textual.app, "wait_for_idle", quick_idle)
    monkeypatch.setattr(textual.pilot, "wait_for_idle", quick_idle)
    yield


@pytest.fixture(autouse=True)
def _config_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never read or write the real settings file."""
    monkeypatch.setenv("UNOTUI_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


@pytest.fixture(autouse=True)
def _watched_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every local game a test starts on the loop's clock runs on a watched one, which
    tells ``tests.clock.idle`` when the game has done all that is due (no test hook in
    the game itself)."""
    import unotui.net.local

    from .clock import WatchedClock

    monkeypatch.setattr(unotui.net.local, "LoopClock", WatchedClock)


@pytest.fixture
def terminals() -> Iterator[list[Any]]:
    """tmux terminals a test opens (``tests.ssh.ssh_support.Terminal``), closed after it."""
    opened: list[Any] = []
    yield opened
    for terminal in opened:
        terminal.close()
