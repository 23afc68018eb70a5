"""The lobby's SQLite store as a file: durable across reopening, shared by two stores and
two processes, backed up whole, its pragmas and migrations; and hostile text, which is
only ever data (:mod:`tests.lobby.test_store` has the methods, one by one)."""

from __future__ import annotations

import ast
import inspect
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.lobby.store_support import seat, table
from unotui.lobby import schema, sqlite_store
from unotui.lobby.schema import SCHEMA_VERSION
from unotui.lobby.sqlite_store import STORE_FILE, SqliteStore, open_store
from unotui.lobby.store import MAX_TEXT, StoreError, TableRow

# ----- the file ---------------------------------------------------------------------------


def fill(store: SqliteStore) -> None:
    store.put_table(table("T"))
    store.set_presence("k:a", "Ada", "T")
    store.record_result("T", [seat("Ada", 1, "k:a", points=9), seat("bot", 2, bot="hard")])
    store.ban("k:z", "why", "op")
    store.set_motd("hello")
    store.log_event("result", "Ada won")


def snapshot(store: SqliteStore) -> tuple[object, ...]:
    return (
        store.tables(True),
        store.online(),
        store.stats("k:a"),
        store.leaderboard(),
        store.recent_matches(),
        store.bans(),
        store.motd(),
        store.recent_events(),
    )


def test_everything_persists_across_reopening(path: Path) -> None:
    with SqliteStore(path) as first:
        fill(first)
        before = snapshot(first)
    with SqliteStore(path) as again:
        assert snapshot(again) == before
        assert again.stats("k:a") is not None


def test_two_stores_on_one_file_see_each_others_writes(path: Path) -> None:
    with SqliteStore(path) as one, SqliteStore(path) as two:
        fill(one)
        assert snapshot(two) == snapshot(one)
        two.record_result("U", [seat("Bob", 1, "k:b"), seat("Ada", 2, "k:a")])
        two.unban("k:z")
        a = one.stats("k:a")
        assert a is not None and a.games == 2
        assert one.bans() == []
        assert {s.identity for s in one.leaderboard()} == {"k:a", "k:b"}


WRITER = """
import os, sys, time
from unotui.lobby.sqlite_store import SqliteStore
from unotui.lobby.store import Placing
with SqliteStore(sys.argv[1]) as s:
    while not os.path.exists(sys.argv[3]):
        time.sleep(0.002)
    for i in range(int(sys.argv[2])):
        ada, bot = Placing("Ada", 1 + i % 2, 1, "k:ada"), Placing("bot", 2 - i % 2, 0, None, "easy")
        s.record_result("T", [ada, bot])
"""


def test_two_processes_writing_at_once_lose_no_update(path: Path) -> None:
    """Each result is a read-modify-write of Ada's row; immediate transactions and the busy
    timeout serialise them across processes."""
    SqliteStore(path).close()
    go = path.with_name("go")
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), "60", str(go)]) for _ in range(2)]
    time.sleep(0.3)  # both have imported and opened the store (they wait for "go" either way)
    go.touch()
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    with SqliteStore(path) as store:
        ada = store.stats("k:ada")
        assert ada is not None and (ada.games, ada.points) == (120, 120)
        assert len(store.recent_matches(limit=200)) == 120


def test_backup_is_a_complete_copy(store: SqliteStore, tmp_path: Path) -> None:
    fill(store)
    store.backup(tmp_path / "backup.sqlite3")
    with SqliteStore(tmp_path / "backup.sqlite3") as copy:
        assert snapshot(copy) == snapshot(store)


def test_pragmas_are_set(store: SqliteStore, path: Path) -> None:
    conn = store._conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == sqlite_store.BUSY_TIMEOUT_MS
    other = sqlite3.connect(path)
    try:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # kept in the file
        assert other.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    finally:
        other.close()


def test_migrates_an_empty_file_and_refuses_newer_or_foreign_ones(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    with SqliteStore(empty) as store:
        store.set_motd("ok")
    with SqliteStore(empty) as store:  # a second open does not migrate again
        assert store.motd() == "ok"
    newer = tmp_path / "newer.sqlite3"
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(StoreError, match="99"):
        SqliteStore(newer)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database, just some bytes " * 100)
    with pytest.raises(StoreError):
        SqliteStore(junk)


def test_a_file_that_cannot_be_opened_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no-such-dir"):
        SqliteStore(tmp_path / "no-such-dir" / "lobby.sqlite3")


def test_open_store_makes_the_data_directory(tmp_path: Path) -> None:
    with open_store(tmp_path / "deep" / "data") as store:
        store.set_motd("x")
    assert (tmp_path / "deep" / "data" / STORE_FILE).is_file()


# ----- hostile text -----------------------------------------------------------------------

HOSTILE = [
    "'); DROP TABLE players; --",
    "Robert'); DROP TABLE lobby_tables;--",
    '" OR 1=1 --',
    "\x1b[2J\x1b[31mred\x1b]0;title\x07",
    "nul\x00inside",
    "ünïcødé ✓ 🂡 \u202eevil",
    "%s %d {0} ?",
    "x" * MAX_TEXT,
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_is_stored_and_read_back_literally(store: SqliteStore, text: str) -> None:
    store.put_table(TableRow(text, text, 4, 0, 0, text, "waiting", False, None, 1.0))
    assert [(t.code, t.name, t.rules) for t in store.tables()] == [(text, text, text)]
    store.set_presence(text, text, text)
    assert store.online() == [(text, text)]
    store.record_result(text, [seat(text, 1, text), seat(text, 2, bot=text)])
    stats = store.stats(text)
    assert stats is not None and (stats.identity, stats.name) == (text, text)
    assert store.recent_matches()[0].table == text
    assert store.recent_matches()[0].placings[1].bot_level == text
    store.ban(text, text, text)
    assert store.banned(text) == text
    store.set_motd(text)
    assert store.motd() == text
    store.log_event(text, text)
    assert (store.recent_events(1)[0].kind, store.recent_events(1)[0].text) == (text, text)
    names = {r[0] for r in store._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"players", "lobby_tables", "bans", "events", "presence"} <= names


def test_text_over_the_limit_is_refused_with_a_clear_error(store: SqliteStore) -> None:
    long = "y" * (MAX_TEXT + 1)
    calls = [
        lambda: store.set_presence("k", long, "lobby"),
        lambda: store.remember_name(long, "n"),
        lambda: store.record_result(long, [seat("a", 1), seat("b", 2)]),
        lambda: store.ban("k", long, "op"),
        lambda: store.set_motd(long * 5),
        lambda: store.log_event("kind", long),
        lambda: store.stats(long),
        lambda: store.put_table(table(long)),
        lambda: seat(long, 1),
        lambda: store.set_motd("z" * 10_000),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=f"at most {MAX_TEXT}"):
            call()
    assert store.online() == [] and store.motd() == "" and store.recent_events() == []


def test_sql_is_never_built_from_values() -> None:
    """Every statement the store runs is one literal string: values only ever travel as
    bound parameters."""
    seen = 0
    for module in (sqlite_store, schema):
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"execute", "executemany", "executescript"}
            ):
                seen += 1
                sql = node.args[0]
                # The one exception: the schema's migration steps, themselves literal strings.
                literal = isinstance(sql, ast.Constant) and isinstance(sql.value, str)
                assert literal or (module is schema and ast.unparse(sql) == "statement"), ast.unparse(node)
    assert seen > 20
    assert all(isinstance(s, str) for step in schema._STEPS for s in step)
