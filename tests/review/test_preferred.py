"""``preferred``: the analysis's best option, which the strength benchmark's player takes."""

from __future__ import annotations

import random

from tests.seeds import rng_secret
from unotui.engine import Game, Phase, Rules, seat_view
from unotui.review.analysis import analyse, option_key, preferred


def test_preferred_is_the_legal_option_the_analysis_rates_best() -> None:
    judged = 0
    for seed in range(40):
        game = Game(2, Rules.preset("giant"), secret=rng_secret(seed))
        view = seat_view(game, game.actor)
        if view.phase != Phase.PLAY:
            continue
        best = preferred(view, 24, random.Random(seed))
        assert best is not None and best in view.legal
        found = analyse(view, 24, random.Random(seed))
        if len(found.options) > 1:
            top = max(o.chance for o in found.options)
            assert found.chance_of(option_key(best)) == top
            judged += 1
        if judged >= 4:
            break
    assert judged >= 4


def test_preferred_is_none_where_nothing_is_analysed() -> None:
    game = Game(2, Rules.preset("giant"), secret=rng_secret(3))
    other = 1 - game.actor
    assert preferred(seat_view(game, other), 8, random.Random(0)) is None  # not its decision
