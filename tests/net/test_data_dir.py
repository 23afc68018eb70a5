"""The data directory is private and survives a damaged row: files 0600 and directories
0700 whatever the umask, the LAN password only as a salted hash (still checked by a real
host restored from its journal), and a damaged table set aside in the journal's
quarantine while the others resume."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from unotui.lobby.sqlite_store import SqliteStore
from unotui.net.config import RoomConfig, config_to_dict
from unotui.net.host import Host
from unotui.net.journal import Journal, SavedSeat
from unotui.net.recovery import restore_rooms
from unotui.net.remote import JoinError, RemoteGame
from unotui.net.room import Room
from unotui.net.seat_memory import Place, SeatMemory
from unotui.protocol.session import HostSession
from unotui.ssh.server import HOST_KEY_FILE, load_host_key

from .lan_support import FAST, FAST_RATES

pytestmark = pytest.mark.timeout(30)

SECRET = "correct-horse-battery"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@contextlib.contextmanager
def umask(value: int) -> Iterator[None]:
    old = os.umask(value)
    try:
        yield
    finally:
        os.umask(old)


def on_disk(path: Path) -> bytes:
    """The bytes of an SQLite file and of its companions (whatever SQLite left there)."""
    return b"".join(p.read_bytes() for p in path.parent.iterdir() if p.name.startswith(path.name))


def test_journal_store_host_key_and_seats_json_are_private_under_umask_022(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with umask(0o022):
        data.mkdir()  # 0755 under this umask
        journal = Journal(data / "journal.sqlite3")
        journal.open_table("T", {"x": 1}, 0.0)  # a write: the -wal and -shm exist now
        store = SqliteStore(data / "lobby.sqlite3")
        store.set_motd("hello")
        load_host_key(data)
        SeatMemory(tmp_path / "config" / "seats.json").remember(Place("h", 1, "", "Ann"), "token")
        files = sorted(p.name for p in data.iterdir())
        assert {"journal.sqlite3-wal", "journal.sqlite3-shm", "lobby.sqlite3-wal", "lobby.sqlite3-shm",
                HOST_KEY_FILE, HOST_KEY_FILE + ".pub"} <= set(files)
        assert {p.name: mode(p) for p in data.iterdir()} == dict.fromkeys(files, 0o600)
        assert mode(data) == 0o700  # the directory a test made 0755 was tightened by the key's loader
        assert mode(tmp_path / "config") == 0o700 and mode(tmp_path / "config" / "seats.json") == 0o600
        store.backup(tmp_path / "backup.sqlite3")
        assert mode(tmp_path / "backup.sqlite3") == 0o600
        journal.close()
        store.close()


def test_files_an_older_unotui_left_readable_are_tightened_when_opened(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    Journal(data / "journal.sqlite3").close()
    SqliteStore(data / "lobby.sqlite3").close()
    load_host_key(data)
    for leftover in ("journal.sqlite3-wal", "journal.sqlite3-shm"):  # as a killed process leaves them
        (data / leftover).write_bytes(b"")
    for path in data.iterdir():
        path.chmod(0o644)
    data.chmod(0o755)
    load_host_key(data)
    Journal(data / "journal.sqlite3").close()
    SqliteStore(data / "lobby.sqlite3").close()
    assert mode(data) == 0o700
    assert {p.name: mode(p) for p in data.iterdir()} == {p.name: 0o600 for p in data.iterdir()}


def test_a_password_hash_is_salted_and_checked_in_constant_time() -> None:
    from unotui.net.password import hash_password, password_matches

    one, two = hash_password(SECRET), hash_password(SECRET)
    assert one != two and SECRET not in one  # a new salt each time
    assert password_matches(one, SECRET) and password_matches(two, SECRET)
    assert not password_matches(one, SECRET + "x") and not password_matches(one, "")
    with pytest.raises(ValueError):
        password_matches("scrypt$1073741824$8$1$" + "00" * 16 + "$" + "00" * 32, SECRET)  # 1 TiB: refused
    with pytest.raises(ValueError):
        RoomConfig(password_hash="plain text")


async def join(port: int, password: str) -> RemoteGame:
    game = RemoteGame("127.0.0.1", port, name="Ann", password=password)
    await game.start()
    return game


async def assert_only_the_password_opens(rooms: dict[str, Room], password: str) -> None:
    """A real host on loopback for ``rooms``: a wrong or missing password is refused, the
    right one takes a seat."""
    host = Host(rooms, session_factory=lambda now: HostSession(now, rates=FAST_RATES))
    port = (await host.listen("127.0.0.1", 0))[0][1]
    try:
        for wrong in ("nope", ""):
            with pytest.raises(JoinError) as info:
                await join(port, wrong)
            assert info.value.code == "password"
        game = await join(port, password)
        assert game.seat == 0
        await game.close()
    finally:
        await host.close()


async def test_the_journal_holds_only_a_hash_and_the_restored_host_still_checks_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    room = Room("", RoomConfig(seats=2, password=SECRET, **FAST), on_event=lambda _t: None, journal=journal)
    assert room.config.password == "" and room.config.password_hash.startswith("scrypt$")
    assert SECRET not in repr(room.config)
    assert SECRET.encode() not in on_disk(path)  # while it runs: the main file, its -wal and -shm
    journal.close()
    assert SECRET.encode() not in on_disk(path)
    journal = Journal(path)
    await assert_only_the_password_opens(restore_rooms(journal, on_event=lambda _t: None), SECRET)
    journal.close()


async def test_an_old_journal_with_a_clear_password_is_hashed_on_load(tmp_path: Path) -> None:
    from unotui.net.password import password_matches

    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    old = config_to_dict(RoomConfig(seats=2, **FAST))
    del old["password_hash"]
    old["password"] = SECRET  # as unotui wrote it before passwords were hashed
    journal.open_table("", old, 0.0)
    journal.close()
    assert SECRET.encode() in on_disk(path)
    journal = Journal(path)
    rooms = restore_rooms(journal, on_event=lambda _t: None)
    assert password_matches(rooms[""].config.password_hash, SECRET)
    journal.close()
    assert SECRET.encode() not in on_disk(path)  # rewritten, and the old bytes overwritten
    journal = Journal(path)
    await assert_only_the_password_opens(restore_rooms(journal, on_event=lambda _t: None), SECRET)
    journal.close()


def test_a_table_that_ended_leaves_neither_its_secret_nor_its_tokens_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    for code in ("OVER", "LIVE"):
        journal.open_table(code, {"name": code}, 0.0)
        journal.seats(code, [SavedSeat("Ann", "human", f"token-of-{code}", False, "medium", None)])
        journal.started(code, f"secret-of-{code}".encode())
    journal.close_table("OVER")
    journal.close()
    assert b"token-of-LIVE" in on_disk(path) and b"secret-of-LIVE" in on_disk(path)
    assert b"token-of-OVER" not in on_disk(path) and b"secret-of-OVER" not in on_disk(path)  # zeroed


# ----- a damaged journal row ------------------------------------------------------------------


def three_tables(path: Path) -> None:
    """A journal with three waiting tables, AAAA, BBBB and CCCC, each with its owner seated."""
    journal = Journal(path)
    for i, code in enumerate(("AAAA", "BBBB", "CCCC")):
        config = RoomConfig(name=code, seats=2, first_is_owner=True)
        journal.open_table(code, config_to_dict(config), float(i))
        journal.seats(code, [SavedSeat("Ann", "human", f"token-{code}", True, "medium", None)])
    journal.close()


def damage(path: Path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


async def test_a_damaged_config_or_seat_row_is_quarantined_and_the_other_tables_resume(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "journal.sqlite3"
    three_tables(path)
    damage(path, "UPDATE tables SET config = substr(config, 1, 40) WHERE code = 'BBBB'")  # truncated
    damage(path, """UPDATE seats SET state = '["Ann", "human", "token-CCCC", true, "medium"]'
                    WHERE code = 'CCCC'""")  # a field missing
    events: list[str] = []
    journal = Journal(path)
    with caplog.at_level(logging.ERROR, "unotui.host"):
        rooms = restore_rooms(journal, on_event=events.append)
    assert list(rooms) == ["AAAA"]
    assert rooms["AAAA"].book.seats[0].token == "token-AAAA"
    logged = caplog.text
    assert "'BBBB'" in logged and "config is not JSON" in logged
    assert "'CCCC'" in logged and "seat 0 is not [name, kind, token, owner, level, identity]" in logged
    assert sum("set aside in its quarantine" in e for e in events) == 2
    journal.close()
    db = sqlite3.connect(path)
    try:
        quarantined = db.execute("SELECT code, why FROM quarantine ORDER BY code").fetchall()
        assert [code for code, _why in quarantined] == ["BBBB", "CCCC"]
        assert db.execute("SELECT code, seat FROM quarantine_seats ORDER BY code").fetchall() == [
            ("BBBB", 0), ("CCCC", 0)]  # the rows as they were, for the operator
        assert [code for (code,) in db.execute("SELECT code FROM tables")] == ["AAAA"]
        assert [code for (code,) in db.execute("SELECT code FROM seats")] == ["AAAA"]
    finally:
        db.close()
    again = Journal(path)  # set aside for good: the next start resumes AAAA and logs nothing
    assert list(restore_rooms(again, on_event=events.append)) == ["AAAA"]
    again.close()


async def test_rows_of_the_wrong_type_or_not_utf8_are_quarantined_too(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    three_tables(path)
    damage(path, "UPDATE tables SET config = CAST(x'80ff7b7d' AS TEXT) WHERE code = 'AAAA'")
    damage(path, "UPDATE tables SET created = 'yesterday' WHERE code = 'BBBB'")
    damage(path, """UPDATE tables SET config = json_set(config, '$.rules', json('{"bad": 1}'))
                    WHERE code = 'CCCC'""")  # decodes, but the rules do not
    journal = Journal(path)
    assert restore_rooms(journal, on_event=lambda _t: None) == {}
    assert journal.entries() == []
    journal.close()
