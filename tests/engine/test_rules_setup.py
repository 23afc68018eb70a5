"""Rules checklist items 1-7: the dealer, the deal and the first card."""

from __future__ import annotations

from collections import Counter

import pytest
from uno_testkit import (
    CLASSIC,
    act,
    all_cards,
    deal_order,
    events,
    full_deck,
    hand,
    kinds,
    legal,
    stacked_game,
)

from tests.seeds import rng_secret
from unotui.engine import (
    Card,
    Colour,
    CustomRule,
    Game,
    NotYourTurnError,
    Phase,
    Rank,
    Rules,
    build_deck,
    parse_cards,
)

# ----- the deck ---------------------------------------------------------------------------


def test_classic_deck_has_108_cards() -> None:
    deck = Counter(build_deck(CLASSIC))
    assert sum(deck.values()) == 108
    for colour in "RYGB":
        assert deck[Card.parse(colour + "0")] == 1
        for sym in [*"123456789", "S", "R", "+2"]:
            assert deck[Card.parse(colour + sym)] == 2
    assert deck[Card.parse("W")] == 4
    assert deck[Card.parse("W+4")] == 4


@pytest.mark.parametrize(
    ("preset", "size", "specials"),
    [
        ("classic", 108, {}),
        ("classic-2008", 108, {}),
        ("classic-2001", 108, {}),
        ("giant", 111, {"WC": 3}),
        ("modern", 112, {"WX": 1, "WC": 3}),
    ],
)
def test_preset_decks(preset: str, size: int, specials: dict[str, int]) -> None:
    rules = Rules.preset(preset)
    deck = Counter(build_deck(rules))
    assert sum(deck.values()) == size == rules.deck_size
    for text in ("WX", "WH", "WC"):
        assert deck[Card.parse(text)] == specials.get(text, 0)


def test_shuffle_hands_cards_in_deck() -> None:
    rules = CLASSIC.with_(shuffle_hands=2, swap_hands=1, custom_wilds=1)
    deck = Counter(build_deck(rules))
    assert (deck[Card.parse("WH")], deck[Card.parse("WX")], deck[Card.parse("WC")]) == (2, 1, 1)
    assert sum(deck.values()) == rules.deck_size == 112


@pytest.mark.parametrize(
    ("text", "points"),
    [("R0", 0), ("Y5", 5), ("G9", 9), ("BS", 20), ("RR", 20), ("Y+2", 20),
     ("W", 50), ("W+4", 50), ("WX", 40), ("WH", 40), ("WC", 40)],
)
def test_card_points(text: str, points: int) -> None:
    assert Card.parse(text).points == points


# ----- 1. dealer, deal, who starts ----------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_1_highest_number_deals_symbols_count_zero(seed: int) -> None:
    g = Game(5, CLASSIC, secret=rng_secret(seed))
    draws = events(g, "dealer")
    assert draws
    for e in draws:
        card = e.cards[0]
        assert e.value == (int(card.rank) if card.rank <= Rank.N9 else 0)
    # The last draw-off decides: its highest value is unique and belongs to the dealer.
    last: dict[int, int] = {}
    for e in reversed(draws):
        if e.seat in last:
            break
        last[e.seat] = e.value
    best = max(last.values())
    assert [s for s, v in last.items() if v == best] == [g.dealer]


def test_1_ties_redraw_among_the_tied() -> None:
    for seed in range(200):
        g = Game(6, CLASSIC, secret=rng_secret(seed))
        draws = events(g, "dealer")
        if len(draws) > 6:
            first = {e.seat: e.value for e in draws[:6]}
            best = max(first.values())
            tied = {s for s, v in first.items() if v == best}
            assert len(tied) > 1
            assert {e.seat for e in draws[6 : 6 + len(tied)]} == tied
            return
    pytest.fail("no seed produced a tie")


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_1_deal_seven_each_left_of_dealer_starts(dealer: int) -> None:
    g = Game(4, CLASSIC, secret=rng_secret(3), dealer=dealer,
             deck=parse_cards("R1 R2 R3 R4 R5 R6 R7 R8 R9 B1 B2 B3 B4 B5 B6 B7 B8 B9 Y1 Y2 Y3 Y4 Y5 Y6 "
                              "Y7 Y8 Y9 G1 G2 G3 G4 G5"))
    assert [len(h) for h in g.hands] == [7, 7, 7, 7]
    # One card at a time, starting left of the dealer.
    assert g.hands[(dealer + 1) % 4][0] == Card.parse("R1")
    assert g.hands[(dealer + 2) % 4][0] == Card.parse("R2")
    assert g.hands[dealer][0] == Card.parse("R4")
    assert g.hands[(dealer + 1) % 4][1] == Card.parse("R5")
    assert g.top == Card.parse("G2")  # the 29th card
    assert g.actor == g.turn == (dealer + 1) % 4
    assert g.direction == 1
    assert g.phase == Phase.PLAY


def test_1_play_goes_left() -> None:
    g = stacked_game(["R1 R2", "R3 R4", "R5 R6", "R7 R8"], "R9", dealer=3)
    assert g.actor == 0
    act(g, 0, "R1")
    assert g.actor == 1
    act(g, 1, "R3")
    assert g.actor == 2


def test_1_later_rounds_the_deal_passes_left() -> None:
    g = stacked_game(["G7", "R5", "B2"], "R3", dealer=0)
    act(g, 1, "R5")  # seat 1 goes out
    assert g.phase == Phase.ROUND_OVER
    assert g.dealer == 1
    assert legal(g, 1) == {"deal"}
    assert legal(g, 0) == legal(g, 2) == set()
    with pytest.raises(NotYourTurnError):
        act(g, 0, "deal")
    act(g, 1, "deal")
    assert g.round_no == 2
    assert g.dealer == 1
    deal = events(g, "deal")[-1]
    assert (deal.seat, deal.value) == (1, 2)
    # The new dealer's left-hand neighbour receives the first card and starts (unless
    # the flipped card says otherwise, see items 2-6).
    if g.top.rank <= Rank.N9:
        assert g.actor == 2
    assert all_cards(g) == full_deck(g)


# ----- 2. first card Wild Draw Four ----------------------------------------------------------


def test_2_first_wild_draw_four_goes_back_and_the_pile_is_reshuffled() -> None:
    g = stacked_game(["R1 R2 R3", "B1 B2 B3"], "W+4")
    assert "reflip" in kinds(g)
    assert g.top.rank is not Rank.WILD4
    assert g.discard == [g.top]
    assert all_cards(g) == full_deck(g)


def test_2_first_wild_draw_four_repeats_as_needed() -> None:
    for seed in range(200):
        g = Game(2, CLASSIC.with_(hand_size=1), seed=seed, dealer=0,
                 deck=parse_cards("R1 B1 W+4"))
        # The reshuffled pile is random; some seeds flip a second Wild Draw Four.
        assert g.top.rank is not Rank.WILD4
        assert all_cards(g) == full_deck(g)
        if len(events(g, "reflip")) > 1:
            return
    pytest.fail("no seed flipped two Wild Draw Fours in a row")


@pytest.mark.timeout(10)
def test_2_only_wild_draw_fours_left_to_flip_does_not_loop() -> None:
    # 7 players x 15 cards leave 3 cards to flip from; make them all Wild Draw Fours.
    rules = CLASSIC.with_(hand_size=15)
    non_w4 = [c for c in build_deck(rules) if c.rank is not Rank.WILD4]
    order = [*non_w4, Card.parse("W+4")]
    g = Game(7, rules, secret=rng_secret(1), dealer=0, deck=order)
    assert all_cards(g) == full_deck(g)
    # With nothing else to flip, the Wild Draw Four is played as a plain Wild (rule 3):
    # the player left of the dealer names the colour and nobody draws.
    assert g.top == Card.parse("W+4")
    assert g.phase == Phase.COLOUR
    assert g.actor == 1
    assert [len(h) for h in g.hands] == [15] * 7
    act(g, 1, "colour B")
    assert g.phase == Phase.PLAY and g.actor == 1 and g.colour is Colour.BLUE
    assert g.pending == 0


@pytest.mark.timeout(10)
def test_2_a_single_wild_draw_four_left_to_flip_does_not_loop() -> None:
    # Ten players x 11 cards from the 111-card giant deck leave exactly one card.
    rules = Rules.preset("giant").with_(hand_size=11)
    deck = build_deck(rules)
    deck.remove(Card.parse("W+4"))
    g = Game(10, rules, secret=rng_secret(2), dealer=9, deck=[*deck, Card.parse("W+4")])
    assert g.top == Card.parse("W+4") and g.draw_pile == []
    assert g.phase == Phase.COLOUR and g.actor == 0
    assert all_cards(g) == full_deck(g)


# ----- 3. first card Wild (and the other wilds) ------------------------------------------------


@pytest.mark.parametrize("first", ["W", "WX", "WH", "WC"])
def test_3_first_wild_left_of_dealer_names_colour_no_effect(first: str) -> None:
    rules = Rules.preset("modern").with_(
        shuffle_hands=1, custom=CustomRule.parse("extra_turn+next_draws_two+skip_next")
    )
    g = stacked_game(["R1 R2 R3", "B1 B2 B3", "G1 G2 G3"], first, rules=rules, dealer=2)
    hands_before = [list(h) for h in g.hands]
    assert g.phase == Phase.COLOUR
    assert g.actor == 0
    assert legal(g, 0) == {"colour R", "colour Y", "colour G", "colour B"}
    assert legal(g, 1) == legal(g, 2) == set()
    act(g, 0, "colour R")
    assert g.colour is Colour.RED
    assert g.phase == Phase.PLAY
    assert g.actor == 0  # no skip, no extra turn for anyone
    assert g.hands == hands_before  # no swap, shuffle or draw
    assert not {"swap", "shuffle", "effect", "skip", "draw"} & set(kinds(g))
    assert legal(g, 0) == {"R1", "R2", "R3", "draw"}


# ----- 4. first card Draw Two ------------------------------------------------------------


def test_4_first_draw_two_player_left_of_dealer_draws_two_and_loses_turn() -> None:
    g = stacked_game(["R1 R2", "B1 B2", "G1 G2"], "Y+2", "Y7 Y8 Y9", dealer=0)
    assert hand(g, 1) == "B1 B2 Y7 Y8"
    drew = events(g, "draw")[-1]
    assert (drew.seat, drew.value, drew.note, drew.to) == (1, 2, "first", 1)  # as documented
    assert g.actor == 2
    assert g.phase == Phase.PLAY
    assert g.pending == 0


# ----- 5. first card Reverse -------------------------------------------------------------


def test_5_first_reverse_dealer_plays_first_and_play_goes_right() -> None:
    g = stacked_game(["R1 R2", "B1 B2", "G1 G2", "Y1 Y2"], "YR", dealer=1)
    assert g.direction == -1
    assert g.actor == 1
    act(g, 1, "draw")
    if g.phase == Phase.DRAWN:
        act(g, 1, "keep")
    assert g.actor == 0


# ----- 6. first card Skip ----------------------------------------------------------------


def test_6_first_skip_player_left_of_dealer_is_skipped() -> None:
    g = stacked_game(["R1 R2", "B1 B2", "G1 G2", "Y1 Y2"], "YS", dealer=1)
    assert g.actor == 3
    assert g.direction == 1
    assert [e.seat for e in events(g, "skip")] == [2]


# ----- 7. nobody played the first card -----------------------------------------------------


@pytest.mark.parametrize("first", ["R5", "R+2", "RS", "RR", "W"])
def test_7_no_uno_or_challenge_from_the_first_card(first: str) -> None:
    # Everyone holds two cards; nothing the flip does opens an UNO catch or a challenge.
    g = stacked_game(["R1 B2", "B1 G2", "G1 Y2"], first, "Y7 Y8", dealer=0)
    assert g.uno_open == -1
    assert g.wd4 is None
    assert "play" not in kinds(g)
    for seat in range(3):
        texts = legal(g, seat)
        assert not any(t.startswith(("catch", "challenge", "accept", "uno")) for t in texts)


@pytest.mark.timeout(10)
def test_7_first_wild_draw_four_cannot_be_challenged_even_if_forced() -> None:
    # A pile of only Wild Draw Fours (see item 2) still gives no challenge.
    rules = CLASSIC.with_(hand_size=15)
    non_w4 = [c for c in build_deck(rules) if c.rank is not Rank.WILD4]
    g = Game(7, rules, secret=rng_secret(1), dealer=0, deck=[*non_w4, Card.parse("W+4")])
    act(g, 1, "colour R")
    assert g.wd4 is None
    assert "challenge" not in legal(g, 1)


def test_deal_order_helper_matches_engine() -> None:
    order = deal_order(["R1 R2", "B1 B2", "G1 G2"], "Y5", "Y6", dealer=1)
    assert [c.text for c in order] == ["G1", "R1", "B1", "G2", "R2", "B2", "Y5", "Y6"]
