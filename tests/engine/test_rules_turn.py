"""Rules checklist items 8-15: a turn, the Wild Draw Four and its challenge, two players,
the draw pile running out and going out on a draw card."""

from __future__ import annotations

import pytest
from uno_testkit import act, all_cards, events, full_deck, hand, kinds, legal, snapshot, stacked_game

from unotui.engine import (
    Card,
    Colour,
    NotYourTurnError,
    Phase,
    UnplayableCardError,
    WrongPhaseError,
    seat_view,
)

# ----- 8. matching ------------------------------------------------------------------------


def test_8_match_by_colour_number_or_symbol() -> None:
    g = stacked_game(["R1 G5 BS Y9 B7", "Y1 Y2 Y3 Y4 Y6"], "B5", dealer=1)
    assert legal(g, 0) == {"G5", "BS", "B7", "draw"}
    g = stacked_game(["R1 GS B2 Y9 B7", "Y1 Y2 Y3 Y4 Y6"], "RS", dealer=0)  # seat 1 skipped
    assert legal(g, 0) == {"R1", "GS", "draw"}
    g = stacked_game(["R+2 G+2 B2 Y9 B7", "Y1 Y2 Y3 Y4 Y6"], "Y+2", dealer=0)  # seat 1 draws
    assert legal(g, 0) == {"R+2", "G+2", "Y9", "draw"}


def test_8_after_a_wild_only_the_named_colour_matches() -> None:
    g = stacked_game(["W R5 G5 B1", "Y1 Y2 Y3 Y4"], "R7", dealer=1)
    act(g, 0, "W", "colour G")
    assert g.colour is Colour.GREEN
    assert g.top == Card.parse("W")
    # Seat 1 holds only yellow: nothing matches a Wild named green.
    assert legal(g, 1) == {"draw"}
    act(g, 1, "draw")
    if g.phase == Phase.DRAWN:
        act(g, 1, "keep")
    assert legal(g, 0) == {"G5", "draw"}
    with pytest.raises(UnplayableCardError):
        act(g, 0, "R5")


# ----- 9. a plain Wild any time ----------------------------------------------------------


def test_9_wild_any_time_and_may_name_the_current_colour() -> None:
    g = stacked_game(["R1 R2 W", "Y1 Y2 Y3"], "R7", dealer=1)
    assert "W" in legal(g, 0)  # even though R1 and R2 match
    act(g, 0, "W", "colour R")
    assert g.colour is Colour.RED
    assert g.actor == 1


# ----- 10. draw one card; only that card may be played ---------------------------------------


def test_10_drawn_playable_card_may_be_played_at_once() -> None:
    g = stacked_game(["R1 B2 G3", "Y1 Y2 Y3"], "R7", "R9 B5", dealer=1)
    act(g, 0, "draw")
    assert hand(g, 0) == "R1 B2 G3 R9"
    assert g.phase == Phase.DRAWN and g.drawn == Card.parse("R9")
    assert legal(g, 0) == {"R9", "keep"}
    with pytest.raises(UnplayableCardError):
        act(g, 0, "R1")  # playable, but not the card just drawn
    act(g, 0, "R9")
    assert g.top == Card.parse("R9") and g.actor == 1


def test_10_drawn_card_may_be_kept_turn_ends() -> None:
    g = stacked_game(["R1 B2 G3", "Y1 Y2 Y3"], "R7", "R9 B5", dealer=1)
    act(g, 0, "draw", "keep")
    assert hand(g, 0) == "R1 B2 G3 R9"
    assert g.actor == 1 and g.phase == Phase.PLAY


def test_10_draw_exactly_one_unplayable_turn_ends() -> None:
    g = stacked_game(["R1 B2 G3", "Y1 Y2 Y3"], "R7", "B5 R9", dealer=1)
    act(g, 0, "draw")
    assert hand(g, 0) == "R1 B2 G3 B5"  # exactly one card, though R9 was next
    # B5 cannot be played: keeping it is the only action, and no other card may be played.
    assert g.phase == Phase.DRAWN and g.actor == 0 and legal(g, 0) == {"keep"}
    with pytest.raises(UnplayableCardError, match="only the card just drawn"):
        act(g, 0, "R1")
    with pytest.raises(UnplayableCardError, match="does not match"):
        act(g, 0, "B5")
    act(g, 0, "keep")
    assert g.actor == 1 and g.phase == Phase.PLAY
    with pytest.raises(NotYourTurnError):
        act(g, 0, "R1")


def test_10_may_draw_while_holding_a_playable_card() -> None:
    g = stacked_game(["R1 B2 G3", "Y1 Y2 Y3"], "R7", "B5", dealer=1)
    assert "draw" in legal(g, 0)
    act(g, 0, "draw", "keep")
    assert g.actor == 1


# ----- 11. Wild Draw Four: legal only without the colour in play; bluffs -----------------------


def test_11_wild_draw_four_is_always_offered_bluff_or_not() -> None:
    g = stacked_game(["W+4 R1 B2", "Y1 Y2 Y3"], "R7", dealer=1)
    assert "W+4" in legal(g, 0)  # holding R1 makes it a bluff, still playable


@pytest.mark.parametrize(
    ("offender", "guilty"),
    [
        ("W+4 R1 B2", True),  # holds the colour in play
        ("W+4 B7 G2", False),  # matches by number only: does not count
        ("W+4 W B2", False),  # another wild: does not count
        ("W+4 W+4 Y2", False),
    ],
)
def test_11_12_challenge_judges_the_colour_in_play(offender: str, guilty: bool) -> None:
    g = stacked_game([offender, "Y1 Y2 Y3"], "R7", "G1 G2 G3 G4 G5 G6 G7", dealer=1)
    act(g, 0, "W+4", "colour B")
    assert g.phase == Phase.CHALLENGE and g.actor == 1
    act(g, 1, "challenge")
    assert events(g, "challenge")[-1].value == int(guilty)
    assert g.top == Card.parse("W+4") and g.colour is Colour.BLUE  # card and colour stay
    if guilty:
        assert len(g.hands[0]) == 2 + 4
        assert len(g.hands[1]) == 3
        assert g.actor == 1 and g.phase == Phase.PLAY  # the challenger plays on
    else:
        assert len(g.hands[0]) == 2
        assert len(g.hands[1]) == 3 + 6
        assert g.actor == 0 and g.phase == Phase.PLAY  # challenger lost the turn


def test_11_the_colour_in_play_is_the_named_one_after_a_wild() -> None:
    # Red was named on a Wild; holding green (the Wild's "previous" pile colour) is fine.
    g = stacked_game(["W W+4 G2 B3", "Y1 Y2 Y3 R1"], "G7", "Y5 Y6 Y7 Y8 Y9 Y4", dealer=1)
    act(g, 0, "W", "colour R")
    act(g, 1, "R1")
    act(g, 0, "W+4", "colour Y")
    act(g, 1, "challenge")
    assert events(g, "challenge")[-1].value == 0
    assert len(g.hands[1]) == 3 + 6


def test_11_offenders_hand_as_it_was_when_the_card_was_played() -> None:
    # The offender goes down to one card without calling UNO and is caught: the two
    # penalty cards (red) must not make an innocent Wild Draw Four look guilty.
    g = stacked_game(["W+4 B2", "Y1 Y2"], "R7", "R1 R2 G1 G2 G3 G4", dealer=1)
    act(g, 0, "W+4", "colour B")
    act(g, 1, "catch 0")
    assert hand(g, 0) == "B2 R1 R2"
    act(g, 1, "challenge")
    assert events(g, "challenge")[-1].value == 0
    assert events(g, "reveal")[-1].cards == (Card.parse("B2"),)
    assert len(g.hands[1]) == 2 + 6


def test_11_snapshot_after_drawing_the_wild_draw_four() -> None:
    # Played straight after drawing it: the snapshot includes the rest of the hand.
    g = stacked_game(["R1 B2", "Y1 Y2"], "G7", "W+4 G1 G2 G3 G4", dealer=1)
    act(g, 0, "draw")
    assert legal(g, 0) == {"W+4", "keep"}
    act(g, 0, "W+4", "colour R")
    act(g, 1, "challenge")
    assert events(g, "challenge")[-1].value == 0  # no green card held


# ----- 12. the challenge ------------------------------------------------------------------


def test_12_only_the_player_who_must_draw_may_challenge() -> None:
    g = stacked_game(["W+4 R1 B2", "Y1 Y2 Y3", "G1 G2 G3"], "R7", dealer=2)
    act(g, 0, "W+4", "colour B")
    assert legal(g, 1) == {"challenge", "accept"}
    assert legal(g, 2) == set()
    before = snapshot(g)
    with pytest.raises(NotYourTurnError):
        act(g, 2, "challenge")
    with pytest.raises(NotYourTurnError):
        act(g, 0, "challenge")
    assert snapshot(g) == before


def test_12_accept_draws_four_and_loses_the_turn() -> None:
    g = stacked_game(["W+4 R1 B2", "Y1 Y2 Y3", "G1 G2 G3"], "R7", "B1 B2 B3 B4 B5", dealer=2)
    act(g, 0, "W+4", "colour B")
    act(g, 1, "accept")
    assert hand(g, 1) == "Y1 Y2 Y3 B1 B2 B3 B4"
    assert g.actor == 2
    assert "challenge" not in kinds(g)


def test_12_the_hand_is_shown_to_the_challenger_only() -> None:
    g = stacked_game(["W+4 R1 B2", "Y1 Y2 Y3", "G1 G2 G3"], "R7", dealer=2)
    act(g, 0, "W+4", "colour B")
    act(g, 1, "challenge")
    reveal = events(g, "reveal")[-1]
    assert reveal.seat == 0 and reveal.target == 1 and reveal.to == 1
    assert reveal.cards == (Card.parse("R1"), Card.parse("B2"))
    shown = next(e for e in seat_view(g, 1).log if e.kind == "reveal")
    assert shown.cards == reveal.cards
    for viewer in (0, 2, None):
        hidden = next(e for e in seat_view(g, viewer).log if e.kind == "reveal")
        assert hidden.cards == ()


def test_12_guilty_offender_draws_four_challenger_plays_on_three_players() -> None:
    g = stacked_game(["W+4 R1 B2", "Y1 Y2 Y3", "G1 G2 G3"], "R7", "B1 B2 B3 B4 B5", dealer=2)
    act(g, 0, "W+4", "colour Y")
    act(g, 1, "challenge")
    assert hand(g, 0) == "R1 B2 B1 B2 B3 B4"
    assert hand(g, 1) == "Y1 Y2 Y3"
    assert g.actor == 1 and g.phase == Phase.PLAY
    assert g.colour is Colour.YELLOW
    act(g, 1, "Y1")
    assert g.actor == 2


def test_12_innocent_challenger_draws_six_three_players() -> None:
    g = stacked_game(["W+4 G1 B2", "Y1 Y2 Y3", "G1 G2 G3"], "R7", "B1 B2 B3 B4 B5 B6 B7", dealer=2)
    act(g, 0, "W+4", "colour Y")
    act(g, 1, "challenge")
    assert len(g.hands[1]) == 9
    assert g.actor == 2


# ----- 13. two players ----------------------------------------------------------------------


def test_13_two_players_reverse_acts_as_skip() -> None:
    g = stacked_game(["RR R1 R2", "Y1 Y2 Y3"], "R7", dealer=1)
    act(g, 0, "RR")
    assert g.actor == 0 and g.phase == Phase.PLAY
    act(g, 0, "R1")
    assert g.actor == 1


def test_13_two_players_skip_goes_again() -> None:
    g = stacked_game(["RS R1 R2", "Y1 Y2 Y3"], "R7", dealer=1)
    act(g, 0, "RS")
    assert g.actor == 0


def test_13_two_players_draw_two_opponent_draws_your_turn_again() -> None:
    g = stacked_game(["R+2 R1 R2", "Y1 Y2 Y3"], "R7", "B1 B2 B3", dealer=1)
    act(g, 0, "R+2")
    assert hand(g, 1) == "Y1 Y2 Y3 B1 B2"
    assert g.actor == 0


def test_13_two_players_wild_draw_four_your_turn_again() -> None:
    g = stacked_game(["W+4 G1 G2", "Y1 Y2 Y3"], "R7", "B1 B2 B3 B4 B5", dealer=1)
    act(g, 0, "W+4", "colour G")
    act(g, 1, "accept")
    assert len(g.hands[1]) == 7
    assert g.actor == 0 and g.phase == Phase.PLAY


# ----- 14. the draw pile runs out --------------------------------------------------------------


def test_14_reshuffle_keeps_the_top_discard() -> None:
    g = stacked_game(["R1 R2 R3", "Y1 Y2 Y3"], "R7", dealer=1)
    # Move the whole draw pile under the discard pile (as if played long ago).
    g.discard[0:0] = g.draw_pile
    g.draw_pile.clear()
    top = g.top
    n_discard = len(g.discard)
    act(g, 0, "draw")
    assert events(g, "reshuffle")[-1].value == n_discard - 1
    assert g.discard == [top]
    assert g.top is top
    assert all_cards(g) == full_deck(g)
    assert len(g.draw_pile) == n_discard - 2


def test_14_both_piles_empty_the_turn_passes() -> None:
    g = stacked_game(["R1 R2 R3", "Y1 Y2 Y3"], "G7", dealer=1)
    stash = list(g.draw_pile)
    g.draw_pile.clear()  # as if every other card were in some hand
    assert g.discard == [g.top]
    act(g, 0, "draw")
    assert g.log[-1].kind == "pass" and g.log[-1].seat == 0
    assert g.actor == 1 and hand(g, 0) == "R1 R2 R3"
    act(g, 1, "draw")
    assert g.actor == 0
    g.draw_pile[:] = stash


def test_14_both_piles_empty_penalties_draw_what_there_is() -> None:
    g = stacked_game(["R+2 R2 R3", "Y1 Y2 Y3"], "R7", dealer=1)
    g.draw_pile[:] = [Card.parse("B9")]
    act(g, 0, "R+2")
    # One card from the draw pile, then the discards but the top were reshuffled.
    assert hand(g, 1) == "Y1 Y2 Y3 B9 R7"
    assert g.discard == [Card.parse("R+2")]
    assert g.actor == 0  # still skipped


# ----- 15. going out on a draw card -------------------------------------------------------------


@pytest.mark.parametrize(("last", "drawn"), [("R+2", 2), ("W+4", 4)])
def test_15_going_out_on_a_draw_card_next_still_draws_and_it_scores(last: str, drawn: int) -> None:
    g = stacked_game([f"R9 {last}", "Y1 Y2", "G1 G2"], "R7", "B1 B2 B3 B4 B5", dealer=2)
    act(g, 0, "R9!")
    act(g, 1, "draw")
    if g.phase == Phase.DRAWN:
        act(g, 1, "keep")
    act(g, 2, "draw")
    if g.phase == Phase.DRAWN:
        act(g, 2, "keep")
    assert g.actor == 0
    before = len(g.hands[1])
    act(g, 0, last)
    assert g.phase == Phase.ROUND_OVER
    assert len(g.hands[1]) == before + drawn
    assert g.round_winner == 0
    assert g.round_points[1] == sum(c.points for c in g.hands[1])
    assert g.scores[0] == g.round_points[1] + g.round_points[2]
    assert "challenge" not in kinds(g)


def test_wrong_phase_while_naming_a_colour() -> None:
    g = stacked_game(["W R1 R2", "Y1 Y2 Y3"], "R7", dealer=1)
    act(g, 0, "W")
    with pytest.raises(WrongPhaseError):
        act(g, 0, "draw")
