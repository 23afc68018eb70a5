"""Tokens and intents: nobody gets a seat that is not theirs, and nothing but the rules
moves the game.  Every refusal changes nothing (the game's version stays)."""

from __future__ import annotations

import secrets

import pytest

from tests.net.lan_support import FAST, until
from unotui.engine import Action, Game, Rules
from unotui.net.config import RoomConfig
from unotui.protocol import messages as m
from unotui.protocol.codec import encode
from unotui.protocol.framing import frame

from .arena import RawPeer, arena, size

pytestmark = pytest.mark.timeout(60)

TARGET = RoomConfig(name="Target", seats=3, bots=1, autostart=True, rules=Rules.preset("classic"),
                    **{**FAST, "catch_grace": 5.0})


async def _to_a_play(game: Game, peers: dict[int, RawPeer]) -> None:
    """Play on (the first legal action) until a person is to play a card."""
    for n in range(100, 140):
        await until(lambda: game.actor in peers)
        if game.phase == "play" and not game.pending:
            return
        peers[game.actor].send(m.Intent(n, game.legal_actions(game.actor)[0]))
        await peers[game.actor].wait(lambda x: getattr(x, "seq", None) == n)  # noqa: B023
    raise AssertionError("no plain play in 40 moves")


def _is(kind: type, **fields: object):  # type: ignore[no-untyped-def]
    return lambda x: isinstance(x, kind) and all(getattr(x, k) == v for k, v in fields.items())


async def test_wrong_replayed_guessed_and_foreign_tokens_get_bad_token() -> None:
    async with arena(TARGET) as a:
        await a.start_legit()
        room = a.rooms["target"]
        ann = await RawPeer.seated(a.port, "Ann", source="127.0.10.1")
        bob = await RawPeer.seated(a.port, "Bob", source="127.0.10.2")
        await until(lambda: room.status == "playing")
        assert ann.welcome is not None and ann.welcome.token
        first = ann.welcome.token

        async def code_for(token: str, source: str, table: str = "target") -> str:
            peer = await RawPeer.connect(a.port, source)
            peer.send_raw({"t": "hello", "min_version": 1, "max_version": 1, "name": "Mallory",
                           "password": None, "token": token, "spectate": False, "client": "x",
                           "table": table, "lobby": False, "identity": None})
            try:
                return await peer.error()
            finally:
                peer.close()

        # A resume with the right token takes the seat (the old connection is told) and
        # rotates the token; the old one is then worthless (a replay).
        back = await RawPeer.seated(a.port, "Ann", source="127.0.10.3", token=first)
        assert back.welcome is not None and back.welcome.seat == ann.welcome.seat
        assert back.welcome.token and back.welcome.token != first
        assert await ann.error() == "replaced"
        assert await code_for(first, "127.0.10.4") == "bad_token"
        # Someone else's token from the other table, and a wrong one.
        legit_token = a.legit[0].game.token
        assert await code_for(legit_token, "127.0.10.5") == "bad_token"
        assert await code_for(secrets.token_urlsafe(32), "127.0.10.6") == "bad_token"
        # Guessing: well-formed random tokens, five per address (the door's burst).
        guesses = size(40, 1000)
        for k in range(guesses):
            source = f"127.1.{k // 5 // 250}.{1 + k // 5 % 250}"
            assert await code_for(secrets.token_urlsafe(32), source) == "bad_token"
        # Ill-formed tokens are not even tokens.
        assert await code_for("short", "127.0.10.7") == "bad_message"
        # No token ever reached another connection.
        tokens = {first, back.welcome.token}
        assert not [x for x in bob.heard if any(t in repr(x) for t in tokens)]
        assert room.book.seats[back.welcome.seat].connected
        for peer in (back, bob):
            peer.close()
        await a.legit_intact()


async def test_intents_out_of_turn_illegal_malformed_replayed_and_early_catches() -> None:
    async with arena(TARGET) as a:
        await a.start_legit()
        room = a.rooms["target"]
        ann = await RawPeer.seated(a.port, "Ann", source="127.0.12.1")
        ann.send(m.Intent(1, Action.parse("draw")))
        assert (await ann.wait(_is(m.Refused, seq=1))).code == "not_started"  # type: ignore[attr-defined]
        watcher = await RawPeer.seated(a.port, "Watcher", source="127.0.12.3", spectate=True)
        watcher.send(m.Intent(1, Action.parse("draw")))
        assert (await watcher.wait(_is(m.Refused, seq=1))).code == "spectator"  # type: ignore[attr-defined]
        bob = await RawPeer.seated(a.port, "Bob", source="127.0.12.2")
        await until(lambda: room.status == "playing")
        game = room.game
        assert game is not None
        seats = {ann.welcome.seat: ann, bob.welcome.seat: bob}  # type: ignore[union-attr]
        await _to_a_play(game, seats)  # type: ignore[arg-type]
        actor, other = seats[game.actor], seats[next(s for s in seats if s != game.actor)]
        assert game.phase == "play"
        version = game.version
        held = set(game.hands[game.actor])
        missing = next(c for c in ("R0", "Y0", "G0", "B0", "R9", "Y9", "G9", "B9")
                       if Action.parse(c).card not in held)  # type: ignore[attr-defined]
        # (numbers above _to_a_play's 100-139: a seat's numbers only go up)
        cases = [
            (other, "draw", {"not_your_turn"}),  # out of turn
            (other, "catch 9", {"no_such_seat", "illegal", "not_your_turn"}),  # a seat that is not there
            (actor, missing, {"not_in_hand"}),  # a card it does not hold
            (actor, "keep", {"wrong_phase", "illegal"}),  # nothing was drawn
            (actor, "challenge", {"wrong_phase", "illegal"}),
            (actor, "deal", {"wrong_phase", "illegal", "not_ready"}),
        ]
        for n, (peer, text, codes) in enumerate(cases, start=1010):
            peer.send(m.Intent(n, Action.parse(text)))
            refused = await peer.wait(_is(m.Refused, seq=n))
            assert refused.code in codes, (text, refused)  # type: ignore[attr-defined]
        assert game.version == version  # nothing moved
        # A replayed seq gets the first answer again and is applied once.
        actor.send(m.Intent(1050, Action.parse("draw")))
        await actor.wait(_is(m.Accepted, seq=1050))
        after = game.version
        actor.send(m.Intent(1050, Action.parse("draw")))
        accepted = [x for x in actor.heard if isinstance(x, m.Accepted) and x.seq == 1050]
        await until(lambda: len([x for x in actor.heard if _is(m.Accepted, seq=1050)(x)]) >= 1)
        actor.send(m.Ping(1))
        await actor.wait(_is(m.Pong, n=1))
        assert len([x for x in actor.heard if _is(m.Accepted, seq=1050)(x)]) == 2 and accepted
        assert game.version == after
        assert [s for s, _seat, t in a.accepted["target"] if s == 1050] == [1050]
        actor.send(m.Intent(1040, Action.parse("keep")))  # an older number, never used
        assert (await actor.wait(_is(m.Refused, seq=1040))).code in ("stale_seq", "bad_seq")  # type: ignore[attr-defined]
        # Claiming another seat inside the intent is not a message of this protocol.
        other.send_raw({"t": "intent", "seq": 1060, "action": "draw", "seat": game.actor})
        assert await other.error() == "bad_message"
        # A non-canonical action text is bad_action; the seat is held for a resume.
        actor.send_raw({"t": "intent", "seq": 1061, "action": "DRAW"})
        assert await actor.error() == "bad_action"
        assert all(not e.connected and e.kind == "human" for e in room.book.seats if e.kind == "human")
        watcher.close()
        await a.legit_intact()


async def test_an_early_catch_is_refused_too_early() -> None:
    async with arena(TARGET) as a:
        room = a.rooms["target"]
        ann = await RawPeer.seated(a.port, "Ann", source="127.0.13.1")
        bob = await RawPeer.seated(a.port, "Bob", source="127.0.13.2")
        await until(lambda: room.status == "playing")
        game = room.game
        assert game is not None and ann.welcome is not None and bob.welcome is not None
        assert ann.welcome.seat is not None and bob.welcome.seat is not None
        await _to_a_play(game, {ann.welcome.seat: ann, bob.welcome.seat: bob})
        if game.actor != ann.welcome.seat:  # whoever is to play is "Ann" here
            ann, bob = bob, ann
        me = game.actor
        # Rig the deal: she holds two cards of the colour in play, so her next play
        # leaves one card and she does not call UNO.
        card = Action.parse(f"{game.colour.letter}5").card  # type: ignore[attr-defined]
        game.hands[me] = [card, card]
        game.version += 1  # the legal actions are cached per version
        ann.send(m.Intent(200, Action.parse(str(card))))
        got = await ann.wait(lambda x: getattr(x, "seq", None) == 200)
        assert isinstance(got, m.Accepted), got
        assert game.uno_open == me
        version = game.version
        bob.send(m.Intent(300, Action.parse(f"catch {me}")))
        refused = await bob.wait(_is(m.Refused, seq=300))
        assert refused.code == "too_early", refused  # type: ignore[attr-defined]
        assert game.version == version and len(game.hands[me]) == 1
        ann.close()
        bob.close()


async def test_a_member_whose_session_closed_is_skipped_not_a_crash() -> None:
    """Regression: a session that closed itself (rate limit, bad frame, timeout) stays a
    member until its transport's ``connection_lost`` runs; anything the room sent everyone
    meanwhile raised ``LocalProtocolError`` inside another connection's callback (seen by
    bench/chaos.py: a drop's presence and the referee's ``drop`` were cut short).  An
    intent followed by a bad frame in one read hit the same: its own ``accepted``."""
    async with arena(TARGET) as a:
        room = a.rooms["target"]
        ann = await RawPeer.seated(a.port, "Ann", source="127.0.14.1")
        bob = await RawPeer.seated(a.port, "Bob", source="127.0.14.2")
        await until(lambda: room.status == "playing")
        link = next(link for link, seat in room.members.items() if seat == bob.welcome.seat)  # type: ignore[union-attr]
        link.session.close("timeout", "as if it had timed out")  # not yet gone from the room
        other = next(k for k in room.members if k is not link)
        room.receive(other, m.Chat("still here"))  # raised LocalProtocolError
        room.flush()
        assert await bob.error() == "timeout"
        await until(lambda: link not in room.members)
        # An intent (accepted or refused: either answer goes to a session closed by the
        # bad frame right behind it in the same read).
        ann.write(frame(encode(m.Intent(500, Action.parse("draw"))), 4096) + b"\x00\x00\x00\x01\xc1")
        assert await ann.error() == "bad_frame"
        await until(lambda: not room.members)
        late = await RawPeer.seated(a.port, "Late", source="127.0.14.3", spectate=True)  # still serving
        await late.wait(lambda x: isinstance(x, m.Snapshot))
        late.close()
