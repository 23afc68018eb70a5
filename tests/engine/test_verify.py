"""Verifying a finished round from one seat's view: honest rounds check out for every seat
and spectators under every rule that moves cards; any tampering is a mismatch."""

from __future__ import annotations

import random

import pytest

from unotui.engine import (
    CustomRule,
    Effect,
    Event,
    Game,
    Phase,
    Play,
    Rules,
    SeatView,
    parse_cards,
    seat_view,
    verify_round,
)
from unotui.engine.shuffle import Label, commitment, round_key, shuffled

RULE_SETS = {
    "classic": Rules.preset("classic"),
    "modern": Rules.preset("modern").with_(seven_o=True, jump_in=True, stacking="cross"),
    "hands": Rules.preset("classic").with_(
        shuffle_hands=3, swap_hands=2, custom_wilds=3, hand_size=5,
        custom=CustomRule((Effect.DISCARD_WILDS, Effect.DRAW_UNTIL_COLOUR, Effect.SHUFFLE_HANDS,
                           Effect.ALL_TO_THREE)),
    ),
    "giant": Rules.preset("giant"),
}


def step(game: Game, pick: random.Random) -> None:
    """One random legal move of the seat that is due, a play whenever there is one (so
    rounds end); now and then an out-of-turn move (catches, UNO calls, jump-ins)."""
    if pick.random() < 0.2:
        moves = [(s, a) for s in range(game.n) for a in game.legal_actions(s)]
    else:
        moves = [(game.actor, a) for a in game.legal_actions(game.actor)]
        plays = [m for m in moves if isinstance(m[1], Play)]
        moves = plays or moves
    game.apply(*moves[pick.randrange(len(moves))])


def play_rounds(game: Game, seed: int, rounds: int = 3) -> None:
    """Random legal moves for ``rounds`` rounds; every finished round is checked from
    every seat and a spectator."""
    pick = random.Random(seed)
    ends = 0
    while ends < rounds:
        if game.phase is Phase.ROUND_OVER or game.over:
            check_all(game)
            ends += 1
            if game.over:
                return
        step(game, pick)


def check_all(game: Game) -> None:
    for seat in [None, *range(game.n)]:
        verdict = verify_round(seat_view(game, seat))
        assert verdict.ok is True, (seat, verdict)
        assert verdict.round_no == game.round_no and verdict.shuffles >= 1


@pytest.mark.parametrize("rules", list(RULE_SETS))
@pytest.mark.parametrize("players", [2, 3, 5])
def test_honest_rounds_verify_for_every_seat(rules: str, players: int) -> None:
    for seed in range(4):
        play_rounds(Game(players, RULE_SETS[rules].with_(target_score=300), seed=seed * 7 + players), seed)


def test_reshuffles_and_shuffled_hands_are_recomputed() -> None:
    """A round with a reshuffle of the discards and a shuffle of the hands verifies."""
    rules = RULE_SETS["hands"].with_(target_score=100_000)
    for seed in range(200):
        game = Game(3, rules, seed=seed)
        pick = random.Random(seed)
        while game.phase is not Phase.ROUND_OVER:
            step(game, pick)
        kinds = {e.kind for e in game.log}
        if {"reshuffle", "shuffle"} <= kinds:
            break
    else:
        pytest.fail("no round had both a reshuffle and shuffled hands")
    verdict = verify_round(seat_view(game, 0))
    assert verdict.ok is True and verdict.shuffles >= 3


def finished(seed: int = 1) -> Game:
    game = Game(3, Rules.preset("classic").with_(target_score=100_000), seed=seed)
    pick = random.Random(seed)
    while game.phase is not Phase.ROUND_OVER:
        step(game, pick)
    return game


def test_not_checked_before_the_round_ends() -> None:
    game = Game(3, Rules.preset("classic"), seed=1)
    view = seat_view(game, 0)
    assert view.revealed_key == "" and len(view.deck_commit) == 64
    assert verify_round(view).ok is None


def test_the_key_is_revealed_only_when_the_round_is_over() -> None:
    game = Game(3, Rules.preset("classic").with_(target_score=100_000), seed=4)
    pick = random.Random(4)
    for _ in range(3):  # three rounds
        key = round_key(game.shuffler.secret, game.round_no).hex()
        commit = game.deck_commit
        while game.phase is not Phase.ROUND_OVER:
            for seat in (None, 0, 1, 2):
                view = seat_view(game, seat, game.round_log_start)
                assert view.revealed_key == "" and view.deck_commit == commit
                assert key not in repr(view)
            step(game, pick)
        assert seat_view(game, 1).revealed_key == key
        game.apply(game.dealer, game.legal_actions(game.dealer)[0])  # deal
        assert seat_view(game, 1).deck_commit != commit


def test_a_wrong_key_is_a_mismatch() -> None:
    view = seat_view(finished(), 1)
    other = round_key(b"\x09" * 32, view.round_no).hex()
    verdict = verify_round(view._replace(revealed_key=other))
    assert verdict.ok is False and "commitment" in verdict.reason


def test_dealing_other_than_the_committed_order_is_a_mismatch() -> None:
    """A host that commits to its key's shuffle but deals something else (here a stacked
    deck, with the commitment and key an honest host would send) is caught."""
    rules = Rules.preset("classic").with_(hand_size=2, target_score=100_000)
    game = Game(2, rules, seed=1, dealer=0, deck=parse_cards("R1 R2 R3 R4 R5"))
    assert seat_view(game, 0).deck_commit == ""  # a stacked deck commits to nothing
    pick = random.Random(1)
    while game.phase is not Phase.ROUND_OVER:
        step(game, pick)
    key = round_key(game.shuffler.secret, 1)
    commit = commitment(key, shuffled(key, Label.DEAL, 1, game._deck))
    for seat in (None, 0, 1):
        view = seat_view(game, seat)._replace(deck_commit=commit, revealed_key=key.hex())
        verdict = verify_round(view)
        assert verdict.ok is False, verdict
    assert verify_round(seat_view(game, 0)).ok is None  # as sent: nothing to check


def tamper(view: SeatView, index: int, event: Event) -> SeatView:
    log = list(view.log)
    log[index] = event
    return view._replace(log=tuple(log))


def test_a_changed_draw_or_hand_is_a_mismatch() -> None:
    game = finished(2)
    seat = 0
    view = seat_view(game, seat)
    i, e = next((i, e) for i, e in enumerate(view.log) if e.kind == "draw" and e.seat == seat and e.cards)
    other = parse_cards("W+4")[0] if e.cards[0].text != "W+4" else parse_cards("R0")[0]
    bad = verify_round(tamper(view, i, e._replace(cards=(other, *e.cards[1:]))))
    assert bad.ok is False and f"seat {seat} drew" in bad.reason
    flip = next(i for i, e in enumerate(view.log) if e.kind == "flip")
    bad = verify_round(tamper(view, flip, view.log[flip]._replace(cards=(other,))))
    assert bad.ok is False and "turned up" in bad.reason
    hands = dict(view.face_up)
    loser = next(s for s in hands)
    hands[loser] = hands[loser][1:]
    assert verify_round(view._replace(face_up=hands)).ok is False


def test_a_truncated_log_cannot_be_checked() -> None:
    view = seat_view(finished(3), 2)
    start = next(i for i, e in enumerate(view.log) if e.kind == "deal")
    cut = view._replace(log=view.log[start + 1 :], log_start=start + 1)
    assert verify_round(cut).ok is None
