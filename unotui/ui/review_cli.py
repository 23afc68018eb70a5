"""``unotui review FILE``: on a terminal, the review screen; into a pipe (or with
``--text`` / ``--json``), the printed review of :mod:`unotui.review.cli`.

Nothing of Textual is imported until the screen is to open, and the printed forms load
only :mod:`unotui.review.cli` (``unotui/cli.py``'s rule: a subcommand loads only its own
module).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

    from ..transcript import Transcript
    from .review_job import ReviewJob

__all__ = ["add_arguments", "review_app", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``unotui review``'s arguments: the printed review's, ``--text`` and ``--seat``."""
    from ..review.cli import add_arguments as printed

    printed(parser)
    parser.add_argument("--text", action="store_true",
                        help="print the review as text, even on a terminal (the default into a pipe)")
    parser.add_argument("--seat", type=int, default=None,
                        help="the seat the screen shows first, from 0 (default: the first that is not a bot)")


def _interactive(args: argparse.Namespace) -> bool:
    return not (args.json or args.text) and sys.stdin.isatty() and sys.stdout.isatty()


def run(args: argparse.Namespace) -> int:
    """Open the review screen on a terminal, else print (see the module docstring)."""
    from ..review import cli as printed

    if not _interactive(args):
        return printed.run(args)
    if args.jobs is not None and args.jobs < 1:
        print("unotui review: --jobs must be at least 1", file=sys.stderr)
        return 2
    if not 1 <= args.playouts <= 100_000:
        print("unotui review: --playouts must be 1-100000", file=sys.stderr)
        return 2
    text = printed.read_transcript(args.file)
    if text is None:
        return 1
    from pathlib import Path

    from ..review.run import cache_path
    from ..transcript import Transcript, TranscriptError
    from .review_job import local_job

    try:
        transcript = Transcript.loads(text)
        if args.seat is not None and not 0 <= args.seat < len(transcript.players):
            print(f"unotui review: --seat must be 0-{len(transcript.players) - 1}", file=sys.stderr)
            return 2
        job = local_job(cache_path(Path(args.file)), args.jobs, playouts=args.playouts, seed=args.seed)
        app = review_app(transcript, args.seat, job, text)
    except TranscriptError as exc:
        print(f"unotui review: {args.file}: {exc}", file=sys.stderr)
        return 1
    app.run()
    return 0


def review_app(transcript: Transcript, seat: int | None, job: ReviewJob, text: str | None = None) -> App[Any]:
    """A small app whose first screen is the review (Escape there quits).

    Raises:
        TranscriptError: the transcript cannot be replayed.
    """
    from textual.app import App

    from .screens.review import ReviewScreen

    screen = ReviewScreen(transcript, seat, job, text=text)  # (replays now: an error before the app runs)

    class ReviewApp(App[None]):
        """``unotui review FILE`` on a terminal."""

        TITLE = "unotui review"
        ENABLE_COMMAND_PALETTE = False  # (nothing to offer here; its ^p would push "esc Back" off 80 columns)

        def on_mount(self) -> None:
            self.push_screen(screen)

    return ReviewApp()
