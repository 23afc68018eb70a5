"""The lobby over real loopback sockets: list, create, quick match, keys, results, limits."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from random import Random

import pytest

from tests.net.lan_support import FAST_RATES, Player, has_view, until
from unotui.engine import Rules
from unotui.lobby.identity import Credentials
from unotui.lobby.lobby import Lobby, LobbySettings
from unotui.lobby.sqlite_store import SqliteStore
from unotui.lobby.store import PlayerStats
from unotui.net.host import Host, HostLimits
from unotui.net.journal import Journal
from unotui.net.lobby_client import LobbyClient, LobbyClosed, LobbyUpdate
from unotui.net.remote import JoinError, RemoteGame
from unotui.net.room import Room
from unotui.protocol import messages as m
from unotui.protocol.session import HostSession

pytestmark = pytest.mark.timeout(60)

FAST = LobbySettings(bot_delay=0.0, catch_grace=0.0, auto_keep=0.0, reap_every=0.2, over_grace=0.5,
                     empty_grace=0.5, turn_timer=30.0, max_tables=4)


@contextlib.asynccontextmanager
async def lobby_host(tmp_path: Path, settings: LobbySettings = FAST, journal: Journal | None = None,
                     store_type: type[SqliteStore] = SqliteStore) -> AsyncIterator[tuple[Lobby, int]]:
    store = store_type(tmp_path / "lobby.sqlite3")
    rooms: dict[str, Room] = {}
    lobby = Lobby(store, rooms, credentials=Credentials(b"k" * 32), settings=settings,
                  on_event=lambda _t: None, journal=journal)
    limits = HostLimits(new_per_ip_per_s=1000.0, new_per_ip_burst=100)
    host = Host(rooms, lobby=lobby, limits=limits,
                session_factory=lambda now: HostSession(now, rates=FAST_RATES))
    port = (await host.listen("127.0.0.1", 0))[0][1]
    try:
        yield lobby, port
    finally:
        await host.close()
        lobby.close()
        store.close()


class Visitor:
    """A lobby connection that records what it hears."""

    def __init__(self, port: int, name: str, identity: str | None = None) -> None:
        self.client = LobbyClient("127.0.0.1", port, name=name, identity=identity)
        self.heard: list[LobbyUpdate] = []
        self.client.listen(self.heard.append)

    def last(self) -> m.LobbyState:
        states = [u for u in self.heard if isinstance(u, m.LobbyState)]
        assert states, self.heard
        return states[-1]

    def created(self) -> list[str]:
        return [u.code for u in self.heard if isinstance(u, m.Created)]


async def visit(port: int, name: str, identity: str | None = None) -> Visitor:
    v = Visitor(port, name, identity)
    await v.client.start()
    await until(lambda: any(isinstance(u, m.LobbyState) for u in v.heard))
    return v


async def test_create_lists_the_table_for_others_and_a_private_one_is_not_listed(tmp_path: Path) -> None:
    async with lobby_host(tmp_path) as (_lobby, port):
        ann, bob = await visit(port, "Ann"), await visit(port, "Ann")
        assert ann.last().you == "Ann" and bob.last().you == "Ann 2"  # unique in the lobby
        ann.client.create("Kitchen", 4, 2, Rules.preset("classic"), "easy", None, False)
        await until(lambda: ann.created())
        code = ann.created()[0]
        await until(lambda: [t.code for t in bob.last().tables] == [code])
        row = bob.last().tables[0]
        assert (row.name, row.seats, row.bots, row.status) == ("Kitchen", 4, 2, "waiting")
        assert row.turn_timer_ms == 30_000  # public tables always have a turn timer
        states = len([u for u in ann.heard if isinstance(u, m.LobbyState)])
        bob.client.create("Secret", 2, 0, Rules(), "easy", None, True)
        await until(lambda: bob.created())
        # the list as it is after bob's table (the lobby refreshes everyone once for a change)
        await until(lambda: len([u for u in ann.heard if isinstance(u, m.LobbyState)]) > states)
        assert [t.code for t in ann.last().tables] == [code]
        await ann.client.close()
        await bob.client.close()


async def test_a_lobby_tables_waiting_room_says_it_starts_itself_and_counts_as_the_list(
        tmp_path: Path) -> None:
    """The list's ``1/2 +2 bots`` and the room agree: one seat waits for a player, two are
    the computer players', and the creator is told the match starts when one more player
    joins (``s`` starts it now); then it does."""
    from unotui.ui.screens.waiting import room_text

    async with lobby_host(tmp_path) as (_lobby, port):
        ann = await visit(port, "Ann")
        ann.client.create("Kitchen", 4, 2, Rules.preset("classic"), "easy", None, False)
        await until(lambda: ann.created())
        code = ann.created()[0]
        await until(lambda: bool(ann.last().tables))
        row = ann.last().tables[0]
        creator = RemoteGame("127.0.0.1", port, name="Ann", table=code)
        await creator.start()
        await until(lambda: creator.room is not None)
        room = creator.room
        assert room is not None and room.autostart and room.bots == row.bots == 2
        assert room.wanted == row.seats - row.bots - 1 == 1
        text = room_text(room).plain
        assert "The match starts when 1 more player joins." in text
        assert "Press s to start the match now (3 computer players will fill the open seats)." in text
        assert text.count("(open for a player)") == 1
        assert text.count("(a computer player)") == 2
        bob = RemoteGame("127.0.0.1", port, name="Bob", table=code)
        await bob.start()
        await until(lambda: creator.room is not None and creator.room.status == "playing")
        await bob.close()
        await creator.close()
        await ann.client.close()


async def test_quick_match_seats_you_with_bots_and_starts(tmp_path: Path) -> None:
    async with lobby_host(tmp_path) as (_lobby, port):
        ann = await visit(port, "Ann")
        ann.client.quick()
        await until(lambda: ann.created())
        game = RemoteGame("127.0.0.1", port, name="Ann", table=ann.created()[0])
        player = Player(game, Random(1), auto=False)
        await game.start()
        await until(lambda: has_view(player))
        assert len(game.view.names) == 4 and game.seat == 0
        await until(lambda: ann.last().tables and ann.last().tables[0].status == "playing")
        await game.close()
        await ann.client.close()


async def test_a_key_takes_its_seat_back_and_a_forged_key_is_a_guest(tmp_path: Path) -> None:
    async with lobby_host(tmp_path) as (lobby, port):
        cred = lobby.credentials.issue("SHA256:annsKeyAAAAAAAA")
        ann = await visit(port, "Ann", cred)
        ann.client.create("Two", 3, 0, Rules.preset("classic"), "easy", None, True)
        await until(lambda: ann.created())
        code = ann.created()[0]
        await ann.client.close()
        first = RemoteGame("127.0.0.1", port, name="Ann", table=code, identity=cred, reconnect_for=0)
        await first.start()
        bob = RemoteGame("127.0.0.1", port, name="Bob", table=code)
        await bob.start()
        await RemoteGame("127.0.0.1", port, name="Cy", table=code).start()
        await until(lambda: lobby.tables[code].room.status == "playing")
        seat = first.seat
        link = first._link
        assert link is not None
        link.abort("test: the SSH session died")  # no goodbye: the seat is held
        await until(lambda: lobby.tables[code].room.book.seats[seat].away_since is not None)
        again = await visit(port, "Ann", cred)
        assert again.last().seat_at == code
        forged = await visit(port, "Mallory", "SHA256:annsKeyAAAAAAAA." + "0" * 40)
        assert forged.last().seat_at is None
        back = RemoteGame("127.0.0.1", port, name="Ann", table=code, identity=cred)
        await back.start()
        assert back.seat == seat
        with pytest.raises(JoinError):  # a guest cannot take the seat; the match has started
            await RemoteGame("127.0.0.1", port, name="Mallory", table=code,
                             identity="SHA256:annsKeyAAAAAAAA.00000000").start()
        for c in (again.client, forged.client):
            await c.close()
        await back.close()
        await bob.close()


async def test_create_outside_the_lobby_and_too_many_tables_are_refused(tmp_path: Path) -> None:
    async with lobby_host(tmp_path) as (_lobby, port):
        ann = await visit(port, "Ann")
        for _ in range(FAST.tables_per_creator + 1):  # the lobby's own limits: test_lobby_limits.py
            ann.client.create("T", 2, 1, Rules(), "easy", None, True)
        await until(lambda: len(ann.created()) == FAST.tables_per_creator)
        await until(lambda: any(isinstance(u, m.Refused) and u.code == "too_many_tables" for u in ann.heard))
        table = RemoteGame("127.0.0.1", port, name="Bob", table=ann.created()[0])
        await table.start()
        seen: list[object] = []
        table.listen(seen.append)
        assert table._link is not None
        session = table._link.session
        session._queue(m.Quick())  # type: ignore[attr-defined]  # what a hostile client could send
        table._link.flush()
        await until(lambda: any(getattr(u, "code", "") == "not_in_lobby" for u in seen))
        await table.close()
        await ann.client.close()


async def test_a_finished_match_is_recorded_and_the_table_closes(tmp_path: Path) -> None:
    settings = LobbySettings(bot_delay=0.0, catch_grace=0.0, auto_keep=0.0, reap_every=0.2, over_grace=0.3,
                             empty_grace=0.3)
    async with lobby_host(tmp_path, settings) as (lobby, port):
        cred = lobby.credentials.issue("SHA256:annsKeyAAAAAAAA")
        ann = await visit(port, "Ann", cred)
        ann.client.create("Short", 2, 1, Rules.preset("classic").with_(target_score=1), "random", 30.0, False)
        await until(lambda: ann.created())
        code = ann.created()[0]
        game = RemoteGame("127.0.0.1", port, name="Ann", table=code, identity=cred)
        player = Player(game, Random(3))
        await game.start()
        await until(lambda: has_view(player) and game.view.phase == "match_over", timeout=40)
        await until(lambda: code not in lobby.tables or lobby.tables[code].recorded)
        stats = lobby.store.stats("SHA256:annsKeyAAAAAAAA")
        assert stats is not None and stats.games == 1
        await until(lambda: any(r.name == "Ann" for r in ann.last().leaders))
        await game.close()
        await until(lambda: code not in lobby.tables)
        assert any(isinstance(u, LobbyClosed) for u in ann.heard) is False
        await ann.client.close()


async def test_a_restarted_lobby_resumes_its_tables_and_a_key_finds_its_seat(tmp_path: Path) -> None:
    from unotui.net.journal import Journal

    journal = Journal(tmp_path / "journal.sqlite3")
    store = SqliteStore(tmp_path / "lobby.sqlite3")
    rooms: dict[str, Room] = {}
    first = Lobby(store, rooms, settings=FAST, on_event=lambda _t: None, journal=journal)
    host = Host(rooms, lobby=first, limits=HostLimits(new_per_ip_per_s=1000.0, new_per_ip_burst=100),
                session_factory=lambda now: HostSession(now, rates=FAST_RATES))
    port = (await host.listen("127.0.0.1", 0))[0][1]
    ann = await visit(port, "Ann", first.credentials.issue("SHA256:annsKeyAAAAAAAA"))
    ann.client.quick()
    await until(lambda: ann.created())
    code = ann.created()[0]
    game = RemoteGame("127.0.0.1", port, name="Ann", table=code,
                      identity=first.credentials.issue("SHA256:annsKeyAAAAAAAA"), reconnect_for=0)
    player = Player(game, Random(5))
    await game.start()
    await until(lambda: has_view(player) and len(game.view.log) > 20)
    player.auto = False
    await until(lambda: not game.in_flight)  # in-flight intents land
    before = rooms[code].game
    assert before is not None
    history = list(before.history)
    # The process dies: nothing is closed in good order.  A new process opens the same files.
    first._reaper.cancel()
    rooms2: dict[str, Room] = {}
    second = Lobby(SqliteStore(tmp_path / "lobby.sqlite3"), rooms2, settings=FAST, on_event=lambda _t: None,
                   journal=Journal(tmp_path / "journal.sqlite3"))
    host2 = Host(rooms2, lobby=second, limits=HostLimits(new_per_ip_per_s=1000.0, new_per_ip_burst=100),
                 session_factory=lambda now: HostSession(now, rates=FAST_RATES))
    port2 = (await host2.listen("127.0.0.1", 0))[0][1]
    restored = rooms2[code].game
    assert restored is not None and list(restored.history)[: len(history)] == history
    cred = second.credentials.issue("SHA256:annsKeyAAAAAAAA")  # the SSH door issues a new one
    again = await visit(port2, "Ann", cred)
    assert again.last().seat_at == code
    back = RemoteGame("127.0.0.1", port2, name="Ann", table=code, identity=cred)
    await back.start()
    assert back.seat == game.seat
    for c in (back,):
        await c.close()
    await again.client.close()
    await ann.client.close()
    await game.close()
    await host.close()
    await host2.close()
    second.close()


@pytest.mark.parametrize("dies", ["before recording", "before the journal forgets"])
async def test_a_match_that_ends_as_the_lobby_dies_is_counted_once(tmp_path: Path, dies: str) -> None:
    """The process dies as a match ends: before its result reached the store, or after
    that but before the journal forgot the table.  The restarted lobby resumes the
    finished match from the journal and records it, under the match's name, so the
    player's games end at exactly 1 either way."""
    from unotui.lobby.store import Placing
    from unotui.net.journal import Journal

    class Dies(Exception):
        pass

    dying = [True]  # until the test's own teardown

    class DiesBeforeForgetting(Journal):
        def close_table(self, code: str) -> None:
            if dies == "before the journal forgets" and dying[0]:
                raise Dies  # the crash: this write never happens
            super().close_table(code)

    class DiesBeforeRecording(SqliteStore):
        def record_result(self, table: str, placings: Sequence[Placing], match_key: str | None = None
                          ) -> list[PlayerStats]:
            if dies == "before recording" and dying[0]:
                raise Dies
            return super().record_result(table, placings, match_key)

    settings = LobbySettings(bot_delay=0.0, catch_grace=0.0, auto_keep=0.0, reap_every=0.2, over_grace=30.0,
                             empty_grace=30.0)
    store = DiesBeforeRecording(tmp_path / "lobby.sqlite3")
    rooms: dict[str, Room] = {}
    first = Lobby(store, rooms, settings=settings, on_event=lambda _t: None,
                  journal=DiesBeforeForgetting(tmp_path / "journal.sqlite3"))
    host = Host(rooms, lobby=first, limits=HostLimits(new_per_ip_per_s=1000.0, new_per_ip_burst=100),
                session_factory=lambda now: HostSession(now, rates=FAST_RATES))
    port = (await host.listen("127.0.0.1", 0))[0][1]
    cred = first.credentials.issue("SHA256:annsKeyAAAAAAAA")
    ann = await visit(port, "Ann", cred)
    # One short round (two cards each; the first out wins the match), and a one-second
    # turn timer for whatever the random player leaves waiting.
    rules = Rules.preset("classic").with_(target_score=1, hand_size=2)
    ann.client.create("Short", 2, 1, rules, "random", 1.0, False)
    await until(lambda: ann.created())
    code = ann.created()[0]
    game = RemoteGame("127.0.0.1", port, name="Ann", table=code, identity=cred, reconnect_for=0)
    player = Player(game, Random(3))
    await game.start()
    await until(lambda: has_view(player) and game.view.phase == "match_over", timeout=40)
    await until(lambda: first.tables[code].recorded)  # it tried, and "died" in the middle
    counted = store.stats("SHA256:annsKeyAAAAAAAA")
    assert (counted.games if counted else 0) == (0 if dies == "before recording" else 1)
    first._reaper.cancel()
    second_store = SqliteStore(tmp_path / "lobby.sqlite3")
    rooms2: dict[str, Room] = {}
    second = Lobby(second_store, rooms2, settings=settings, on_event=lambda _t: None,
                   journal=Journal(tmp_path / "journal.sqlite3"))
    resumed = rooms2[code].game
    assert resumed is not None and resumed.phase == "match_over"
    journal = Journal(tmp_path / "journal.sqlite3")  # a reader of the same file
    await until(lambda: (code not in second.tables or second.tables[code].recorded) and not journal.tables())
    stats = second_store.stats("SHA256:annsKeyAAAAAAAA")
    assert stats is not None and stats.games == 1
    assert len(second_store.recent_matches(10)) == 1
    dying[0] = False
    await game.close()
    await ann.client.close()
    await host.close()
    second.close()
    second_store.close()
    store.close()


async def test_a_join_without_a_table_code_at_a_lobby_says_how_and_lists_the_waiting_tables(
    tmp_path: Path,
) -> None:
    """``unotui join HOST`` at a lobby, no ``--table``: not "no table with that code" (no
    code was given) but how to name one, and the codes of the tables waiting now."""
    async with lobby_host(tmp_path, LobbySettings(empty_grace=60.0)) as (_lobby, port):
        lonely = RemoteGame("127.0.0.1", port, name="Ann")
        with pytest.raises(JoinError) as none_yet:
            await lonely.start()
        said = str(none_yet.value)
        assert "--table CODE" in said and "No table waits for players now." in said
        bob = await visit(port, "Bob")
        bob.client.create("Bob's", 4, 2, Rules(), "medium", 30.0, False)
        await until(lambda: bob.created())
        code = bob.created()[0]
        again = RemoteGame("127.0.0.1", port, name="Ann")
        with pytest.raises(JoinError) as listed:
            await again.start()
        assert f"{code} (Bob's, 0 of 4 seats taken)" in str(listed.value)
        await bob.client.close()
