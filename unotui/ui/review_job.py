"""How the review screen gets a match's review: a :class:`ReviewJob`.

The screen does not know where the analysis runs.  Solo play and ``unotui review FILE``
run it on this machine (:func:`local_job`); a lobby may run it on the server under its
own admission control, refusing with :class:`ReviewRefused` and a sentence the screen
shows.  The screen calls :meth:`ReviewJob.run` in a worker thread, so a job may block.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

__all__ = ["LocalJob", "ReviewJob", "ReviewRefused", "local_job"]


class ReviewRefused(Exception):
    """The review may not run (or could not finish): ``str(exc)`` is a sentence for the
    player."""


class ReviewJob(Protocol):
    """Something that reviews a transcript."""

    def run(self, text: str, progress: Callable[[int, int], None]) -> dict[str, Any]:
        """Review the transcript ``text`` (blocking; the screen calls it in a worker
        thread), calling progress(done, total); returns the unotui-review/1 dict of
        unotui.review.run.review. Raises ReviewRefused(sentence) when it may not run."""


@dataclass(frozen=True)
class LocalJob:
    """The review run on this machine (see :func:`local_job`)."""

    cache: Path | None
    jobs: int
    nice: int
    cpu_seconds: int | None
    playouts: int = 256
    seed: int = 0

    def run(self, text: str, progress: Callable[[int, int], None]) -> dict[str, Any]:
        """Review ``text`` (from the cache when it holds this one)."""
        from concurrent.futures.process import BrokenProcessPool

        from ..review.run import Limits, Settings, review, review_cached
        from ..transcript import Transcript, TranscriptError

        settings, limits = Settings(self.playouts, self.seed), Limits(self.nice, self.cpu_seconds)
        try:
            if self.cache is not None:
                return review_cached(self.cache, text, settings, self.jobs, progress, limits)[0]
            return review(Transcript.loads(text), settings, self.jobs, progress, limits)
        except TranscriptError as exc:
            raise ReviewRefused(f"This match cannot be replayed: {exc}") from None
        except BrokenProcessPool:
            limit = f" (its limit is {self.cpu_seconds} s of CPU)" if self.cpu_seconds else ""
            raise ReviewRefused(f"The analysis stopped before the end{limit}.") from None


def local_job(cache: Path | None = None, jobs: int | None = None, nice: int = 0,
              cpu_seconds: int | None = None, *, playouts: int = 256, seed: int = 0) -> LocalJob:
    """A job reviewing on this machine with ``jobs`` processes (default: every core).

    Args:
        cache: the cache file (``FILE.review.json`` beside a saved transcript; under the
            matches directory for one not saved), written 0600; ``None``: no cache.
        nice / cpu_seconds: applied to the analysis processes only (each worker's
            niceness and ``RLIMIT_CPU``); with either, even one job runs in a worker
            process, never in the caller's.
        playouts / seed: the analysis's settings (``unotui review --playouts/--seed``).
    """
    from ..review.cli import cores

    workers = cores() if jobs is None else max(1, jobs)
    return LocalJob(cache, workers, max(0, nice), cpu_seconds, playouts, seed)
