"""The table's clocks as it shows them: the host's deadlines, counted down locally.

The host sends a deadline when a timed decision starts (``Deadline``: this seat, so many
seconds from now), and one per held seat while a dropped person's seat waits for them
(kind ``hold``: a computer player takes it when it runs out).  The table shows the turn
timer's seconds below the pile for as long as that seat is the one deciding; a held
seat's time instead of "Waiting for Bob to play." on the status line when it is Bob's
turn, and below the pile otherwise.  :class:`TurnClock` is pure logic on an injectable
clock, so tests move time by hand; :class:`ClockLine` is the line below the pile, a
widget of its own so that each second's tick repaints that one line (inside the pile
panel, the tick repainted the whole panel: a quarter of a seated session's CPU at a quiet
table).  :func:`times_up` is the log's line when a turn timer ran out.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual.reactive import var
from textual.widgets import Static

from ..engine import ENDED_PHASES, Event, EventKind, SeatView
from .words import display_name

__all__ = ["ClockLine", "TurnClock", "times_up"]


def _name(view: SeatView, seat: int) -> str:
    return display_name(view.names[seat]) if 0 <= seat < len(view.names) else "Someone"


def _minutes(seconds: float) -> str:
    """``1:45`` for 105 seconds (rounded up: "0:00" only once it ran out)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class TurnClock:
    """The latest turn deadline, the held seats' deadlines, and what to show of them."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        #: the clock it counts down on (loop-independent; tests set a fake one)
        self.clock = clock
        self._deadline: tuple[int, float] | None = None  # (seat, when it runs out)
        self._holds: dict[int, float] = {}  # seat -> when a computer player takes it
        #: whether a deadline has come at this table (then the table keeps a line for it)
        self.timed = False

    def set(self, seat: int, seconds: float | None) -> None:
        """``seat`` must decide within ``seconds`` (``seat`` < 0 or no seconds: none runs)."""
        self._deadline = (seat, self.clock() + seconds) if seat >= 0 and seconds is not None else None
        self.timed = self.timed or self._deadline is not None

    def hold(self, seat: int, seconds: float | None) -> None:
        """``seat`` is held for its away person for ``seconds`` more (``seat`` < 0: every
        hold is over; the host then says again those still running)."""
        if seat < 0 or seconds is None:
            self._holds.clear()
            return
        self._holds[seat] = self.clock() + seconds
        self.timed = True

    def away_text(self, view: SeatView | None) -> str:
        """What the status line says instead of "Waiting for Bob to play." while Bob's
        seat is held for him ("" when the seat deciding is not held)."""
        if view is None or view.phase in ENDED_PHASES or view.actor not in self._holds:
            return ""
        left = _minutes(self._holds[view.actor] - self.clock())
        return f"{_name(view, view.actor)} is away: a computer player takes the seat in {left}."

    def text(self, view: SeatView | None) -> str:
        """"Time left: N s" while the timer runs for the seat acting in ``view``; else the
        soonest hold of a seat not deciding ("Cleo is away: a bot takes over in 1:45");
        else ""."""
        if view is None:
            return ""
        deadline = self._deadline
        if deadline is not None and deadline[0] == view.actor and view.phase not in ENDED_PHASES:
            return f"Time left: {max(0, math.ceil(deadline[1] - self.clock()))} s"
        others = [(when, seat) for seat, when in self._holds.items() if seat != view.actor]
        if not others:
            return ""
        when, seat = min(others)
        return f"{_name(view, seat)} is away: a bot takes over in {_minutes(when - self.clock())}"


#: what the table did when a turn timer ran out, by the log event it made (the engine's
#: timeout action: the least a player could do), the first that applies of the seat's
#: latest events (accepting a Wild Draw Four draws and skips too; a keep follows a draw)
_DID = {
    EventKind.ACCEPT: "accepted the Wild Draw Four",
    EventKind.KEEP: "kept the drawn card",
    EventKind.COLOUR: "named a colour",
    EventKind.SWAP: "chose a player",
    EventKind.DISCARD: "discarded a card",
    EventKind.DEAL: "dealt",
    EventKind.DRAW: "drew",
}


def times_up(view: SeatView | None, seat: int) -> str:
    """The log's line when ``seat``'s turn timer ran out and the table acted for it (told
    after the view that shows what it did: the seat's latest run of events in the log)."""
    did = "acted"
    if view is not None:
        run = []
        for event in reversed(view.log):
            if event.seat == seat:
                run.append(event)
            elif run and event.seat >= 0:  # (another seat's move: the run is over)
                break
        kinds: dict[EventKind, Event] = {}
        for event in run:  # (newest first: the latest of each kind)
            kinds.setdefault(event.kind, event)
        kind = next((k for k in _DID if k in kinds), None)
        if kind is EventKind.DRAW:
            n = kinds[kind].value
            did = f"drew {n} card{'s' if n != 1 else ''}"
        elif kind is not None:
            did = _DID[kind]
    if view is not None and seat == view.seat:
        return f"Time's up: the table {did} for you."
    name = _name(view, seat) if view is not None else "Someone"
    return f"Time's up for {name}: the table {did}."


class ClockLine(Static):
    """The clocks' line below the pile ("Time left: 12 s", a held seat's time, or blank).

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
