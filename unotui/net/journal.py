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

The file is private (0600, made so before SQLite opens it: :mod:`unotui.private`) and
deleted rows are overwritten (``secure_delete``): it holds every match's secret and every
seat's token.  A table whose rows do not decode (or do not replay) is *quarantined*: its
rows move to the ``quarantine``, ``quarantine_seats`` and ``quarantine_actions`` tables of
the same file, as they were, with why and when, and the other tables resume.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..private import DataDirError, private_database
from .saved import SavedSeat, SavedTable

__all__ = ["Journal", "JournalEntry", "JournalError", "SavedSeat", "SavedTable"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, config TEXT NOT NULL, secret BLOB,"
    " created REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS seats (code TEXT NOT NULL, seat INTEGER NOT NULL, state TEXT NOT NULL,"
    " PRIMARY KEY (code, seat))",
    "CREATE TABLE IF NOT EXISTS actions (code TEXT NOT NULL, n INTEGER NOT NULL, seq INTEGER NOT NULL,"
    " seat INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (code, n))",
    # a damaged table's rows, as they were (any types: they may be what failed)
    "CREATE TABLE IF NOT EXISTS quarantine (code, config, secret, created, why TEXT NOT NULL,"
    " at REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS quarantine_seats (code, seat, state, at REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS quarantine_actions (code, n, seq, seat, action, at REAL NOT NULL)",
)
#: the rows of the table whose ``tables`` row has rowid ``?``
_OF = "code = (SELECT code FROM tables WHERE rowid = ?)"


class JournalError(DataDirError):
    """The journal file cannot be used, or one table's rows do not decode (one sentence)."""


@dataclass(frozen=True)
class JournalEntry:
    """One table in the journal, not yet decoded (its rows may be damaged)."""

    rowid: int
    code: str  # as best it reads (for the log)



def _text(raw: object, what: str) -> str:
    if not isinstance(raw, bytes | str):
        raise JournalError(f"{what} is not text")
    try:
        return raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise JournalError(f"{what} is not UTF-8") from None


def _json(raw: object, what: str) -> object:
    try:
        return json.loads(_text(raw, what))
    except ValueError as exc:
        raise JournalError(f"{what} is not JSON ({exc})") from None


def _seat(raw: object, seat: object) -> SavedSeat:
    state = _json(raw, f"seat {seat!r}")
    if not (isinstance(state, list) and len(state) == 6 and all(isinstance(x, str) for x in state[:3])
            and isinstance(state[3], bool) and isinstance(state[4], str)
            and isinstance(state[5], str | None)):
        raise JournalError(f"seat {seat!r} is not [name, kind, token, owner, level, identity]")
    return SavedSeat(*state)


class Journal:
    """The journal file (``DATA_DIR/journal.sqlite3``); one per host process.

    Raises:
        JournalError: the file is not an SQLite database (or cannot be made private).
    """

    def __init__(self, path: Path | str) -> None:
        self.path = path
        private_database(path)
        self._db = sqlite3.connect(str(path), isolation_level=None)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.execute("PRAGMA secure_delete=ON")  # a closed table's secret and tokens are zeroed
            for statement in _SCHEMA:
                self._db.execute(statement)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise JournalError(f"{path} is not a unotui journal ({exc})") from None
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

    def set_config(self, code: str, config: dict[str, object]) -> None:
        """The table's configuration written again (a clear password hashed on load)."""
        text = json.dumps(config, sort_keys=True)
        self._write([("UPDATE tables SET config = ? WHERE code = ?", (text, code))])

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

    def quarantine(self, entry: JournalEntry, why: str, at: float) -> None:
        """Set a damaged table aside: its rows move, as they are, to the quarantine tables
        (for the operator to look at), and the table is no longer resumed."""
        key = (entry.rowid,)
        try:
            self._write([
                ("INSERT INTO quarantine SELECT code, config, secret, created, ?, ? FROM tables"
                 " WHERE rowid = ?", (why, at, *key)),
                (f"INSERT INTO quarantine_seats SELECT code, seat, state, ? FROM seats WHERE {_OF}",
                 (at, *key)),
                ("INSERT INTO quarantine_actions SELECT code, n, seq, seat, action, ? FROM actions"
                 f" WHERE {_OF}", (at, *key)),
                (f"DELETE FROM actions WHERE {_OF}", key),
                (f"DELETE FROM seats WHERE {_OF}", key),
                ("DELETE FROM tables WHERE rowid = ?", key),
            ])
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: table {entry.code!r} cannot be set aside ({exc})") from None
        self._next.pop(entry.code, None)

    # ----- reading ----------------------------------------------------------------------------

    def entries(self) -> list[JournalEntry]:
        """Every unfinished table, oldest first, not yet decoded (see :meth:`load`)."""
        try:
            rows = self._db.execute(
                "SELECT rowid, CAST(code AS BLOB) FROM tables ORDER BY created, rowid").fetchall()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path} cannot be read as a unotui journal ({exc})") from None
        return [JournalEntry(rowid, bytes(code or b"").decode("utf-8", "replace")) for rowid, code in rows]

    def load(self, entry: JournalEntry) -> SavedTable:
        """The table ``entry`` names, decoded; raises :class:`JournalError` (saying which
        row and why) if a row is damaged."""
        db, key = self._db, (entry.rowid,)
        try:
            row = db.execute("SELECT code, CAST(config AS BLOB), secret, created FROM tables WHERE rowid = ?",
                             key).fetchone()
            if row is None:
                raise JournalError(f"table {entry.code!r} is gone")
            raw_seats = db.execute(f"SELECT seat, CAST(state AS BLOB) FROM seats WHERE {_OF} ORDER BY seat",
                                   key).fetchall()
            raw_actions = db.execute(
                f"SELECT seq, seat, CAST(action AS BLOB) FROM actions WHERE {_OF} ORDER BY n", key).fetchall()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"table {entry.code!r} cannot be read ({exc})") from None
        code, raw_config, secret, created = row
        code = _text(code, "the code")
        config = _json(raw_config, "the config")
        if not isinstance(config, dict):
            raise JournalError("the config is not a mapping")
        if not (secret is None or isinstance(secret, bytes)) or not isinstance(created, int | float):
            raise JournalError("the secret or the creation time is of the wrong type")
        seats = tuple(_seat(state, seat) for seat, state in raw_seats)
        actions: list[tuple[int, int, str]] = []
        for seq, seat, action in raw_actions:
            if type(seq) is not int or type(seat) is not int:
                raise JournalError(f"action {len(actions)} has a seq or seat that is not a number")
            actions.append((seq, seat, _text(action, f"action {len(actions)}")))
        self._next[code] = len(actions)
        return SavedTable(code, config, secret, float(created), seats, tuple(actions))

    def tables(self) -> list[SavedTable]:
        """Every unfinished table, oldest first; raises :class:`JournalError` on a damaged
        one (:func:`~unotui.net.recovery.restore_rooms` takes them one by one instead)."""
        return [self.load(entry) for entry in self.entries()]

    def close(self) -> None:
        """Close the file."""
        self._db.close()
