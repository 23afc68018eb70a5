"""The table's keys as actions: each game key sends what it means now or says why it
does nothing (:mod:`.table_keys` reads that from the view), the cursor's moves, and the
keys that ask the app for something (sort, hint, help, home, theme).

A mixin of :class:`~unotui.ui.screens.table.TableScreen`, apart so that the screen's
module holds its state and panels and this one what its keys do; it reads the screen's
state through the attributes declared below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import Action, Play, play
from ...net.room_info import SeatMark
from ..messages import CycleSort, CycleTheme, GoHome, HintRequest, Intent, NextRound
from .table_keys import CLOSED, WATCHING_NOTE, applies, closed_note, meaning, players_only

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message

    from ...engine import SeatView
    from .decisions import Decisions

__all__ = ["GameKeys"]


class GameKeys:
    """What the table's keys do (mixed into the table screen, which has the state)."""

    if TYPE_CHECKING:  # the table screen's, read here
        view: SeatView | None
        marks: tuple[SeatMark, ...]
        closed: str
        cursor: int
        order: tuple[int, ...]
        home: str
        can_chat: bool
        decisions: Decisions
        app: App[object]

        def say(self, text: str, warn: bool = False) -> None: ...

        def post_message(self, message: Message) -> bool: ...

    def applies(self, action: str) -> bool:
        """Does the key for ``action`` do something now?  Read from ``view.legal`` only
        (at a closed game: only looking things up and leaving)."""
        if self.closed:
            return action in CLOSED
        if action == "back":
            return self.stood_in()
        return applies(action, self.view, self.can_chat)

    def stood_in(self) -> bool:
        """Whether a computer player plays this seat for its person, who is still here
        (their turns ran out: the Players panel's ``idle``)."""
        view = self.view
        seat = view.seat if view is not None else None
        return seat is not None and seat < len(self.marks) and self.marks[seat] is SeatMark.IDLE

    def game_closed(self) -> bool:
        """Whether the game is closed (then a game key says so, and does nothing)."""
        if not self.closed:
            return False
        self.say(closed_note(self.home), warn=True)
        return True

    def watching(self) -> bool:
        """Whether the viewer is a spectator (then a game key says so, and does nothing)."""
        if self.view is None or self.view.seat is not None:
            return False
        self.say(WATCHING_NOTE, warn=True)
        return True

    def send(self, action: Action) -> None:
        """Send ``action`` up to the app, for the controller."""
        self.say("")
        self.post_message(Intent(action))

    def _selected(self) -> Play | None:
        view = self.view
        if view is None or not view.hand:
            return None
        return play(view.hand[self.order[self.cursor]])

    def _press(self, key: str) -> None:
        """A game key: send what it means now, or say why it does nothing."""
        if self.view is None:
            return
        what = meaning(key, self.view, self._selected())
        if isinstance(what, str):
            self.say(what, warn=True)
        else:
            self.send(what)

    @players_only
    def action_move(self, step: int) -> None:
        """Move the cursor along the hand."""
        if self.view and self.view.hand:
            self.cursor = (self.cursor + step) % len(self.view.hand)

    @players_only
    def action_move_to(self, index: int) -> None:
        """Jump to the first or last card."""
        if self.view and self.view.hand:
            self.cursor = index % len(self.view.hand)

    def action_play(self) -> None:
        """Play (or discard, or jump in with) the selected card."""
        if self.decisions.pausing:  # the round is over: Enter shows its summary now
            self.decisions.end_pause()
            return
        if not self.game_closed() and not self.watching():
            self._press("play")

    @players_only
    def action_uno(self) -> None:
        """Call UNO; with two cards, play the selected one and call UNO with it."""
        self._press("uno")

    @players_only
    def action_draw(self) -> None:
        """Draw a card (or take the pending penalty)."""
        self._press("draw")

    @players_only
    def action_keep(self) -> None:
        """Keep the card just drawn."""
        self._press("keep")

    @players_only
    def action_catch(self) -> None:
        """Catch whoever forgot to call UNO."""
        self._press("catch")

    @players_only
    def action_challenge(self) -> None:
        """Challenge the Wild Draw Four played on you."""
        self._press("challenge")

    @players_only
    def action_accept(self) -> None:
        """Accept the Wild Draw Four and draw."""
        self._press("accept")

    @players_only
    def action_jump(self) -> None:
        """Jump in with the card identical to the top of the pile."""
        self._press("jump")

    @players_only
    def action_sort(self) -> None:
        """Show the hand in the other order (by colour, by rank); saved."""
        self.post_message(CycleSort())

    @players_only
    def action_hint(self) -> None:
        """Ask a computer player what it would do (the answer comes to ``show_hint``)."""
        self.post_message(HintRequest())

    def action_help(self) -> None:
        """The rules in force and the keys."""
        from .help import HelpScreen

        if self.view is not None:
            self.app.push_screen(HelpScreen(self.view.rules))

    @players_only
    def action_back(self) -> None:
        """``b``: take the seat back from the computer player that stands in after turns
        ran out, at once (a move on one's turn does too, if made before the stand-in's)."""
        if self.stood_in():
            self.say("")
            self.post_message(NextRound())  # the wire's ``ready``: the person is here
        else:
            self.say("b is for taking your seat back from a computer player: none plays it now.", warn=True)

    def action_leave(self) -> None:
        """Escape: leave the table for home (the app asks first during a match)."""
        self.post_message(GoHome())

    def action_theme(self) -> None:
        """Switch to the next colour theme (the app saves it and hands the palette down)."""
        self.post_message(CycleTheme())
