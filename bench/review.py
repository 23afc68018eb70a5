"""Game review's analysis: is it calibrated, does it beat a plain baseline, is it fast?

Not a test: it analyses thousands of positions.  Run it from the repository root::

    python bench/review.py                    # >= 10,000 positions and the speed figure
    python bench/review.py --quick            # a smoke run (tests/review runs it)

* **Calibration.**  Two-player matches to 500 points are played between seeded computer
  players (hard and medium, both ways round and against themselves) through the
  referee, the same table the simulator runs, and every analysed decision of them is a
  position: the analysis's estimate of the deciding seat's chance of winning the round
  after the move it made, against whether it did.  Ten bins of predicted chance; the
  mean absolute calibration error is the positions-weighted mean over the bins of
  |mean prediction - share won|, in points (target <= 3).  The Brier score is compared
  with a plain baseline, "share of cards left": 1 - my cards / all cards in hand.
* **Speed.**  One 500-point 2-player match (hard against hard) reviewed with the default
  settings on ``--jobs`` processes (default 2), in seconds, with the playouts per option.
* **Repeatability.**  The same match reviewed again with another seed: how much each
  decision's cost moves (the noise the "good" mark's width must cover).

Every game is determined by the seed and its number, so the figures are reproducible
(bar the seconds).  The last line is the summary.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unotui.bots import make_bot
from unotui.engine import Game, Rules
from unotui.review import analyse, decisions, option_key
from unotui.review.run import Settings, review
from unotui.table import Pacing, Referee
from unotui.transcript import Transcript, transcript_of

PAIRS = (("hard", "medium"), ("medium", "hard"), ("hard", "hard"), ("medium", "medium"))


def play_match(index: int, seed: int, pair: tuple[str, str], target: int = 500) -> Transcript:
    """Match number ``index`` of the run: seeded bots, no waiting, whole to ``target``."""
    rules = Rules.preset("giant").with_(target_score=target)
    bots = {s: make_bot(pair[s], Random(seed * 7919 + index * 31 + s), deadline=None, objective="points")
            for s in range(2)}
    game = Game(2, rules, dealer=index % 2, seed=seed * 100_003 + index)
    Referee(game, bots=bots, humans=[], pacing=Pacing.instant()).tick(0.0)
    return transcript_of(game)


def round_winners(transcript: Transcript) -> dict[int, int]:
    """Each finished round's winning team (round number -> team)."""
    game = transcript.new_game()
    out: dict[int, int] = {}
    from unotui.transcript import replay

    for seat, action in replay(transcript).history:
        game.apply(seat, action)
        if game.round_winner >= 0 and game.round_no not in out:
            out[game.round_no] = game.team_of(game.round_winner)
    return out


def positions_of(args: tuple[int, int, int, int]) -> list[tuple[float, float, int]]:
    """(predicted chance, baseline, won) for every analysed decision of one match."""
    index, seed, playouts, target = args
    transcript = play_match(index, seed, PAIRS[index % len(PAIRS)], target)
    winners = round_winners(transcript)
    out = []
    for d in decisions(transcript):
        if d.round not in winners:
            continue
        a = analyse(d.view, playouts, Random(seed * 1_000_003 + index * 10_007 + d.step))
        chance = a.chance_of(option_key(d.action))
        if chance is None:
            continue
        team = d.view.teams[d.seat]
        mine = sum(d.view.counts[s] for s in d.view.active if d.view.teams[s] == team)
        total = sum(d.view.counts[s] for s in d.view.active)
        out.append((chance, 1.0 - mine / total, int(winners[d.round] == team)))
    return out


def calibration(points: list[tuple[float, float, int]]) -> tuple[float, list[tuple[int, float, float]]]:
    """The mean absolute calibration error (points) over ten bins, and each bin's
    (positions, mean prediction, share won)."""
    bins: list[list[tuple[float, int]]] = [[] for _ in range(10)]
    for p, _, won in points:
        bins[min(9, int(p * 10))].append((p, won))
    rows = []
    error = 0.0
    for b in bins:
        if not b:
            rows.append((0, 0.0, 0.0))
            continue
        mean_p = sum(p for p, _ in b) / len(b)
        share = sum(w for _, w in b) / len(b)
        rows.append((len(b), mean_p, share))
        error += len(b) * abs(mean_p - share)
    return 100 * error / len(points), rows


def brier(points: list[tuple[float, float, int]], which: int) -> float:
    """The Brier score of the predictions (0) or of the baseline (1)."""
    return sum((pt[which] - pt[2]) ** 2 for pt in points) / len(points)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000, help="positions (at least)",
                        metavar="N")
    parser.add_argument("--playouts", type=int, default=Settings().playouts, help="playouts per option")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true", help="a smoke run: few positions, a short match")
    args = parser.parse_args()
    target = 500
    if args.quick:
        args.positions, args.playouts, target = 60, 16, 60
    ctx = multiprocessing.get_context("spawn")
    points: list[tuple[float, float, int]] = []
    start = time.perf_counter()
    index = 0
    with ctx.Pool(args.jobs) as pool:
        while len(points) < args.positions:
            batch = [(index + k, args.seed, args.playouts, target) for k in range(max(1, args.jobs * 2))]
            index += len(batch)
            for part in pool.imap(positions_of, batch):
                points.extend(part)
            print(f"  {len(points)} positions from {index} matches, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr)
    mae, rows = calibration(points)
    print(f"calibration over {len(points)} positions from {index} {target}-point matches "
          f"({', '.join('-'.join(p) for p in PAIRS)}), {args.playouts} playouts per option:")
    for k, (n, mean_p, share) in enumerate(rows):
        print(f"  {10 * k:>3}-{10 * k + 10:<3}%  {n:>6} positions  "
              f"predicted {100 * mean_p:5.1f}  won {100 * share:5.1f}")
    ours, base = brier(points, 0), brier(points, 1)
    verdict = "met" if mae <= 3 else "missed"
    print(f"mean absolute calibration error {mae:.2f} points (target <= 3: {verdict})")
    print(f"Brier score {ours:.4f} against {base:.4f} for the share of cards left "
          f"({'better' if ours < base else 'worse'})")
    match = play_match(10_000, args.seed, ("hard", "hard"), target)
    settings = Settings(playouts=args.playouts if args.quick else Settings().playouts)
    start = time.perf_counter()
    result = review(match, settings, jobs=args.jobs)
    seconds = time.perf_counter() - start
    found = result["decisions"]
    options = sum(len(d["options"]) for d in found)
    print(f"review of a {target}-point 2-player match: {len(found)} decisions, {options} options, "
          f"{seconds:.1f} s with {args.jobs} jobs at {settings.playouts} playouts per option "
          f"(target under 60 s: {'met' if seconds < 60 else 'missed'})")
    again = review(match, Settings(playouts=settings.playouts, seed=settings.seed + 1), jobs=args.jobs)
    noise = [abs(a["cost"] - b["cost"]) for a, b in zip(found, again["decisions"], strict=True)
             if len(a["options"]) > 1]
    same = sum(a["mark"] == b["mark"] for a, b in zip(found, again["decisions"], strict=True)
               if len(a["options"]) > 1)
    judged = max(1, len(noise))
    spread = sum(noise) / judged
    print(f"repeatability: the same match reviewed with another seed: costs differ by {spread:.2f} points "
          f"on average over {len(noise)} judged decisions; the same mark {100 * same / judged:.0f}%")
    print(f"calibration_mae={mae:.2f} brier={ours:.4f} baseline_brier={base:.4f} positions={len(points)} "
          f"match_seconds={seconds:.1f} playouts={settings.playouts} jobs={args.jobs} "
          f"cost_noise={spread:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
