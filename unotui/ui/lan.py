"""What the app does for games with other people: host, join, wait, chat, presence.

Split from :mod:`unotui.ui.app` so that the solo path stays small.  The app's base class
here knows how to start a hosted or joined game (a :class:`~unotui.net.hosted.HostedGame`
or :class:`~unotui.net.remote.RemoteGame` behind the same controller interface), shows
the waiting room until the first view arrives, and turns the updates a local game never
sends (who joined or dropped, chat, timers, the table closing) into lines on the screen.
Every piece of text from the network is shown as literal text, cleaned again here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.style import Style
from textual.app import App

from ..client.controller import Controller, Update
from ..client.options import GameOptions
from ..client.room import RoomChanged
from ..client.text import display_name
from ..protocol import messages as m
from ..table import DeadlineKind, PresenceState
from .messages import SendChat
from .screens.waiting import WaitingScreen

if TYPE_CHECKING:
    from ..engine import SeatView
    from ..net.config import RoomConfig
    from ..net.seat_memory import SeatMemory
    from .screens.table import TableScreen

__all__ = ["LanApp", "seat_memory"]

_PRESENCE: dict[str, str] = {  # a presence update's state -> its line
    PresenceState.JOINED: "{name} joined the table.",
    PresenceState.AWAY: "{name} lost the connection; their seat is held.",
    PresenceState.RECONNECTING: "Connection lost: reconnecting to the host...",
    PresenceState.BACK: "{name} is back.",
    PresenceState.BOT: "A computer player is playing for {name}.",
    PresenceState.LEFT: "{name} left the table.",
}


class LanApp(App[int]):
    """The app's network side (see the module docstring); :class:`UnoApp` builds on it."""

    controller: Controller | None
    options: GameOptions
    view: SeatView | None
    _table: TableScreen | None
    exit_message: str
    factory: Callable[[GameOptions], Controller]
    #: where the menu's Host entry listens (tests use loopback and any free port)
    host_bind = "0.0.0.0"
    host_port = 7777

    def start_game(self, options: GameOptions | None = None) -> None:  # pragma: no cover - UnoApp's
        raise NotImplementedError

    def back_to_menu(self) -> None:  # pragma: no cover - UnoApp's
        raise NotImplementedError

    # ----- starting -----------------------------------------------------------------------

    def host_game(self, config: RoomConfig, name: str, bind: str = "0.0.0.0", port: int = 7777) -> None:
        """Host a table here and sit at it (the menu's Host entry, ``unotui host``)."""
        from ..net.hosted import HostedGame

        self.factory = lambda _options: HostedGame(config, name, bind, port)
        self.start_game()

    def join_game(self, host: str, port: int, **kwargs: Any) -> None:
        """Join a table elsewhere (the menu's Join entry, ``unotui join``)."""
        from ..net.remote import RemoteGame

        self.factory = lambda _options: RemoteGame(host, port, memory=seat_memory(), **kwargs)
        self.start_game()

    async def started(self, controller: Controller) -> bool:
        """Start ``controller``; if the table cannot be reached or refuses, say why and
        leave (to the menu if there is one, else quit with status 1)."""
        from ..net.remote import JoinError

        try:
            await controller.start()
        except JoinError as exc:
            self.controller = None
            self._failed(str(exc))
            return False
        return True

    def has_home(self) -> bool:
        """Whether a screen to go back to (the main menu) is under the game."""
        from .screens.menu import MenuScreen

        return any(isinstance(s, MenuScreen) for s in self.screen_stack)

    def _failed(self, why: str) -> None:
        if self.has_home():
            self.notify(why, title="Could not join", severity="error", timeout=15, markup=False)
            return
        self.exit_message = why
        self.exit(1)

    async def wait_for_players(self, controller: Controller) -> None:
        """No view yet: a hosted table filling up.  Show the waiting room."""
        hints = tuple(getattr(controller, "hints", ()))
        await self.push_screen(WaitingScreen(getattr(controller, "room", None), hints))
        self.call_after_refresh(self._first_frame)

    def _first_frame(self) -> None:
        first = getattr(self, "first_frame_drawn", None)
        if callable(first):
            first()

    def waiting_screen(self) -> WaitingScreen | None:
        """The waiting room, if it is up."""
        for screen in self.screen_stack:
            if isinstance(screen, WaitingScreen):
                return screen
        return None

    # ----- updates a local game never sends ---------------------------------------------------

    def other_update(self, update: Update) -> None:
        """Presence, chat, deadlines and the waiting room, shown where the player looks."""
        table, waiting = self._table, self.waiting_screen()
        if isinstance(update, RoomChanged):
            if waiting is not None:
                waiting.show(update.room)
            return
        line = ""
        style = Style(italic=True)
        if isinstance(update, m.Presence):
            template = _PRESENCE.get(update.state, "{name}: " + update.state)
            line = template.format(name=display_name(update.name))
        elif isinstance(update, m.ChatLine):
            line = f"{display_name(update.name)}: {update.text}"
            style = Style(bold=True)
        elif isinstance(update, m.Deadline) and update.kind == DeadlineKind.TURN:
            seat, seconds = -1 if update.seat is None else update.seat, update.ms / 1000
            if table is not None:
                table.set_deadline(seat, seconds)  # counted down beside the pile
            view = self.view
            if seconds and view is not None and seat == view.seat:
                line = f"Turn timer: {seconds:.0f} s to decide, or the table acts for you."
                if table is not None:
                    table.say(line)
            return
        if not line:
            return
        if table is not None:
            table.note(line, style)
        elif waiting is not None:
            waiting.say(line)

    def game_closed(self, update: m.Closed) -> None:
        """The game is gone (the host left, the connection died): say so plainly."""
        why = f"Game closed: {update.message}"
        waiting = self.waiting_screen()
        if self._table is not None:
            self._table.say(why + "  (Ctrl+Q: quit)", warn=True)
            self._table.note(why, Style(bold=True))
        elif waiting is not None:
            waiting.table_closed(why + "  (Escape: leave)")

    # ----- messages up from the screens ---------------------------------------------------------

    def on_send_chat(self, message: SendChat) -> None:
        """A chat line from the table."""
        if self.controller is not None:
            self.controller.chat(message.text)

    def on_waiting_screen_start_match(self, _: WaitingScreen.StartMatch) -> None:
        """The host's player starts the match from the waiting room."""
        if self.controller is not None:
            self.controller.start_match()

    def on_waiting_screen_leave(self, _: WaitingScreen.Leave) -> None:
        """Leave the waiting room: back to the menu, or quit if there is none."""
        if self.has_home():
            self.back_to_menu()
        else:
            self.exit(0)


def seat_memory() -> SeatMemory:
    """Where ``unotui join`` keeps its seats between runs: beside the settings file."""
    from ..client.config import config_path
    from ..net.seat_memory import SeatMemory

    return SeatMemory(config_path().parent / "seats.json")
