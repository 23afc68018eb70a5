"""The rating adapter gives exactly what openskill gives, and its anchors are sane."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from unotui.bots import LEVELS
from unotui.lobby.ratings import BOT_RATINGS, DEFAULT_RATING, Rating, bot_rating, rate


def test_rate_matches_openskill_directly() -> None:
    before = [Rating(25.0, 25 / 3), Rating(30.0, 4.0), Rating(18.0, 6.5), bot_rating("hard")]
    ranks = [2, 1, 4, 3]
    model = PlackettLuce()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    expected = model.rate(teams, ranks=[2.0, 1.0, 4.0, 3.0])
    after = rate(before, ranks)
    for got, want in zip(after, expected, strict=True):
        assert got.mu == pytest.approx(want[0].mu, abs=1e-12)
        assert got.sigma == pytest.approx(want[0].sigma, abs=1e-12)
        assert got.ordinal == pytest.approx(want[0].ordinal(), abs=1e-12)


def test_ties_rate_alike() -> None:
    after = rate([DEFAULT_RATING] * 3, [1, 1, 3])
    assert after[0] == after[1]
    assert after[0].mu > DEFAULT_RATING.mu > after[2].mu


def test_winner_rises_loser_falls_and_everyone_grows_surer() -> None:
    a, b = rate([DEFAULT_RATING, DEFAULT_RATING], [1, 2])
    assert a.mu > DEFAULT_RATING.mu > b.mu
    assert a.sigma < DEFAULT_RATING.sigma and b.sigma < DEFAULT_RATING.sigma


def test_newcomer_ordinal_is_zero() -> None:
    assert DEFAULT_RATING.ordinal == pytest.approx(0.0, abs=1e-9)


def test_every_bot_level_has_an_anchor_in_strength_order() -> None:
    assert set(LEVELS) == set(BOT_RATINGS)
    mus = [BOT_RATINGS[k].mu for k in ("random", "easy", "medium", "hard")]
    assert mus == sorted(mus) and len(set(mus)) == 4
    assert bot_rating("no-such-level") == DEFAULT_RATING


def test_beating_bots_saturates() -> None:
    """Beating far weaker bots again and again gains less each time."""
    r = DEFAULT_RATING
    gains = []
    for _ in range(30):
        new = rate([r, bot_rating("easy"), bot_rating("easy")], [1, 2, 3])[0]
        gains.append(new.mu - r.mu)
        r = new
    assert gains[-1] < gains[0] / 4


@pytest.mark.parametrize(("before", "ranks"), [([DEFAULT_RATING], [1]), ([DEFAULT_RATING] * 2, [1])])
def test_bad_input_raises(before: list[Rating], ranks: list[int]) -> None:
    with pytest.raises(ValueError):
        rate(before, ranks)
