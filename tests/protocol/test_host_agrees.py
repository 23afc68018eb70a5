"""The host does what ``protocol/SPEC.md`` says, seen from a client written from the spec.

Each test speaks the wire itself on a real loopback socket (frames in, frames out, no
unotui client in between, except where the client's own side is the point), so what it
checks is what an independent client sees: names made unique and said in ``welcome``, a
started table refusing newcomers, ``bye`` in the waiting room and during a match, the
order of a delta and its ``accepted``, who gets a chat line back, presence for seats
only, and the 64-answer memory behind ``stale_seq``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tests.net.lan_support import FAST, hosted, raw
from unotui.engine import Action, Rules, SeatView
from unotui.net.config import RoomConfig
from unotui.net.remote import RemoteGame
from unotui.protocol import messages as m
from unotui.protocol.codec import decode_host, encode
from unotui.protocol.framing import FrameDecoder, frame
from unotui.protocol.sync import ViewDecoder
from unotui.table import ANSWERS_KEPT

pytestmark = pytest.mark.timeout(30)

CLASSIC = Rules.preset("classic").with_(target_score=1000)


class Wire:
    """One raw connection: what it was sent, in order, and a way to send frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.frames = FrameDecoder(256 * 1024)
        self.views = ViewDecoder()
        self.got: list[Any] = []
        #: the seat's view as the snapshot and deltas so far make it
        self.view: SeatView | None = None
        self.eof = False

    def send(self, message: m.Message) -> None:
        self.writer.write(frame(encode(message), 4096))

    async def until(self, predicate: Callable[[list[Any]], bool], timeout: float = 5.0) -> None:
        """Read until ``predicate(self.got)`` holds (or the host closes: then it must hold)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not predicate(self.got):
            if self.eof:
                raise AssertionError(f"closed before the condition held: {self.got[-5:]}")
            data = await asyncio.wait_for(self.reader.read(65536), max(0.01, end - loop.time()))
            if not data:
                self.eof = True
            for body in self.frames.feed(data):
                message = decode_host(body)
                self.got.append(message)
                if isinstance(message, m.Snapshot | m.Delta):
                    self.view = self.views.apply(message)

    async def closed(self, timeout: float = 5.0) -> None:
        """Read until the host closes the connection."""
        await self.until(lambda _got: self.eof, timeout)

    def of(self, kind: type[Any]) -> list[Any]:
        return [x for x in self.got if isinstance(x, kind)]

    def welcome(self) -> m.Welcome:
        [welcome] = self.of(m.Welcome)
        return welcome

    def seen(self) -> SeatView:
        assert self.view is not None
        return self.view


async def hello(port: int, name: str, **fields: Any) -> Wire:
    """A raw connection that said hello and read its answer (``welcome`` or ``error``)."""
    wire = Wire(*await raw(port))
    wire.send(m.Hello(1, 1, name, **fields))
    await wire.until(lambda got: any(isinstance(x, m.Welcome | m.Error) for x in got))
    return wire


def has(kind: type[Any], **fields: Any) -> Callable[[list[Any]], bool]:
    return lambda got: any(isinstance(x, kind) and all(getattr(x, k) == v for k, v in fields.items())
                           for x in got)


# ----- names ------------------------------------------------------------------------------


async def test_a_taken_name_ignoring_case_is_renamed_and_welcome_says_the_name_given() -> None:
    async with hosted(RoomConfig(seats=4, **FAST)) as (_host, room, port):
        wires = [await hello(port, name) for name in ("Ann", "ann", "aNN")]
        assert [w.welcome().name for w in wires] == ["Ann", "ann 2", "aNN 3"]
        assert room.book.names[:3] == ["Ann", "ann 2", "aNN 3"]
        assert not any(w.of(m.Error) for w in wires)  # never name_taken
        # The client's own side takes the name the host gave.
        game = RemoteGame("127.0.0.1", port, name="ANN")
        await game.start()
        assert game.welcome is not None and game.welcome.name == "ANN 4" and game.seat_name == "ANN 4"
        spectator = await hello(port, "Ann", spectate=True)
        assert spectator.welcome().seat is None and spectator.welcome().name is None
        await game.close()


async def test_a_started_table_answers_a_new_player_table_full_but_admits_a_spectator() -> None:
    async with hosted(RoomConfig(seats=2, autostart=True, rules=CLASSIC, **FAST)) as (_host, room, port):
        a, b = await hello(port, "A"), await hello(port, "B")
        await a.until(lambda got: bool(a.of(m.Snapshot)))
        b.writer.close()  # b's seat is held (away); still no seat for a newcomer
        late = await hello(port, "C")
        assert [e.code for e in late.of(m.Error)] == ["table_full"]
        watcher = await hello(port, "C", spectate=True)
        assert watcher.welcome().seat is None
        assert room.book.names == ["A", "B"]


# ----- bye --------------------------------------------------------------------------------


async def test_bye_during_a_match_holds_the_seat_tells_the_others_left_and_the_token_resumes() -> None:
    async with hosted(RoomConfig(seats=2, autostart=True, rules=CLASSIC, **FAST)) as (_host, room, port):
        a, b = await hello(port, "A"), await hello(port, "B")
        await a.until(lambda got: bool(a.of(m.Snapshot)))
        await b.until(lambda got: bool(b.of(m.Snapshot)))
        seat, token = b.welcome().seat, b.welcome().token
        assert seat is not None and token is not None
        sent = len(b.got)
        b.send(m.Bye())
        await b.closed()
        assert b.got[sent:] == []  # nothing after bye: no `closed bye`
        await a.until(has(m.Presence, seat=seat, state="left"))
        assert not a.of(m.Presence) or all(p.state != "away" for p in a.of(m.Presence))
        entry = room.book.seats[seat]
        assert entry.kind == "human" and not entry.connected  # held, as for a drop
        await a.until(lambda got: any(isinstance(x, m.TableState) and x.seats[seat].away for x in got))
        back = await hello(port, "whoever", token=token)
        assert back.welcome().seat == seat and back.welcome().name == "B"
        await a.until(has(m.Presence, seat=seat, state="back"))


async def test_bye_in_the_waiting_room_gives_the_seat_up() -> None:
    async with hosted(RoomConfig(seats=3, **FAST)) as (_host, room, port):
        a, b = await hello(port, "A"), await hello(port, "B")
        seat, token = b.welcome().seat, b.welcome().token
        b.send(m.Bye())
        await b.closed()
        await a.until(has(m.Presence, seat=seat, state="left"))
        await a.until(lambda got: any(isinstance(x, m.TableState) and x.seats[seat or 0].kind == "open"
                                      for x in got))
        assert room.book.seats[seat or 0].kind == "open"
        again = await hello(port, "B", token=token)
        assert [e.code for e in again.of(m.Error)] == ["bad_token"]
        c = await hello(port, "C")  # a connection that just drops, there, is the same
        c.writer.close()
        await a.until(has(m.Presence, seat=c.welcome().seat, state="left"))


# ----- answers and their order -------------------------------------------------------------


async def test_the_delta_of_an_intent_reaches_its_sender_before_accepted_and_a_refusal_has_none() -> None:
    async with hosted(RoomConfig(seats=2, autostart=True, rules=CLASSIC, **FAST)) as (_host, _room, port):
        wires = [await hello(port, "A"), await hello(port, "B")]
        for w in wires:
            await w.until(lambda got, w=w: bool(w.of(m.Snapshot)))
        moves = 0
        for seq in range(1, 13):  # turns, each answered in the spec's order
            await asyncio.sleep(0.05)  # (let both catch up with the last move and its sequel)
            for w in wires:
                await w.until(lambda _got, w=w: w.seen().version == max(x.seen().version for x in wires))
            actor = wires[0].seen().actor
            mover = next(w for w in wires if w.welcome().seat == actor)
            other = wires[1] if mover is wires[0] else wires[0]
            start = len(other.got)
            other.send(m.Intent(seq, Action.parse("deal")))  # refused in any phase of a round
            await other.until(has(m.Refused, seq=seq))
            assert isinstance(other.got[start], m.Refused), other.got[start:]  # and nothing first
            start, version = len(mover.got), mover.seen().version
            mover.send(m.Intent(seq, mover.seen().legal[0]))
            answered = has(m.Accepted, seq=seq), has(m.Refused, seq=seq)
            await mover.until(lambda got, answered=answered: any(a(got) for a in answered))
            answer = mover.got[start:]
            at = next(i for i, x in enumerate(answer) if isinstance(x, m.Accepted | m.Refused))
            if isinstance(answer[at], m.Refused):
                continue  # the state moved on meanwhile (an automatic keep): not a move
            moves += 1
            deltas = [x for x in answer[:at] if isinstance(x, m.Delta)]
            assert deltas, answer  # the effect came first, and it is the move's
            assert deltas[0].changes["version"] > version
        assert moves >= 6


# ----- chat and presence -------------------------------------------------------------------


async def test_a_chat_line_comes_back_to_its_sender_and_to_everyone_else() -> None:
    async with hosted(RoomConfig(seats=3, **FAST)) as (_host, _room, port):
        a, b = await hello(port, "A"), await hello(port, "B")
        watcher = await hello(port, "W", spectate=True)
        a.send(m.Chat("  hello\tthere  "))
        for w in (a, b, watcher):
            await w.until(has(m.ChatLine, seat=0, name="A", text="hello there"))


async def test_presence_is_sent_for_seats_only_never_for_a_spectator() -> None:
    async with hosted(RoomConfig(seats=3, **FAST)) as (_host, _room, port):
        a = await hello(port, "A")
        watcher = await hello(port, "W", spectate=True)
        watcher.writer.close()
        b = await hello(port, "B")  # something after the spectator came and went
        await a.until(has(m.Presence, seat=b.welcome().seat, state="joined"))
        assert all(p.seat is not None for p in a.of(m.Presence))


# ----- sequence numbers ----------------------------------------------------------------------


async def test_a_seq_below_the_highest_answered_is_answered_again_if_remembered_else_stale() -> None:
    async with hosted(RoomConfig(seats=2, autostart=True, rules=CLASSIC, **FAST)) as (_host, _room, port):
        a, b = await hello(port, "A"), await hello(port, "B")
        await a.until(lambda got: bool(a.of(m.Snapshot)))
        await b.until(lambda got: bool(b.of(m.Snapshot)))
        waiting = a if a.seen().actor != a.welcome().seat else b  # intents it may not make
        uno = Action.parse("uno")

        async def ask(seq: int) -> m.Refused:
            waiting.send(m.Intent(seq, uno))
            count = len([r for r in waiting.of(m.Refused) if r.seq == seq])
            await waiting.until(lambda got: len([r for r in waiting.of(m.Refused) if r.seq == seq]) > count)
            return [r for r in waiting.of(m.Refused) if r.seq == seq][-1]

        first = await ask(5)
        assert first.code not in ("stale_seq", "bad_seq")
        assert (await ask(3)).code == "stale_seq"  # a gap below the highest: never answered
        assert (await ask(5)).code == first.code  # remembered: the same answer
        for seq in range(6, 6 + ANSWERS_KEPT):
            await ask(seq)
        assert (await ask(6)).code == first.code  # still among the last 64
        assert (await ask(5)).code == "stale_seq"  # 65 answers ago: forgotten
