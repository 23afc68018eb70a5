"""The store keeps finished matches' transcripts per key, within the operator's limits
(oldest first out, bounded work per match end), and a damaged row costs only itself."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lobby.store_support import Clock
from unotui.lobby import schema
from unotui.lobby.sqlite_store import MAX_TRANSCRIPT, PRUNE_BATCH, STORE_FILE, SqliteStore
from unotui.lobby.store import KeptMatch, Retention


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Iterator[SqliteStore]:
    with SqliteStore(tmp_path / STORE_FILE, clock=clock) as s:
        yield s


SUMMARY = KeptMatch(0, 0.0, ("Ada", "Bob", "bot"), 0, (512, 40, 0), 0, 3)
KEEP = Retention()


def keep(store: SqliteStore, text: str, seats: dict[str, int], retention: Retention = KEEP,
         key: str | None = None) -> int | None:
    return store.keep_match(text, SUMMARY, seats, retention, key)


def ids(store: SqliteStore, who: str, limit: int = 100) -> list[int]:
    return [k.id for k in store.kept_matches(who, limit)]


def test_a_match_is_kept_for_each_seated_key_and_only_for_them(store: SqliteStore) -> None:
    got = keep(store, '{"t": 1}', {"k:ada": 0, "k:bob": 1})
    assert got is not None
    [ada] = store.kept_matches("k:ada", 10)
    assert (ada.id, ada.seat, ada.names, ada.scores, ada.winner, ada.rounds) == (
        got, 0, ("Ada", "Bob", "bot"), (512, 40, 0), 0, 3)
    assert store.kept_matches("k:bob", 10)[0].seat == 1
    assert store.kept_transcript("k:ada", got) == ('{"t": 1}', 0)
    assert store.kept_transcript("k:bob", got) == ('{"t": 1}', 1)
    # someone who was not seated there is told exactly what a missing id is told
    assert store.kept_transcript("k:eve", got) is None
    assert store.kept_transcript("k:eve", got + 99) is None
    assert store.kept_matches("k:eve", 10) == []


def test_nothing_is_kept_without_a_key_when_off_or_twice(store: SqliteStore) -> None:
    assert keep(store, "{}", {}) is None  # guests and bots only
    assert keep(store, "{}", {"k:ada": 0}, Retention(per_key=0)) is None
    assert keep(store, "{}", {"k:ada": 0}, Retention(total=0)) is None
    assert ids(store, "k:ada") == []
    first = keep(store, "{}", {"k:ada": 0}, key="T:abc")
    assert first is not None and keep(store, "{}", {"k:ada": 0}, key="T:abc") is None
    assert ids(store, "k:ada") == [first]


def test_each_key_keeps_its_newest_n_and_a_match_goes_with_its_last_copy(store: SqliteStore) -> None:
    three = Retention(per_key=3)
    shared = keep(store, "shared", {"k:ada": 0, "k:bob": 1}, three)
    mine = [keep(store, f"ada {i}", {"k:ada": 0}, three) for i in range(3)]
    assert ids(store, "k:ada") == mine[::-1]  # newest first; the shared one is Ada's 4th: out
    assert shared is not None and ids(store, "k:bob") == [shared]
    assert store.kept_transcript("k:bob", shared) == ("shared", 1)  # Bob still has his copy
    assert store.kept_transcript("k:ada", shared) is None
    for i in range(3):
        keep(store, f"bob {i}", {"k:bob": 1}, three)
    # now nobody keeps the shared match: it is gone from the store itself
    count = store._conn.execute("SELECT COUNT(*) FROM kept_matches WHERE id = ?", (shared,)).fetchone()[0]
    assert count == 0


def test_matches_older_than_the_days_limit_go(store: SqliteStore, clock: Clock) -> None:
    old = keep(store, "old", {"k:ada": 0})
    clock.now += 2 * 86400
    fresh = keep(store, "fresh", {"k:ada": 0}, Retention(days=1))
    assert ids(store, "k:ada") == [fresh]
    assert old is not None and store.kept_transcript("k:ada", old) is None


def test_the_store_keeps_at_most_its_total_oldest_first(store: SqliteStore) -> None:
    total = Retention(total=4)
    kept = [keep(store, str(i), {f"k:{i}": 0}, total) for i in range(7)]
    left = store._conn.execute("SELECT id FROM kept_matches ORDER BY id").fetchall()
    assert [r[0] for r in left] == kept[3:]


def test_pruning_is_bounded_work_per_match_end(store: SqliteStore) -> None:
    """An operator who lowers the total a lot does not stall one match end: the excess
    drains PRUNE_BATCH matches at a time."""
    for i in range(PRUNE_BATCH + 20):
        keep(store, str(i), {"k:ada": 0}, Retention(per_key=1000, total=1000))
    keep(store, "last", {"k:ada": 0}, Retention(per_key=1000, total=1))
    def count() -> int:
        return int(store._conn.execute("SELECT COUNT(*) FROM kept_matches").fetchone()[0])
    assert count() == PRUNE_BATCH + 21 - PRUNE_BATCH
    keep(store, "next", {"k:ada": 0}, Retention(per_key=1000, total=1))
    assert count() == 1


def test_a_damaged_row_costs_that_match_only(store: SqliteStore, caplog: pytest.LogCaptureFixture) -> None:
    good = keep(store, "good", {"k:ada": 0})
    bad = [keep(store, "bad", {"k:ada": 0}) for _ in range(4)]
    damage = ("not json", '{"names": "Ada"}', '{"names": ["A", "B"], "scores": [1, 2], "winner": 5, '
              '"rounds": 1}', '{"names": ["A", "B"], "scores": [1], "winner": 0, "rounds": 1}')
    for match_id, summary in zip(bad, damage, strict=True):
        store._conn.execute("UPDATE kept_matches SET summary = ? WHERE id = ?", (summary, match_id))
    with caplog.at_level(logging.WARNING, "unotui.lobby.store"):
        assert ids(store, "k:ada") == [good]
    assert sum("damaged" in r.getMessage() for r in caplog.records) == 4
    store._conn.execute("UPDATE kept_matches SET transcript = ? WHERE id = ?", (b"\x00", good))
    assert store.kept_transcript("k:ada", good or 0) is None  # a blob where text belongs


def test_a_transcript_too_large_is_refused(store: SqliteStore) -> None:
    with pytest.raises(ValueError, match="at most"):
        keep(store, "x" * (MAX_TRANSCRIPT + 1), {"k:ada": 0})
    assert ids(store, "k:ada") == []


def test_migrates_a_version_2_file_keeping_its_results(tmp_path: Path) -> None:
    """A lobby file written before kept matches (schema 2, results in it) gains the new
    tables and loses nothing."""
    path = tmp_path / STORE_FILE
    conn = sqlite3.connect(path, isolation_level=None)
    for step in schema._STEPS[:2]:
        for statement in step:
            conn.execute(statement)
    conn.execute("INSERT INTO matches (table_code, finished, match_key) VALUES ('T', 1.0, 'T:x')")
    conn.close()
    with SqliteStore(path) as store:
        assert store._conn.execute("PRAGMA user_version").fetchone()[0] == 3
        assert [m.table for m in store.recent_matches()] == ["T"]
        match = keep(store, "t", {"k:ada": 1})
        assert match is not None and store.kept_transcript("k:ada", match) == ("t", 1)
