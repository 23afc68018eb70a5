"""The turn structure's types (issue 7): one ``Phase`` enum, typed queued steps, one
definition of the next seat."""

from __future__ import annotations

import enum
import json
import random

import pytest
from uno_testkit import CLASSIC, act, stacked_game

from tests.seeds import rng_secret
from unotui.engine import Card, Colour, CustomRule, Event, Game, Phase, Rules, seat_view
from unotui.engine.flow import (
    ADVANCE_0,
    ADVANCE_1,
    ADVANCE_2,
    ASK_COLOUR,
    BEGIN,
    HIT,
    Advance,
    Resize,
    RunEffect,
    seat_after,
)


def test_phase_is_one_str_enum_that_reads_as_text() -> None:
    assert issubclass(Phase, enum.StrEnum)
    assert Phase.PLAY == "play" and Phase.ROUND_OVER == "round_over"
    assert json.dumps({"phase": Phase.DRAWN}) == '{"phase": "drawn"}'
    g = Game(3, CLASSIC, secret=rng_secret(2))
    assert isinstance(g.phase, Phase)
    view = seat_view(g, 0)
    assert isinstance(view.phase, Phase) and view.phase == g.phase.value


def test_every_phase_a_game_reaches_is_a_phase_member() -> None:
    rules = Rules.preset("modern").with_(seven_o=True, target_score=300)
    g = Game(4, rules, secret=rng_secret(5))
    pick = random.Random(5)
    seen = set()
    while not g.over:
        assert type(g.phase) is Phase
        seen.add(g.phase)
        legal = g.legal_actions(g.actor)
        g.apply(g.actor, legal[pick.randrange(len(legal))])
    assert type(g.phase) is Phase and g.phase is Phase.MATCH_OVER
    assert {Phase.PLAY, Phase.DRAWN, Phase.COLOUR, Phase.TARGET, Phase.ROUND_OVER} <= seen


def custom(*effects: str) -> Rules:
    return CLASSIC.with_(custom_wilds=3, custom=CustomRule.parse(list(effects), ""))


def test_a_custom_wild_queues_typed_steps() -> None:
    g = stacked_game(["WC R1 R2 R3 R4", "Y1 Y2 Y3 Y4 Y5", "G1 G2 G3 G4 G5"], "B7", "B1 B2 B3",
                     rules=custom("next_to_seven", "all_to_three", "skip_next"), dealer=2)
    act(g, 0, "WC")
    assert g.todo == [RunEffect(0), RunEffect(1), RunEffect(2), ADVANCE_1]
    act(g, 0, "colour Y")
    # next_to_seven: seat 1 draws to 7 at once; all_to_three: everyone, from seat 0 on,
    # discards to 3; skip_next turned the final advance into a skip.
    assert g.phase is Phase.DISCARD and g.actor == 0
    assert g.todo == [Resize(1, 3), Resize(2, 3), RunEffect(2), ADVANCE_1]
    act(g, 0, "discard R1")
    act(g, 1, *[f"discard {c}" for c in list(map(str, g.hands[1]))[:4]])
    act(g, 2, "discard G1", "discard G2")
    assert g.todo == []
    assert g.actor == 2  # seat 1 was skipped


def test_extra_turn_wins_over_a_skip() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", rules=custom("extra_turn", "skip_next"),
                     dealer=2)
    act(g, 0, "WC")
    act(g, 0, "colour R")
    assert g.actor == 0 and g.phase is Phase.PLAY and g.todo == []


def test_steps_are_frozen_values() -> None:
    assert Advance(1) == ADVANCE_1 and Advance(0) is not ADVANCE_1
    assert Resize(2, 2) != ADVANCE_2 and RunEffect(0) != ADVANCE_0  # no tuple look-alikes
    with pytest.raises(AttributeError):
        ADVANCE_1.steps = 2  # type: ignore[misc]
    import copy
    import pickle

    for one in (ASK_COLOUR, HIT, BEGIN):  # a step without arguments is its one value ...
        assert pickle.loads(pickle.dumps(one)) is one and copy.deepcopy(one) is one
        assert one != ADVANCE_0 and one != () and {ASK_COLOUR, HIT, BEGIN} == {ASK_COLOUR, HIT, BEGIN}
        with pytest.raises(AttributeError):
            one.steps = 2  # type: ignore[attr-defined]  # ... that nothing can be set on
    assert len({ASK_COLOUR, HIT, BEGIN}) == 3


@pytest.mark.parametrize("players", [2, 3, 5])
def test_one_next_seat_for_the_game_and_the_view(players: int) -> None:
    g = Game(players, CLASSIC, secret=rng_secret(players))
    view = seat_view(g, 0)
    for direction in (1, -1):
        g.direction = direction
        view = seat_view(g, 0)
        for seat in g.active:
            for steps in (-1, 0, 1, 2):
                want = g.active[(g.active.index(seat) + steps * direction) % players]
                assert g.next_seat(seat, steps) == view.next_seat(seat, steps) == want
                assert seat_after(g.active, g.active.index(seat), direction, steps) == want


def test_the_commonest_events_are_whole_events() -> None:
    """The events of every turn (draw, keep, play, colour) are whole events, with every
    field in place."""
    g = stacked_game(["R1 B2 W", "Y1 Y2 Y3"], "R7", "B9 G5", dealer=1)
    act(g, 0, "draw")
    act(g, 0, "keep")
    act(g, 1, "draw")
    act(g, 1, "keep")
    act(g, 0, "W")
    act(g, 0, "colour G")
    want = [
        Event("draw", 0, (Card.parse("B9"),), value=1, note="turn", to=0),
        Event("keep", 0, (Card.parse("B9"),), to=0),
        Event("draw", 1, (Card.parse("G5"),), value=1, note="turn", to=1),
        Event("keep", 1, (Card.parse("G5"),), to=1),
        Event("play", 0, (Card.parse("W"),)),
        Event("colour", 0, value=int(Colour.GREEN)),
    ]
    got = g.log[-6:]
    assert got == want
    assert all(type(e) is Event and len(e) == len(Event._fields) for e in got)
