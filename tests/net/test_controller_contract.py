"""One contract for every controller: the same tests for a local game and a remote seat.

The table screen cannot tell a :class:`LocalGame` from a :class:`RemoteGame`; these tests
hold both to the same promises through the interface alone: the first update is a view,
intents are numbered and answered (applied or refused with their number), nothing is in
flight once answered, refusals change nothing, rounds follow ``next_round``, hints are
legal, and ``close`` stops updates.  The remote seat talks to a real host in this process
over loopback, with computer players in the other seats.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from random import Random
from typing import TYPE_CHECKING

import pytest

from unotui.engine import Catch, Phase, Rules
from unotui.net.config import RoomConfig
from unotui.net.controller import Controller
from unotui.net.hosted import HostedGame
from unotui.net.local import LocalGame
from unotui.protocol import messages as m
from unotui.protocol.events import ViewUpdated
from unotui.protocol.session import Rates

if TYPE_CHECKING:
    from unotui.net.controller import Update

pytestmark = pytest.mark.timeout(60)

RULES = Rules.preset("classic").with_(target_score=5000)


class Recorder:
    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        self.updates: list[Update] = []
        controller.listen(self.updates.append)

    def of(self, kind: type) -> list[Update]:
        return [u for u in self.updates if isinstance(u, kind)]

    async def until(self, predicate: object, timeout: float = 20.0) -> None:
        assert callable(predicate)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not predicate():
            assert loop.time() < end, "condition not met in time"
            await asyncio.sleep(0.005)


@pytest.fixture(params=["local", "remote"])
async def seat(request: pytest.FixtureRequest) -> AsyncIterator[Recorder]:
    controller: Controller
    if request.param == "local":
        controller = LocalGame(["Me", "Ada", "Bob"], RULES, level="random", seed=7, delay=0, catch_grace=0)
        recorder = Recorder(controller)
        await controller.start()
    else:
        config = RoomConfig(
            seats=3, rules=RULES, level="random", bot_delay=0.0, catch_grace=0.0, auto_keep=0.0
        )
        rates = Rates(per_s=10_000, burst=10_000)  # the script acts as fast as the loop turns
        controller = HostedGame(config, "Me", bind="127.0.0.1", port=0, rates=rates)
        recorder = Recorder(controller)
        await controller.start()
        controller.start_match()
    await recorder.until(lambda: recorder.of(ViewUpdated))
    yield recorder
    await controller.close()


async def _my_turn(rec: Recorder) -> None:
    """Play (randomly, never catching) until it is the viewer's decision in phase play."""
    rng = Random(3)
    c = rec.controller

    def ready() -> bool:
        v = c.view
        return v.my_turn and v.phase == Phase.PLAY and not c.in_flight

    loop = asyncio.get_running_loop()
    end = loop.time() + 20
    while not ready():
        assert loop.time() < end, "never the viewer's turn to play"
        v = c.view
        if v.phase == Phase.ROUND_OVER:
            c.next_round()
        elif v.my_turn and not c.in_flight:
            c.send(rng.choice([a for a in v.legal if not isinstance(a, Catch)]))
        await asyncio.sleep(0.01)


async def test_the_first_update_is_a_view_of_the_viewers_seat(seat: Recorder) -> None:
    first = next(u for u in seat.updates if isinstance(u, ViewUpdated))
    assert first.view.seat == seat.controller.seat == 0
    assert seat.controller.view.names[0] == "Me"
    assert len(first.view.hand) == first.view.counts[0] > 0


async def test_a_refused_intent_echoes_its_number_and_changes_nothing(seat: Recorder) -> None:
    c = seat.controller
    await _my_turn(seat)
    before = c.view
    hand = set(before.hand)
    from unotui.engine import ALL_CARDS, play

    card = next(x for x in ALL_CARDS if x not in hand)
    seq = c.send(play(card))
    await seat.until(lambda: any(isinstance(u, m.Refused) and u.seq == seq for u in seat.updates))
    refusal = next(u for u in seat.of(m.Refused) if isinstance(u, m.Refused) and u.seq == seq)
    assert refusal.code == "not_in_hand" and refusal.message
    assert not c.in_flight
    assert c.view.hand == before.hand and c.view.version == before.version


async def test_an_accepted_intent_is_answered_with_its_number_and_a_new_view(seat: Recorder) -> None:
    c = seat.controller
    await _my_turn(seat)
    before = c.view.version
    seq = c.send(c.view.legal[0])
    assert c.in_flight or any(isinstance(u, m.Accepted) and u.seq == seq for u in seat.updates)
    await seat.until(lambda: any(isinstance(u, m.Accepted) and u.seq == seq for u in seat.updates))
    assert not c.in_flight
    assert c.view.version > before


async def test_numbers_increase(seat: Recorder) -> None:
    c = seat.controller
    await _my_turn(seat)
    from unotui.engine import DRAW

    first = c.send(DRAW)
    second = c.send(DRAW)  # whatever the answer to this one, it is numbered next
    assert second == first + 1


async def test_a_hint_is_a_legal_action(seat: Recorder) -> None:
    c = seat.controller
    await _my_turn(seat)
    hint = await c.hint()
    assert hint in c.view.legal


async def test_rounds_follow_next_round(seat: Recorder) -> None:
    c = seat.controller
    rng = Random(5)
    await seat.until(lambda: True)
    loop = asyncio.get_running_loop()
    end = loop.time() + 40
    while c.view.round_no < 2:
        assert loop.time() < end, (
            c.view.phase,
            c.view.round_no,
            c.view.actor,
            c.in_flight,
            c._pending,
            c.view.legal,
        )
        v = c.view
        if v.phase == Phase.ROUND_OVER:
            c.next_round()
        elif v.my_turn and not c.in_flight:
            c.send(rng.choice([a for a in v.legal if not isinstance(a, Catch)]))
        await asyncio.sleep(0.01)
    # Round 2 dealt 7 cards each; a first card of Draw Two makes the first player draw 2.
    v = c.view
    deal = max(i for i, e in enumerate(v.log) if e.kind == "deal")
    drawn = sum(e.value for e in v.log[deal:] if e.kind == "draw" and e.seat == v.seat)
    played = sum(1 for e in v.log[deal:] if e.kind in ("play", "jump") and e.seat == v.seat)
    assert v.round_no == 2 and len(v.hand) == 7 + drawn - played == v.counts[v.seat]


async def test_close_stops_updates(seat: Recorder) -> None:
    c = seat.controller
    await c.close()
    n = len(seat.updates)
    await asyncio.sleep(0.05)
    assert len(seat.updates) == n


async def test_leaving_says_what_becomes_of_the_match(seat: Recorder) -> None:
    """The quit question's sentence: a solo match is gone; the host's leaving ends the
    table for everyone (a joined seat's sentence is tested at a lobby table)."""
    said = seat.controller.leaving
    if isinstance(seat.controller, LocalGame):
        assert said == "The match is not over; it cannot be resumed."
    else:
        assert "ends the match for everyone" in said
