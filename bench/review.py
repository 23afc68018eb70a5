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
* **Strength** (``--strength``).  A player that takes the analysis's preferred move
  (:func:`unotui.review.analysis.preferred` on its own view; the hard policy for the
  decisions the analysis leaves alone: colours, challenges) against the hard bot
  heads-up, single hands over duplicate deals (each deal played twice, seats swapped),
  win rate with its Wilson 95% interval; the target is a lower bound above 50%.
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


from unotui.bots import HardPolicy, make_bot
from unotui.bots.base import BaseBot
from unotui.engine import Action, Game, Rules, SeatView
from unotui.review import analyse, decisions, option_key
from unotui.review.analysis import preferred
from unotui.review.run import Settings, review
from unotui.sim.stats import wilson
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


class AnalystBot(BaseBot):
    """Plays the analysis's preferred move; the hard policy where nothing is analysed."""

    name = "analyst"
    uses_log = True

    def __init__(self, rng: Random, playouts: int) -> None:
        super().__init__(rng, catch_rate=1.0)
        self.playouts = playouts
        self.policy = HardPolicy()

    def choose(self, view: SeatView) -> Action:
        """Housekeeping (UNO, catches, deals), then the analysis, then the policy."""
        first = self.housekeeping(view)
        if first is not None:
            return first
        best = preferred(view, self.playouts, self.rng)
        return best if best is not None else self.policy.decide(view)


_HAND = Pacing.instant()._replace(between_rounds=None)


def strength_hand(args: tuple[int, int, int]) -> int:
    """One hand of deal ``args[0] // 2``, the analyst in seat ``args[0] % 2``: 1 if it won."""
    game_no, seed, playouts = args
    deal, seat = divmod(game_no, 2)
    rules = Rules.preset("giant")
    base = seed * 1_000_003 + deal * 7919
    bots: dict[int, BaseBot] = {
        seat: AnalystBot(Random(base + 1), playouts),
        1 - seat: make_bot("hard", Random(base + 2), deadline=None),
    }
    game = Game(2, rules, dealer=deal % 2, seed=base)
    Referee(game, bots=bots, humans=[], pacing=_HAND).tick(0.0)
    return int(game.round_winner == seat)


def strength(hands: int, playouts: int, seed: int, jobs: int, quick: bool = False) -> int:
    """The strength figure (``--strength``): exit status 0 when the lower bound is above 50%
    (always in a ``quick`` smoke run, too small to judge)."""
    hands += hands % 2  # whole deals
    ctx = multiprocessing.get_context("spawn")
    start = time.perf_counter()
    won = 0
    with ctx.Pool(jobs) as pool:
        for k, w in enumerate(pool.imap(strength_hand, [(g, seed, playouts) for g in range(hands)], 4), 1):
            won += w
            if k % 50 == 0:
                print(f"  {k} hands, {won} won, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    seconds = time.perf_counter() - start
    lo, hi = wilson(won, hands)
    ok = lo > 0.5
    print(f"analysis's preferred move vs hard, heads-up, {hands} hands ({hands // 2} duplicate deals) "
          f"at {playouts} playouts per option: {100 * won / hands:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}] "
          f"in {seconds:.0f} s with {jobs} jobs (target: lower bound above 50%: {'met' if ok else 'missed'})")
    print(f"strength_rate={100 * won / hands:.2f} lower={100 * lo:.2f} upper={100 * hi:.2f} hands={hands} "
          f"playouts={playouts} seconds={seconds:.0f}")
    return 0 if ok or quick else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000, help="positions (at least)",
                        metavar="N")
    parser.add_argument("--playouts", type=int, default=Settings().playouts, help="playouts per option")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true", help="a smoke run: few positions, a short match")
    parser.add_argument("--strength", action="store_true",
                        help="only the strength figure: the analysis's preferred move against hard")
    parser.add_argument("--hands", type=int, default=600, help="hands for --strength (whole deals)")
    args = parser.parse_args()
    if args.strength:
        if args.quick:
            args.hands, args.playouts = 4, 8
        return strength(args.hands, args.playouts, args.seed, args.jobs, args.quick)
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
