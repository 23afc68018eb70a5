"""Seats this user holds at tables elsewhere, kept on disk.

A host holds a dropped player's seat for a while (120 s by default) and gives it back to
whoever shows its resume token.  A connection that drops is resumed by the running
``unotui join`` itself; this file is for the process that ended: a closed terminal, a
Ctrl+Q in the middle of a match, a crash.  ``unotui join HOST`` run again finds the token
here and takes the seat back, if the host still holds it.

The file (``seats.json`` beside the settings file, 0600 in a 0700 directory:
:mod:`unotui.private`) maps a table's address to its latest token (tokens rotate on
every resume, so each welcome writes it again).  Entries go when a seat's match is
over, when the host no longer knows the token, and after :data:`KEEP_S`.  A damaged
file is treated as empty: losing a token only costs what the crash already cost.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..private import DataDirError, private_dir, write_private

__all__ = ["KEEP_S", "SeatMemory"]

#: how long a seat is remembered (a host restarted from its journal holds seats again)
KEEP_S = 6 * 3600.0
#: the most tables remembered at once (the oldest go first)
MOST = 32


class SeatMemory:
    """Resume tokens by table address (``"host:port/table"``), in one small JSON file."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock

    def recall(self, place: str) -> tuple[str, str] | None:
        """``(token, name)`` of the seat held at ``place``, if one is remembered."""
        entry = self._read().get(place)
        if entry is None:
            return None
        return entry["token"], entry["name"]

    def remember(self, place: str, token: str, name: str) -> None:
        """``place``'s seat now answers to ``token`` (written at once: a crash may follow)."""
        seats = self._read()
        seats[place] = {"token": token, "name": name, "at": self.clock()}
        self._write(seats)

    def forget(self, place: str) -> None:
        """``place``'s seat is over (its match ended, or the host no longer knows it)."""
        seats = self._read()
        if seats.pop(place, None) is not None:
            self._write(seats)

    # ----- the file -----------------------------------------------------------------------------

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        seats = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(seats, dict):
            return {}
        now = self.clock()
        return {
            place: entry
            for place, entry in seats.items()
            if isinstance(place, str)
            and isinstance(entry, dict)
            and isinstance(entry.get("token"), str)
            and isinstance(entry.get("name"), str)
            and isinstance(entry.get("at"), int | float)
            and 0 <= now - entry["at"] <= KEEP_S
        }

    def _write(self, seats: dict[str, dict[str, Any]]) -> None:
        newest = sorted(seats.items(), key=lambda item: float(item[1]["at"]), reverse=True)[:MOST]
        data = json.dumps({"version": 1, "seats": dict(newest)}).encode()
        # a seat that cannot be remembered is only not remembered
        with contextlib.suppress(OSError, DataDirError):
            private_dir(self.path.parent)
            write_private(self.path, data)
