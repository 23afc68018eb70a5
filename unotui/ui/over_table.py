"""A screen over the table: the game waits for the person, or tells them what they missed.

While a dialog, the help or the command palette is over the table the person is not
watching it (issue 19: a lap of turns, a Draw Two among them, went by behind the palette;
a round ended behind the challenge's result).  The app tells an :class:`OverTable` each
time the screen on top changes (:meth:`~unotui.ui.app.UnoApp._screen_changed`).  When a
screen covers the table, the table is asked to wait (:meth:`Controller.pause
<unotui.net.controller.Controller.pause>`: solo play stops its clock); when the table is
on top again, it runs on.  A hosted table cannot wait for one seat: its log keeps updating
under the screen, and on closing the message line says how many moves were made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.screen import Screen

    from .modes import AtTable

__all__ = ["READING", "Covered", "OverTable"]

#: what the person was reading over the table, by its screen's class: the words of
#: "While you were in the help: 5 moves." (any other screen is "the dialog")
READING = {
    "HelpScreen": "the help",
    "CommandPalette": "the command palette",
    "ChatScreen": "the chat line",
    "RoundOverScreen": "the round's summary",
    "RevealScreen": "the challenge's result",
    "ConfirmScreen": "the question",
    "ColourPicker": "the colour choice",
    "TargetPicker": "the choice of a player",
}


@dataclass(eq=False)
class Covered:
    """A screen over the table: which table, what it is, and the game's moment then.

    Attributes:
        mode: the table it covers.
        reading: what it is, in words (:data:`READING`).
        version: the view's version when it opened: the moves since are the difference.
        waits: whether the table waits meanwhile (solo play); else the moves are told.
        own: the viewer's own intents accepted meanwhile (a colour named in the dialog),
            which are not news to them.
    """

    mode: AtTable
    reading: str
    version: int
    waits: bool
    own: int = 0


class OverTable:
    """Whether a screen is over the table, and what that means for the game."""

    def __init__(self) -> None:
        #: the screen over the table now, if one is
        self.covered: Covered | None = None

    def changed(self, mode: AtTable | None, over: Screen[object] | None) -> None:
        """The screen on top changed: ``over`` is the one over ``mode``'s table (``None``:
        the table is on top, or there is none).  A second screen over the first (a
        question over the help) changes nothing; the last one closing does."""
        covered = self.covered
        if covered is not None and covered.mode is not mode:
            self.covered = covered = None  # a table left behind: its controller is closed
        if mode is None or mode.table is None:
            return
        if over is not None and covered is None:
            view = mode.view
            reading = READING.get(type(over).__name__, "the dialog")
            waits = mode.controller.pause(True)
            self.covered = Covered(mode, reading, view.version if view is not None else 0, waits)
        elif over is None and covered is not None:
            self.covered = None
            if covered.waits:
                mode.controller.pause(False)
                return
            view = mode.view
            moves = (view.version if view is not None else 0) - covered.version - covered.own
            if moves > 0:
                what = f"{moves} move{'s' if moves != 1 else ''}"
                mode.table.say(f"While you were in {covered.reading}: {what} (see the log).")

    def own_move(self, mode: AtTable) -> None:
        """One of the viewer's own intents was accepted (an answer the app was sent)."""
        covered = self.covered
        if covered is not None and covered.mode is mode:
            covered.own += 1  # made in the dialog (a colour named): not news to them
