"""A match reviewed by the real analysis at few playouts (computed once per process),
and a job handing that review to the screen, optionally only when a test lets it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from tests.review.helpers import match
from unotui.review.run import Settings, review
from unotui.transcript import Transcript
from unotui.ui.review_job import ReviewRefused

PLAYOUTS = 16


@lru_cache(maxsize=1)
def reviewed() -> tuple[Transcript, dict[str, Any]]:
    """A 150-point 2-player match of seeded bots and its review (16 playouts)."""
    t = match(5)
    return t, review(t, Settings(PLAYOUTS, 0))


class HeldJob:
    """A ReviewJob giving the precomputed review: at once, or when :attr:`go` is set
    (after reporting half-way progress), or refusing with ``refuse``."""

    def __init__(self, result: dict[str, Any], hold: bool = False, refuse: str = "") -> None:
        self.result = result
        self.go = threading.Event()
        if not hold:
            self.go.set()
        self.refuse = refuse
        self.texts: list[str] = []

    def run(self, text: str, progress: Callable[[int, int], None]) -> dict[str, Any]:
        self.texts.append(text)
        total = len(self.result["decisions"])
        progress(total // 2, total)
        if not self.go.wait(60):
            raise ReviewRefused("held too long")
        if self.refuse:
            raise ReviewRefused(self.refuse)
        progress(total, total)
        return self.result
