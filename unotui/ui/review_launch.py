"""Opening the review screen: the one entry the match summaries, the lobby's list of
recent matches and ``unotui review FILE`` use."""

from __future__ import annotations

from typing import Any

from ..transcript import Transcript
from .review_job import ReviewJob

__all__ = ["open_review"]


def open_review(app: Any, transcript: Transcript, seat: int, job: ReviewJob, text: str | None = None) -> None:
    """Push the review of ``transcript`` as ``seat`` saw it, the estimates from ``job``
    (run in a worker thread once the screen is up).  ``text``: the transcript's text as
    saved, when there is a file (its cache is keyed by that text).

    Raises:
        TranscriptError: the transcript cannot be replayed (nothing is pushed).
    """
    from .screens.review import ReviewScreen

    palette = getattr(app, "palette", "default")
    palette = palette if isinstance(palette, str) else "default"
    app.push_screen(ReviewScreen(transcript, seat, job, palette, text))
