"""The turn timer as the table shows it: the host's deadline, counted down locally.

The host sends a deadline when a timed decision starts (``Deadline``: this seat, so many
seconds from now); the table shows the seconds left beside the pile for as long as that
seat is the one deciding.  Pure logic on an injectable clock, so tests move time by hand.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ..engine import ENDED_PHASES, SeatView

__all__ = ["TurnClock"]


class TurnClock:
    """The latest turn deadline and what to show of it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        #: the clock it counts down on (loop-independent; tests set a fake one)
        self.clock = clock
        self._deadline: tuple[int, float] | None = None  # (seat, when it runs out)

    def set(self, seat: int, seconds: float | None) -> None:
        """``seat`` must decide within ``seconds`` (``seat`` < 0 or no seconds: none runs)."""
        self._deadline = (seat, self.clock() + seconds) if seat >= 0 and seconds is not None else None

    def text(self, view: SeatView | None) -> str:
        """"Time left: N s" while the timer runs for the seat acting in ``view``, else ""."""
        deadline = self._deadline
        if view is None or deadline is None or deadline[0] != view.actor:
            return ""
        if view.phase in ENDED_PHASES:
            return ""
        return f"Time left: {max(0, math.ceil(deadline[1] - self.clock()))} s"
