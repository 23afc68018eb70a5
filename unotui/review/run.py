"""Reviewing a whole match: every decision analysed (over worker processes), judged, and
the result cached beside the transcript.

Each decision's random source is derived from the settings' seed and the decision's step
alone, so the result does not depend on ``jobs`` or on the order the workers finish in.
The cache is ``FILE + ".review.json"``, keyed by a hash of the transcript's text and the
settings (and :data:`VERSION`, changed whenever the analysis is): a second run with the
same file and settings reads it instead of analysing; anything else in its place (another
transcript's review, a damaged or oversized file) is ignored and overwritten.  It is
written 0600: a review holds every hand of the match, as the transcript does.

:class:`Limits` (a niceness and a CPU-time limit) apply to the analysis processes only,
set in each worker as it starts; with limits, even one job runs in a worker process, so
the caller's process (an app's event loop, a lobby) is never reniced or limited.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from ..engine import SeatView
from ..transcript import Transcript
from .analysis import Analysis, analyse
from .decisions import Decision, decisions
from .judge import Judged, judge, summarise

__all__ = ["CACHE_SUFFIX", "MAX_CACHE_BYTES", "VERSION", "Limits", "Settings", "cache_path", "review",
           "review_cached", "review_file"]

VERSION = "unotui-review/1"
CACHE_SUFFIX = ".review.json"
MAX_CACHE_BYTES = 64 << 20
"""A cache file larger than this is not read (a 500-point match's review is ~1 MB)."""
MAX_CHUNK = 4
"""Decisions handed to a worker at once, at most: progress is reported (and a left
screen stops the analysis) a chunk at a time, and a decision takes about 0.1 s at the
default playouts, so an eighth of a 500-point match (~90 decisions, ~10 s on one
process) before the first progress was too long; a chunk's round trip costs about a
millisecond."""


@dataclass(frozen=True)
class Settings:
    """What the estimates depend on (and so what the cache is keyed by).

    Attributes:
        playouts: sampled worlds per option; 256 keeps a cost within about a point of
            chance between seeds (inside the "good" mark's 2) and a long 500-point match
            under half a minute on two cores (``bench/review.py`` measures both).
        seed: the seed the decisions' random sources are derived from.
    """

    playouts: int = 256
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON (part of the cache key)."""
        return {"playouts": self.playouts, "seed": self.seed}


@dataclass(frozen=True)
class Limits:
    """What the analysis processes are held to (``None``/0: nothing).

    Attributes:
        nice: added to each worker's niceness (``os.nice``), so play on the same machine
            keeps its CPU.
        cpu_seconds: each worker's CPU time (``RLIMIT_CPU``); a worker past it is killed
            by the kernel and the review fails with :class:`concurrent.futures.process.BrokenProcessPool`.
    """

    nice: int = 0
    cpu_seconds: int | None = None

    @property
    def any(self) -> bool:
        """Whether there is anything to apply (and so a worker process is needed)."""
        return self.nice > 0 or self.cpu_seconds is not None


def _die_with_parent(parent: int) -> None:
    """Linux: have this worker killed when the process that started it ends (an SSH
    session's app ended at hang-up, a lobby stopped, a review killed), instead of
    analysing on, orphaned, until its CPU limit (seen: workers of ended test runs still
    burning CPU minutes later)."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # (not Linux: the CPU limit still bounds it)
        return
    if os.getppid() != parent:  # the parent ended before the signal was set
        os._exit(1)


def _limit(limits: Limits, parent: int) -> None:
    """A worker's initializer: die with ``parent``, apply ``limits`` to this (the
    worker's) process."""
    _die_with_parent(parent)
    if limits.nice > 0:
        os.nice(limits.nice)
    if limits.cpu_seconds is not None:
        import resource

        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))


def _work(item: tuple[SeatView, int, int, str]) -> Analysis:
    view, playouts, seed, objective = item
    return analyse(view, playouts, Random(seed), objective)


def analyse_all(
    found: list[Decision], settings: Settings, objective: str, jobs: int,
    progress: Callable[[int, int], None] | None = None, limits: Limits | None = None,
) -> list[Analysis]:
    """Analyse ``found`` with ``jobs`` processes (1 without limits: in this one), results
    in order.

    A process pool of :mod:`concurrent.futures` rather than :mod:`multiprocessing`'s: a
    worker killed at its CPU limit breaks the executor (an error) where a
    ``multiprocessing.Pool`` would wait for its task for ever."""
    items = [(d.view, settings.playouts, settings.seed * 1_000_003 + d.step, objective) for d in found]
    out: list[Analysis] = []
    results: Iterable[Analysis]
    limits = limits or Limits()
    if (jobs <= 1 or len(items) < 2) and not limits.any:
        results = map(_work, items)
        for a in results:
            out.append(a)
            if progress:
                progress(len(out), len(items))
        return out
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _start_tracker()
    jobs = max(1, min(jobs, len(items)))
    chunk = max(1, min(MAX_CHUNK, len(items) // (jobs * 8)))
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_limit, initargs=(limits, os.getpid()))
    try:
        for a in pool.map(_work, items, chunksize=chunk):
            out.append(a)
            if progress:
                progress(len(out), len(items))  # (may raise to stop: the screen was left)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)  # the decisions not started are dropped
        raise
    pool.shutdown()
    return out


def _start_tracker() -> None:
    """Start multiprocessing's resource tracker with a real stderr to hand it.

    The tracker is started by the first process spawned, passing ``sys.stderr.fileno()``;
    inside a Textual app ``sys.stderr`` captures prints and its ``fileno()`` is -1, and
    the spawn fails with "bad value(s) in fds_to_keep".  So it is started here, once, with
    the process's own stderr in place for that moment.
    """
    import sys
    from multiprocessing import resource_tracker

    try:
        usable = sys.stderr is not None and sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable or sys.__stderr__ is None:
        return
    saved = sys.stderr
    sys.stderr = sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = saved


def review(
    transcript: Transcript, settings: Settings, jobs: int = 1,
    progress: Callable[[int, int], None] | None = None, limits: Limits | None = None,
) -> dict[str, Any]:
    """Review a match: every decision with its options, estimates, cost and mark, and a
    summary per seat, as JSON-friendly data."""
    found = list(decisions(transcript))
    objective = "hands"  # the estimate is the chance of the round, whatever the match's scoring
    analyses = analyse_all(found, settings, objective, jobs, progress, limits)
    judged = [judge(d, a) for d, a in zip(found, analyses, strict=True)]
    players = len(transcript.players)
    summaries = summarise(players, judged)
    return {
        "format": VERSION,
        "settings": settings.to_json(),
        "players": list(transcript.players),
        "teams": list(found[0].view.teams) if found else list(range(players)),
        "decisions": [_decision_json(j) for j in judged],
        "summary": [
            {"seat": s.seat, "name": transcript.players[s.seat], "judged": s.judged, "matched": s.matched,
             "share": round(s.share, 4), "given_away": round(s.given_away, 2),
             "costliest": list(s.costliest), "marks": s.marks}
            for s in summaries
        ],
    }


def _decision_json(j: Judged) -> dict[str, Any]:
    d, a = j.decision, j.analysis
    out: dict[str, Any] = {
        "step": d.step, "seat": d.seat, "round": d.round, "phase": d.phase, "action": str(d.action),
        "chosen": j.chosen, "hand": [c.text for c in d.view.hand], "top": d.view.top.text,
        "counts": list(d.view.counts),
    }
    if a.analysed:
        out.update(options=[{"option": o.key, "chance": round(o.chance, 4)} for o in a.options],
                   samples=a.samples, best=j.best, cost=round(j.cost, 2), mark=j.mark)
    else:
        out.update(options=[], samples=0, best=None, cost=0.0, mark=j.mark, note=a.note)
    return out


def cache_path(path: Path) -> Path:
    """Where the review of the transcript at ``path`` is cached."""
    return path.with_name(path.name + CACHE_SUFFIX)


def cache_key(text: str, settings: Settings) -> str:
    """The hash a cached review must carry to be used for ``text`` with ``settings``."""
    h = hashlib.sha256()
    h.update(VERSION.encode())
    h.update(json.dumps(settings.to_json(), sort_keys=True).encode())
    h.update(text.encode("utf-8"))
    return h.hexdigest()


def _read_cache(path: Path, key: str) -> dict[str, Any] | None:
    try:
        if path.stat().st_size > MAX_CACHE_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("review"), dict):
        return None
    review_data: dict[str, Any] = data["review"]
    return review_data


def _write_cache(path: Path, key: str, result: dict[str, Any]) -> None:
    import contextlib

    from ..private import write_private

    with contextlib.suppress(OSError):  # a read-only directory: the review is still printed
        write_private(path, json.dumps({"key": key, "review": result}, separators=(",", ":")).encode("utf-8"))


def review_file(
    path: Path, text: str, settings: Settings, jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, Any], bool]:
    """The review of the transcript ``text`` read from ``path``, from the cache when it
    holds this one; returns it and whether it came from the cache.

    Raises:
        TranscriptError: the transcript is malformed or a step is illegal.
    """
    return review_cached(cache_path(path), text, settings, jobs, progress)


def review_cached(
    where: Path, text: str, settings: Settings, jobs: int = 1,
    progress: Callable[[int, int], None] | None = None, limits: Limits | None = None,
) -> tuple[dict[str, Any], bool]:
    """:func:`review_file` with the cache at ``where`` (a match not saved yet has no file
    to put it beside); returns the review and whether it came from the cache."""
    key = cache_key(text, settings)
    cached = _read_cache(where, key)
    if cached is not None:
        return cached, True
    result = review(Transcript.loads(text), settings, jobs, progress, limits)
    _write_cache(where, key, result)
    return result, False
