"""What the table asks of the person, and when: the dialogs a view calls for, one at a time.

A view may call for a colour or a target (the viewer's decision), a hand revealed by a
challenge or a swap, or the round and match summaries.  :class:`Decisions` keeps what
that takes beyond the view itself (which dialog is open, the reveals not yet shown, the
round whose summary was shown, the version just answered, the pause before a summary)
and opens the next dialog when the table is on top and nothing else is open.  It is a
part of the table screen (composed, not inherited) and knows the table only through
:class:`DecidingTable`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from textual.app import App
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

from ...engine import (
    ENDED_PHASES,
    Action,
    Card,
    ChooseColour,
    ChooseTarget,
    Colour,
    EventKind,
    Phase,
    SeatView,
    ShuffleWatch,
)
from ..messages import GoHome, NextRound, Rematch

__all__ = ["DecidingTable", "Decisions"]

_T = TypeVar("_T")

_DIALOG_PHASES = ENDED_PHASES | {Phase.COLOUR, Phase.TARGET}  # the phases a dialog answers


class DecidingTable(Protocol):
    """What :class:`Decisions` needs of the table screen."""

    @property
    def view(self) -> SeatView | None: ...

    @property
    def palette(self) -> str: ...

    @property
    def history(self) -> Sequence[Sequence[int]]: ...

    summary_pause: float
    shuffles: ShuffleWatch
    match_note: str

    @property
    def app(self) -> App[Any]: ...

    def send(self, action: Action) -> None: ...

    def post_message(self, message: Message) -> bool: ...

    def set_timer(self, delay: float, callback: Callable[[], None]) -> Timer: ...

    def stood_in(self) -> bool: ...


class Decisions:
    """The table's dialogs (see the module docstring)."""

    def __init__(self, table: DecidingTable) -> None:
        self._table = table
        self._open = False  # a dialog of the table's is on screen
        self._seen_log = 0  # the absolute log index the reveals were read up to
        self._reveals: list[tuple[str, tuple[Card, ...], bool | None, Colour | None]] = []
        self._shown_round = 0  # the round whose summary was shown (-1: the match's)
        self._answered = -1  # version of the view whose decision was just sent
        self._pause_for: tuple[int, str] = (0, "")  # the round end the pause was started for
        self._pause: Timer | None = None  # the last card on show before the summary
        self._asking: tuple[Screen[Any], Phase] | None = None  # an open colour or target picker

    @property
    def pausing(self) -> bool:
        """Whether the round's last card is on show before its summary (Enter ends it)."""
        return self._pause is not None

    def saw(self, view: SeatView) -> None:
        """A new view: queue the hands it reveals to this seat, then open what it calls for."""
        base = view.log_start  # log indices are absolute (a remote view keeps the newest part)
        if base + len(view.log) < self._seen_log:
            self._seen_log = 0  # a new game
        # A hand shown to the seat while a computer player stood in (its challenge) is not
        # queued: it is old news when the person is back, and the log says the verdict.
        shown = () if self._table.stood_in() else range(max(0, self._seen_log - base), len(view.log))
        for i in shown:
            e = view.log[i]
            if e.kind == EventKind.REVEAL and e.target == view.seat and e.cards:
                from .dialogs import colour_when_played

                guilty = None
                if i and view.log[i - 1].kind == EventKind.CHALLENGE:
                    guilty = bool(view.log[i - 1].value)
                self._reveals.append((view.names[e.seat], e.cards, guilty, colour_when_played(view.log, i)))
        self._seen_log = base + len(view.log)
        # A picker whose decision was made without the person (the turn timer ran out, or
        # a computer player stands in: the log says what was chosen) goes, or it would
        # send a choice the table no longer asks for.  Only from the top (dismiss pops the
        # top screen): under the help it goes with the next view after the help.
        asking = self._asking
        due = asking is not None and view.my_turn and view.phase == asking[1]
        if asking is not None and not due and asking[0] is self._table.app.screen:
            self._asking = None
            asking[0].dismiss(None)
            return
        self.next()

    def refused(self) -> None:
        """The last decision was refused: ask again."""
        self._answered = -1
        self.next()

    def push(self, screen: Screen[_T], done: Callable[[_T | None], None]) -> None:
        """Open ``screen`` as the table's dialog (``done`` must call :meth:`closed`)."""
        self._open = True
        self._table.app.push_screen(screen, done)

    def closed(self) -> None:
        """The table's dialog was closed: open the next, if any."""
        self._open = False
        self._asking = None
        self.next()

    def next(self) -> None:
        """Open the dialog the view calls for, if the table is on top and none is open."""
        table = self._table
        view = table.view
        if self._open or view is None or table.app.screen is not table:  # type: ignore[comparison-overlap]
            return
        if not (self._reveals or view.phase in _DIALOG_PHASES):
            return
        if table.stood_in() and view.phase != Phase.MATCH_OVER:
            return  # a computer player decides for the person, away: what is due opens on b
        # Imported here: the first frame of the table does not wait for them.
        from .dialogs import ColourPicker, RevealScreen, TargetPicker, colour_reason
        from .results import MatchOverScreen, RoundOverScreen

        if self._reveals:
            name, cards, guilty, colour = self._reveals.pop(0)
            self.push(RevealScreen(name, cards, guilty, table.palette, colour), lambda _: self.closed())
            return
        if view.phase in ENDED_PHASES and self._summary_held(view):
            return
        history = list(table.history)
        if view.phase == Phase.MATCH_OVER and self._shown_round != -1:
            self._shown_round = -1
            verdict = table.shuffles.observe(view)
            self.push(MatchOverScreen(view, history, table.palette, verdict, table.match_note),
                      self._match_done)
        elif view.phase == Phase.ROUND_OVER and self._shown_round != view.round_no:
            self._shown_round = view.round_no
            verdict = table.shuffles.observe(view)
            self.push(RoundOverScreen(view, table.palette, history, verdict), self._round_done)
        elif not view.my_turn or view.version == self._answered:
            return  # not ours, or answered and waiting for the next view
        elif view.phase == Phase.COLOUR:
            picker: Screen[Any] = ColourPicker(view.hand, table.palette, colour_reason(view))
            self.push(picker, self._colour_done)
            self._asking = (picker, view.phase)
        elif view.phase == Phase.TARGET:
            seats = [a.seat for a in view.legal if isinstance(a, ChooseTarget)]
            picker = TargetPicker(view.names, view.counts, seats)
            self.push(picker, self._target_done)
            self._asking = (picker, view.phase)

    def _decided(self, action: Action | None) -> None:
        """A dialog's decision: send it, or (cancelled) ask again."""
        if action is None:
            self.closed()
            return
        self._open, self._asking = False, None
        view = self._table.view
        self._answered = view.version if view is not None else -1
        self._table.send(action)

    def _summary_held(self, view: SeatView) -> bool:
        """Whether the round's last card is still on show before its summary opens.

        The pause (``GameOptions.summary_pause``) starts once per round end; Enter ends
        it early.
        """
        key = (view.round_no, view.phase)
        if self._pause_for != key:
            self._pause_for = key
            pause = self._table.summary_pause
            if pause > 0:
                self._pause = self._table.set_timer(pause, self.end_pause)
        return self._pause is not None

    def end_pause(self) -> None:
        """The pause before the summary is over (its time, or Enter): show the summary."""
        if self._pause is not None:
            self._pause.stop()
            self._pause = None
        self.next()

    def _colour_done(self, colour: Colour | None) -> None:
        self._decided(None if colour is None else ChooseColour(colour))

    def _target_done(self, seat: int | None) -> None:
        self._decided(None if seat is None else ChooseTarget(seat))

    def _round_done(self, _: None) -> None:
        self._table.post_message(NextRound())
        self.closed()

    def _match_done(self, choice: str | None) -> None:
        self._open = False
        if choice == "rematch":
            self._table.post_message(Rematch())
        elif choice == "quit":
            self._table.app.exit(0)
        else:
            self._table.post_message(GoHome())
