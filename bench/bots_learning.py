"""``bench/bots.py --learning``: does learning an opponent's Wild Draw Four honesty pay?

Heads-up matches to 500 points (the ``giant`` preset, challenges on), each deal played
twice with the seats swapped (duplicate deals), for three pairings:

* ``hard`` (learning) against ``honest`` (hard that never bluffs a Wild Draw Four),
* ``hard-nolearn`` (the plain hard bot) against ``honest``,
* ``hard`` against ``hard-nolearn`` head to head.

Per match and side: challenges made, failed challenges (the card was honest: the
challenger drew six instead of four), and the points lost to challenges, counted as the
face points of the cards a side drew *because of* a challenge: two of the six of a failed
challenge (a third of their points) and all four of a bluff found guilty.  The first
side's match win rate has its Wilson 95% interval.

The bots' search is off (``search=False``): it never decides a challenge or a bluff (it
refines only plays, draws and keeps near a hand's end), and without it a 500-point match
takes about a second instead of ten, so enough matches fit in a few minutes.
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass, field
from random import Random

from unotui.bots import make_bot
from unotui.engine import EventKind, Game, Rules
from unotui.sim.stats import wilson
from unotui.table import Pacing, Referee

PAIRINGS = (("hard", "honest"), ("hard-nolearn", "honest"), ("hard", "hard-nolearn"))


@dataclass
class Side:
    """One side's totals over a pairing's matches."""

    wins: int = 0
    challenges: int = 0
    failed: int = 0
    points_lost: float = 0.0


@dataclass
class Pairing:
    """A pairing's totals: ``sides[0]`` is the first-named bot."""

    matches: int = 0
    sides: list[Side] = field(default_factory=lambda: [Side(), Side()])


def play(args: tuple[tuple[str, str], int, int]) -> list[tuple[int, int, int, float]]:
    """Match ``number`` of a pairing: per side (won, challenges, failed, points lost)."""
    pair, number, seed = args
    deal, swap = divmod(number, 2)
    seat_of = (swap, 1 - swap)  # side -> seat
    rules = Rules.preset("giant").with_(target_score=500)
    base = seed * 1_000_003 + deal * 7919
    bots = {seat_of[side]: make_bot(pair[side], Random(base + 1 + side), deadline=None, search=False,
                                    objective="points") for side in (0, 1)}
    game = Game(2, rules, dealer=deal % 2, seed=base)
    Referee(game, bots=bots, humans=[], pacing=Pacing.instant()).tick(0.0)
    out = []
    log = game.log
    for side in (0, 1):
        seat = seat_of[side]
        challenges = failed = 0
        lost = 0.0
        for i, e in enumerate(log):
            if e.kind is not EventKind.CHALLENGE:
                continue
            drawn = next((d for d in log[i + 1:] if d.kind is EventKind.DRAW), None)
            face = sum(c.points for c in drawn.cards) if drawn is not None else 0
            if e.seat == seat:
                challenges += 1
                if not e.value:
                    failed += 1
                    lost += face * 2 / 6
            elif e.target == seat and e.value:
                lost += face
        out.append((int(game.winner == seat), challenges, failed, lost))
    return out


def measure(matches: int, seed: int, jobs: int) -> list[str]:
    """Play every pairing; the report's lines (the last one is the summary)."""
    matches += matches % 2
    lines: list[str] = []
    summary: list[str] = []
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(jobs) as pool:
        for pair in PAIRINGS:
            start = time.perf_counter()
            tally = Pairing()
            for result in pool.imap(play, [(pair, m, seed) for m in range(matches)], 4):
                tally.matches += 1
                for side, (won, challenges, failed, lost) in zip(tally.sides, result, strict=True):
                    side.wins += won
                    side.challenges += challenges
                    side.failed += failed
                    side.points_lost += lost
            a, b = tally.sides
            n = tally.matches
            lo, hi = wilson(a.wins, n)
            line = (
                f"{pair[0]} vs {pair[1]}, {n} matches to 500 ({n // 2} duplicate deals): "
                f"{pair[0]} wins {100 * a.wins / n:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]; "
                f"per match {pair[0]} challenges {a.challenges / n:.2f}, failed {a.failed / n:.2f}, "
                f"points lost to challenges {a.points_lost / n:.1f}; "
                f"{pair[1]} challenges {b.challenges / n:.2f}, failed {b.failed / n:.2f}, "
                f"points lost {b.points_lost / n:.1f} ({time.perf_counter() - start:.0f} s)"
            )
            print(line, flush=True)
            lines.append(line)
            key = f"{pair[0]}_vs_{pair[1]}".replace("-", "_")
            summary.append(f"{key}_win={100 * a.wins / n:.2f} {key}_failed={a.failed / n:.2f} "
                           f"{key}_lost={a.points_lost / n:.1f}")
    lines.append(f"LEARNING matches={matches} " + " ".join(summary))
    print(lines[-1], flush=True)
    return lines
