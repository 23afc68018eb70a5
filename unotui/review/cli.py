"""``unotui review FILE [--json] [--jobs N] [--playouts N] [--seed S]``: judge every
decision of a saved match.

Exit status: 0 when reviewed, 1 when the file cannot be read or replayed (the message
names the step), 2 for usage errors.  The review is cached in ``FILE.review.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["MAX_TRANSCRIPT_BYTES", "add_arguments", "cores", "read_transcript", "run"]

MAX_TRANSCRIPT_BYTES = 16 << 20
"""A transcript larger than this is refused (a 500-point match is well under 100 kB)."""


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``unotui review``."""
    parser.add_argument("file", help="a saved transcript (JSON)")
    parser.add_argument("--json", action="store_true", help="print every decision with its options as JSON")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    parser.add_argument("--playouts", type=int, default=256, help="sampled worlds per option (default 256)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampling (same seed, same review)")


def run(args: argparse.Namespace) -> int:
    """Review and print; see the module docstring for exit statuses."""
    from ..transcript import TranscriptError
    from .run import Settings, review_file

    jobs = cores() if args.jobs is None else args.jobs
    if jobs < 1:
        print("unotui review: --jobs must be at least 1", file=sys.stderr)
        return 2
    if not 1 <= args.playouts <= 100_000:
        print("unotui review: --playouts must be 1-100000", file=sys.stderr)
        return 2
    path = Path(args.file)
    text = read_transcript(args.file)
    if text is None:
        return 1
    progress = None if args.json or not sys.stderr.isatty() else _progress
    try:
        result, cached = review_file(path, text, Settings(args.playouts, args.seed), jobs, progress)
    except TranscriptError as exc:
        print(f"unotui review: {args.file}: {exc}", file=sys.stderr)
        return 1
    if progress:
        sys.stderr.write("\n")
    if args.json:
        json.dump(result, sys.stdout, separators=(",", ":"))
        sys.stdout.write("\n")
    else:
        _print(result, cached)
    return 0


def read_transcript(file: str) -> str | None:
    """The text of the transcript ``file``, or ``None`` once the reason it cannot be read
    is printed (too large, unreadable, not UTF-8)."""
    path = Path(file)
    try:
        if path.stat().st_size > MAX_TRANSCRIPT_BYTES:
            print(f"unotui review: {file}: larger than {MAX_TRANSCRIPT_BYTES >> 20} MB", file=sys.stderr)
            return None
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        print(f"unotui review: cannot read {file}: {reason}", file=sys.stderr)
        return None


def _progress(done: int, total: int) -> None:
    sys.stderr.write(f"\rreviewing: {done}/{total} decisions")
    sys.stderr.flush()


def _print(result: dict[str, Any], cached: bool) -> None:
    names: list[str] = result["players"]
    costly = [d for d in result["decisions"] if d["mark"] in ("inaccuracy", "mistake", "blunder")]
    skipped = sum(1 for d in result["decisions"] if d["mark"] == "not analysed")
    print(f"{len(result['decisions'])} decisions; {len(costly)} cost chance of winning the round "
          f"(in points of chance; --json lists every one with its options)"
          + (f"; {skipped} not analysed (colours, challenges, unmodelled house rules)" if skipped else ""))
    for d in costly:
        who = names[d["seat"]]
        print(f"step {d['step']:>5}  round {d['round']:>2}  {who:<14} {d['chosen']:<6} "
              f"{d['mark']:<10} -{d['cost']:.1f} (best {d['best']})")
    for s in result["summary"]:
        marks = ", ".join(f"{k} {v}" for k, v in s["marks"].items())
        print(f"{s['name']}: {s['matched']}/{s['judged']} best ({100 * s['share']:.0f}%), "
              f"{s['given_away']:.1f} points of chance given away; {marks}; "
              f"costliest steps {s['costliest']}")
    if cached:
        print("(from the cache)")
