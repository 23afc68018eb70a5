"""STAND-IN (lobby20), deleted at merge: screen20's ``review_job`` and ``review_launch``
with the same signatures, so that the lobby's recent matches can open a review before
the review screen is merged.  At merge, import ``ReviewJob``, ``ReviewRefused`` and
``local_job`` from :mod:`unotui.ui.review_job` and ``open_review`` from
:mod:`unotui.ui.review_launch` instead, and delete this file.

The stand-in screen runs the job in a worker thread, as the real one does, and shows its
outcome in one paragraph: the refusal's sentence, or each seat's share of best choices.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..transcript import Transcript

__all__ = ["ReviewJob", "ReviewRefused", "StandInReview", "local_job", "open_review"]


class ReviewRefused(Exception):
    """The review may not run: ``str(exc)`` is a sentence for the player."""


class ReviewJob(Protocol):
    """Something that reviews a transcript (screen20's interface)."""

    def run(self, text: str, progress: Callable[[int, int], None]) -> dict[str, Any]:
        """Review ``text`` (blocking, in a worker thread); the unotui-review/1 dict."""


@dataclass(frozen=True)
class _LocalJob:
    jobs: int
    playouts: int

    def run(self, text: str, progress: Callable[[int, int], None]) -> dict[str, Any]:
        from ..review.run import Settings, review
        from ..transcript import TranscriptError

        try:
            return review(Transcript.loads(text), Settings(self.playouts), self.jobs, progress)
        except TranscriptError as exc:
            raise ReviewRefused(f"This match cannot be replayed: {exc}") from None


def local_job(cache: Path | None = None, jobs: int | None = None, nice: int = 0,
              cpu_seconds: int | None = None, *, playouts: int = 256, seed: int = 0) -> ReviewJob:
    """A job reviewing on this machine (the stand-in ignores ``cache``, ``nice`` and
    ``cpu_seconds``, which screen20's applies to its analysis processes)."""
    del cache, nice, cpu_seconds, seed
    return _LocalJob(max(1, jobs or 1), playouts)


class StandInReview(Screen[None]):
    """The review's outcome in a paragraph; Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, transcript: Transcript, seat: int, job: ReviewJob) -> None:
        super().__init__()
        self.transcript, self.seat, self.job = transcript, seat, job
        self.outcome = ""

    def compose(self) -> ComposeResult:
        names = ", ".join(self.transcript.players)
        yield Static(Text(f"Review of {names}, as {self.transcript.players[self.seat]} saw it"), id="head")
        yield Static(Text("Reviewing..."), id="outcome")
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._review, thread=True)

    def _review(self) -> None:
        text = json.dumps(self.transcript.to_mapping())
        try:
            result = self.job.run(text, self._progress)
            line = "Reviewed: " + "; ".join(f"{s['name']} {round(100 * s['share'])}% best"
                                            for s in result["summary"])
        except ReviewRefused as exc:
            line = f"No review: {exc}"
        self.app.call_from_thread(self._show, line)

    def _progress(self, done: int, total: int) -> None:
        self.app.call_from_thread(self.query_one("#outcome", Static).update,
                                  Text(f"Reviewing: {done} of {total} decisions..."))

    def _show(self, line: str) -> None:
        self.outcome = line
        self.query_one("#outcome", Static).update(Text(line))


def open_review(app: Any, transcript: Transcript, seat: int, job: ReviewJob, text: str | None = None) -> None:
    """Push the (stand-in) review of ``transcript`` as ``seat`` saw it."""
    del text
    app.push_screen(StandInReview(transcript, seat, job))
