"""The turn timer as the table shows it: the host's deadline, counted down locally.

The host sends a deadline when a timed decision starts (``Deadline``: this seat, so many
seconds from now); the table shows the seconds left below the pile for as long as that
seat is the one deciding.  :class:`TurnClock` is pure logic on an injectable clock, so
tests move time by hand; :class:`ClockLine` is the line that shows it, a widget of its own
below the pile so that each second's tick repaints that one line (inside the pile panel,
the tick repainted the whole panel: a quarter of a seated session's CPU at a quiet table).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual.reactive import var
from textual.widgets import Static

from ..engine import ENDED_PHASES, SeatView

__all__ = ["ClockLine", "TurnClock"]


class TurnClock:
    """The latest turn deadline and what to show of it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        #: the clock it counts down on (loop-independent; tests set a fake one)
        self.clock = clock
        self._deadline: tuple[int, float] | None = None  # (seat, when it runs out)
        #: whether a deadline has come at this table (then the table keeps a line for it)
        self.timed = False

    def set(self, seat: int, seconds: float | None) -> None:
        """``seat`` must decide within ``seconds`` (``seat`` < 0 or no seconds: none runs)."""
        self._deadline = (seat, self.clock() + seconds) if seat >= 0 and seconds is not None else None
        self.timed = self.timed or self._deadline is not None

    def text(self, view: SeatView | None) -> str:
        """"Time left: N s" while the timer runs for the seat acting in ``view``, else ""."""
        deadline = self._deadline
        if view is None or deadline is None or deadline[0] != view.actor:
            return ""
        if view.phase in ENDED_PHASES:
            return ""
        return f"Time left: {max(0, math.ceil(deadline[1] - self.clock()))} s"


class ClockLine(Static):
    """The turn timer's line ("Time left: 12 s", or blank while none runs).

    Hidden at a table without a timer (solo play: the table looks as it always did); from
    the first deadline on it stays one line high, shown or blank, so a turn starting or
    ending never lays the screen out again.  ``text`` is bound to the table's
    (``data_bind``) and, being a plain reactive, repaints the line only when the second
    shown changes.
    """

    DEFAULT_CSS = """
    ClockLine {
        display: none;
        height: 1;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    text: var[str] = var("", init=False)

    def watch_text(self, text: str) -> None:
        if text and not self.display:
            self.display = True  # (the first deadline: a layout, once)
        self.update(Text(text, Style(bold=True)), layout=False)
