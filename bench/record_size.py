"""How big a finished match's record is on the wire (protocol version 2 ``transcript``).

Plays ``--matches`` matches of ``--seats`` computer players to ``--target`` points (the
biggest table the rules allow, 10 seats, to 500 by default) with the engine alone, cuts
each one's record into parts as a host does (:func:`unotui.net.handover.record_parts`),
and encodes every part as a frame within the host's 64 KB limit.  Prints, per match, the
steps (every action, out of turn ones too), the rounds, the parts and the bytes, then the
largest seen and the bound the codec sets (256 parts of at most 256 keys and 3000 steps).
The last line is exactly ``steps=N bytes=B parts=P largest_part=L``, the longest match's.

``--scoring elimination`` (a seat over the target is out, the last one left wins) makes
the longest matches.

Usage: ``python bench/record_size.py [--matches 20] [--seats 10] [--target 500]
[--level medium] [--scoring standard]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unotui.bots import make_bot  # noqa: E402
from unotui.engine import Game, Rules  # noqa: E402
from unotui.net.handover import record_parts  # noqa: E402
from unotui.protocol.codec import MAX_RECORD_PARTS, RECORD_ACTIONS, RECORD_KEYS, encode_frame  # noqa: E402
from unotui.protocol.framing import HOST_LIMITS  # noqa: E402
from unotui.table import Pacing, Referee  # noqa: E402


def measure(seed: int, seats: int, target: int, level: str, scoring: str) -> tuple[int, int, int, int, int]:
    """One match's (steps, rounds, parts, bytes, largest part)."""
    rng = Random(seed)
    rules = Rules.preset("giant").with_(target_score=target, scoring=scoring)
    game = Game(seats, rules, seed=rng.getrandbits(64))
    bots = {s: make_bot(level, Random(rng.getrandbits(64))) for s in range(seats)}
    Referee(game, bots=bots, humans=(), pacing=Pacing.instant(), rng=rng).tick(0.0)
    assert game.over
    frames = [encode_frame(p, HOST_LIMITS.frame) for p in record_parts(game)]
    return len(game.history), game.round_no, len(frames), sum(map(len, frames)), max(map(len, frames))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seats", type=int, default=10)
    parser.add_argument("--target", type=int, default=500)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--scoring", default="standard", help="standard, lowest or elimination (the longest)")
    args = parser.parse_args()
    rows = [measure(seed, args.seats, args.target, args.level, args.scoring) for seed in range(args.matches)]
    print(f"{args.matches} matches of {args.seats} seats ({args.level}, {args.scoring} scoring) "
          f"to {args.target} points")
    print(f"{'steps':>7} {'rounds':>6} {'parts':>5} {'bytes':>8} {'largest part':>12}")
    for steps, rounds, parts, size, largest in rows:
        print(f"{steps:>7} {rounds:>6} {parts:>5} {size:>8} {largest:>12}")
    steps, rounds, parts, size, largest = max(rows)
    print(f"longest: {steps} steps in {rounds} rounds, {size} bytes in {parts} part(s); "
          f"per step about {size / steps:.1f} bytes")
    print(f"bound: {MAX_RECORD_PARTS} parts x ({RECORD_KEYS} keys + {RECORD_ACTIONS} steps) = "
          f"{MAX_RECORD_PARTS * RECORD_ACTIONS} steps; each part at most {HOST_LIMITS.frame} bytes")
    print(f"steps={steps} bytes={size} parts={parts} largest_part={largest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
