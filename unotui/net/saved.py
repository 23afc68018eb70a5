"""What the journal keeps of a table, as plain data: its seats and its set-up, secret and
actions (:mod:`unotui.net.journal` writes and reads them).

Apart from the journal because the table core builds these records for every table,
solo play's too, while only a host with a data directory opens a journal: solo play
must not load SQLite and JSON to start.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["SavedSeat", "SavedTable"]


class SavedSeat(NamedTuple):
    """One seat as journaled (the fields of :class:`~unotui.net.seats.SeatEntry` that last)."""

    name: str
    kind: str
    token: str
    owner: bool
    level: str
    identity: str | None


class SavedTable(NamedTuple):
    """A table as journaled: enough to rebuild its room and replay its match."""

    code: str
    config: dict[str, object]
    secret: bytes | None
    created: float
    seats: tuple[SavedSeat, ...]
    actions: tuple[tuple[int, int, str], ...]  # (seq, seat, action text); seq -1: not a person's intent
