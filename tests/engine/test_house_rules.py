"""House rules: stacking, seven-o, jump-in, draw to match, forced play, no bluffing, no
challenge, the UNO penalty and the hand size."""

from __future__ import annotations

import pytest
from uno_testkit import CLASSIC, act, all_cards, events, full_deck, hand, kinds, legal, snapshot, stacked_game

from tests.seeds import rng_secret
from unotui.engine import (
    Card,
    Colour,
    Game,
    NotYourTurnError,
    Phase,
    Stacking,
    UnplayableCardError,
    WrongPhaseError,
)

OFFICIAL = CLASSIC.with_(stacking=Stacking.OFFICIAL)
CROSS = CLASSIC.with_(stacking=Stacking.CROSS)
DRAWS = "B1 B2 B3 B4 B5 B6 B7 B8 B9 Y1 Y2 Y3"


# ----- stacking -----------------------------------------------------------------------------


def test_stacking_off_no_stack_offered() -> None:
    g = stacked_game(["R+2 R1 R2", "G+2 Y1 Y2", "G1 G2 G3"], "R7", DRAWS, dealer=2)
    act(g, 0, "R+2")
    assert hand(g, 1) == "G+2 Y1 Y2 B1 B2"
    assert g.actor == 2 and g.pending == 0


def test_stacking_official_draw_two_on_draw_two() -> None:
    g = stacked_game(["R+2 R1 R2", "G+2 Y1 Y2", "G1 G2 G3"], "R7", DRAWS, rules=OFFICIAL, dealer=2)
    act(g, 0, "R+2")
    assert g.actor == 1 and g.phase == Phase.PLAY and g.pending == 2
    assert legal(g, 1) == {"G+2", "draw"}  # only a stack or take the penalty
    act(g, 1, "G+2")
    assert g.actor == 2 and g.pending == 4
    assert legal(g, 2) == {"draw"}
    act(g, 2, "draw")
    assert hand(g, 2) == "G1 G2 G3 B1 B2 B3 B4"
    assert events(g, "skip")[-1].seat == 2
    assert g.actor == 0 and g.pending == 0
    assert g.colour is Colour.GREEN


def test_stacking_official_wild_draw_four_on_wild_draw_four_last_names_colour() -> None:
    g = stacked_game(["W+4 R1 R2", "W+4 Y1 Y2", "G1 G2 G3"], "B7", DRAWS, rules=OFFICIAL, dealer=2)
    act(g, 0, "W+4", "colour R")
    assert g.phase == Phase.CHALLENGE and g.actor == 1
    assert legal(g, 1) == {"challenge", "accept", "W+4"}
    act(g, 1, "W+4")
    assert g.phase == Phase.COLOUR and g.actor == 1
    act(g, 1, "colour Y")
    assert g.colour is Colour.YELLOW
    assert g.phase == Phase.CHALLENGE and g.actor == 2 and g.pending == 8
    act(g, 2, "accept")
    assert len(g.hands[2]) == 3 + 8
    assert g.actor == 0


def test_stacking_official_no_cross() -> None:
    g = stacked_game(["R+2 R1 R2", "W+4 Y1 Y2", "G1 G2 G3"], "R7", DRAWS, rules=OFFICIAL, dealer=2)
    act(g, 0, "R+2")
    assert legal(g, 1) == {"draw"}
    with pytest.raises(UnplayableCardError):
        act(g, 1, "W+4")
    g = stacked_game(["W+4 R1 R2", "R+2 Y1 Y2", "G1 G2 G3"], "B7", DRAWS, rules=OFFICIAL, dealer=2)
    act(g, 0, "W+4", "colour R")
    assert legal(g, 1) == {"challenge", "accept"}


def test_stacking_cross() -> None:
    g = stacked_game(["R+2 R1 R2", "W+4 Y1 Y2", "G+2 B+2 G3"], "R7", DRAWS, rules=CROSS, dealer=2)
    act(g, 0, "R+2")
    assert legal(g, 1) == {"W+4", "draw"}  # +4 on +2
    act(g, 1, "W+4", "colour G")
    assert g.pending == 6 and g.actor == 2
    # +2 on +4 only in the named colour.
    assert legal(g, 2) == {"challenge", "accept", "G+2"}
    act(g, 2, "G+2")
    assert g.pending == 8 and g.actor == 0 and g.wd4 is None
    act(g, 0, "draw")
    assert len(g.hands[0]) == 2 + 8


def test_stacking_challenge_still_offered_and_innocent_adds_two() -> None:
    g = stacked_game(["W+4 G1 G2", "W+4 Y1 Y2", "G1 G2 G3"], "B7", DRAWS, rules=OFFICIAL, dealer=2)
    act(g, 0, "W+4", "colour R")
    act(g, 1, "W+4", "colour Y")
    act(g, 2, "challenge")  # seat 1 held no red: innocent
    assert len(g.hands[2]) == 3 + 8 + 2
    assert g.actor == 0


def test_stacking_no_jump_in_while_a_penalty_is_pending() -> None:
    rules = OFFICIAL.with_(jump_in=True)
    g = stacked_game(["R+2 R1 R2", "Y1 Y2 Y3", "R+2 G2 G3"], "R7", DRAWS, rules=rules, dealer=2)
    act(g, 0, "R+2")
    assert "R+2" not in legal(g, 2)
    with pytest.raises(UnplayableCardError):
        act(g, 2, "R+2")


def test_stacking_go_out_on_a_stack_next_draws_everything() -> None:
    g = stacked_game(["R3 R+2", "R4 Y+2", "R+2 G1"], "R7", DRAWS, rules=OFFICIAL, dealer=2)
    act(g, 0, "R3!")
    act(g, 1, "R4!")
    act(g, 2, "R+2")
    assert g.pending == 2 and g.actor == 0
    act(g, 0, "R+2")  # stacks with the last card: out
    assert g.phase == Phase.ROUND_OVER and g.round_winner == 0
    assert hand(g, 1) == "Y+2 B1 B2 B3 B4"
    assert g.pending == 0


# ----- seven-o --------------------------------------------------------------------------------


SEVEN_O = CLASSIC.with_(seven_o=True)


def test_seven_o_zero_passes_all_hands_in_the_direction_of_play() -> None:
    g = stacked_game(["R0 R1 R2", "Y1 Y2 Y3", "G1 G2 G3", "B1 B2 B3"], "R7", rules=SEVEN_O, dealer=3)
    act(g, 0, "R0")
    assert [hand(g, s) for s in range(4)] == ["B1 B2 B3", "R1 R2", "Y1 Y2 Y3", "G1 G2 G3"]
    assert events(g, "rotate")[-1].value == 1
    assert g.actor == 1


def test_seven_o_zero_after_a_reverse_passes_the_other_way() -> None:
    g = stacked_game(["RR R0 R2", "Y1 Y2 Y3", "G1 G2 G3", "R3 B2 B3"], "R7", rules=SEVEN_O, dealer=3)
    act(g, 0, "RR")
    assert g.actor == 3
    act(g, 3, "R3")
    assert g.actor == 2
    act(g, 2, "draw")
    if g.phase == Phase.DRAWN:
        act(g, 2, "keep")
    act(g, 1, "draw")
    if g.phase == Phase.DRAWN:
        act(g, 1, "keep")
    hands_before = [list(h) for h in g.hands]
    hands_before[0].remove(Card.parse("R0"))
    act(g, 0, "R0")
    assert [g.hands[s] for s in range(4)] == [hands_before[1], hands_before[2], hands_before[3],
                                              hands_before[0]]
    assert events(g, "rotate")[-1].value == -1


def test_seven_o_seven_swaps_with_a_chosen_player() -> None:
    g = stacked_game(["R7 R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "R5", rules=SEVEN_O, dealer=2)
    act(g, 0, "R7")
    assert g.phase == Phase.TARGET and g.actor == 0
    assert legal(g, 0) == {"target 1", "target 2"}
    act(g, 0, "target 2")
    assert hand(g, 0) == "G1 G2 G3" and hand(g, 2) == "R1 R2"
    assert g.actor == 1 and g.phase == Phase.PLAY


def test_seven_o_off_seven_and_zero_are_plain() -> None:
    g = stacked_game(["R7 R0 R2", "Y1 Y2 Y3", "G1 G2 G3"], "R5", dealer=2)
    act(g, 0, "R7")
    assert g.actor == 1 and hand(g, 0) == "R0 R2"


def test_seven_o_going_out_on_a_seven_swaps_nothing() -> None:
    g = stacked_game(["R7", "Y1", "G1"], "R5", rules=SEVEN_O, dealer=2)
    act(g, 0, "R7")
    assert g.phase == Phase.ROUND_OVER and g.round_winner == 0


# ----- jump-in ---------------------------------------------------------------------------------


JUMP = CLASSIC.with_(jump_in=True)


def test_jump_in_with_the_identical_card_play_continues_from_them() -> None:
    g = stacked_game(["R5 R1 R2", "Y1 Y2 Y3", "G1 G2 G3", "R5 B2 B3"], "R9", rules=JUMP, dealer=3)
    act(g, 0, "R5")
    assert g.actor == 1
    assert legal(g, 3) == {"R5"}
    assert legal(g, 2) == set()
    act(g, 3, "R5")
    assert events(g, "jump")[-1].seat == 3
    assert g.actor == 0  # play continues to the left of the jumper
    assert hand(g, 3) == "B2 B3"


def test_jump_in_needs_colour_and_number() -> None:
    g = stacked_game(["R5 R1 R2", "Y1 Y2 Y3", "G5 R6 G3"], "R9", rules=JUMP, dealer=2)
    act(g, 0, "R5")
    before = snapshot(g)
    for text in ("G5", "R6"):
        with pytest.raises(UnplayableCardError):
            act(g, 2, text)
    assert snapshot(g) == before


def test_jump_in_off_is_not_your_turn() -> None:
    g = stacked_game(["R5 R1 R2", "Y1 Y2 Y3", "R5 R6 G3"], "R9", dealer=2)
    act(g, 0, "R5")
    with pytest.raises(NotYourTurnError):
        act(g, 2, "R5")


def test_jump_in_not_on_wilds() -> None:
    g = stacked_game(["W R1 R2", "Y1 Y2 Y3", "W G2 G3"], "R9", rules=JUMP, dealer=2)
    act(g, 0, "W", "colour R")
    assert "W" not in legal(g, 2)


def test_jump_in_with_a_skip_skips_from_the_jumper() -> None:
    g = stacked_game(["RS R1 R2", "Y1 Y2 Y3", "G1 G2 G3", "RS B2 B3"], "R9", rules=JUMP, dealer=3)
    act(g, 0, "RS")
    assert g.actor == 2
    act(g, 3, "RS")
    assert events(g, "skip")[-1].seat == 0
    assert g.actor == 1


def test_jump_in_with_a_draw_two_hits_the_jumpers_next() -> None:
    g = stacked_game(["R+2 R1 R2", "Y1 Y2 Y3", "R+2 G2 G3", "B1 B2 B3"], "R9", DRAWS, rules=JUMP, dealer=3)
    act(g, 0, "R+2")
    assert hand(g, 1) == "Y1 Y2 Y3 B1 B2"
    act(g, 2, "R+2")
    assert hand(g, 3) == "B1 B2 B3 B3 B4"
    assert g.actor == 0


def test_jump_in_seven_under_seven_o_still_swaps() -> None:
    rules = CLASSIC.with_(jump_in=True, seven_o=True)
    g = stacked_game(["R7 R1 R2", "Y1 Y2 Y3", "R7 G2 G3", "B1 B2 B3"], "R9", rules=rules, dealer=3)
    act(g, 0, "R7", "target 3")
    assert hand(g, 0) == "B1 B2 B3" and hand(g, 3) == "R1 R2"
    assert g.actor == 1
    assert legal(g, 2) == {"R7"}
    act(g, 2, "R7")  # out of turn
    assert g.phase == Phase.TARGET and g.actor == 2
    assert legal(g, 2) == {"target 0", "target 1", "target 3"}
    assert legal(g, 1) == set()
    act(g, 2, "target 1")
    assert hand(g, 2) == "Y1 Y2 Y3" and hand(g, 1) == "G2 G3"
    assert g.actor == 3
    assert all_cards(g) == full_deck(g)


def test_jump_in_closes_the_uno_window() -> None:
    g = stacked_game(["R5 R1", "Y1 Y2", "R5 G2"], "R9", rules=JUMP, dealer=2)
    act(g, 0, "R5")
    assert g.uno_open == 0
    act(g, 2, "R5!")
    assert g.uno_open == -1
    assert "catch 0" not in legal(g, 1)


# ----- draw to match, forced play -----------------------------------------------------------------


def test_draw_to_match_draws_until_playable() -> None:
    g = stacked_game(["Y1 Y2", "B1 B2"], "R7", "G1 G2 B7 R3 G4", dealer=1, draw_to_match=True)
    act(g, 0, "draw")
    assert hand(g, 0) == "Y1 Y2 G1 G2 B7"
    assert g.phase == Phase.DRAWN and g.drawn == Card.parse("B7")
    assert legal(g, 0) == {"B7", "keep"}
    assert events(g, "draw")[-1].value == 3


def test_draw_to_match_and_forced_play() -> None:
    g = stacked_game(["Y1 Y2", "B1 B2"], "R7", "G1 R3 G4", dealer=1, draw_to_match=True, forced_play=True)
    act(g, 0, "draw")
    assert legal(g, 0) == {"R3"}
    with pytest.raises(WrongPhaseError):
        act(g, 0, "keep")
    act(g, 0, "R3")
    assert g.actor == 1


def test_draw_to_match_with_both_piles_running_dry() -> None:
    g = stacked_game(["Y1 Y2", "B1 B2"], "R7", dealer=1, draw_to_match=True)
    g.draw_pile[:] = [Card.parse("G1"), Card.parse("G2")]  # test-only: a nearly empty deck
    g.version += 1
    act(g, 0, "draw")
    assert hand(g, 0) == "Y1 Y2 G2 G1"
    # The piles ran out before a playable card came: keeping the last one is all there is.
    assert g.phase == Phase.DRAWN and legal(g, 0) == {"keep"}
    act(g, 0, "keep")
    assert g.actor == 1
    act(g, 1, "draw")
    assert kinds(g)[-1] == "pass"


def test_forced_play_of_a_drawn_playable_card() -> None:
    g = stacked_game(["Y1 Y2", "B1 B2"], "R7", "R3", dealer=1, forced_play=True)
    act(g, 0, "draw")
    assert legal(g, 0) == {"R3"}
    with pytest.raises(WrongPhaseError):
        act(g, 0, "keep")


def test_forced_play_does_not_force_unplayable() -> None:
    g = stacked_game(["Y1 Y2", "B1 B2"], "R7", "G3", dealer=1, forced_play=True)
    act(g, 0, "draw")
    assert g.phase == Phase.DRAWN and legal(g, 0) == {"keep"}
    act(g, 0, "keep")
    assert g.actor == 1


# ----- no bluffing, no challenge -----------------------------------------------------------------


NO_BLUFF = CLASSIC.with_(no_bluffing=True)


def test_no_bluffing_refuses_an_illegal_wild_draw_four() -> None:
    g = stacked_game(["W+4 R1 B2", "Y1 Y2 Y3"], "R7", rules=NO_BLUFF, dealer=1)
    assert legal(g, 0) == {"R1", "draw"}
    before = snapshot(g)
    with pytest.raises(UnplayableCardError, match="bluff"):
        act(g, 0, "W+4")
    assert snapshot(g) == before


def test_no_bluffing_allows_a_legal_wild_draw_four() -> None:
    g = stacked_game(["W+4 G7 B2", "Y1 Y2 Y3"], "R7", rules=NO_BLUFF, dealer=1)
    assert legal(g, 0) == {"W+4", "G7", "draw"}


def test_no_bluffing_drawn_wild_draw_four_with_the_colour_in_hand() -> None:
    g = stacked_game(["R1 B2", "Y1 Y2"], "R7", "W+4", rules=NO_BLUFF, dealer=1)
    act(g, 0, "draw")
    assert hand(g, 0) == "R1 B2 W+4"
    assert legal(g, 0) == {"keep"}  # not playable for this player: keep it
    with pytest.raises(UnplayableCardError, match="no bluffing"):
        act(g, 0, "W+4")
    act(g, 0, "keep")
    assert g.actor == 1


def test_no_challenge_victim_draws_four_at_once() -> None:
    g = stacked_game(["W+4 R1 B2", "Y1 Y2 Y3", "G1 G2 G3"], "R7", DRAWS, dealer=2, challenge=False)
    act(g, 0, "W+4", "colour B")
    assert hand(g, 1) == "Y1 Y2 Y3 B1 B2 B3 B4"
    assert g.actor == 2 and g.phase == Phase.PLAY
    assert "challenge" not in kinds(g)


def test_no_challenge_with_stacking_accept_or_stack() -> None:
    rules = OFFICIAL.with_(challenge=False)
    g = stacked_game(["W+4 R1 B2", "W+4 Y2 Y3", "G1 G2 G3"], "R7", DRAWS, rules=rules, dealer=2)
    act(g, 0, "W+4", "colour B")
    assert legal(g, 1) == {"accept", "W+4"}
    with pytest.raises(WrongPhaseError):
        act(g, 1, "challenge")


# ----- UNO penalty, hand size ----------------------------------------------------------------------


@pytest.mark.parametrize("penalty", [0, 1, 3, 10])
def test_uno_penalty(penalty: int) -> None:
    g = stacked_game(["R1 R2", "Y1 Y2", "G1 G2"], "R7", DRAWS, dealer=2, uno_penalty=penalty)
    act(g, 0, "R1")
    act(g, 2, "catch 0")
    assert len(g.hands[0]) == 1 + penalty


@pytest.mark.parametrize(("players", "size"), [(2, 1), (2, 15), (4, 3), (7, 15), (10, 10)])
def test_hand_size(players: int, size: int) -> None:
    g = Game(players, CLASSIC.with_(hand_size=size), secret=rng_secret(size), dealer=0)
    sizes = [len(h) for h in g.hands]
    first = g.top
    extra = 2 if first.rank.name == "DRAW2" else 0
    assert sorted(sizes) == sorted([size] * (players - 1) + [size + extra])
    assert all_cards(g) == full_deck(g)


def test_no_bluffing_also_refuses_a_stacked_bluff() -> None:
    # Stacking a Wild Draw Four while holding the colour in play is the same bluff: a
    # challenge would find it guilty, so without bluffing it is refused.
    rules = OFFICIAL.with_(no_bluffing=True)
    g = stacked_game(["W+4 G1 B2", "W+4 R1 Y2", "W+4 G2 G3"], "R7", DRAWS, rules=rules, dealer=2)
    act(g, 0, "W+4", "colour R")  # legal: seat 0 held no red
    assert legal(g, 1) == {"challenge", "accept"}  # seat 1 holds R1
    before = snapshot(g)
    with pytest.raises(UnplayableCardError, match="bluff"):
        act(g, 1, "W+4")
    assert snapshot(g) == before
    act(g, 1, "accept")
    assert g.actor == 2
    g = stacked_game(["W+4 G1 B2", "W+4 Y1 Y2", "G1 G2 G3"], "R7", DRAWS, rules=rules, dealer=2)
    act(g, 0, "W+4", "colour R")
    assert legal(g, 1) == {"challenge", "accept", "W+4"}  # no red held: a legal stack


def test_no_bluffing_cross_stack_on_a_draw_two() -> None:
    rules = CROSS.with_(no_bluffing=True)
    g = stacked_game(["R+2 G1 B2", "W+4 R1 Y2", "G1 G2 G3"], "R7", DRAWS, rules=rules, dealer=2)
    act(g, 0, "R+2")
    assert legal(g, 1) == {"draw"}  # R1 in hand: the +4 would be a bluff


def test_draw_to_match_keeps_drawing_past_an_unplayable_wild_draw_four() -> None:
    # Without bluffing, a Wild Draw Four is not playable while holding the colour in play,
    # so drawing to match goes on to the next card.
    g = stacked_game(["R1 B2", "Y1 Y2"], "R7", "W+4 G5 R9 G6", dealer=1,
                     draw_to_match=True, no_bluffing=True)
    act(g, 0, "draw")
    assert hand(g, 0) == "R1 B2 W+4 G5 R9"
    assert g.phase == Phase.DRAWN and g.drawn == Card.parse("R9")
