"""One test for each item of "Bugs seen in other engines" in the rules checklist."""

from __future__ import annotations

import random

import pytest
from uno_testkit import CLASSIC, act, all_cards, events, full_deck, hand, kinds, legal, snapshot, stacked_game

from tests.seeds import rng_secret
from unotui.engine import Card, Colour, CustomRule, Game, Phase, Rules, UnplayableCardError, seat_view


def test_two_player_reverse_acts_as_skip() -> None:
    g = stacked_game(["RR R1 R2", "Y1 Y2 Y3"], "R7", dealer=1)
    act(g, 0, "RR")
    assert g.actor == 0 and g.turn == 0
    assert events(g, "skip")[-1].seat == 1
    # Also as the first card: the player left of the dealer is skipped.
    g = stacked_game(["R1 R2", "Y1 Y2"], "RR", dealer=1)
    assert g.actor == 1


def test_first_card_draw_two_draws_and_loses_the_turn() -> None:
    for players in (2, 3, 5):
        hands = [f"{c}1 {c}2" for c in "RYGBRYGBRY"[:players]]
        hands = [h if i < 4 else h.replace("1", "3").replace("2", "4") for i, h in enumerate(hands)]
        g = stacked_game(hands, "B+2", "Y9 G9", dealer=0)
        assert hand(g, 1).endswith("Y9 G9")
        assert g.actor == 2 % players
        assert g.phase == Phase.PLAY and g.pending == 0


def test_reshuffle_does_not_duplicate_the_top_discard() -> None:
    g = stacked_game(["R1 R2 R3", "Y1 Y2 Y3"], "R7", dealer=1)
    g.discard[0:0] = g.draw_pile
    g.draw_pile.clear()
    top = g.top
    copies = full_deck(g).count(top)
    act(g, 0, "draw")
    assert "reshuffle" in kinds(g)
    assert g.discard == [top]
    assert all_cards(g) == full_deck(g)
    assert sum(1 for c in g.draw_pile if c is top) + sum(h.count(top) for h in g.hands) == copies - 1


@pytest.mark.timeout(20)
def test_both_piles_empty_neither_crashes_nor_loops() -> None:
    # Ten players, eight cards each: with draw-to-match the piles run dry quickly.
    rules = CLASSIC.with_(hand_size=10, draw_to_match=True)
    for seed in range(5):
        g = Game(10, rules, secret=rng_secret(seed), dealer=0)
        rng = random.Random(seed)
        passes = 0
        for _ in range(3000):
            if g.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
                break
            seat = g.actor
            acts = g.legal_actions(seat)
            # Hoard: always draw when allowed, so the piles run out.
            choice = next((a for a in acts if str(a) == "draw"), acts[rng.randrange(len(acts))])
            g.apply(seat, choice)
            passes += g.log[-1].kind == "pass"
            assert all_cards(g) == full_deck(g)
            if passes > 20:
                break
        assert passes > 0
        assert not g.draw_pile and len(g.discard) == 1


def test_out_of_turn_seven_under_seven_o_and_jump_in_still_swaps() -> None:
    rules = CLASSIC.with_(seven_o=True, jump_in=True)
    g = stacked_game(["R7 G1 G2", "Y7 Y2 Y3", "R7 B2 B3"], "R5", rules=rules, dealer=2)
    act(g, 0, "R7")
    assert g.phase == Phase.TARGET
    act(g, 0, "target 1")
    assert g.actor == 1
    # A crafted out-of-turn 7 that is not identical is refused, state unchanged...
    before = snapshot(g)
    with pytest.raises(UnplayableCardError):
        act(g, 0, "Y7")  # seat 0 now holds seat 1's old hand
    assert snapshot(g) == before
    # ... and the identical one jumps in and still swaps.
    act(g, 2, "R7")
    assert g.phase == Phase.TARGET and g.actor == 2
    act(g, 2, "target 0")
    assert hand(g, 2) == "Y7 Y2 Y3" and hand(g, 0) == "B2 B3"
    seq = [k for k in kinds(g) if k in ("jump", "swap")]
    assert seq[-2:] == ["jump", "swap"]
    assert len(events(g, "swap")) == 2
    assert g.actor == 0


@pytest.mark.parametrize("card", ["W", "W+4", "WC", "WX", "WH"])
def test_after_a_wild_the_view_shows_the_named_colour(card: str) -> None:
    rules = Rules.preset("modern").with_(shuffle_hands=1, custom=CustomRule.parse("extra_turn"))
    g = stacked_game([f"{card} R1 R2", "Y1 Y2 Y3", "G1 G2 G3"], "R7", "B1 B2 B3 B4",
                     rules=rules, dealer=2)
    act(g, 0, card)
    if g.phase == Phase.TARGET:
        act(g, 0, "target 1")
    act(g, 0, "colour G")
    for viewer in (0, 1, 2, None):
        view = seat_view(g, viewer)
        assert view.top == Card.parse(card)
        assert view.colour is Colour.GREEN


def test_first_card_wild_view_shows_the_named_colour() -> None:
    g = stacked_game(["R1 R2", "Y1 Y2"], "W", dealer=1)
    act(g, 0, "colour B")
    assert seat_view(g, 1).colour is Colour.BLUE
    assert legal(g, 0) == {"draw"}


def test_timer_expiry_gives_no_double_turn() -> None:
    """Bug seen elsewhere: timer expiry gives a player a double turn.  The host applies
    ``Game.timeout_action()`` when a turn timer runs out: one ordinary action of the seat
    that is due.  A timed-out turn draws, keeps a playable draw, and the turn passes."""
    g = stacked_game(["G1 G2 G3", "Y1 Y2 Y3", "B1 B2 B3"], "R5", "R7 B9", dealer=0)
    assert g.turn == 1
    seat, action = g.timeout_action() or (-1, None)
    assert (seat, str(action)) == (1, "draw")
    g.apply(seat, action)  # draws R7, which is playable: still seat 1's one turn
    assert g.phase == Phase.DRAWN and g.actor == 1
    seat, action = g.timeout_action() or (-1, None)
    assert (seat, str(action)) == (1, "keep")
    g.apply(seat, action)
    assert g.turn == 2 and g.actor == 2 and g.phase == Phase.PLAY  # seat 1 got no second turn
    seat, action = g.timeout_action() or (-1, None)
    g.apply(seat, action)  # seat 2 draws B9 (unplayable): keeping it is all that is left
    assert g.phase == Phase.DRAWN and g.actor == 2
    seat, action = g.timeout_action() or (-1, None)
    assert (seat, str(action)) == (2, "keep")
    g.apply(seat, action)
    assert g.turn == 0 and g.actor == 0
