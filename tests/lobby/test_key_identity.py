"""One SSH key is one identity (issue 18 item 3), over real loopback sockets.

The key is the person: it is known by the name it first came with, whatever SSH user
name a later session gives (``ssh carol@HOST`` with alice's key is alice); two
connections of one key at once are both welcome in the lobby and never throw each other
out of a seat; and the key's results are one row under that name.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

from tests.net.lan_support import Player, has_view, until
from unotui.engine import Rules
from unotui.lobby.serve import session_extra
from unotui.lobby.session import greeting
from unotui.lobby.words import in_use_text
from unotui.net.remote import JoinError, RemoteGame
from unotui.protocol import messages as m
from unotui.ssh.spec import SessionSpec

from .test_lobby_net import FAST, Visitor, lobby_host, visit

pytestmark = pytest.mark.timeout(60)

ALICE = "SHA256:alicesKeyAAAAAAA"


def door(lobby: object, user: str, fingerprint: str | None = ALICE) -> dict[str, str]:
    """What the SSH door tells a session of ``user`` with this key (``unotui serve``'s own
    function, on the test lobby's store and credentials)."""
    spec = SessionSpec(user, fingerprint, "xterm", (80, 24), peer="203.0.113.7")
    return session_extra(spec, lobby.credentials, lobby.store, port=1, ssh_port=2,  # type: ignore[attr-defined]
                         public_host="h")


async def test_a_key_is_the_name_it_first_came_with_in_the_lobby_and_twice_at_once(tmp_path: Path) -> None:
    async with lobby_host(tmp_path) as (lobby, port):
        first = door(lobby, "alice")
        assert first["name"] == "alice"
        alice = await visit(port, "alice", first["identity"])
        again = door(lobby, "carol")  # the same key, another SSH user name
        assert again["name"] == "alice"
        # Even a hello that asks for another name is the key's (the lobby decides, not the hello).
        carol = await visit(port, "carol", again["identity"])
        assert carol.last().you == "alice"  # not "carol", and not "alice 2": one person
        assert alice.last().you == "alice"
        await until(lambda: alice.last().online == 2)
        guest = await visit(port, "alice")  # someone else typing the name is someone else
        assert guest.last().you == "alice 2"
        # Two terminals of one key are both in the lobby; one leaving clears only its own presence.
        assert [n for n, _where in lobby.store.online()].count("alice") == 2
        await carol.client.close()
        await until(lambda: [n for n, _where in lobby.store.online()].count("alice") == 1)
        assert not any(isinstance(u, m.Refused) for u in alice.heard)
        await alice.client.close()
        await guest.client.close()


def test_the_greeting_says_the_key_is_its_first_names() -> None:
    assert "You are alice: this SSH key is alice's" in greeting("alice", "carol", keyed=True)
    assert "carol is not used" in greeting("alice", "carol", keyed=True)
    assert "not used" not in greeting("alice", "alice", keyed=True)
    assert greeting("carol", "carol", keyed=False) == ""  # a guest is the name they typed


async def test_a_seat_in_use_in_another_terminal_of_the_key_is_not_taken_from_it(tmp_path: Path) -> None:
    """Terminal A of alice's key plays at a table; terminal B (``ssh carol@`` with the same
    key) is told so in the lobby and refused at the table, and A plays on.  Once A leaves,
    the lobby names the seat for B, who takes it back."""
    async with lobby_host(tmp_path) as (lobby, port):
        extra = door(lobby, "alice")
        cred = extra["identity"]
        lobby_a = await visit(port, "alice", cred)
        lobby_a.client.create("Two", 3, 1, Rules.preset("classic"), "easy", None, True)
        await until(lambda: lobby_a.created())
        code = lobby_a.created()[0]
        await lobby_a.client.close()
        a = RemoteGame("127.0.0.1", port, name="alice", table=code, identity=cred, reconnect_for=0)
        at_a = Player(a, Random(1), auto=False)
        await a.start()
        bob = RemoteGame("127.0.0.1", port, name="bob", table=code)
        await bob.start()
        await until(lambda: lobby.tables[code].room.status == "playing" and has_view(at_a))
        b_extra = door(lobby, "carol")
        lobby_b = await visit(port, "carol", b_extra["identity"])
        assert lobby_b.last().seat_at is None  # not sent to a seat another terminal plays
        await until(lambda: any(isinstance(u, m.Refused) and u.code == "seat_in_use" for u in lobby_b.heard))
        said = next(u for u in lobby_b.heard if isinstance(u, m.Refused) and u.code == "seat_in_use")
        assert said.message == in_use_text(code) and "another terminal" in said.message
        b = RemoteGame("127.0.0.1", port, name=b_extra["name"], table=code, identity=b_extra["identity"])
        with pytest.raises(JoinError) as refused:
            await b.start()
        assert refused.value.code == "seat_in_use"
        assert "another terminal of your SSH key" in str(refused.value)
        await b.close()
        assert at_a.closed == [] and a._link is not None and not a._link.session.closed  # A plays on
        seat = a.seat
        await a.close()  # A leaves (its seat is held): now the lobby sends B back to it
        await until(lambda: lobby_b.last().seat_at == code)
        b = RemoteGame("127.0.0.1", port, name=b_extra["name"], table=code, identity=b_extra["identity"])
        await b.start()
        assert b.seat == seat
        await b.close()
        await bob.close()
        await lobby_b.client.close()


async def _alice_seated(lobby: object, port: int) -> tuple[str, RemoteGame, Player, Visitor]:
    """alice's key at a new 4-seat table of her own (waiting): its code, her seat's game and
    what it heard, her lobby connection."""
    cred = door(lobby, "alice")["identity"]
    host = await visit(port, "alice", cred)
    host.client.create("Four", 4, 0, Rules.preset("classic"), "easy", None, True)
    await until(lambda: host.created())
    code = host.created()[0]
    a = RemoteGame("127.0.0.1", port, name="alice", table=code, identity=cred, reconnect_for=0)
    seen = Player(a, Random(1), auto=False)
    await a.start()
    return code, a, seen, host


async def test_a_terminal_that_says_take_over_moves_the_seat_and_the_other_is_told(tmp_path: Path) -> None:
    """The lobby asks its player first, and a yes sends ``hello.take_over``: the seat moves
    to the new terminal and the old one is closed ``replaced`` with the reason."""
    async with lobby_host(tmp_path) as (lobby, port):
        code, a, seen, host = await _alice_seated(lobby, port)
        other = door(lobby, "carol")["identity"]
        b = RemoteGame("127.0.0.1", port, name="alice", table=code, identity=other, take_over=True)
        await b.start()
        assert b.seat == a.seat
        await until(lambda: len(seen.closed) == 1)
        closed = seen.closed[0]
        assert closed.code == "replaced" and "another terminal of your SSH key" in closed.message
        room = lobby.tables[code].room
        seat = b.seat or 0
        assert room.book.seats[seat].connected and len(list(room.core.audience.holding(seat))) == 1
        await b.close()
        await a.close()
        await host.client.close()


async def test_a_second_terminal_of_a_key_cannot_take_its_waiting_seat_either(tmp_path: Path) -> None:
    async with lobby_host(tmp_path) as (lobby, port):
        code, a, seen, host = await _alice_seated(lobby, port)
        with pytest.raises(JoinError) as refused:
            other = door(lobby, "carol")["identity"]
            await RemoteGame("127.0.0.1", port, name="alice", table=code, identity=other).start()
        assert refused.value.code == "seat_in_use"
        assert seen.closed == [] and lobby.tables[code].room.book.seats[a.seat or 0].connected
        await a.close()
        await host.client.close()


async def test_carol_with_alices_key_is_recorded_as_alice_in_one_row(tmp_path: Path) -> None:
    """A match played by ``ssh carol@`` with alice's key counts for alice: one row of the
    leaderboard, alice's name, the match among her games."""
    settings = replace(FAST, over_grace=0.3, empty_grace=0.3)
    async with lobby_host(tmp_path, settings) as (lobby, port):
        door(lobby, "alice")  # the key's first visit
        extra = door(lobby, "carol")
        visitor = await visit(port, "carol", extra["identity"])
        short = Rules.preset("classic").with_(target_score=1)
        visitor.client.create("Short", 2, 1, short, "random", 30.0, False)
        await until(lambda: visitor.created())
        code = visitor.created()[0]
        game = RemoteGame("127.0.0.1", port, name=extra["name"], table=code, identity=extra["identity"])
        player = Player(game, Random(3))
        await game.start()
        assert lobby.tables[code].room.book.seats[game.seat or 0].name == "alice"
        await until(lambda: has_view(player) and game.view.phase == "match_over", timeout=40)
        await until(lambda: code not in lobby.tables or lobby.tables[code].recorded)
        board = lobby.store.leaderboard()
        assert [(r.identity, r.name, r.games) for r in board] == [(ALICE, "alice", 1)]
        await until(lambda: [r.name for r in visitor.last().leaders] == ["alice"])
        await game.close()
        await visitor.client.close()
