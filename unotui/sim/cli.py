"""``unotui sim``: play computer players against each other and report their strength.

Examples::

    unotui sim --players 2 --bots hard,random --games 20000 --duplicate
    unotui sim --players 4 --bots hard,random --games 2000 --json

A game is one hand unless ``--target`` asks for whole matches to that score.  ``--bots``
names a level per seat; a shorter list is repeated around the table (``hard,random`` at
4 players is hard, random, hard, random) and a single name fills every seat.  The games
are spread over one worker process per core unless ``--jobs`` says otherwise; results
are the same whatever the number (see :mod:`unotui.sim.runner`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..bots import LEVELS, VARIANTS
from ..engine import Rules, RulesError
from .runner import Config, Tally, default_jobs, workers
from .runner import run as run_games
from .stats import percentile, wilson

__all__ = ["add_arguments", "build_config", "report", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``sim`` options to its subcommand parser."""
    parser.add_argument("--players", type=int, default=2, help="seats at the table (2-10)")
    parser.add_argument(
        "--bots", default="hard,random",
        help=f"level per seat, comma-separated ({', '.join(LEVELS + VARIANTS)})",
    )
    parser.add_argument("--games", type=int, default=1000, help="games (hands) to play")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (same seed, same results)")
    parser.add_argument(
        "--duplicate", action="store_true", help="replay each deal with the bots rotated through every seat"
    )
    parser.add_argument("--rules", default="giant", help="rules preset (classic, giant, modern, ...)")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="change one rule (repeatable)"
    )
    parser.add_argument("--target", type=int, default=None, help="play whole matches to this score")
    parser.add_argument(
        "--jobs", type=int, default=None, metavar="J",
        help="worker processes (default: one per core this process may use; 1 plays in this process)",
    )
    parser.add_argument(
        "--deadline",
        type=float,
        default=None,
        help="hard's search time limit per decision in seconds (default: none, so runs are reproducible)",
    )
    parser.add_argument("--rollouts", type=int, default=None, help="hard's playouts per searched decision")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def build_config(args: argparse.Namespace) -> Config:
    """The run described by parsed arguments; raises ValueError naming a bad one."""
    players = int(args.players)
    if not 2 <= players <= 10:
        raise ValueError(f"--players must be 2-10, not {players}")
    names = [b.strip().lower() for b in str(args.bots).split(",") if b.strip()]
    if not names:
        raise ValueError("--bots names at least one level")
    for name in names:
        if name not in LEVELS + VARIANTS:
            raise ValueError(f"unknown bot level {name!r} (known: {', '.join(LEVELS + VARIANTS)})")
    if len(names) > players:
        raise ValueError(f"--bots names {len(names)} bots for {players} seats")
    bots = tuple(names[i % len(names)] for i in range(players))
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    try:
        rules = Rules.preset(args.rules)
        settings: dict[str, str] = {}
        for item in args.set:
            key, sep, value = item.partition("=")
            if not sep:
                raise ValueError(f"--set takes KEY=VALUE, not {item!r}")
            settings[key] = value
        if settings:
            rules = rules.with_settings(settings)
        rules.validate(players)
    except RulesError as exc:
        raise ValueError(str(exc)) from None
    options: list[tuple[str, Any]] = [("deadline", args.deadline)]
    if args.rollouts is not None:
        options.append(("rollouts", args.rollouts))
    return Config(
        bots=bots,
        games=int(args.games),
        seed=int(args.seed),
        duplicate=bool(args.duplicate),
        rules=rules,
        target=args.target,
        options=tuple(options),
    )


def report(cfg: Config, tally: Tally, seconds: float, used: int = 1) -> dict[str, Any]:
    """The run's results as the ``--json`` object (``used``: the worker processes that
    played them, 1 for this process alone)."""
    bots = []
    for i, name in enumerate(cfg.bots):
        wins = tally.wins[i]
        lo, hi = wilson(wins, tally.games)
        times = sorted(tally.times_ns[i])
        bots.append(
            {
                "name": name,
                "seat": i,
                "wins": wins,
                "win_rate": wins / tally.games if tally.games else 0.0,
                "ci_low": lo,
                "ci_high": hi,
                "avg_points": tally.points[i] / tally.games if tally.games else 0.0,
                "decision_ms": {
                    f"p{q}": percentile(times, q) / 1e6 for q in (50, 95, 99)
                },
            }
        )
    return {
        "games": tally.games,
        "players": cfg.players,
        "seconds": seconds,
        "workers": used,
        "moves": tally.moves,
        "bots": bots,
    }


def _table(data: dict[str, Any]) -> str:
    lines = [
        f"{'bot':<8} {'seat':>4} {'wins':>7} {'win%':>7} {'95% CI':>15} {'avg pts':>8} "
        f"{'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}"
    ]
    for b in data["bots"]:
        d = b["decision_ms"]
        ci = f"{100 * b['ci_low']:.1f}-{100 * b['ci_high']:.1f}"
        lines.append(
            f"{b['name']:<8} {b['seat']:>4} {b['wins']:>7} {100 * b['win_rate']:>6.2f}% {ci:>15} "
            f"{b['avg_points']:>8.1f} {d['p50']:>7.3f} {d['p95']:>7.3f} {d['p99']:>7.3f}"
        )
    secs = data["seconds"]
    rate = data["games"] / secs if secs > 0 else 0.0
    used = data["workers"]
    lines.append(
        f"{data['games']} games, {data['players']} players, {data['moves']} moves, "
        f"{secs:.1f} s, {rate:.0f} games/s, {used} worker{'s' if used != 1 else ''}"
    )
    return "\n".join(lines)


def _progress_bar() -> Any:
    start = time.perf_counter()
    last = [0.0]

    def show(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] < 0.2 and done < total:
            return
        last[0] = now
        width = 30
        filled = width * done // max(1, total)
        rate = done / max(1e-9, now - start)
        eta = (total - done) / rate if rate else 0.0
        bar = "#" * filled + "." * (width - filled)
        sys.stderr.write(f"\r[{bar}] {done}/{total} {rate:.0f}/s eta {eta:.0f}s ")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def run_sim(args: argparse.Namespace) -> int:
    """Run the simulation described by ``args``; print the table or the JSON object."""
    try:
        cfg = build_config(args)
    except ValueError as exc:
        print(f"unotui sim: {exc}", file=sys.stderr)
        return 2
    jobs = default_jobs() if args.jobs is None else int(args.jobs)
    if jobs < 1:
        print(f"unotui sim: --jobs must be at least 1, not {jobs}", file=sys.stderr)
        return 2
    used = workers(cfg, jobs)
    progress = None
    if not args.json and sys.stderr.isatty() and cfg.total >= 200:
        progress = _progress_bar()
    start = time.perf_counter()
    tally = run_games(cfg, jobs, progress)
    seconds = time.perf_counter() - start
    data = report(cfg, tally, seconds, used)
    if args.json:
        print(json.dumps(data))
    else:
        print(_table(data))
    return 0


run = run_sim
