"""Playing many bot-vs-bot games, in one process or several, with merged results.

A *game* is one hand (round) by default: the hand is what the published strength figures
count, and it is what a player feels as winning or losing.  With a ``target`` score a
game is a whole match instead, and the bots play for points.

Every game is independent and fully determined by (seed, game number): its deck, its
seating and each bot's random source are derived from them.  So the results of a run
do not depend on how the games were spread over worker processes; the chunks are merged
in game order.  Decision times are measured around each ``choose`` call and are of
course not reproducible.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from ..bots import make_bot
from ..engine import Game, Rules
from ..table import Pacing
from .stats import seating

__all__ = ["Config", "Tally", "default_jobs", "play_game", "run", "workers"]


@dataclass(frozen=True)
class Config:
    """One simulation run.

    Attributes:
        bots: the level of each bot, one per seat (bot ``i`` sits in seat ``i`` unless
            ``duplicate`` rotates it).
        games: games to play (rounded up to a multiple of the table size with duplicates).
        seed: the run's seed.
        duplicate: replay each deal with the bots rotated through every seat.
        rules: the table's rules.
        target: play whole matches to this score instead of single hands.
        options: bot options passed to every bot (e.g. ``deadline`` for hard).
    """

    bots: tuple[str, ...]
    games: int
    seed: int = 0
    duplicate: bool = False
    rules: Rules = field(default_factory=Rules)
    target: int | None = None
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.bots)

    @property
    def total(self) -> int:
        """Games actually played (duplicates need whole rotations)."""
        n = self.players
        return -(-self.games // n) * n if self.duplicate else self.games


@dataclass
class Tally:
    """Results of some games, per bot of the list (mergeable; merge in game order)."""

    games: int = 0
    moves: int = 0
    wins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    times_ns: list[list[int]] = field(default_factory=list)

    @staticmethod
    def empty(players: int) -> Tally:
        """A tally of no games for ``players`` bots."""
        return Tally(0, 0, [0] * players, [0] * players, [[] for _ in range(players)])

    def merge(self, other: Tally) -> None:
        """Add ``other``'s games (later games) to this tally."""
        self.games += other.games
        self.moves += other.moves
        for i in range(len(self.wins)):
            self.wins[i] += other.wins[i]
            self.points[i] += other.points[i]
            self.times_ns[i].extend(other.times_ns[i])


def _seed(*parts: int) -> int:
    value = 0x9E3779B97F4A7C15
    for p in parts:
        value = (value * 1_000_003 + p + 1) % (1 << 61)
    return value


def play_game(cfg: Config, index: int, tally: Tally) -> None:
    """Play game number ``index`` of ``cfg`` and add it to ``tally``.

    The table core runs the game, as it runs every table (solo, LAN, the lobby), with no
    waiting and nobody watching: one ``tick`` plays the hand (or the match) to its end.
    """
    # The table core is imported here, not at the top: ``unotui --help`` builds every
    # command's parser (this module included) and must not load the wire format.
    from ..net.config import RoomConfig
    from ..net.core import TableCore
    from ..net.seats import SeatBook

    n = cfg.players
    where = seating(index, n, cfg.duplicate)
    entry_at = [0] * n
    for entry, seat in enumerate(where.seat_of):
        entry_at[seat] = entry
    rules = cfg.rules if cfg.target is None else cfg.rules.with_(target_score=cfg.target)
    options = dict(cfg.options)
    if cfg.target is not None:
        options.setdefault("objective", "points")
    times = tally.times_ns
    bots = {
        s: make_bot(cfg.bots[entry_at[s]], Random(_seed(cfg.seed, index, s)), **options) for s in range(n)
    }
    game = Game(n, rules, dealer=where.dealer, seed=_seed(cfg.seed, where.deal, 1 << 20))
    pacing = _HANDS if cfg.target is None else _MATCHES
    book = SeatBook(n)
    book.fill_with_bots(list(game.names), "random")  # the bots are ``bots``; the level is unused
    config = RoomConfig(name="sim", seats=n, rules=rules)  # nobody joins: the set-up is only a record
    core: TableCore[int] = TableCore.playing("", config, book, game, bots=bots, pacing=pacing,
                                             clock=time.perf_counter_ns)
    core.recording = False
    dealt = len(game.history)
    core.tick(0.0)
    assert core.referee is not None
    tally.games += 1
    tally.moves += len(game.history) - dealt
    for s in range(n):
        times[entry_at[s]] += core.referee.decision_ns[s]
    winner = game.winner if cfg.target is not None else game.round_winner
    if winner >= 0:
        side = game.team_of(winner)
        for s in range(n):
            if game.team_of(s) == side:
                tally.wins[entry_at[s]] += 1
    for s in range(n):
        tally.points[entry_at[s]] += game.scores[s]


# No waiting: every deadline is due at once, and out-of-turn actions come in seat order.
_MATCHES = Pacing.instant()
# Single hands: the table stops when the round ends.
_HANDS = _MATCHES._replace(between_rounds=None)


def _chunk(args: tuple[Config, int, int]) -> Tally:
    cfg, start, stop = args
    tally = Tally.empty(cfg.players)
    for i in range(start, stop):
        play_game(cfg, i, tally)
    return tally


def chunks(cfg: Config, jobs: int) -> list[tuple[Config, int, int]]:
    """Split the run into contiguous chunks of games (several per job, for progress)."""
    total = cfg.total
    pieces = max(1, min(total, jobs * 25 if total >= 200 else jobs))
    bounds = [total * k // pieces for k in range(pieces + 1)]
    return [(cfg, bounds[k], bounds[k + 1]) for k in range(pieces) if bounds[k] < bounds[k + 1]]


def default_jobs() -> int:
    """Worker processes by default: every core this process may run on (at least one).

    ``os.process_cpu_count`` (Python 3.13) and the affinity mask both count the cores the
    process is allowed, not the machine's: under ``taskset`` or a container's CPU set,
    more workers than that would only take turns.
    """
    count = getattr(os, "process_cpu_count", None)
    if count is not None:
        return max(1, count() or 1)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)  # pragma: no cover - no affinity (macOS, Windows)


def workers(cfg: Config, jobs: int) -> int:
    """How many worker processes :func:`run` uses for ``cfg`` with ``jobs``: never more
    than there are chunks of games; 1 means the games are played in this process."""
    return max(1, min(jobs, len(chunks(cfg, jobs))))


def run(cfg: Config, jobs: int = 1, progress: Callable[[int, int], None] | None = None) -> Tally:
    """Play every game of ``cfg`` in :func:`workers` processes (in this one when that is
    1: no process is started); results merged in game order, so the same whatever
    ``jobs`` is."""
    parts = chunks(cfg, jobs)
    count = workers(cfg, jobs)
    total = Tally.empty(cfg.players)

    def add(t: Tally) -> None:
        total.merge(t)
        if progress:
            progress(total.games, cfg.total)

    if count <= 1:
        for p in parts:
            add(_chunk(p))
        return total
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(count) as pool:
        for t in pool.imap(_chunk, parts):
            add(t)
    return total
