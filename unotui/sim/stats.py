"""Statistics and seating for the simulator: Wilson intervals, percentiles, duplicates.

Kept apart from the runner so that they are unit-tested on their own: a wrong interval
or a biased seating would make every strength figure quietly wrong.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Seating", "percentile", "seating", "wilson"]

Z95 = 1.959963984540054


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` out of ``games`` (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 or all wins,
    which matters for short runs and lopsided matchups.
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    denom = 1.0 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (0-100) of already sorted values (0 if none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return float(sorted_values[min(rank, len(sorted_values)) - 1])


class Seating(tuple[int, int, tuple[int, ...]]):
    """``(deal, dealer, seat_of)``: which deal a game replays, who deals, where each bot sits.

    ``seat_of[i]`` is the seat of the i-th bot of the ``--bots`` list.
    """

    __slots__ = ()

    @property
    def deal(self) -> int:
        """Index of the deal (the deck shuffle) this game plays."""
        return self[0]

    @property
    def dealer(self) -> int:
        """The dealer seat; the first player sits to its left."""
        return self[1]

    @property
    def seat_of(self) -> tuple[int, ...]:
        """Seat of each bot of the list."""
        return self[2]


def seating(game: int, players: int, duplicate: bool) -> Seating:
    """Where everyone sits in game number ``game``.

    Without duplicates each game is its own deal, bot ``i`` sits in seat ``i`` and the
    dealer moves one seat per game, so the first player alternates.  With duplicates,
    ``players`` consecutive games replay one deal with the bots rotated one seat each
    time, so every bot plays every hand of the deal once; the dealer moves on per deal.
    """
    if not duplicate:
        return Seating((game, game % players, tuple(range(players))))
    deal, rotation = divmod(game, players)
    seats = tuple((i + rotation) % players for i in range(players))
    return Seating((deal, deal % players, seats))
