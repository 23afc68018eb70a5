"""``unotui replay FILE [--json] [--steps N]``: replay a transcript with full validation.

Exit status: 0 when every step is legal, 1 when the file is malformed or a step is
illegal (the message names the step), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys

from .core import Transcript, TranscriptError, final_state, replay

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``unotui replay``."""
    parser.add_argument("file", help="transcript (JSON); - reads standard input")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    parser.add_argument("--steps", type=int, default=None, help="replay only the first N steps")
    parser.add_argument("--no-events", action="store_true", help="leave the event log out")


def run(args: argparse.Namespace) -> int:
    """Replay and print; see the module docstring for exit statuses."""
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(f"unotui replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    try:
        transcript = Transcript.loads(text)
        game = replay(transcript, args.steps)
    except TranscriptError as exc:
        print(f"unotui replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    state = final_state(game, events=not args.no_events)
    if args.json:
        json.dump(state, sys.stdout, indent=None, separators=(",", ":"))
        sys.stdout.write("\n")
    else:
        _print_summary(state, game.names)
    return 0


def _print_summary(state: dict[str, object], names: tuple[str, ...]) -> None:
    hands = state["hands"]
    assert isinstance(hands, list)
    print(f"round {state['round']}, phase {state['phase']}, top {state['discard_top']} "
          f"({state['colour']}), turn: {names[int(str(state['turn']))]}")
    for seat, hand in enumerate(hands):
        print(f"  {seat} {names[seat]:<16} {' '.join(hand)}")
    print(f"scores: {state['scores']}  round winner: {state['round_winner']}  "
          f"match winner: {state['match_winner']}")
