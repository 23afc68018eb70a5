"""The lobby's store in one SQLite file, ``DATA_DIR/lobby.sqlite3``.

Chosen for durability more than speed (a lobby writes a few rows a second at most):

* **WAL** journal, so readers never block the writer and a second process (an operator's
  ``unotui serve --ban``, a backup) can open the live file;
* ``synchronous=FULL``: a write that returned survives a power cut;
* every write is one ``BEGIN IMMEDIATE`` transaction, taken before anything is read, so
  a read-modify-write (a match's ratings) cannot interleave with another process's;
  ``busy_timeout`` makes the other process wait for it rather than fail;
* foreign keys on, and the schema versioned in the file (:mod:`unotui.lobby.schema`);
* every value is a bound parameter: text is data, never SQL;
* the file (and its ``-wal`` and ``-shm``, and a backup) is private, 0600, made so before
  SQLite opens it (:mod:`unotui.private`): it holds the players' key fingerprints.

Contract: a :class:`SqliteStore` is used from the thread that opened it (sqlite3's own
check enforces this) - the lobby's event loop thread.  Its calls are short and
synchronous; nothing here knows about asyncio.  ``SqliteStore(":memory:")`` is the
in-memory store for tests.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from ..private import DataDirError, private_database, private_dir
from . import ratings
from .schema import migrate
from .store import (
    Ban,
    Event,
    KeptMatch,
    MatchRecord,
    Placing,
    PlayerStats,
    Retention,
    StoreError,
    TableRow,
    check_text,
)

__all__ = ["DATA_DIR_ENV", "MAX_TRANSCRIPT", "STORE_FILE", "SqliteStore", "default_data_dir", "open_store"]

log = logging.getLogger("unotui.lobby.store")

STORE_FILE = "lobby.sqlite3"
DATA_DIR_ENV = "UNOTUI_DATA_DIR"
BUSY_TIMEOUT_MS = 5000


def default_data_dir() -> Path:
    """``$UNOTUI_DATA_DIR``, or the platform's data directory for unotui."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("unotui", appauthor=False))


def open_store(data_dir: Path | None = None) -> SqliteStore:
    """The lobby's store in ``data_dir`` (default :func:`default_data_dir`), created if new."""
    directory = private_dir(data_dir or default_data_dir())
    return SqliteStore(directory / STORE_FILE)


#: events kept in the log (the newest; ``unotui serve`` writes one per result and command)
EVENTS_KEPT = 10_000
#: how often (in events) the old ones are deleted
_PRUNE_EVERY = 100
#: the longest transcript kept, in characters (a long match to 500 is some tens of KB;
#: every part of it is sent at once, within a connection's 1 MiB outbound buffer)
MAX_TRANSCRIPT = 500_000
#: kept matches (or one key's copies) deleted at most per limit and match end: pruning
#: is bounded work, and an operator's lowered limit drains over the next matches
PRUNE_BATCH = 50


class SqliteStore:
    """:class:`~unotui.lobby.store.LobbyStore` on one SQLite file (or ``":memory:"``)."""

    def __init__(
        self, path: Path | str, *, clock: Callable[[], float] = time.time, events_kept: int = EVENTS_KEPT
    ) -> None:
        self.path = path
        self._clock = clock
        self._events_kept = max(1, events_kept)
        try:
            private_database(path)
            # ``timeout`` is sqlite's busy_timeout: wait this long for another writer.
            self._conn = sqlite3.connect(str(path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except (DataDirError, sqlite3.Error) as exc:  # e.g. a directory that does not exist
            raise StoreError(str(exc) if isinstance(exc, DataDirError) else f"{path}: {exc}") from exc
        try:
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = FULL")
            self._conn.execute("PRAGMA foreign_keys = ON")
            migrate(self._conn)
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StoreError(f"{path} is not a unotui lobby store ({exc})") from exc
        except BaseException:
            self._conn.close()
            raise

    # ----- plumbing -------------------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction: committed if the block returns, rolled back if not."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def close(self) -> None:
        self._conn.close()

    def backup(self, target: Path) -> None:
        """Copy the whole store to ``target``, consistently, while it is in use (SQLite's
        online backup: safe under WAL, unlike copying the file), private like the store."""
        private_database(target)
        dest = sqlite3.connect(str(target))
        try:
            self._conn.backup(dest)
        finally:
            dest.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # ----- tables ---------------------------------------------------------------------------

    def put_table(self, row: TableRow) -> None:
        values = (
            row.code,
            row.name,
            row.seats,
            row.humans,
            row.bots,
            row.rules,
            row.status,
            int(row.private),
            row.turn_timer,
            row.created,
        )
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO lobby_tables (code, name, seats, humans, bots, rules, status, "
                "private, turn_timer, created) VALUES (?,?,?,?,?,?,?,?,?,?)",
                values,
            )

    def drop_table(self, code: str) -> None:
        with self._write() as db:
            db.execute("DELETE FROM lobby_tables WHERE code = ?", (check_text("code", code),))

    def tables(self, include_private: bool = False) -> list[TableRow]:
        rows = self._conn.execute(
            "SELECT code, name, seats, humans, bots, rules, status, private, turn_timer, created "
            "FROM lobby_tables WHERE private = 0 OR ? "
            "ORDER BY status != 'waiting', created, code",
            (int(include_private),),
        ).fetchall()
        return [TableRow(c, n, s, h, b, r, st, bool(p), t, cr) for c, n, s, h, b, r, st, p, t, cr in rows]

    # ----- presence -------------------------------------------------------------------------

    def set_presence(self, identity: str, name: str, where: str) -> None:
        values = (check_text("identity", identity), check_text("name", name), check_text("where", where))
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO presence (identity, name, place, since) VALUES (?,?,?,?)",
                (*values, self._clock()),
            )

    def clear_presence(self, identity: str) -> None:
        with self._write() as db:
            db.execute("DELETE FROM presence WHERE identity = ?", (check_text("identity", identity),))

    def online(self) -> list[tuple[str, str]]:
        rows = self._conn.execute("SELECT name, place FROM presence").fetchall()
        return sorted(((str(n), str(w)) for n, w in rows), key=lambda nw: (nw[0].casefold(), nw))

    def clear_all_presence(self) -> int:
        with self._write() as db:
            return db.execute("DELETE FROM presence").rowcount

    # ----- identities, stats and ratings ---------------------------------------------------

    def remember_name(self, identity: str, name: str) -> str:
        check_text("identity", identity)
        check_text("name", name)
        new = ratings.DEFAULT_RATING
        with self._write() as db:  # (one transaction: two first visits cannot both win)
            db.execute(
                "INSERT INTO players (identity, name, mu, sigma, rating, seen) VALUES (?,?,?,?,?,?) "
                "ON CONFLICT (identity) DO UPDATE SET seen = excluded.seen",
                (identity, name, new.mu, new.sigma, new.ordinal, self._clock()),
            )
            row = db.execute("SELECT name FROM players WHERE identity = ?", (identity,)).fetchone()
        return str(row[0])

    def record_result(
        self, table: str, placings: Sequence[Placing], match_key: str | None = None
    ) -> list[PlayerStats]:
        """See :meth:`LobbyStore.record_result`.  Guests and bots are rated as
        :mod:`unotui.lobby.ratings` says; if one key holds several seats, its best seat
        counts for it and the others are rated as guests."""
        check_text("table", table)
        if len(placings) < 2:
            raise ValueError("a match needs at least two placings")
        mine: dict[str, int] = {}  # identity -> the seat that counts for it
        for seat in sorted(range(len(placings)), key=lambda i: placings[i].rank):
            ident = placings[seat].identity
            if ident is not None and ident not in mine:
                mine[ident] = seat
        counted = {seat: ident for ident, seat in mine.items()}
        now = self._clock()
        if match_key is not None:
            check_text("match_key", match_key)
        with self._write() as db:
            if match_key is not None and db.execute(
                "SELECT 1 FROM matches WHERE match_key = ?", (match_key,)
            ).fetchone():
                return [s for ident in counted.values() if (s := self.stats(ident)) is not None]
            before: list[ratings.Rating] = []
            for seat, p in enumerate(placings):
                if seat in counted:
                    before.append(self._rating(db, counted[seat]))
                elif p.bot_level is not None:
                    before.append(ratings.bot_rating(p.bot_level))
                else:
                    before.append(ratings.DEFAULT_RATING)
            after = ratings.rate(before, [p.rank for p in placings])
            for seat, ident in counted.items():
                p, new = placings[seat], after[seat]
                db.execute(
                    "INSERT INTO players (identity, name, games, wins, points, mu, sigma, rating, seen) "
                    "VALUES (?,?,1,?,?,?,?,?,?) ON CONFLICT (identity) DO UPDATE SET "
                    "games = games + 1, wins = wins + excluded.wins, "
                    "points = points + excluded.points, mu = excluded.mu, sigma = excluded.sigma, "
                    "rating = excluded.rating, seen = excluded.seen",
                    (ident, p.name, int(p.rank == 1), p.points, new.mu, new.sigma, new.ordinal, now),
                )
            match_id = db.execute(
                "INSERT INTO matches (table_code, finished, match_key) VALUES (?, ?, ?)",
                (table, now, match_key),
            ).lastrowid
            db.executemany(
                "INSERT INTO placings (match_id, seat, name, rank, points, identity, bot_level) "
                "VALUES (?,?,?,?,?,?,?)",
                [
                    (match_id, seat, p.name, p.rank, p.points, counted.get(seat), p.bot_level)
                    for seat, p in enumerate(placings)
                ],
            )
        return [s for ident in counted.values() if (s := self.stats(ident)) is not None]

    @staticmethod
    def _rating(db: sqlite3.Connection, identity: str) -> ratings.Rating:
        row = db.execute("SELECT mu, sigma FROM players WHERE identity = ?", (identity,)).fetchone()
        return ratings.DEFAULT_RATING if row is None else ratings.Rating(float(row[0]), float(row[1]))

    def stats(self, identity: str) -> PlayerStats | None:
        row = self._conn.execute(
            "SELECT identity, name, games, wins, points, mu, sigma, rating FROM players WHERE identity = ?",
            (check_text("identity", identity),),
        ).fetchone()
        return None if row is None else PlayerStats(*row)

    def leaderboard(self, limit: int = 20) -> list[PlayerStats]:
        rows = self._conn.execute(
            "SELECT identity, name, games, wins, points, mu, sigma, rating FROM players WHERE games >= 1 "
            "ORDER BY rating DESC, wins DESC, games DESC, name, identity LIMIT ?",
            (max(0, limit),),
        ).fetchall()
        return [PlayerStats(*row) for row in rows]

    def recent_matches(self, limit: int = 10) -> list[MatchRecord]:
        matches = self._conn.execute(
            "SELECT id, table_code, finished FROM matches ORDER BY id DESC LIMIT ?", (max(0, limit),)
        ).fetchall()
        records = []
        for match_id, table, finished in matches:
            rows = self._conn.execute(
                "SELECT name, rank, points, identity, bot_level FROM placings "
                "WHERE match_id = ? ORDER BY seat",
                (match_id,),
            ).fetchall()
            records.append(MatchRecord(match_id, table, finished, tuple(Placing(*row) for row in rows)))
        return records

    # ----- kept matches (transcripts) ------------------------------------------------------

    def keep_match(self, transcript: str, summary: KeptMatch, seats: dict[str, int],
                   retention: Retention, match_key: str | None = None) -> int | None:
        """See :meth:`LobbyStore.keep_match`."""
        if not isinstance(transcript, str) or len(transcript) > MAX_TRANSCRIPT:
            raise ValueError(f"a transcript is text of at most {MAX_TRANSCRIPT} characters")
        for ident in seats:
            check_text("identity", ident)
        if match_key is not None:
            check_text("match_key", match_key)
        if retention.off or not seats:
            return None
        text = json.dumps({"names": list(summary.names), "scores": list(summary.scores),
                           "winner": summary.winner, "rounds": summary.rounds})
        now = self._clock()
        with self._write() as db:
            if match_key is not None and db.execute(
                    "SELECT 1 FROM kept_matches WHERE match_key = ?", (match_key,)).fetchone():
                return None
            match_id = db.execute(
                "INSERT INTO kept_matches (finished, match_key, summary, transcript) VALUES (?,?,?,?)",
                (now, match_key, text, transcript)).lastrowid
            db.executemany("INSERT INTO kept_seats (match_id, identity, seat) VALUES (?,?,?)",
                           [(match_id, ident, seat) for ident, seat in seats.items()])
            self._prune(db, list(seats), retention, now)
        return match_id

    @staticmethod
    def _prune(db: sqlite3.Connection, keys: list[str], retention: Retention, now: float) -> None:
        """Oldest first out: each key's copies past its newest ``per_key`` (a match no key
        keeps any more goes), matches older than ``days``, the store's past ``total``;
        at most :data:`PRUNE_BATCH` of each."""
        dropped: set[int] = set()
        for ident in keys:
            old = [int(r[0]) for r in db.execute(
                "SELECT match_id FROM kept_seats WHERE identity = ? ORDER BY match_id DESC "
                "LIMIT ? OFFSET ?", (ident, PRUNE_BATCH, retention.per_key))]
            db.executemany("DELETE FROM kept_seats WHERE identity = ? AND match_id = ?",
                           [(ident, i) for i in old])
            dropped.update(old)
        db.executemany("DELETE FROM kept_matches WHERE id = ? AND NOT EXISTS "
                       "(SELECT 1 FROM kept_seats WHERE match_id = ?)", [(i, i) for i in dropped])
        db.execute("DELETE FROM kept_matches WHERE id IN (SELECT id FROM kept_matches WHERE finished < ? "
                   "ORDER BY id LIMIT ?)", (now - retention.days * 86400, PRUNE_BATCH))
        excess = int(db.execute("SELECT COUNT(*) FROM kept_matches").fetchone()[0]) - retention.total
        if excess > 0:
            db.execute("DELETE FROM kept_matches WHERE id IN (SELECT id FROM kept_matches ORDER BY id "
                       "LIMIT ?)", (min(excess, PRUNE_BATCH),))

    def kept_matches(self, identity: str, limit: int) -> list[KeptMatch]:
        """See :meth:`LobbyStore.kept_matches`."""
        rows = self._conn.execute(
            "SELECT k.id, k.finished, k.summary, s.seat FROM kept_seats s JOIN kept_matches k "
            "ON k.id = s.match_id WHERE s.identity = ? ORDER BY s.match_id DESC LIMIT ?",
            (check_text("identity", identity), max(0, limit))).fetchall()
        out = []
        for match_id, finished, summary, seat in rows:
            try:
                out.append(_kept(int(match_id), float(finished), str(summary), int(seat)))
            except (ValueError, TypeError, KeyError) as exc:
                log.warning("kept match %s is damaged, skipped: %s", match_id, exc)
        return out

    def kept_transcript(self, identity: str, match_id: int) -> tuple[str, int] | None:
        """See :meth:`LobbyStore.kept_transcript`."""
        row = self._conn.execute(
            "SELECT k.transcript, s.seat FROM kept_seats s JOIN kept_matches k ON k.id = s.match_id "
            "WHERE s.identity = ? AND s.match_id = ?",
            (check_text("identity", identity), match_id)).fetchone()
        if row is None or not isinstance(row[0], str) or not isinstance(row[1], int):
            return None
        return row[0], row[1]

    # ----- moderation -----------------------------------------------------------------------

    def ban(self, fingerprint: str, reason: str, by: str) -> None:
        values = (check_text("fingerprint", fingerprint), check_text("reason", reason), check_text("by", by))
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO bans (fingerprint, reason, by_whom, since) VALUES (?,?,?,?)",
                (*values, self._clock()),
            )

    def unban(self, fingerprint: str) -> bool:
        with self._write() as db:
            gone = db.execute(
                "DELETE FROM bans WHERE fingerprint = ?", (check_text("fingerprint", fingerprint),)
            )
            return gone.rowcount > 0

    def banned(self, fingerprint: str) -> str | None:
        row = self._conn.execute(
            "SELECT reason FROM bans WHERE fingerprint = ?", (check_text("fingerprint", fingerprint),)
        ).fetchone()
        return None if row is None else str(row[0])

    def bans(self) -> list[Ban]:
        rows = self._conn.execute(
            "SELECT fingerprint, reason, by_whom, since FROM bans ORDER BY since, fingerprint"
        ).fetchall()
        return [Ban(*row) for row in rows]

    def set_motd(self, text: str) -> None:
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES ('motd', ?)", (check_text("motd", text),)
            )

    def motd(self) -> str:
        row = self._conn.execute("SELECT value FROM settings WHERE key = 'motd'").fetchone()
        return "" if row is None else str(row[0])

    # ----- events log -----------------------------------------------------------------------

    def log_event(self, kind: str, text: str) -> None:
        values = (self._clock(), check_text("kind", kind), check_text("text", text))
        with self._write() as db:
            newest = db.execute("INSERT INTO events (at, kind, text) VALUES (?,?,?)", values).lastrowid
            if newest is not None and newest % _PRUNE_EVERY == 0:  # now and then, not every line
                db.execute("DELETE FROM events WHERE id <= ?", (newest - self._events_kept,))

    def recent_events(self, limit: int = 50) -> list[Event]:
        rows = self._conn.execute(
            "SELECT id, at, kind, text FROM events ORDER BY id DESC LIMIT ?", (max(0, limit),)
        ).fetchall()
        return [Event(*row) for row in reversed(rows)]


def _kept(match_id: int, finished: float, summary: str, seat: int) -> KeptMatch:
    """A kept match's row from its summary's JSON, every field checked.

    Raises:
        ValueError / TypeError / KeyError: a damaged row.
    """
    data = json.loads(summary)
    names, scores, winner, rounds = data["names"], data["scores"], data["winner"], data["rounds"]
    if not (isinstance(names, list) and 2 <= len(names) <= 10 and all(isinstance(n, str) for n in names)):
        raise ValueError("names: not 2-10 names")
    if not (isinstance(scores, list) and len(scores) == len(names)
            and all(type(x) is int for x in scores)):
        raise ValueError("scores: not one integer per seat")
    if type(winner) is not int or not 0 <= winner < len(names) or not 0 <= seat < len(names):
        raise ValueError("winner or seat: not a seat")
    if type(rounds) is not int or rounds < 0:
        raise ValueError("rounds: not a count")
    return KeptMatch(match_id, finished, tuple(names), seat, tuple(scores), winner, rounds)
