"""Rules checklist items 23-25: the customizable wild (every enforceable effect), Wild Swap
Hands and Wild Shuffle Hands."""

from __future__ import annotations

from collections import Counter

import pytest
from uno_testkit import CLASSIC, act, all_cards, events, full_deck, hand, kinds, legal, snapshot, stacked_game

from unotui.engine import (
    BadChoiceError,
    Card,
    CardNotInHandError,
    Colour,
    CustomRule,
    Effect,
    Game,
    NotYourTurnError,
    Phase,
    Rules,
    RulesError,
    WrongPhaseError,
    build_deck,
    parse_cards,
    seat_view,
)


def custom(*effects: str, text: str = "") -> Rules:
    return CLASSIC.with_(custom_wilds=3, custom=CustomRule.parse(list(effects), text))


def _pass_turn(g: Game, seat: int) -> None:
    act(g, seat, "draw")
    if g.phase == Phase.DRAWN:
        act(g, seat, "keep")


# ----- 23. the customizable wild -------------------------------------------------------------------


def test_23_customizable_wild_is_a_wild_worth_40() -> None:
    assert Card.parse("WC").is_wild and Card.parse("WC").points == 40
    assert Counter(build_deck(Rules.preset("giant")))[Card.parse("WC")] == 3
    for n in (1, 2, 3):
        assert Counter(build_deck(CLASSIC.with_(custom_wilds=n)))[Card.parse("WC")] == n
    with pytest.raises(RulesError, match="custom_wilds"):
        CLASSIC.with_(custom_wilds=4)


def test_23_social_rule_is_shown_not_enforced() -> None:
    rules = custom(text="tell a joke")
    assert rules.custom.describe() == '"tell a joke"'
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", rules=rules, dealer=2)
    assert "WC" in legal(g, 0)  # playable any time, like a Wild
    act(g, 0, "WC", "colour Y")
    assert g.colour is Colour.YELLOW
    assert g.actor == 1
    assert "effect" not in kinds(g)


def test_23_effects_run_after_the_colour_is_named() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", "B1 B2",
                     rules=custom("next_draws_two"), dealer=2)
    act(g, 0, "WC")
    assert g.phase == Phase.COLOUR and hand(g, 1) == "Y1 Y2 Y3"
    act(g, 0, "colour R")
    assert hand(g, 1) == "Y1 Y2 Y3 B1 B2"


def test_23_draw_until_colour() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", "Y5 G5 R8 B1",
                     rules=custom("draw_until_colour"), dealer=2)
    act(g, 0, "WC", "colour R")
    assert hand(g, 1) == "Y1 Y2 Y3 Y5 G5 R8"
    assert events(g, "effect")[-1].note == "draw_until_colour"
    assert events(g, "draw")[-1].note == "effect"
    assert g.actor == 1  # then plays their turn


def test_23_draw_until_colour_with_none_left_stops_when_the_piles_run_dry() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", "Y5 G5",
                     rules=custom("draw_until_colour"), dealer=2)
    g.draw_pile[:] = parse_cards("G6 Y6")  # only non-red cards left (test-only surgery)
    g.version += 1
    act(g, 0, "WC", "colour R")
    # Draw pile (2), then the reshuffled discards but the top (B7): nothing red.
    assert hand(g, 1) == "Y1 Y2 Y3 Y6 G6 B7"
    assert g.draw_pile == [] and g.discard == [Card.parse("WC")]
    assert g.actor == 1


def test_23_discard_wilds_everyone_else() -> None:
    g = stacked_game(["WC W R1", "W+4 Y2 W", "G1 WC G3"], "B7", "B1",
                     rules=custom("discard_wilds"), dealer=2)
    act(g, 0, "WC", "colour G")
    assert hand(g, 0) == "W R1"  # the player keeps theirs
    assert hand(g, 1) == "Y2"
    assert hand(g, 2) == "G1 G3"
    assert g.top == Card.parse("WC") and g.colour is Colour.GREEN  # discards go underneath
    assert g.discard[-1] == Card.parse("WC")
    assert Counter(g.discard[:-1]) >= Counter(parse_cards("W+4 W WC"))
    assert g.actor == 1
    assert all_cards(g) == full_deck(g)


def test_23_discard_wilds_emptied_hand_draws_one() -> None:
    g = stacked_game(["WC R1", "W+4 W", "G1 G2"], "B7", "B1 B2",
                     rules=custom("discard_wilds"), dealer=2)
    act(g, 0, "WC!", "colour G")
    assert hand(g, 1) == "B1"
    assert g.phase == Phase.PLAY and g.round_winner == -1


@pytest.mark.parametrize(("victim", "stuck"), [("Y1 Y2 Y3", True), ("Y1 G2 Y3", False), ("Y1 W Y3", False)])
def test_23_draw3_if_stuck(victim: str, stuck: bool) -> None:
    g = stacked_game(["WC R1 R2", victim, "G1 G2 G3"], "B7", "B1 B2 B3",
                     rules=custom("draw3_if_stuck"), dealer=2)
    act(g, 0, "WC", "colour G")
    if stuck:
        assert hand(g, 1) == victim + " B1 B2 B3"
        assert g.actor == 2  # and loses the turn
        assert events(g, "skip")[-1].seat == 1
    else:
        assert hand(g, 1) == victim
        assert g.actor == 1


def test_23_extra_turn() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", rules=custom("extra_turn"), dealer=2)
    act(g, 0, "WC", "colour R")
    assert g.actor == 0 and g.phase == Phase.PLAY
    act(g, 0, "R1")
    assert g.actor == 1


def test_23_skip_next() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", rules=custom("skip_next"), dealer=2)
    act(g, 0, "WC", "colour R")
    assert g.actor == 2
    assert events(g, "skip")[-1].seat == 1


def test_23_extra_turn_beats_skip_next_in_either_order() -> None:
    for effects in (("skip_next", "extra_turn"), ("extra_turn", "skip_next")):
        g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", rules=custom(*effects), dealer=2)
        act(g, 0, "WC", "colour R")
        assert g.actor == 0, effects


def test_23_next_draws_two() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", "B1 B2",
                     rules=custom("next_draws_two"), dealer=2)
    act(g, 0, "WC", "colour R")
    assert hand(g, 1) == "Y1 Y2 Y3 B1 B2"
    assert g.actor == 1


def test_23_next_to_seven_draws_up() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", "B1 B2 B3 B4 B5",
                     rules=custom("next_to_seven"), dealer=2)
    act(g, 0, "WC", "colour R")
    assert hand(g, 1) == "Y1 Y2 Y3 B1 B2 B3 B4"
    assert g.actor == 1 and g.phase == Phase.PLAY


def test_23_next_to_seven_discards_down_by_choice() -> None:
    nine = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9"
    g = stacked_game(["WC R1 R2 R3 R4 R5 R6 R7 R8", nine, "G1 G2 G3 G4 G5 G6 G7 G8 G9"], "B7",
                     rules=custom("next_to_seven"), dealer=2)
    act(g, 0, "WC", "colour R")
    assert g.phase == Phase.DISCARD and g.actor == 1 and g.discard_left == 2
    assert legal(g, 1) == {f"discard {c}" for c in nine.split()}
    assert seat_view(g, 1).discard_left == 2
    before = snapshot(g)
    with pytest.raises(CardNotInHandError):
        act(g, 1, "discard R1")
    with pytest.raises(WrongPhaseError):
        act(g, 1, "colour R")
    with pytest.raises(NotYourTurnError):
        act(g, 2, "discard G1")
    assert snapshot(g) == before
    act(g, 1, "discard Y9")
    assert g.phase == Phase.DISCARD and g.discard_left == 1
    act(g, 1, "discard Y1")
    assert hand(g, 1) == "Y2 Y3 Y4 Y5 Y6 Y7 Y8"
    assert g.top == Card.parse("WC") and g.colour is Colour.RED
    assert g.phase == Phase.PLAY and g.actor == 1
    assert [e.cards for e in events(g, "discard")] == [(Card.parse("Y9"),), (Card.parse("Y1"),)]


def test_23_all_to_three() -> None:
    g = stacked_game(["WC R1 R2 R3 R4", "Y1 Y2 Y3 Y4 Y5", "G1 G2 G3 G4 G5", "B1 B2 B3 B4 B5"], "B7",
                     rules=custom("all_to_three"), dealer=3)
    # Test-only surgery: seat 3 holds just B1 and will draw Y9 then G9.
    pile = g.draw_pile
    for c in parse_cards("Y9 G9"):
        pile.remove(c)
    pile.extend(parse_cards("B2 B3 B4 B5 G9 Y9"))  # the top of the pile is the end
    g.hands[3][:] = parse_cards("B1")
    g.version += 1
    act(g, 0, "WC", "colour R")
    # The player first (4 cards: discard 1), then in turn order.
    assert g.phase == Phase.DISCARD and g.actor == 0
    act(g, 0, "discard R4")
    assert g.actor == 1
    act(g, 1, "discard Y1", "discard Y2")
    act(g, 2, "discard G5", "discard G4")
    assert hand(g, 3) == "B1 Y9 G9"
    assert [len(h) for h in g.hands] == [3, 3, 3, 3]
    assert g.phase == Phase.PLAY and g.actor == 1
    assert all_cards(g) == full_deck(g)


def test_23_hands_face_up_until_the_players_next_turn() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", "B1 B2 B3",
                     rules=custom("hands_face_up"), dealer=2)
    assert seat_view(g, 1).face_up == {}
    act(g, 0, "WC", "colour Y")
    for viewer in (0, 1, 2, None):
        assert seat_view(g, viewer).face_up == {s: tuple(g.hands[s]) for s in range(3)}
    act(g, 1, "Y1")
    assert seat_view(g, 2).face_up[1] == tuple(parse_cards("Y2 Y3"))
    _pass_turn(g, 2)
    assert g.actor == 0
    assert seat_view(g, 1).face_up == {}


def test_23_hands_face_up_ends_when_the_player_jumps_in() -> None:
    g = stacked_game(["WC Y1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7",
                     rules=custom("hands_face_up").with_(jump_in=True), dealer=2)
    act(g, 0, "WC", "colour Y")
    act(g, 1, "Y1")
    assert seat_view(g, 2).face_up
    act(g, 0, "Y1")  # seat 0 jumps in: that is its next turn
    assert seat_view(g, 2).face_up == {}


def test_23_swap_hands_effect() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", rules=custom("swap_hands"), dealer=2)
    act(g, 0, "WC", "colour G")
    assert g.phase == Phase.TARGET and g.actor == 0
    assert legal(g, 0) == {"target 1", "target 2"}
    act(g, 0, "target 2")
    assert hand(g, 0) == "G1 G2 G3" and hand(g, 2) == "R1 R2"
    assert g.actor == 1


def test_23_shuffle_hands_effect() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", rules=custom("shuffle_hands"), dealer=2)
    pool = Counter(parse_cards("R1 R2 Y1 Y2 Y3 G1 G2 G3"))
    act(g, 0, "WC", "colour G")
    assert Counter(c for h in g.hands for c in h) == pool
    assert [len(h) for h in g.hands] == [2, 3, 3]
    assert g.actor == 1


def test_23_effects_apply_in_the_order_written() -> None:
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", "B1 B2 B3 B4 B5 B6",
                     rules=custom("next_draws_two", "next_to_seven"), dealer=2)
    act(g, 0, "WC", "colour R")
    assert len(g.hands[1]) == 7
    g = stacked_game(["WC R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", "B1 B2 B3 B4 B5 B6",
                     rules=custom("next_to_seven", "next_draws_two"), dealer=2)
    act(g, 0, "WC", "colour R")
    assert len(g.hands[1]) == 9


def test_23_going_out_on_a_customizable_wild_fires_no_effect() -> None:
    g = stacked_game(["WC", "Y1", "G1"], "B7", rules=custom("next_draws_two", "swap_hands"), dealer=2)
    act(g, 0, "WC")
    assert g.phase == Phase.ROUND_OVER and g.round_winner == 0
    assert "effect" not in kinds(g)


def test_23_every_effect_is_tested() -> None:
    tested = {"draw_until_colour", "discard_wilds", "draw3_if_stuck", "extra_turn", "next_to_seven",
              "all_to_three", "hands_face_up", "swap_hands", "shuffle_hands", "skip_next", "next_draws_two"}
    assert {e.value for e in Effect} == tested


# ----- 24. Wild Swap Hands --------------------------------------------------------------------------


def test_24_swap_hands_with_a_chosen_opponent_then_name_the_colour() -> None:
    g = stacked_game(["WX R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "B7", rules=Rules.preset("modern"), dealer=2)
    act(g, 0, "WX")
    assert g.phase == Phase.TARGET and legal(g, 0) == {"target 1", "target 2"}
    assert legal(g, 1) == legal(g, 2) == set()
    with pytest.raises(BadChoiceError):
        act(g, 0, "target 0")
    act(g, 0, "target 1")
    assert hand(g, 0) == "Y1 Y2 Y3" and hand(g, 1) == "R1 R2"
    assert g.phase == Phase.COLOUR and g.actor == 0
    act(g, 0, "colour Y")
    assert g.colour is Colour.YELLOW and g.actor == 1
    ev = events(g, "swap")[-1]
    assert (ev.seat, ev.target) == (0, 1)
    assert Card.parse("WX").points == 40


# ----- 25. Wild Shuffle Hands -----------------------------------------------------------------------


def test_25_shuffle_hands_gathers_shuffles_deals_evenly_from_the_left() -> None:
    rules = CLASSIC.with_(shuffle_hands=1)
    g = stacked_game(["G1 G2 G3", "WH R2 R3", "B1 B2 B3"], "R5", rules=rules, dealer=0)
    pool = Counter(parse_cards("G1 G2 G3 R2 R3 B1 B2 B3"))
    act(g, 1, "WH")
    assert Counter(c for h in g.hands for c in h) == pool
    # Eight cards from the player's left: seats 2, 0, 1, 2, 0, 1, 2, 0.
    assert [len(h) for h in g.hands] == [3, 2, 3]
    assert events(g, "shuffle")[-1].seat == 1
    assert g.phase == Phase.COLOUR and g.actor == 1
    act(g, 1, "colour Y")
    assert g.actor == 2
    assert Card.parse("WH").points == 40


def test_25_shuffle_hands_deals_from_the_players_left_even_after_a_reverse() -> None:
    # "Left" is a place at the table (seat numbers rising), not the direction of play.
    rules = CLASSIC.with_(shuffle_hands=1)
    g = stacked_game(["RR R1 R2", "Y1 Y2 Y3", "G1 G2 G3", "WH B1 B2"], "R5", rules=rules, dealer=3)
    act(g, 0, "RR")
    assert g.direction == -1 and g.actor == 3
    act(g, 3, "WH")
    # Ten cards from seat 3's left: seats 0, 1, 2, 3, 0, 1, 2, 3, 0, 1.
    assert [len(h) for h in g.hands] == [3, 3, 2, 2]
    act(g, 3, "colour B")
    assert g.actor == 2  # play still goes right
