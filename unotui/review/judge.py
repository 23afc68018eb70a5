"""Marks and summaries: what each decision cost in chance of winning the round.

cost = the best option's chance - the chosen option's chance, in points of chance
(percentage points).  The marks, at thresholds a chess player would recognise:

=============  ==============  ===========================================================
mark           cost (points)   why there
=============  ==============  ===========================================================
good           under 2         within the estimates' noise: with the default 256 sampled
                               worlds per option and common random numbers, a cost moves
                               by 1.1 points on average between seeds (bench/review.py)
inaccuracy     2 to 5          above the noise, but it loses one round in 50 to one in 20
mistake        5 to 15         a clear loss: one round in 20 to one in 7
blunder        over 15         more than one round in 7 given away
=============  ==============  ===========================================================

A forced decision (one option) is marked ``forced``; one the playouts cannot play,
``not analysed``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .analysis import Analysis, option_key
from .decisions import Decision

__all__ = ["MARKS", "Judged", "SeatSummary", "judge", "mark_of", "summarise"]

MARKS: tuple[tuple[str, float], ...] = (("good", 2.0), ("inaccuracy", 5.0), ("mistake", 15.0),
                                         ("blunder", float("inf")))
"""Each mark with the cost (points of chance) it goes up to, exclusive."""


def mark_of(cost: float) -> str:
    """The mark of a decision that gave away ``cost`` points of chance."""
    for name, limit in MARKS:
        if cost < limit:
            return name
    return MARKS[-1][0]  # pragma: no cover - the last limit is infinite


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision with its analysis and its judgement.

    Attributes:
        chosen / best: the chosen option's key and the best one's ("" when not analysed).
        cost: points of chance given away (0 when not analysed or forced).
        mark: good, inaccuracy, mistake, blunder, forced or ``not analysed``.
    """

    decision: Decision
    analysis: Analysis
    chosen: str
    best: str
    cost: float
    mark: str


def judge(decision: Decision, analysis: Analysis) -> Judged:
    """Compare the chosen option with the best one."""
    chosen = option_key(decision.action)
    if not analysis.analysed:
        return Judged(decision, analysis, chosen, "", 0.0, "not analysed")
    best = max(analysis.options, key=lambda o: o.chance)
    mine = analysis.chance_of(chosen)
    if mine is None:  # pragma: no cover - the chosen action is always legal
        return Judged(decision, analysis, chosen, best.key, 0.0, "not analysed")
    if len(analysis.options) == 1:
        return Judged(decision, analysis, chosen, best.key, 0.0, "forced")
    best_key = chosen if mine >= best.chance else best.key  # ties go to the move made
    cost = max(0.0, (best.chance - mine) * 100)
    return Judged(decision, analysis, chosen, best_key, cost, mark_of(cost))


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat over the match.

    Attributes:
        judged: its decisions with a real choice that were analysed.
        matched: how many of those took the best option.
        given_away: total points of chance given away.
        costliest: the steps of its (up to) three costliest decisions, costliest first.
        marks: how many of each mark.
    """

    seat: int
    judged: int
    matched: int
    given_away: float
    costliest: tuple[int, ...]
    marks: dict[str, int]

    @property
    def share(self) -> float:
        """The share of judged decisions that matched the best (1 when none)."""
        return self.matched / self.judged if self.judged else 1.0


def summarise(players: int, judged: Iterable[Judged]) -> Sequence[SeatSummary]:
    """A summary per seat (see :class:`SeatSummary`)."""
    by_seat: dict[int, list[Judged]] = {s: [] for s in range(players)}
    for j in judged:
        by_seat[j.decision.seat].append(j)
    out = []
    for seat, js in by_seat.items():
        real = [j for j in js if j.mark not in ("forced", "not analysed")]
        marks = {name: sum(1 for j in real if j.mark == name) for name, _ in MARKS}
        worst = sorted((j for j in real if j.cost > 0), key=lambda j: (-j.cost, j.decision.step))[:3]
        out.append(SeatSummary(
            seat, len(real), sum(1 for j in real if j.chosen == j.best), sum(j.cost for j in real),
            tuple(j.decision.step for j in worst), marks,
        ))
    return out
