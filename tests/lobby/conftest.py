"""The lobby tests' fixtures: a store file's path and an open SQLite store on it (a
clock that ticks one second per reading)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lobby.store_support import Clock
from unotui.lobby.sqlite_store import STORE_FILE, SqliteStore


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / STORE_FILE


@pytest.fixture
def store(path: Path) -> Iterator[SqliteStore]:
    with SqliteStore(path, clock=Clock()) as s:
        yield s
