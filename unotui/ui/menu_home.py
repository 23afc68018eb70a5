"""The main menu as the app's home (``unotui play``, ``host``, ``join``; see :mod:`.home`).

The menu's choices come up as :class:`~unotui.ui.messages.HomeMessage` subclasses and
are carried out here: a solo table, a table hosted here, a seat at a table elsewhere, new
settings.  Each table is made from the settings as they are now, never from the last
table, so nothing of a hosted or joined game outlives it.  Going back puts a fresh menu
up, drawn from the current settings.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from .home import AppSlot
from .join_cli import joining
from .lan import hosted
from .messages import HomeMessage, HostGame, JoinGame, PlaySolo, SettingsSaved
from .settings import save_changes

if TYPE_CHECKING:
    from .join_request import JoinRequest
    from .screens.menu import MenuScreen

__all__ = ["MenuHome"]


class MenuHome(AppSlot):
    """The main menu (see the module docstring).

    Args:
        bind, port: where the menu's Host entry listens (tests use loopback and port 0).
    """

    name = "the main menu"
    quit_label = "Quit"
    quitting = "Quit unotui"
    way_back = ""  # (a joined table's own sentence says how: join it again)

    def __init__(self, bind: str = "0.0.0.0", port: int = 7777) -> None:
        self.bind, self.port = bind, port
        #: the last join asked for from the menu, without its password: every menu put up
        #: opens its Join form with it, so a join that failed is tried again without retyping
        self.draft: JoinRequest | None = None
        #: the join under way (a failure is said as that join's)
        self.joining: JoinRequest | None = None

    async def open(self) -> None:
        app = self.app
        await app.push_screen(self._new_menu())
        app.call_after_refresh(app.first_frame_drawn)

    def _new_menu(self) -> MenuScreen:
        """A menu from the current settings (its module is loaded by the first one: ``unotui
        play`` goes straight to a table, and loads it only if the player goes back)."""
        from .screens.menu import MenuScreen

        return MenuScreen(self.app.config, self.app.options, self.draft)

    def menus(self) -> list[MenuScreen]:
        """The menus on the stack (none before the first was made)."""
        if "unotui.ui.screens.menu" not in sys.modules:
            return []
        from .screens.menu import MenuScreen

        return [s for s in self.app.screen_stack if isinstance(s, MenuScreen)]

    def menu(self) -> MenuScreen | None:
        """The menu, if it is on the stack."""
        return next(iter(self.menus()), None)

    def is_up(self) -> bool:
        return self.menu() is not None

    def back(self) -> None:
        """A fresh menu (from the current settings) over nothing but the default screen."""
        app = self.app
        while len(app.screen_stack) > 1:
            app.pop_screen()
        app.push_screen(self._new_menu())

    def rematch(self) -> None:
        """Same players and rules; a new deal (the next seed if one was given)."""
        app = self.app
        seed = app.options.seed
        app.start_game(app.options._replace(seed=None if seed is None else seed + 1))

    def failed(self, why: str, code: str = "") -> None:
        """Said on the menu's own line (it stays until the next choice, where a toast went
        by), with the Join entry under the cursor: Enter opens the form as it was filled in."""
        request, self.joining = self.joining, None
        menu = self.menu()
        if menu is None:
            return
        if request is None:  # (the menu's Host entry: a port that cannot be listened on)
            menu.say(why, warn=True)
            return
        from .join_request import where

        if code == "table_full" and "--spectate" in why:  # (the host words it for the command line)
            why += " (--spectate is the form's Watch only box)"
        address = where(request.host, request.port)
        head = "Could not join" if address in why else f"Could not join {address}"
        menu.say(f"{head}: {why}  (Enter: the Join form again as you filled it in; retype the password)",
                 warn=True)
        menu.highlight("join")

    def say(self, line: str) -> None:
        menu = self.menu()
        if menu is not None:
            menu.say(line)

    def handle(self, message: HomeMessage) -> None:
        """The menu's choices: a table of each kind, or new settings."""
        app = self.app
        config = app.config
        if isinstance(message, PlaySolo | HostGame):
            self.joining = None
        if isinstance(message, PlaySolo):
            app.play(app.factory)
        elif isinstance(message, HostGame):
            from ..net.config import RoomConfig

            room = RoomConfig(name=config.name, seats=config.players, rules=config.rules,
                              level=config.bots, bot_delay=config.delay)
            app.play(hosted(room, config.name, self.bind, self.port))
        elif isinstance(message, JoinGame):
            self.join(message.request)
        elif isinstance(message, SettingsSaved):  # kept, and handed down to the menu
            app.set_config(message.config)
            for screen in self.menus():
                screen.show_settings(app.config, app.options)

    def join(self, request: JoinRequest) -> None:
        """Join as ``unotui join`` would (:func:`~unotui.ui.join_cli.joining`), after
        keeping the address and name in the settings for next time (never the password)."""
        from .join_request import where

        app = self.app
        self.draft = replace(request, password="")
        self.joining = request
        app.set_config(app.config.with_(name=request.name, join_address=request.address))
        if app.save_settings:
            save_changes(name=request.name, join_address=request.address)
        self.say(f"Joining {where(request.host, request.port)}...")
        app.play(joining(request))

    async def close(self) -> None:
        """Nothing to close: the menu keeps no connection."""
