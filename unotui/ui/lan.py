"""What the app does for games with other people: host, join, and show what they say.

The app's hosted and joined tables (a :class:`~unotui.net.hosted.HostedGame` or
:class:`~unotui.net.remote.RemoteGame` behind the same controller interface) are made
here (:func:`hosted`, :func:`joined`), and the updates a local game never sends (who
joined or dropped, chat, timers, the table closing) are turned into lines on the screen
the player is looking at (:func:`show_update`, :func:`show_closed`).  These are plain
functions of the screens they draw on: the app calls them from its one handler of
controller updates.  Every piece of text from the network is shown as literal text,
cleaned again here.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.style import Style
from textual.screen import Screen

from ..net.controller import Controller
from ..net.room_info import RoomChanged
from ..protocol import messages as m
from ..table import DeadlineKind, PresenceState
from .modes import ControllerFactory
from .settings import GameOptions
from .turn_clock import times_up
from .words import display_name

if TYPE_CHECKING:
    from ..engine import SeatView
    from ..net.config import RoomConfig
    from ..net.controller import Update
    from ..net.seat_memory import SeatMemory
    from .screens.table import TableScreen
    from .screens.waiting import WaitingScreen

__all__ = ["hosted", "joined", "seat_memory", "show_closed", "show_update", "waiting_room", "waiting_room_on"]

_PRESENCE: dict[str, str] = {  # a presence update's state -> its line
    PresenceState.JOINED: "{name} joined the table.",
    PresenceState.AWAY: "{name} lost the connection; their seat is held.",
    PresenceState.RECONNECTING: "Connection lost: reconnecting to the host...",
    PresenceState.BACK: "{name} is back.",
    PresenceState.BOT: "A computer player is playing for {name}.",
    PresenceState.LEFT: "{name} left the table.",
}
#: the lines for a presence update about this player's own seat (``bot`` after turns that
#: ran out, ``back`` when a move or a reconnection ended it); the others as for anyone
_OWN_PRESENCE: dict[str, str] = {
    PresenceState.BOT: "Your turns ran out three times: a computer player plays for you. "
                       "b takes your seat back.",
    PresenceState.BACK: "Your seat is yours again.",
}


def hosted(config: RoomConfig, name: str, bind: str = "0.0.0.0", port: int = 7777) -> ControllerFactory:
    """A table hosted here, with the person at its first seat (the menu's Host entry,
    ``unotui host``)."""

    def make(_options: GameOptions) -> Controller:
        from ..net.hosted import HostedGame

        return HostedGame(config, name, bind, port)

    return make


def joined(host: str, port: int, **kwargs: Any) -> ControllerFactory:
    """A seat (or a chair to watch) at a table elsewhere (the menu's Join entry,
    ``unotui join``); the seat is remembered between runs (:func:`seat_memory`)."""

    def make(_options: GameOptions) -> Controller:
        from ..net.remote import RemoteGame

        return RemoteGame(host, port, memory=seat_memory(), **kwargs)

    return make


def waiting_room(controller: Controller) -> WaitingScreen:
    """The waiting room for ``controller``'s table (no view yet: a hosted table filling up)."""
    hints = tuple(getattr(controller, "hints", ()))
    from .screens.waiting import WaitingScreen  # (a hosted or joined table's: solo play has none)

    return WaitingScreen(getattr(controller, "room", None), hints, renamed(controller))


def waiting_room_on(screens: Iterable[Screen[Any]]) -> WaitingScreen | None:
    """The waiting room among ``screens`` (the app's stack), if it is there.  None can be
    before its module is loaded (by :func:`waiting_room`), which solo play never loads."""
    if "unotui.ui.screens.waiting" not in sys.modules:
        return None
    from .screens.waiting import WaitingScreen

    return next((s for s in screens if isinstance(s, WaitingScreen)), None)


def ranking_note(controller: Controller) -> str:
    """What a lobby table's match summary tells a player it does not rank: the lobby
    rates SSH keys only (a ``unotui join --table`` player or an SSH guest has none), so
    without a word such a player looks for a name the leaderboard never lists.  "" at a
    LAN table, for a key's seat, and for a spectator."""
    if not controller.remote:
        return ""
    from ..net.remote import RemoteGame

    if not isinstance(controller, RemoteGame) or not controller.table or controller.spectate:
        return ""
    if controller.keyed:
        return ""
    return ("Not on the lobby's leaderboard: it ranks players who come over SSH with a key "
            "(you joined without one).")


def renamed(controller: Controller) -> str:
    """What to tell a player whose name the host changed (another at the table had it,
    ignoring case: the host seats "Dave 2"), or "" (the name asked for, or not a remote
    table)."""
    if not controller.remote:
        return ""
    from ..net.remote import RemoteGame

    if not isinstance(controller, RemoteGame) or controller.seat is None:
        return ""
    given, asked = controller.seat_name, controller.name
    if not asked or given == asked:
        return ""
    return f"You are {display_name(given)} at this table: {display_name(asked)} was taken."


def show_update(
    update: Update, view: SeatView | None, table: TableScreen | None, waiting: WaitingScreen | None
) -> None:
    """Presence, chat, deadlines and the waiting room, shown where the player looks."""
    if isinstance(update, RoomChanged):
        if waiting is not None:
            waiting.room = update.room
        return
    line = ""
    style = Style(italic=True)
    if isinstance(update, m.Presence):
        own = view is not None and update.seat == view.seat and update.state in _OWN_PRESENCE
        template = _OWN_PRESENCE[update.state] if own else _PRESENCE.get(update.state, "{name}: {state}")
        line = template.format(name=display_name(update.name), state=update.state)
    elif isinstance(update, m.ChatLine):  # marked as chat, in the log (ui/game_log.py)
        if table is not None:
            table.chat(update)
        elif waiting is not None:
            waiting.chat(update)
        return
    elif isinstance(update, m.Deadline) and update.kind == DeadlineKind.HOLD:
        if table is not None:  # a held seat: counted down on the status line or below the pile
            table.hold = (-1, None) if update.seat is None else (update.seat, update.ms / 1000)
        return
    elif isinstance(update, m.Deadline) and update.kind == DeadlineKind.TURN:
        seat, seconds = -1 if update.seat is None else update.seat, update.ms / 1000
        if seat >= 0 and not update.ms:  # ran out: the table acted (the view before shows what)
            line = times_up(view, seat)
            style = Style(bold=True)
            if table is not None:
                table.deadline = (-1, None)
        else:
            if table is not None:
                table.deadline = (seat, seconds)  # counted down beside the pile
            # (a clock said again when another changed may have less than a second left:
            # the line is for a decision's start, not its last moment)
            # (not while a computer player decides for the seat: the line is for a person)
            if seconds >= 1 and table is not None and view is not None and seat == view.seat \
                    and not table.stood_in():
                table.say(f"Turn timer: {seconds:.0f} s to decide, or the table acts for you.")
            return
    if not line:
        return
    if table is not None:
        table.note(line, style)
    elif waiting is not None:
        waiting.say(line)


def show_closed(update: m.Closed, table: TableScreen | None, waiting: WaitingScreen | None) -> None:
    """The game is gone (the host left, the connection died): say so plainly; the table
    shows its end state (``TableScreen.closed``: game keys off, the clock stopped)."""
    why = f"Game closed: {update.message}"
    if table is not None:
        table.closed = update.message
        table.note(why, Style(bold=True))
    elif waiting is not None:
        waiting.table_closed(why + "  (Escape: leave)")


def seat_memory() -> SeatMemory:
    """Where ``unotui join`` keeps its seats between runs: beside the settings file."""
    from ..net.seat_memory import SeatMemory
    from .settings import config_path

    return SeatMemory(config_path().parent / "seats.json")
