"""Rules checklist items 16-18: calling UNO and being caught."""

from __future__ import annotations

import pytest
from uno_testkit import CLASSIC, act, events, hand, legal, snapshot, stacked_game

from unotui.engine import BadChoiceError, Game, Phase, Rules, WrongPhaseError, seat_view

HANDS = ["R1 R2", "Y1 Y2", "G1 G2"]


def _down_to_one(call: bool, rules: Rules = CLASSIC) -> Game:
    """Seat 0 plays R1 from R1 R2, calling UNO with it or not."""
    g = stacked_game(HANDS, "R7", "B1 B2 B3 B4 B5", rules=rules, dealer=2)
    assert legal(g, 0) == {"R1", "R1!", "R2", "R2!", "draw"}  # plain play and play + call
    act(g, 0, "R1!" if call else "R1")
    return g


# ----- 16. caught before the next player acts ---------------------------------------------------


def test_16_forgetting_is_legal_and_opens_a_catch_for_everyone_else() -> None:
    g = _down_to_one(call=False)
    assert g.uno_open == 0
    assert legal(g, 0) == {"uno"}
    assert "catch 0" in legal(g, 1)
    assert legal(g, 2) == {"catch 0"}  # not only the next player


@pytest.mark.parametrize("catcher", [1, 2])
def test_16_caught_draws_two(catcher: int) -> None:
    g = _down_to_one(call=False)
    act(g, catcher, "catch 0")
    assert hand(g, 0) == "R2 B1 B2"
    assert g.uno_open == -1
    ev = events(g, "catch")[-1]
    assert (ev.seat, ev.target) == (catcher, 0)
    assert g.actor == 1 and g.phase == Phase.PLAY  # the turn order is unchanged
    # Only one penalty: nobody can catch again.
    assert "catch 0" not in legal(g, 1) | legal(g, 2)
    with pytest.raises(BadChoiceError):
        act(g, 2, "catch 0")


def test_16_2001_edition_penalty_is_four() -> None:
    g = _down_to_one(call=False, rules=Rules.preset("classic-2001"))
    assert g.rules.uno_penalty == 4
    act(g, 2, "catch 0")
    assert hand(g, 0) == "R2 B1 B2 B3 B4"


@pytest.mark.parametrize("first_action", ["draw", "play"])
def test_16_too_late_once_the_next_player_draws_or_plays(first_action: str) -> None:
    g = stacked_game(["R1 R2", "R3 Y2", "G1 G2"], "R7", "B1 B2 B3 B4 B5", dealer=2)
    act(g, 0, "R1")
    act(g, 1, "draw" if first_action == "draw" else "R3!")
    if g.phase == Phase.DRAWN:
        act(g, 1, "keep")
    assert g.uno_open == -1
    assert not any(t.startswith("catch") for t in legal(g, 1) | legal(g, 2))
    with pytest.raises(BadChoiceError):
        act(g, 2, "catch 0")
    assert hand(g, 0) == "R2"


def test_16_catch_window_stays_open_while_the_player_names_a_colour() -> None:
    g = stacked_game(["W R2", "Y1 Y2", "G1 G2"], "R7", "B1 B2 B3", dealer=2)
    act(g, 0, "W")
    assert g.phase == Phase.COLOUR
    assert "catch 0" in legal(g, 2)
    act(g, 2, "catch 0")
    assert hand(g, 0) == "R2 B1 B2"
    assert g.phase == Phase.COLOUR and g.actor == 0


def test_16_skipped_player_does_not_close_the_window() -> None:
    g = stacked_game(["RS R2", "Y1 Y2", "R3 G2"], "R7", "B1 B2 B3", dealer=2)
    act(g, 0, "RS")
    assert g.actor == 2
    assert "catch 0" in legal(g, 1)
    act(g, 2, "R3!")
    assert g.uno_open == -1


# ----- 17. not before the card lands; calling first makes you safe ------------------------------


def test_17_cannot_be_caught_before_the_card_lands() -> None:
    g = stacked_game(HANDS, "R7", dealer=2)
    assert g.uno_open == -1
    for seat in (1, 2):
        assert not any(t.startswith("catch") for t in legal(g, seat))
    before = snapshot(g)
    with pytest.raises(BadChoiceError):
        act(g, 1, "catch 0")
    with pytest.raises(WrongPhaseError):
        act(g, 0, "uno")  # nothing to call yet
    assert snapshot(g) == before


def test_17_calling_after_the_play_before_a_catch_is_safe() -> None:
    g = _down_to_one(call=False)
    act(g, 0, "uno")
    assert g.uno_open == -1 and g.uno_called[0]
    assert events(g, "uno")[-1].seat == 0
    with pytest.raises(BadChoiceError):
        act(g, 1, "catch 0")
    assert hand(g, 0) == "R2"


def test_17_caught_before_calling_cannot_call_afterwards() -> None:
    g = _down_to_one(call=False)
    act(g, 1, "catch 0")
    with pytest.raises(WrongPhaseError):
        act(g, 0, "uno")


# ----- 18. the call attached to the play ------------------------------------------------------


def test_18_the_call_can_ride_on_the_play() -> None:
    g = _down_to_one(call=True)
    assert g.uno_open == -1
    assert g.uno_called[0]
    play_ev = events(g, "play")[-1]
    assert play_ev.value == 1
    assert seat_view(g, 1).uno_called[0]
    for seat in (0, 1, 2):
        assert not any(t.startswith(("catch", "uno")) for t in legal(g, seat))


def test_18_calling_with_a_play_that_does_not_leave_one_card_is_just_a_play() -> None:
    g = stacked_game(["R1 R2 R3", "Y1 Y2 Y3", "G1 G2 G3"], "R7", dealer=2)
    assert "R1!" not in legal(g, 0)
    act(g, 0, "R1!")
    assert events(g, "play")[-1].value == 0
    assert not g.uno_called[0]
    assert g.actor == 1


def test_18_drawing_resets_the_call() -> None:
    g = _down_to_one(call=True)
    act(g, 1, "draw")
    if g.phase == Phase.DRAWN:
        act(g, 1, "keep")
    act(g, 2, "draw")
    if g.phase == Phase.DRAWN:
        act(g, 2, "keep")
    act(g, 0, "draw")
    assert not g.uno_called[0]


def test_18_a_call_with_the_drawn_card() -> None:
    g = stacked_game(["B1 B2", "Y1 Y2"], "R7", "R5 B3", dealer=1)
    act(g, 0, "draw")
    assert legal(g, 0) == {"R5", "keep"}  # three cards in hand now: no call
    act(g, 0, "R5")
    g = stacked_game(["B1", "Y1"], "R7", "R5 B3", dealer=1)
    act(g, 0, "draw")
    assert legal(g, 0) == {"R5", "R5!", "keep"}
    act(g, 0, "R5!")
    assert g.uno_called[0] and g.uno_open == -1


def test_16_going_again_after_a_skip_the_player_may_still_call_and_not_catch_itself() -> None:
    # Two players: a Skip down to one card without calling gives the same seat the turn.
    g = stacked_game(["RS R2", "Y1 Y2"], "R7", "B1 B2 B3", dealer=1)
    act(g, 0, "RS")
    assert g.actor == 0 and g.uno_open == 0
    mine = legal(g, 0)
    assert "uno" in mine and "catch 0" not in mine
    assert legal(g, 1) == {"catch 0"}
    act(g, 0, "uno")
    assert g.uno_called[0] and legal(g, 1) == set()
