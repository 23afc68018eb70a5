"""Hosted tables over real loopback sockets: join, play, refuse, drop and resume."""

from __future__ import annotations

from random import Random

import pytest

from unotui.engine import Phase, Rules
from unotui.net.config import RoomConfig
from unotui.net.link import session_of
from unotui.net.remote import JoinError, RemoteGame
from unotui.protocol.peer_session import PeerSession

from .lan_support import FAST, Player, has_view, hosted, join_two, until

pytestmark = pytest.mark.timeout(30)


async def test_two_peers_and_a_bot_play_a_round_to_its_end() -> None:
    config = RoomConfig(seats=3, bots=1, autostart=True, rules=Rules.preset("classic"), **FAST)
    async with hosted(config) as (_host, room, port):
        players = []
        for k, name in enumerate(("Ada", "Bob")):
            game = RemoteGame("127.0.0.1", port, name=name)
            players.append(Player(game, Random(k)))
            await game.start()
        await until(lambda: room.game is not None and room.game.round_winner >= 0, 20)
        views = [p.game.view for p in players]
        assert [v.seat for v in views] == [0, 1]
        assert views[0].names == views[1].names == room.game.names if room.game else False
        for p in players:
            assert not p.closed
            await p.game.close()


async def test_a_full_table_refuses_with_a_sentence() -> None:
    config = RoomConfig(seats=2, **FAST)
    async with hosted(config) as (_host, _room, port):
        first, second = RemoteGame("127.0.0.1", port, name="A"), RemoteGame("127.0.0.1", port, name="B")
        await first.start()
        await second.start()
        third = RemoteGame("127.0.0.1", port, name="C")
        with pytest.raises(JoinError) as info:
            await third.start()
        assert info.value.code == "table_full"
        for g in (first, second):
            await g.close()


async def test_wrong_password_is_refused() -> None:
    config = RoomConfig(seats=2, password="s3cret", **FAST)
    async with hosted(config) as (_host, _room, port):
        with pytest.raises(JoinError) as info:
            await RemoteGame("127.0.0.1", port, name="A", password="nope").start()
        assert info.value.code == "password"
        ok = RemoteGame("127.0.0.1", port, name="A", password="s3cret")
        await ok.start()
        assert ok.seat == 0
        await ok.close()


async def test_the_hosts_own_seat_is_never_asked_the_tables_password() -> None:
    """``unotui host --password X`` with a screen refused its own host player: the host's
    seat joins with its owner token, which proves more than the password would."""
    from unotui.net.hosted import HostedGame

    game = HostedGame(RoomConfig(seats=2, password="s3cret", **FAST), "Hosty", bind="127.0.0.1", port=0)
    await game.start()
    try:
        assert game.seat == 0 and game.room is not None and game.room.owner
        with pytest.raises(JoinError) as info:  # everyone else still needs it
            await RemoteGame("127.0.0.1", game.port, name="A", password="nope").start()
        assert info.value.code == "password"
    finally:
        await game.close()


async def test_names_are_made_unique_and_clean() -> None:
    config = RoomConfig(seats=3, **FAST)
    async with hosted(config) as (_host, room, port):
        games = [RemoteGame("127.0.0.1", port, name=n) for n in ("Ada", "ada", "\x1b]0;pwned\x07Eve")]
        for g in games:
            await g.start()
        assert room.book.names == ["Ada", "ada 2", "]0;pwnedEve"]
        for g in games:
            await g.close()


async def test_an_illegal_intent_is_refused_with_its_seq_and_the_game_goes_on() -> None:
    config = RoomConfig(seats=2, autostart=True, rules=Rules.preset("classic"), **FAST)
    async with hosted(config) as (_host, room, port):
        a, b = await join_two(port)
        await until(lambda: room.game is not None and has_view(a) and has_view(b))
        game = room.game
        assert game is not None
        waiting = a if game.actor != 0 else b
        from unotui.engine import DRAW

        seq = waiting.game.send(DRAW)
        await until(lambda: waiting.refused)
        assert waiting.refused[-1].seq == seq
        assert waiting.refused[-1].code == "not_your_turn"
        assert not waiting.game.in_flight
        for p in (a, b):
            await p.game.close()


async def test_a_dropped_peer_resumes_its_seat_with_a_rotated_token() -> None:
    config = RoomConfig(seats=2, autostart=True, rules=Rules.preset("classic"), **FAST)
    async with hosted(config) as (_host, room, port):
        a, b = await join_two(port)
        await until(lambda: has_view(a) and has_view(b))
        old = a.game.token
        link = a.game._link
        assert link is not None
        link.abort("test: cable pulled")
        await until(lambda: a.game.token != old and a.game._link is not None)
        assert a.game.seat == 0
        assert room.book.find_token(old) is None
        await until(lambda: a.game.view.phase != Phase.MATCH_OVER)
        assert not a.closed
        for p in (a, b):
            await p.game.close()


async def test_the_hosts_own_seat_starts_the_match_and_its_leaving_closes_it_for_all() -> None:
    from unotui.net.hosted import HostedGame

    config = RoomConfig(seats=3, rules=Rules.preset("classic"), **FAST)
    hosted_game = HostedGame(config, "Hostess", bind="127.0.0.1", port=0)
    host_player = Player(hosted_game, Random(0), auto=False)
    await hosted_game.start()
    assert hosted_game.seat == 0 and hosted_game.hints == (f"unotui join 127.0.0.1:{hosted_game.port}",)
    guest = Player(RemoteGame("127.0.0.1", hosted_game.port, name="Guest"), Random(1), auto=False)
    await guest.game.start()
    await until(lambda: guest.game.room is not None and not guest.game.room.owner)
    guest.game.start_match()  # not the host: refused, nothing starts
    await until(lambda: any(r.code == "not_owner" for r in guest.refused))
    assert hosted_game.hosted_room is not None and hosted_game.hosted_room.status == "waiting"
    await until(lambda: hosted_game.room is not None and hosted_game.room.owner)
    hosted_game.start_match()
    await until(lambda: has_view(guest) and has_view(host_player))
    assert guest.game.view.names[2] not in ("", "Hostess", "Guest")  # a computer player filled it
    await hosted_game.close()
    await until(lambda: guest.closed)
    assert guest.closed[-1].code == "host_left"
    assert "host ended" in guest.closed[-1].message


async def test_a_retried_intent_is_applied_once_and_answered_again() -> None:
    from unotui.protocol import messages as m

    config = RoomConfig(seats=2, autostart=True, rules=Rules.preset("classic"), **FAST)
    async with hosted(config) as (_host, room, port):
        a, b = await join_two(port)
        await until(lambda: has_view(a) and has_view(b) and room.game is not None)
        game = room.game
        assert game is not None
        mover = a if game.actor == 0 else b
        action = game.legal_actions(game.actor)[0]
        seq = mover.game.send(action)
        await until(lambda: any(isinstance(u, m.Accepted) and u.seq == seq for u in mover.updates))
        version, log = game.version, len(game.log)
        link = mover.game._link
        assert link is not None
        session_of(link, PeerSession).send(m.Intent(seq, action))  # the same intent again, same seq
        link.flush()
        await until(lambda: sum(isinstance(u, m.Accepted) and u.seq == seq for u in mover.updates) == 2)
        assert game.version == version and len(game.log) == log
        for p in (a, b):
            await p.game.close()


async def test_a_spectator_watches_without_a_hand_and_cannot_act() -> None:
    from unotui.engine import DRAW

    config = RoomConfig(seats=2, autostart=True, rules=Rules.preset("classic"), **FAST)
    async with hosted(config) as (_host, _room, port):
        a = Player(RemoteGame("127.0.0.1", port, name="A"), Random(1))
        b = Player(RemoteGame("127.0.0.1", port, name="B"), Random(2))
        await a.game.start()
        await b.game.start()
        late = RemoteGame("127.0.0.1", port, name="Late")
        with pytest.raises(JoinError) as info:  # the match has started: seats are taken
            await late.start()
        assert info.value.code == "table_full"
        watcher = Player(RemoteGame("127.0.0.1", port, name="W", spectate=True), Random(3), auto=False)
        await watcher.game.start()
        await until(lambda: has_view(watcher))
        view = watcher.game.view
        assert watcher.game.seat is None and view.seat is None
        assert view.hand == () and len(view.counts) == 2 and sum(view.counts) > 0
        seq = watcher.game.send(DRAW)
        await until(lambda: any(r.seq == seq for r in watcher.refused))
        assert watcher.refused[-1].code == "spectator"
        from unotui.protocol.events import ViewUpdated

        def saw_round_end() -> bool:
            return any(isinstance(u, ViewUpdated) and u.view.round_winner >= 0 for u in watcher.updates)

        await until(saw_round_end, 20)
        for p in (a, b, watcher):
            await p.game.close()


async def test_the_others_hear_once_that_a_seat_went_away_and_once_that_it_is_back() -> None:
    from unotui.protocol import messages as m

    rules = Rules.preset("classic").with_(target_score=1000)
    async with hosted(RoomConfig(seats=2, autostart=True, rules=rules, **FAST)) as (_host, room, port):
        a, b = await join_two(port)
        link = b.game._link
        assert link is not None
        link.abort("gone")  # b's connection dies; b's program resumes by itself
        await until(lambda: any(isinstance(u, m.Presence) and u.state == "back" for u in a.updates))
        await until(lambda: room.book.seats[b.game.seat or 0].connected)
        heard = [u.state for u in a.updates if isinstance(u, m.Presence) and u.seat == b.game.seat]
        assert heard[-2:] == ["away", "back"] and heard.count("away") == heard.count("back") == 1
        await a.game.close()
        await b.game.close()
