"""``Game.clone()``: an independent copy to play on (search bots play out on the engine)."""

from __future__ import annotations

import random

import pytest

from unotui.engine import Game, Rules, seat_view
from unotui.engine.actions import Action

RULES = {
    "classic": Rules.preset("classic"),
    "house": Rules.preset("modern").with_(
        seven_o=True, jump_in=True, stacking="cross", draw_to_match=True, target_score=150
    ),
}


def _moves(game: Game) -> list[tuple[int, Action]]:
    return [(s, a) for s in range(game.n) for a in game.legal_actions(s)]


def _views(game: Game, log_from: int) -> list[object]:
    """Every seat's view and a spectator's, with the log from ``log_from`` on (each step
    compares the events it added; the whole logs are compared once, at the end)."""
    return [seat_view(game, s, log_from) for s in (*range(game.n), None)]


def _play(game: Game, pick: random.Random, steps: int) -> list[tuple[int, Action]]:
    done = []
    for _ in range(steps):
        if game.over:
            break
        move = pick.choice(_moves(game))
        game.apply(*move)
        done.append(move)
    return done


@pytest.mark.parametrize("rules", sorted(RULES))
@pytest.mark.parametrize("seed", range(4))
def test_a_clone_plays_the_same_actions_to_the_same_views(rules: str, seed: int) -> None:
    game = Game(4, RULES[rules], seed=seed)
    _play(game, random.Random(seed), 60)
    twin = game.clone()
    assert _views(twin, 0) == _views(game, 0)
    pick = random.Random(100 + seed)
    for _ in range(400):  # through reshuffles and (often) the next deal
        if game.over:
            break
        move = pick.choice(_moves(game))
        assert move in _moves(twin)
        since = len(game.log)
        game.apply(*move)
        twin.apply(*move)
        assert _views(twin, since) == _views(game, since)
    assert twin.history == game.history and twin.log == game.log and twin.scores == game.scores


@pytest.mark.parametrize("rules", sorted(RULES))
def test_a_clone_and_its_original_diverge_independently(rules: str) -> None:
    game = Game(3, RULES[rules], seed=9)
    _play(game, random.Random(1), 25)
    before = _views(game, 0)
    twin = game.clone()
    _play(twin, random.Random(2), 200)  # the clone plays on: the original has not moved
    assert _views(game, 0) == before
    snapshot = _views(twin, 0)
    _play(game, random.Random(3), 200)  # and the other way round
    assert _views(twin, 0) == snapshot


def test_a_clone_is_a_game_of_the_same_kind() -> None:
    game = Game(2, seed=1)
    twin = game.clone()
    assert type(twin) is Game and twin is not game
    assert twin.hands is not game.hands
    assert all(a is not b for a, b in zip(twin.hands, game.hands, strict=True))
