"""Where the app is when it is at no table: its *home*, a part the app is given.

One :class:`~unotui.ui.app.UnoApp` runs solo play, LAN play and the SSH lobby; what
differs is only its home, an object that satisfies :class:`Home`: the main menu
(:class:`~unotui.ui.menu_home.MenuHome`) or the lobby with its connection
(:class:`~unotui.ui.lobby_home.LobbyHome`).  The app owns the table (its
:class:`~unotui.ui.modes.AtTable`), the themes and the settings; the home owns its screen
and whatever it keeps open while it is on screen, and the app asks it the few things that
differ (how to go back to it, what a rematch is, where a failed join is said).  Nothing
overrides the app, so the app can be read alone and so can each home.

The home reaches the app only through :class:`HomeApp` (what it may ask of the app), so
this module, the homes and the app import no one in a circle: the app imports this
module and the menu home; the homes import this module, never the app.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from .messages import HomeMessage
    from .modes import ControllerFactory
    from .settings import Config, GameOptions

__all__ = ["AppSlot", "Home", "HomeApp"]


class HomeApp(Protocol):
    """What a home may ask of the app it is the home of (the app's side of the seam)."""

    config: Config
    options: GameOptions
    #: whether the settings file is written (not in an SSH session: it is the server's)
    save_settings: bool
    #: the solo table's controller (the menu's first entry)
    factory: ControllerFactory

    @property
    def screen(self) -> Screen[object]: ...

    @property
    def screen_stack(self) -> list[Screen[Any]]: ...

    def push_screen(self, screen: Screen[Any]) -> Awaitable[object]: ...

    def pop_screen(self) -> object: ...

    def run_worker(self, work: Coroutine[Any, Any, None], *, group: str) -> object: ...

    def call_later(self, callback: Callable[..., object], *args: Any) -> bool: ...

    def call_after_refresh(self, callback: Callable[[], object]) -> bool: ...

    def notify(self, message: str, *, title: str, severity: SeverityLevel, timeout: float,
               markup: bool) -> None: ...

    def play(self, make: ControllerFactory) -> None:
        """Go to a new table whose controller ``make`` makes."""

    def go_home(self) -> None:
        """Leave the table for home."""

    def start_game(self, options: GameOptions | None = None) -> None:
        """A new game at a table made the way the current one was."""

    def set_config(self, config: Config) -> None:
        """New settings (already saved)."""

    def first_frame_drawn(self) -> None:
        """Start-up is over (the garbage collector runs again)."""


class Home(Protocol):
    """The app's home (see the module docstring).

    ``name`` is how sentences name it ("the main menu", "the lobby": "Leave this match
    for the lobby?"); ``quit_label`` is what Ctrl+Q does, as the table's key bar says it
    ("Quit"; in an SSH session "Quit SSH", which ends the session, not just the table)
    and ``quitting`` how its question says it ("Quit unotui", "End the SSH session");
    ``way_back`` is how the player takes a held seat back from home, as the question
    before leaving a match for home says it ("" if there is no such way).
    """

    name: str
    quit_label: str
    quitting: str
    way_back: str

    def attach(self, app: HomeApp) -> None:
        """Belong to ``app`` (called once, by the app's constructor)."""

    async def open(self) -> None:
        """Put the home screen up (at start-up)."""

    def is_up(self) -> bool:
        """Whether the home's screen is under the table (somewhere to go back to)."""

    def back(self) -> None:
        """The app has left its table (already closed in the background): show home."""

    def rematch(self) -> None:
        """The match summary's rematch: the same table again, or home if it cannot be."""

    def failed(self, why: str, code: str = "") -> None:
        """A table could not be reached or refused the player (the home is up); ``code``
        is the host's reason (``JoinError.code``: ``seat_in_use`` asks the lobby's player
        whether to take the seat over)."""

    def say(self, line: str) -> None:
        """A line for the player on the home screen (a theme change made there)."""

    def handle(self, message: HomeMessage) -> None:
        """A message up from the home's screens (the menu's choices, the lobby's)."""

    async def close(self) -> None:
        """The app is closing: close what the home keeps open."""


class AppSlot:
    """The app a home belongs to, as both homes hold it: set once by :meth:`attach`."""

    _app: HomeApp | None = None

    @property
    def app(self) -> HomeApp:
        """The app this is the home of."""
        assert self._app is not None, "a home belongs to an app (UnoApp attaches it)"
        return self._app

    def attach(self, app: HomeApp) -> None:
        """Belong to ``app`` (called once, by the app's constructor)."""
        self._app = app
