"""Each table's journal: what a host needs to rebuild it after ``kill -9``.

A table is its set-up (the room's configuration), its seats (names, resume tokens, SSH
keys), the match's secret (every shuffle follows from it: :mod:`unotui.engine.shuffle`)
and every accepted action in order.  Replaying the actions on a game built from the same
secret gives the same state, so nothing else needs saving.  The room appends an outcome's
actions here *before* anyone hears of them (acknowledgement, broadcast): an action a
player saw acknowledged is on disk (SQLite WAL, ``synchronous=FULL``, one transaction per
outcome).  Seats are written when they change, before the new token goes out.

Rows are removed when the table ends for good (its match over and closed, or dropped by
the lobby).  A host stopped in good order keeps its unfinished tables: a restart with the
same data directory resumes them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Journal", "SavedSeat", "SavedTable"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, config TEXT NOT NULL, secret BLOB,"
    " created REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS seats (code TEXT NOT NULL, seat INTEGER NOT NULL, state TEXT NOT NULL,"
    " PRIMARY KEY (code, seat))",
    "CREATE TABLE IF NOT EXISTS actions (code TEXT NOT NULL, n INTEGER NOT NULL, seq INTEGER NOT NULL,"
    " seat INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (code, n))",
)


@dataclass(frozen=True)
class SavedSeat:
    """One seat as journaled (the fields of :class:`~unotui.net.seats.SeatEntry` that last)."""

    name: str
    kind: str
    token: str
    owner: bool
    level: str
    identity: str | None


@dataclass(frozen=True)
class SavedTable:
    """A table as journaled: enough to rebuild its room and replay its match."""

    code: str
    config: dict[str, object]
    secret: bytes | None
    created: float
    seats: tuple[SavedSeat, ...]
    actions: tuple[tuple[int, int, str], ...]  # (seq, seat, action text); seq -1: not a person's intent


class Journal:
    """The journal file (``DATA_DIR/journal.sqlite3``); one per host process."""

    def __init__(self, path: Path | str) -> None:
        self.path = path
        self._db = sqlite3.connect(str(path), isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA busy_timeout=5000")
        for statement in _SCHEMA:
            self._db.execute(statement)
        self._next: dict[str, int] = {}

    def _write(self, statements: Iterable[tuple[str, Sequence[object]]]) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            for sql, args in statements:
                db.execute(sql, args)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # ----- writing ----------------------------------------------------------------------------

    def open_table(self, code: str, config: dict[str, object], created: float) -> None:
        """A new table (its match not started)."""
        self._write([("INSERT OR REPLACE INTO tables VALUES (?, ?, NULL, ?)",
                      (code, json.dumps(config, sort_keys=True), created))])
        self._next[code] = 0

    def started(self, code: str, secret: bytes) -> None:
        """The match began with this secret (the seats were written just before)."""
        self._write([("UPDATE tables SET secret = ? WHERE code = ?", (secret, code)),
                     ("DELETE FROM actions WHERE code = ?", (code,))])
        self._next[code] = 0

    def seats(self, code: str, seats: Sequence[SavedSeat]) -> None:
        """The seats now (names, tokens, keys): replaces what was there."""
        rows = [("INSERT OR REPLACE INTO seats VALUES (?, ?, ?)",
                 (code, i, json.dumps([s.name, s.kind, s.token, s.owner, s.level, s.identity])))
                for i, s in enumerate(seats)]
        self._write([("DELETE FROM seats WHERE code = ?", (code,)), *rows])

    def append(self, code: str, actions: Sequence[tuple[int, int, str]]) -> None:
        """Accepted actions ``(seq, seat, action text)``, in order, durably, before any answer."""
        n = self._next.get(code, 0)
        self._write([("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", (code, n + i, seq, seat, text))
                     for i, (seq, seat, text) in enumerate(actions)])
        self._next[code] = n + len(actions)

    def close_table(self, code: str) -> None:
        """The table is over for good: forget it."""
        self._write([("DELETE FROM actions WHERE code = ?", (code,)),
                     ("DELETE FROM seats WHERE code = ?", (code,)),
                     ("DELETE FROM tables WHERE code = ?", (code,))])
        self._next.pop(code, None)

    # ----- reading ----------------------------------------------------------------------------

    def tables(self) -> list[SavedTable]:
        """Every unfinished table, oldest first."""
        out = []
        for code, config, secret, created in self._db.execute(
                "SELECT code, config, secret, created FROM tables ORDER BY created").fetchall():
            seats = tuple(SavedSeat(*json.loads(state)) for (state,) in self._db.execute(
                "SELECT state FROM seats WHERE code = ? ORDER BY seat", (code,)))
            actions = tuple(self._db.execute(
                "SELECT seq, seat, action FROM actions WHERE code = ? ORDER BY n", (code,)).fetchall())
            self._next[code] = len(actions)
            out.append(SavedTable(code, json.loads(config), secret, created, seats, actions))
        return out

    def close(self) -> None:
        """Close the file."""
        self._db.close()
