"""Skill ratings for the lobby's leaderboard: a thin, pure adapter over openskill.

We do not write a rating formula: openskill's Plackett-Luce model (Weng and Lin's
Bayesian approximation for free-for-all games with ranks) rates a whole match at once,
every seat against every other, and keeps for each player a mean ``mu`` and an uncertainty
``sigma``.  The leaderboard sorts by the conservative *ordinal* ``mu - 3 * sigma``: a
newcomer starts at 25 - 3 x 8.33 = 0 and rises only as the system grows sure of them, so
one lucky match does not top the board.

Everyone at the table takes part in a match's rating, so the order of finish is the real
one, but only identified players (an SSH key) keep what they get:

* a **guest** (no key) enters as an unknown newcomer, :data:`DEFAULT_RATING`;
* a **computer player** enters with a fixed rating for its level, :data:`BOT_RATINGS`.

(Someone who fakes guests to lose to themselves gains what beating newcomers gives: no
more than a fresh key would give them anyway.)

Beating bots therefore counts, as much as beating a person of that rating would: a
player who only meets bots settles where their results place them against the bots'
levels (a fair share of wins against ``easy`` bots settles near easy's 21.7; winning half
the time, near 30), and winning against bots far below you moves you hardly at all.  The
bots' ratings are anchors, never updated: three ``hard`` bots at one table would otherwise
be one entity finishing in three places, and a bot's rating drifting with the people it
meets would make the anchor meaningless.  Their means come from the per-hand head-to-head
win rates in ``docs/bots.md``: ``medium`` is set to the newcomer's 25 and each gap is the
one for which openskill's ``predict_win`` gives the measured two-player win rate.  Their
``sigma`` of 25/9 says we are fairly, not fully, sure of that.  Whole matches widen the
gaps between levels, so these anchors understate them: on purpose, so that a strong
player farming easy bots climbs slowly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = ["BOT_RATINGS", "DEFAULT_RATING", "Rating", "Z", "bot_rating", "rate"]

Z = 3.0
"""How many ``sigma`` the ordinal subtracts from ``mu``."""

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """A player's skill: mean and uncertainty (openskill's scale, newcomers 25 and 8.33)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating shown and sorted on: ``mu - 3 * sigma``."""
        return self.mu - Z * self.sigma


DEFAULT_RATING = Rating(_MODEL.mu, _MODEL.sigma)
"""A newcomer, and every guest in every match."""

_BOT_SIGMA = _MODEL.sigma / 3

BOT_RATINGS: dict[str, Rating] = {
    "random": Rating(21.1, _BOT_SIGMA),
    "easy": Rating(21.7, _BOT_SIGMA),
    "greedy": Rating(22.3, _BOT_SIGMA),
    "medium": Rating(25.0, _BOT_SIGMA),
    "hard": Rating(26.6, _BOT_SIGMA),
}
"""The fixed rating a computer player enters a match with, by level."""


def bot_rating(level: str) -> Rating:
    """The anchor for a bot level; a level this table does not know plays as a newcomer
    (a new level must not break the end of a match)."""
    return BOT_RATINGS.get(level, DEFAULT_RATING)


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """Rate one free-for-all match: ``before[i]`` is seat ``i``'s rating going in and
    ``ranks[i]`` where it finished (1 = won; equal ranks tie).  Returns every seat's rating
    after the match, in the same order; the caller keeps the ones it stores.

    Raises:
        ValueError: fewer than two seats, or lengths that differ.
    """
    if len(before) != len(ranks):
        raise ValueError(f"{len(before)} ratings but {len(ranks)} ranks")
    if len(before) < 2:
        raise ValueError("a rated match needs at least two seats")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after: list[list[PlackettLuceRating]] = _MODEL.rate(teams, ranks=[float(k) for k in ranks])
    return [Rating(team[0].mu, team[0].sigma) for team in after]
