"""Analysis and judgement: options, marks at their thresholds, the per-seat summary."""

from __future__ import annotations

from random import Random

import pytest

from unotui.engine import Play, Rules
from unotui.review import Analysis, Option, analyse, decisions, judge, mark_of, option_key, summarise

from .helpers import match


@pytest.mark.parametrize(("cost", "mark"), [
    (0.0, "good"), (1.99, "good"), (2.0, "inaccuracy"), (4.99, "inaccuracy"), (5.0, "mistake"),
    (14.99, "mistake"), (15.0, "blunder"), (80.0, "blunder"),
])
def test_marks_at_their_thresholds(cost: float, mark: str) -> None:
    assert mark_of(cost) == mark


def test_a_match_is_judged_and_summarised() -> None:
    transcript = match(4)
    found = list(decisions(transcript))[:60]
    judged = [judge(d, analyse(d.view, 32, Random(d.step))) for d in found]
    for j in judged:
        if j.analysis.analysed:
            assert {o.key for o in j.analysis.options} >= {j.chosen}
            assert all(0.0 <= o.chance <= 1.0 for o in j.analysis.options)
            assert j.analysis.samples in (32, 8)  # a forced move gets a quarter
            best = max(o.chance for o in j.analysis.options)
            mine = j.analysis.chance_of(j.chosen)
            assert mine is not None and j.cost == pytest.approx(100 * (best - mine))
            assert j.mark == ("forced" if len(j.analysis.options) == 1 else mark_of(j.cost))
        else:
            assert j.mark == "not analysed" and j.analysis.note
    assert any(j.mark == "not analysed" for j in judged) or all(d.phase in ("play", "drawn") for d in found)
    summaries = summarise(2, judged)
    for s in summaries:
        real = [j for j in judged if j.decision.seat == s.seat and j.mark not in ("forced", "not analysed")]
        assert s.judged == len(real) and s.matched == sum(j.cost == 0 for j in real)
        assert s.given_away == pytest.approx(sum(j.cost for j in real))
        costs = sorted((j.cost for j in real if j.cost > 0), reverse=True)[:3]
        assert [next(j.cost for j in real if j.decision.step == step) for step in s.costliest] == costs
        assert sum(s.marks.values()) == s.judged


def test_ties_go_to_the_move_made() -> None:
    d = next(d for d in decisions(match(4)) if d.phase == "play" and len(d.legal) >= 2)
    key = str(d.action).rstrip("!")
    other = next(str(a).rstrip("!") for a in d.legal if str(a).rstrip("!") != key)
    j = judge(d, Analysis((Option(other, 0.5), Option(key, 0.5)), 10))
    assert (j.best, j.cost, j.mark) == (key, 0.0, "good")


def test_house_rules_the_model_does_not_play_are_not_analysed() -> None:
    rules = Rules.preset("giant").with_(target_score=150, jump_in=True)
    d = next(iter(decisions(match(4, rules=rules))))
    a = analyse(d.view, 16, Random(1))
    assert not a.analysed and a.samples == 0 and "house rules" in a.note
    assert judge(d, a).mark == "not analysed"


def test_a_bluff_is_scored_as_caught() -> None:
    """A Wild Draw Four while holding the colour in play: the playouts never challenge,
    so review plays it as challenged and guilty (the bluffer draws four)."""
    from unotui.review.analysis import _WD4

    for d in decisions(match(21, levels=("hard", "hard"))):
        bluff = [a for a in d.legal if isinstance(a, Play) and a.card.rank is _WD4]
        if d.phase == "play" and bluff and any(c.colour is d.view.colour for c in d.view.hand):
            caught = analyse(d.view, 64, Random(2))
            lucky = analyse(d.view, 64, Random(2), bluffs_caught=False)
            key = option_key(bluff[0])
            for mine, theirs in zip(caught.options, lucky.options, strict=True):
                if mine.key == key:
                    assert mine.chance < theirs.chance  # drawing four itself costs it
                else:
                    assert mine == theirs  # the same worlds for every option
            return
    pytest.skip("no bluff position in this match")  # pragma: no cover
