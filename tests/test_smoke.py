"""The engine plays whole matches under every preset without breaking its invariants."""

import random
from collections import Counter

import pytest

from unotui.engine import PRESETS, Game, build_deck


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 4, 7])
def test_random_match_conserves_cards(preset: str, players: int) -> None:
    rules = PRESETS[preset]
    deck = Counter(build_deck(rules))
    rng = random.Random(players)
    g = Game(players, rules, rng=random.Random(7 * players))
    steps = 0
    while not g.over and steps < 200_000:
        actions = g.legal_actions(g.actor)
        g.apply(g.actor, actions[rng.randrange(len(actions))])
        steps += 1
        if g.phase != "round_over":
            held = Counter(g.draw_pile) + Counter(g.discard)
            for h in g.hands:
                held.update(h)
            assert held == deck
    assert g.over
    assert max(g.scores) >= rules.target_score
