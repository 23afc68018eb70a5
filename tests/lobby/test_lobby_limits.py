"""What one guest may take of the lobby, over real loopback sockets: tables per creator
and per address, quick match's share, lonely tables reaped, trap tables refused, a table
that cannot start closed with a word, chat per address, look-alike names (issue 16)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

from tests.lobby.test_lobby_net import FAST, Visitor, lobby_host, visit
from tests.net.lan_support import Player, until
from unotui.engine import Rules
from unotui.lobby.identity import GUEST
from unotui.net.remote import RemoteGame
from unotui.protocol import messages as m

pytestmark = pytest.mark.timeout(60)

CLASSIC = Rules.preset("classic")


def refusals(v: Visitor) -> list[m.Refused]:
    return [u for u in v.heard if isinstance(u, m.Refused)]


async def test_a_creator_and_an_address_hold_only_a_few_waiting_tables(tmp_path: Path) -> None:
    settings = replace(FAST, max_tables=30)
    async with lobby_host(tmp_path, settings) as (lobby, port):
        ann, bob, cy = await visit(port, "Ann"), await visit(port, "Bob"), await visit(port, "Cy")
        for _ in range(3):
            ann.client.create("T", 2, 0, CLASSIC, "easy", None, True)
        await until(lambda: len(ann.created()) == 2 and len(refusals(ann)) == 1)
        refused = refusals(ann)[0]
        assert refused.code == "too_many_tables" and "You already have 2 tables waiting" in refused.message
        for _ in range(2):
            bob.client.create("T", 2, 0, CLASSIC, "easy", None, False)
        await until(lambda: len(bob.created()) == 2)
        cy.client.create("T", 2, 0, CLASSIC, "easy", None, True)  # a third connection, same address
        await until(lambda: refusals(cy))
        assert refusals(cy)[0].code == "too_many_tables" and "Your address" in refusals(cy)[0].message
        assert len(lobby.tables) == 4
        for v in (ann, bob, cy):
            await v.client.close()


async def test_an_ssh_players_address_rides_in_the_credential(tmp_path: Path) -> None:
    """SSH players all reach the lobby from loopback: a keyed one counts under the address
    the SSH door signed into the credential, and so does a guest (its credential names the
    address alone), so neither is lumped in with 127.0.0.1."""
    settings = replace(FAST, max_tables=30, tables_per_creator=4)
    async with lobby_host(tmp_path, settings) as (lobby, port):
        cred = lobby.credentials.issue("SHA256:annsKeyAAAAAAAA", "203.0.113.7")
        assert lobby.credentials.verify(cred) == "SHA256:annsKeyAAAAAAAA"
        assert lobby.credentials.origin(cred) == "203.0.113.7"
        forged = cred.replace("203.0.113.7", "203.0.113.8")
        assert lobby.credentials.verify(forged) is None and lobby.credentials.origin(forged) == ""
        local = await visit(port, "Loc")
        for _ in range(5):
            local.client.create("T", 2, 0, CLASSIC, "easy", None, True)
        await until(lambda: len(local.created()) == 4 and refusals(local))  # 127.0.0.1 is full
        ann = await visit(port, "Ann", cred)
        ann.client.create("T", 2, 0, CLASSIC, "easy", None, True)
        await until(lambda: ann.created())
        # An SSH guest, also from loopback: its credential vouches for its own address.
        guest = await visit(port, "Guest", lobby.credentials.issue(GUEST, "203.0.113.9"))
        guest.client.create("T", 2, 0, CLASSIC, "easy", None, True)
        await until(lambda: guest.created() or refusals(guest))
        assert guest.created() and not refusals(guest)
        for v in (local, ann, guest):
            await v.client.close()


async def test_quick_match_still_seats_people_after_a_flood_of_private_tables(tmp_path: Path) -> None:
    settings = replace(FAST, max_tables=5, tables_per_creator=50, tables_per_address=50)
    async with lobby_host(tmp_path, settings) as (_lobby, port):
        flood = await visit(port, "Flood")
        for _ in range(10):
            flood.client.create("Mine", 2, 0, CLASSIC, "easy", None, True)
        await until(lambda: len(flood.created()) + len(refusals(flood)) == 10)
        assert len(flood.created()) == 4  # a fifth of the tables (at least one) is kept
        assert "full of tables" in refusals(flood)[0].message
        bob = await visit(port, "Bob")
        bob.client.quick()
        await until(lambda: bob.created() or refusals(bob))
        assert bob.created(), refusals(bob)
        await flood.client.close()
        await bob.client.close()


async def test_a_waiting_table_with_only_its_creator_is_reaped(tmp_path: Path) -> None:
    settings = replace(FAST, lonely_grace=0.6, reap_every=0.1, empty_grace=30.0)
    async with lobby_host(tmp_path, settings) as (lobby, port):
        ann = await visit(port, "Ann")
        ann.client.create("Mine", 3, 0, CLASSIC, "easy", None, True)
        await until(lambda: ann.created())
        code = ann.created()[0]
        game = RemoteGame("127.0.0.1", port, name="Ann", table=code, reconnect_for=0)
        player = Player(game, Random(1), auto=False)
        await game.start()
        await until(lambda: code not in lobby.tables, timeout=5)
        await until(lambda: player.closed)
        assert "Nobody joined this table" in player.closed[0].message
        await game.close()
        await ann.client.close()


@pytest.mark.parametrize("seats, rules, words", [
    (2, CLASSIC.with_(teams=True), "teams need an even table"),
    (10, CLASSIC.with_(hand_size=15), "needs more cards"),
])
async def test_trap_tables_are_refused_at_create(tmp_path: Path, seats: int, rules: Rules,
                                                 words: str) -> None:
    async with lobby_host(tmp_path) as (lobby, port):
        ann = await visit(port, "Ann")
        ann.client.create("Trap", seats, 0, rules, "easy", None, False)
        await until(lambda: refusals(ann))
        refused = refusals(ann)[0]
        assert refused.code == "bad_message" and words in refused.message
        assert not ann.created() and not lobby.tables
        await ann.client.close()


async def test_a_turn_timer_has_a_floor(tmp_path: Path) -> None:
    async with lobby_host(tmp_path) as (lobby, port):
        ann = await visit(port, "Ann")
        ann.client.create("Fast", 4, 2, CLASSIC, "easy", 0.001, False)
        ann.client.create("Private", 4, 2, CLASSIC, "easy", 0.001, True)
        await until(lambda: len(ann.created()) == 2)
        timers = [lobby.tables[c].room.config.turn_timer for c in ann.created()]
        assert timers == [5.0, 5.0]  # LobbySettings.min_turn_timer
        await ann.client.close()


async def test_a_table_that_cannot_start_tells_the_joiner_and_closes(tmp_path: Path) -> None:
    """Whatever made a table's match impossible (here its config went bad after create),
    the joiner whose arrival starts it hears ``server_error``, and the table is closed and
    leaves the lobby; before, the exception escaped into the host's protocol callback and
    the joiner was dropped without a word, the seat freed for the next one."""
    async with lobby_host(tmp_path) as (lobby, port):
        ann = await visit(port, "Ann")
        ann.client.create("Two", 2, 1, CLASSIC, "easy", None, False)
        await until(lambda: ann.created())
        code = ann.created()[0]
        room = lobby.tables[code].room
        room.core.config = replace(room.config, rules=replace(CLASSIC, teams=True))
        game = RemoteGame("127.0.0.1", port, name="Bob", table=code, reconnect_for=0)
        player = Player(game, Random(1), auto=False)
        await game.start()
        await until(lambda: player.closed)
        assert player.closed[0].code == "server_error" and "failed and was closed" in player.closed[0].message
        await until(lambda: code not in lobby.tables)
        await game.close()
        await ann.client.close()


async def test_lobby_chat_is_limited_per_address_not_only_per_connection(tmp_path: Path) -> None:
    """Eight connections from one address, each allowed 100 lines a second by its session:
    together they still get only the address's share through to everyone."""
    settings = replace(FAST, chat_per_s=2.0, chat_burst=8)
    async with lobby_host(tmp_path, settings) as (_lobby, port):
        listener = await visit(port, "Ear")
        talkers = [await visit(port, f"T{k}") for k in range(8)]
        start = asyncio.get_running_loop().time()
        for round_ in range(5):
            for t in talkers:
                t.client.chat(f"spam {round_}")
        await until(lambda: sum(len(refusals(t)) for t in talkers) >= 40 - settings.chat_burst - 4)
        await asyncio.sleep(0.2)
        elapsed = asyncio.get_running_loop().time() - start
        heard = [u for u in listener.heard if isinstance(u, m.ChatLine)]
        assert len(heard) <= settings.chat_burst + settings.chat_per_s * elapsed + 1
        assert all(r.code == "rate_limited" for t in talkers for r in refusals(t))
        for v in (listener, *talkers):
            await v.client.close()


@pytest.mark.parametrize("second", ["\u0410nn", "\uff21nn", "A\u200bnn"])
async def test_a_look_alike_name_is_made_unique_in_the_lobby_and_at_a_table(tmp_path: Path,
                                                                          second: str) -> None:
    async with lobby_host(tmp_path) as (lobby, port):
        ann, other = await visit(port, "Ann"), await visit(port, second)
        assert other.last().you != second.replace("\u200b", "") and other.last().you.endswith(" 2")
        ann.client.create("Two", 3, 0, CLASSIC, "easy", None, True)
        await until(lambda: ann.created())
        code = ann.created()[0]
        first = RemoteGame("127.0.0.1", port, name="Ann", table=code, reconnect_for=0)
        await first.start()
        again = RemoteGame("127.0.0.1", port, name=second, table=code, reconnect_for=0)
        await again.start()
        names = lobby.tables[code].room.book.names
        assert names[0] == "Ann" and names[1].endswith(" 2"), names
        for g in (first, again):
            await g.close()
        for v in (ann, other):
            await v.client.close()


async def test_a_trap_table_resumed_from_an_old_journal_closes_with_a_word(tmp_path: Path) -> None:
    """A journal written before rules were checked against seats holds a public 2-seat
    teams table: quick match sends Bob there, its start fails, Bob hears ``server_error``
    (not a silent drop), the table is closed and forgotten by the journal (no restart
    brings the trap back), and quick match then opens a table that works."""
    from unotui.net.config import RoomConfig, config_to_dict
    from unotui.net.journal import Journal

    trap = RoomConfig(name="Trap", seats=2, bots=1, rules=replace(CLASSIC, teams=True), autostart=True,
                      first_is_owner=True, turn_timer=30.0)
    old = Journal(tmp_path / "journal.sqlite3")
    old.open_table("TRAPX", config_to_dict(trap), 0.0)
    old.close()
    journal = Journal(tmp_path / "journal.sqlite3")
    async with lobby_host(tmp_path, journal=journal) as (lobby, port):
        assert "TRAPX" in lobby.tables
        bob = await visit(port, "Bob")
        bob.client.quick()
        await until(lambda: bob.created())
        assert bob.created()[0] == "TRAPX"
        game = RemoteGame("127.0.0.1", port, name="Bob", table="TRAPX", reconnect_for=0)
        player = Player(game, Random(1), auto=False)
        await game.start()
        await until(lambda: player.closed)
        assert player.closed[0].code == "server_error"
        await until(lambda: "TRAPX" not in lobby.tables)
        assert all(t.code != "TRAPX" for t in journal.tables())
        bob.client.quick()
        await until(lambda: len(bob.created()) == 2)
        assert bob.created()[1] != "TRAPX"
        await game.close()
        await bob.client.close()


def test_the_ssh_door_signs_the_players_address_into_the_credential(tmp_path: Path) -> None:
    """What ``unotui serve`` tells an SSH session's program: a keyed player's credential
    names the key and the client's address, which only this lobby could have signed."""
    from unotui.lobby.identity import Credentials
    from unotui.lobby.serve import session_extra
    from unotui.lobby.sqlite_store import SqliteStore
    from unotui.ssh.spec import SessionSpec

    credentials, store = Credentials(), SqliteStore(tmp_path / "lobby.sqlite3")
    try:
        keyed = SessionSpec("ada", "SHA256:annsKeyAAAAAAAA", "xterm", (80, 24), peer="203.0.113.7")
        extra = session_extra(keyed, credentials, store, port=1, ssh_port=2, public_host="h")
        assert credentials.verify(extra["identity"]) == "SHA256:annsKeyAAAAAAAA"
        assert credentials.origin(extra["identity"]) == "203.0.113.7"
        guest = SessionSpec("bo", None, "xterm", (80, 24), peer="203.0.113.9")
        vouched = session_extra(guest, credentials, store, port=1, ssh_port=2, public_host="h")["identity"]
        assert credentials.verify(vouched) is None  # no key in it: a guest is no key's owner
        assert credentials.origin(vouched) == "203.0.113.9"
    finally:
        store.close()


async def test_a_failure_handling_a_hello_is_an_error_frame_not_a_silent_drop(tmp_path: Path) -> None:
    """The lobby's store fails as someone enters (a full disk, say): the host's dispatch
    answers that connection ``server_error`` with a sentence; the lobby serves on."""
    from unotui.lobby.sqlite_store import SqliteStore
    from unotui.net.remote import JoinError

    class FullDisk(SqliteStore):
        def set_presence(self, identity: str, name: str, where: str) -> None:
            if name.startswith("Unlucky"):
                raise OSError(28, "No space left on device")
            super().set_presence(identity, name, where)

    async with lobby_host(tmp_path, store_type=FullDisk) as (_lobby, port):
        with pytest.raises(JoinError) as info:
            await visit(port, "Unlucky")
        assert info.value.code == "server_error" and "failed" in str(info.value)
        ann = await visit(port, "Ann")
        await ann.client.close()
