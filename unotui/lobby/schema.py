"""The lobby file's schema and how it grows.

The version lives in the file itself (``PRAGMA user_version``), so any unotui can tell
what it is looking at: 0 is a new (or foreign, empty) file, :data:`SCHEMA_VERSION` is
current, and anything above that was written by a newer unotui and is left alone.

Each step takes the file from one version to the next and ends by setting the new
version, inside the caller's transaction: a crash half-way leaves the old version, never
half a new one.  Steps are plain lists of fixed statements, so a new version is one more
list; they run once, in order, and are never edited once released.
"""

from __future__ import annotations

import sqlite3

from .store import StoreError

__all__ = ["SCHEMA_VERSION", "migrate"]

_V1 = (
    """CREATE TABLE lobby_tables (
        code TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        seats INTEGER NOT NULL,
        humans INTEGER NOT NULL,
        bots INTEGER NOT NULL,
        rules TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'over')),
        private INTEGER NOT NULL CHECK (private IN (0, 1)),
        turn_timer REAL,
        created REAL NOT NULL
    )""",
    """CREATE TABLE presence (
        identity TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        place TEXT NOT NULL,
        since REAL NOT NULL
    )""",
    """CREATE TABLE players (
        identity TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        rating REAL NOT NULL,
        seen REAL NOT NULL
    )""",
    "CREATE INDEX players_by_rating ON players (rating DESC)",
    """CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        table_code TEXT NOT NULL,
        finished REAL NOT NULL
    )""",
    """CREATE TABLE placings (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        rank INTEGER NOT NULL,
        points INTEGER NOT NULL,
        identity TEXT REFERENCES players (identity),
        bot_level TEXT,
        PRIMARY KEY (match_id, seat)
    )""",
    "CREATE INDEX placings_by_identity ON placings (identity)",
    """CREATE TABLE bans (
        fingerprint TEXT PRIMARY KEY,
        reason TEXT NOT NULL,
        by_whom TEXT NOT NULL,
        since REAL NOT NULL
    )""",
    "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at REAL NOT NULL,
        kind TEXT NOT NULL,
        text TEXT NOT NULL
    )""",
    "PRAGMA user_version = 1",
)

# Version 2: a match's key, so that a result recorded just before a crash (and resumed
# from the journal afterwards) is not counted twice.  Old rows have none (NULL: unique
# indexes let any number of NULLs be).
_V2 = (
    "ALTER TABLE matches ADD COLUMN match_key TEXT",
    "CREATE UNIQUE INDEX matches_by_key ON matches (match_key)",
    "PRAGMA user_version = 2",
)

# Version 3: each finished match's transcript, kept for the keyed players seated at it
# (issue 20: "your recent matches"), within the operator's retention limits.  The
# summary (names, scores, winner, rounds) is JSON so that the list never parses a
# transcript; a seat row per key, so a match leaves when its last player's copy does.
_V3 = (
    """CREATE TABLE kept_matches (
        id INTEGER PRIMARY KEY,
        finished REAL NOT NULL,
        match_key TEXT UNIQUE,
        summary TEXT NOT NULL,
        transcript TEXT NOT NULL
    )""",
    "CREATE INDEX kept_by_finished ON kept_matches (finished)",
    """CREATE TABLE kept_seats (
        match_id INTEGER NOT NULL REFERENCES kept_matches (id) ON DELETE CASCADE,
        identity TEXT NOT NULL,
        seat INTEGER NOT NULL,
        PRIMARY KEY (identity, match_id)
    )""",
    "CREATE INDEX kept_seats_by_match ON kept_seats (match_id)",
    "PRAGMA user_version = 3",
)

_STEPS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3)
"""``_STEPS[n]`` takes the file from version ``n`` to ``n + 1``."""

SCHEMA_VERSION = len(_STEPS)


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the file up to :data:`SCHEMA_VERSION` in one immediate transaction (so two
    processes opening a new file at once migrate it once); returns the version found.

    Raises:
        StoreError: the file was written by a newer unotui.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if found > SCHEMA_VERSION:
            raise StoreError(
                f"the lobby file is schema version {found}; this unotui knows up to {SCHEMA_VERSION}"
            )
        for step in _STEPS[found:]:
            for statement in step:
                conn.execute(statement)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return found
