"""The app an SSH player gets: the lobby first, then tables, then the lobby again.

It is the same :class:`~unotui.ui.app.UnoApp` as solo and LAN play (the same table
screen, keys and dialogs); only its home is the lobby instead of the main menu.  The
lobby connection is open while the lobby is on screen and closed while the player sits
at a table (a table is its own connection), so "online" counts each person once.  A
seat held for the player's key is taken back at once when the lobby says so.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from rich.style import Style

from ..net.lobby_client import LobbyClient, LobbyClosed, LobbyUpdate
from ..net.remote import JoinError, RemoteGame
from ..protocol import messages as m
from .app import UnoApp
from .messages import CreateTable, CycleTheme, JoinTable, LobbyChat, QuickMatch
from .screens.lobby import LobbyScreen
from .settings import Config, GameOptions

__all__ = ["InLobby", "LobbyApp"]


@dataclass(eq=False)
class InLobby:
    """The app in the lobby (the lobby's mode, beside :class:`~unotui.ui.modes.AtTable`):
    the lobby connection, open only while the lobby is on screen; gone with it."""

    client: LobbyClient
    #: whether the lobby's ``seat_at`` was acted on (once per visit)
    went_back: bool = False


class LobbyApp(UnoApp):
    """The lobby's app (see the module docstring).

    Args:
        host, port: the lobby host (the serving process's own loopback port).
        name: the player's name (the SSH user name); the lobby makes it unique.
        identity: the lobby's credential: for the player's key, or a guest's (its address
            only), or ``None``.
        keyed: whether the player has a key (default: whether there is a credential).
        command: ``("join", CODE)`` or ``("spectate", CODE)`` to go straight to a table.
        ssh_port: the lobby's SSH port, for the line others type to join a table.
        public_host: the host name in that line (``unotui serve --public-host``).
        greeting: the lobby log's first line (who the player's key says they are).
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        identity: str | None = None,
        keyed: bool | None = None,
        command: tuple[str, ...] = (),
        config: Config | None = None,
        ssh_port: int = 2222,
        public_host: str = "THIS-HOST",
        greeting: str = "",
    ) -> None:
        config = config or Config(name=name)
        super().__init__(config, GameOptions(name=name), menu=True, save_settings=False)
        self.lobby_host, self.lobby_port = host, port
        self.identity = identity
        self.keyed = identity is not None if keyed is None else keyed
        self.command = command
        self.ssh_port = ssh_port
        self.public_host = public_host
        self.greeting = greeting
        #: the lobby the app is in, if any (not while it is at a table)
        self.lobby: InLobby | None = None
        self.you = name

    # ----- home -------------------------------------------------------------------------------

    async def open_home(self) -> None:
        screen = LobbyScreen(keyed=self.keyed)
        if self.greeting:
            screen.say(self.greeting, Style(bold=True))
        await self.push_screen(screen)
        if len(self.command) == 2 and self.command[0] in ("join", "spectate"):
            self.sit(self.command[1].upper(), spectate=self.command[0] == "spectate")
        else:
            self.run_worker(self._open_lobby(), group="lobby")

    def has_home(self) -> bool:
        return any(isinstance(s, LobbyScreen) for s in self.screen_stack)

    def lobby_screen(self) -> LobbyScreen | None:
        """The lobby, if it is on the stack."""
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                return screen
        return None

    def back_to_menu(self) -> None:
        """Leave the table for the lobby."""
        self._close(self._leave())
        home = self.lobby_screen()
        while len(self.screen_stack) > 1 and self.screen is not home:
            self.pop_screen()
        self.run_worker(self._open_lobby(), group="lobby")

    def rematch(self) -> None:
        """In the lobby a rematch is a new table: back to the list."""
        self.back_to_menu()

    async def _open_lobby(self) -> None:
        """Connect to the lobby, trying again for a minute: on a busy server (many
        sessions starting at once) the first answer may come late."""
        await self._close_lobby()
        delay, waited = 0.5, 0.0
        while True:
            client = LobbyClient(self.lobby_host, self.lobby_port, name=self.you, identity=self.identity,
                                 connect_timeout=10.0)
            lobby = self.lobby = InLobby(client)

            def heard(update: LobbyUpdate, lobby: InLobby = lobby) -> None:
                self.call_later(self._lobby_update, lobby, update)

            client.listen(heard)
            try:
                await client.start()
                break
            except JoinError as exc:
                self.lobby = None
                screen = self.lobby_screen()
                if waited >= 60 or exc.code not in ("unreachable", "eof"):
                    if screen is not None:
                        screen.say(f"Cannot reach the lobby: {exc}", Style(bold=True))
                    break
                if screen is not None and waited == 0:
                    screen.say("The lobby is busy; trying again...", Style(dim=True))
                await asyncio.sleep(delay)
                waited += delay
                delay = min(delay * 2, 8.0)
        self.first_frame_drawn()

    async def _close_lobby(self) -> None:
        lobby, self.lobby = self.lobby, None
        if lobby is not None:
            await lobby.client.close()

    def _lobby_update(self, lobby: InLobby, update: LobbyUpdate) -> None:
        screen = self.lobby_screen()
        if lobby is not self.lobby or screen is None:
            return
        if isinstance(update, m.LobbyState):
            self.you = update.you
            screen.state = update
            if update.seat_at and not lobby.went_back and self.screen is screen:
                lobby.went_back = True
                screen.say(f"Back to your seat at table {update.seat_at}.")
                self.sit(update.seat_at)
        elif isinstance(update, m.Created):
            self.sit(update.code)
        elif isinstance(update, m.ChatLine):
            screen.say(f"{update.name}: {update.text}", Style(bold=True))
        elif isinstance(update, m.Refused):
            screen.say(update.message, Style(italic=True))
        elif isinstance(update, LobbyClosed):
            screen.say(f"Lobby: {update.reason}", Style(bold=True))

    # ----- tables -----------------------------------------------------------------------------

    def sit(self, code: str, spectate: bool = False) -> None:
        """Go to table ``code`` (a seat, or a chair to watch)."""
        self.run_worker(self._close_lobby(), group="lobby")

        def make(_options: GameOptions) -> RemoteGame:
            game = RemoteGame(self.lobby_host, self.lobby_port, name=self.you, spectate=spectate,
                              table=code, identity=self.identity, keyed=self.keyed)
            game.hints = (
                f"table code {code}: in the lobby press c and type it",
                f"ssh -t -p {self.ssh_port} {self.public_host} join {code}",
            )
            return game

        self.play(make)

    def _failed(self, why: str) -> None:
        screen = self.lobby_screen()
        if screen is not None:
            screen.say(f"Could not join: {why}", Style(bold=True))
        self.run_worker(self._open_lobby(), group="lobby")

    def on_join_table(self, message: JoinTable) -> None:
        self.sit(message.code, message.spectate)

    def on_quick_match(self, _: QuickMatch) -> None:
        if self.lobby is not None:
            self.lobby.client.quick()

    def on_create_table(self, message: CreateTable) -> None:
        if self.lobby is not None:
            self.lobby.client.create(message.name, message.seats, message.bots, message.rules, message.level,
                               message.turn_timer, message.private)

    def on_cycle_theme(self, message: CycleTheme) -> None:
        """t in the lobby: the next theme (the table gets it when the player sits)."""
        message.prevent_default()
        name = self.cycle_theme()
        screen = self.lobby_screen()
        if self.table_screen is not None:
            self.table_screen.palette = self.palette
        if screen is not None and self.screen is screen:
            screen.say(f"Theme: {name} (t: next).")

    def on_lobby_chat(self, message: LobbyChat) -> None:
        if self.lobby is not None:
            self.lobby.client.chat(message.text)

    async def shutdown(self) -> None:
        await self._close_lobby()
        await self._stop()
