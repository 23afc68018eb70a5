"""The SSH lobby as the app's home: the lobby first, then tables, then the lobby again.

An SSH player gets the same :class:`~unotui.ui.app.UnoApp` as solo and LAN play (the
same table screen, keys and dialogs), given this home instead of the main menu
(:func:`lobby_app`).  The lobby connection is open while the lobby is on screen and
closed while the player sits at a table (a table is its own connection), so "online"
counts each person once.  A seat held for the player's key is taken back at once when
the lobby first says so in a session; after the player left a table by choice
(Escape) the lobby only says where the seat is held, and Enter on that table takes it
back.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.style import Style

from ..net.controller import JoinError
from ..net.lobby_client import LobbyClient, LobbyClosed, LobbyUpdate
from ..net.remote import RemoteGame
from ..protocol import messages as m
from .home import AppSlot
from .lobby_messages import CreateTable, JoinTable, LobbyChat, QuickMatch, ReviewKept, ShowMatches
from .messages import HomeMessage
from .screens.lobby import LobbyScreen
from .settings import Config, GameOptions

__all__ = ["InLobby", "LobbyHome", "lobby_app"]

if TYPE_CHECKING:
    from .app import UnoApp


@dataclass(eq=False)
class InLobby:
    """The app in the lobby (the lobby's mode, beside :class:`~unotui.ui.modes.AtTable`):
    the lobby connection, open only while the lobby is on screen; gone with it."""

    client: LobbyClient


def lobby_app(host: str, port: int, name: str, *, config: Config | None = None, **kwargs: Any) -> UnoApp:
    """The app an SSH player gets: a :class:`UnoApp` whose home is the lobby at
    ``host``:``port`` (``kwargs``: :class:`LobbyHome`'s)."""
    from .app import UnoApp

    home = LobbyHome(host, port, name, **kwargs)
    return UnoApp(config or Config(name=name), GameOptions(name=name), menu=True, save_settings=False,
                  home=home)


class LobbyHome(AppSlot):
    """The lobby as the app's home (see the module docstring).

    Args:
        host, port: the lobby host (the serving process's own loopback port).
        name: the player's name (the SSH user name); the lobby makes it unique.
        identity: the lobby's credential: for the player's key, or a guest's (its address
            only), or ``None``.
        keyed: whether the player has a key (default: whether there is a credential).
        command: ``("join", CODE)`` or ``("spectate", CODE)`` to go straight to a table.
        ssh_port: the lobby's SSH port, for the line others type to join a table.
        public_host: the host name in that line (``unotui serve --public-host``).
        quick_seats: the seats of a table quick match opens (what its question says).
        greeting: the lobby log's first line (who the player's key says they are).
    """

    name = "the lobby"
    #: Ctrl+Q ends the SSH session, not just the table: the key bar says so
    quit_label = "Quit SSH"
    quitting = "End the SSH session"
    way_back = "In the lobby, Enter on that table takes your seat back."

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        identity: str | None = None,
        keyed: bool | None = None,
        command: tuple[str, ...] = (),
        ssh_port: int = 2222,
        public_host: str = "THIS-HOST",
        quick_seats: int = 4,
        greeting: str = "",
    ) -> None:
        self.lobby_host, self.lobby_port = host, port
        self.identity = identity
        self.keyed = identity is not None if keyed is None else keyed
        self.command = command
        self.ssh_port = ssh_port
        self.public_host = public_host
        self.quick_seats = quick_seats
        self.greeting = greeting
        #: the lobby the app is in, if any (not while it is at a table)
        self.lobby: InLobby | None = None
        #: the player's name as the lobby made it unique
        self.you = name
        #: whether the session is past its arrival: its first lobby state (whose ``seat_at``,
        #: a seat held from before, is taken back then and only then), a table asked for on
        #: the command line, or a table sat at.  A later ``seat_at`` is a seat left just now,
        #: by this terminal or another of the same key: shown, not acted on (a terminal idle
        #: in the lobby was once moved onto the table its twin had just left)
        self.arrived = False
        #: the table last sat at (not watched): what a ``seat_in_use`` refusal is about
        self.sitting: str | None = None
        #: the lobby's last "your seat is in use elsewhere" line (not repeated at every visit)
        self.said_in_use = ""

    # ----- the lobby on screen ------------------------------------------------------------------

    async def open(self) -> None:
        screen = LobbyScreen(keyed=self.keyed, quick_seats=self.quick_seats)
        if self.greeting:
            screen.say(self.greeting, Style(bold=True))
        await self.app.push_screen(screen)
        if len(self.command) == 2 and self.command[0] in ("join", "spectate"):
            self.arrived = True  # the table asked for comes first
            self.sit(self.command[1].upper(), spectate=self.command[0] == "spectate")
        else:
            self.app.run_worker(self._open_lobby(), group="lobby")

    def lobby_screen(self) -> LobbyScreen | None:
        """The lobby, if it is on the stack."""
        return next((s for s in self.app.screen_stack if isinstance(s, LobbyScreen)), None)

    def is_up(self) -> bool:
        return self.lobby_screen() is not None

    def back(self) -> None:
        """Down to the lobby screen, and into the lobby again."""
        app = self.app
        home = self.lobby_screen()
        while len(app.screen_stack) > 1 and app.screen is not home:
            app.pop_screen()
        app.run_worker(self._open_lobby(), group="lobby")

    def rematch(self) -> None:
        """In the lobby a rematch is a new table: back to the list."""
        self.app.go_home()

    def failed(self, why: str, code: str = "") -> None:
        screen = self.lobby_screen()
        self.app.run_worker(self._open_lobby(), group="lobby")
        if screen is None:
            return
        table = self.sitting
        if code == "table_full" and table is not None and screen.started(table):
            from .screens.lobby import started_text  # (the host words it for the command line)

            screen.say(started_text(table), Style(bold=True))
            return
        if code != "seat_in_use" or table is None:
            screen.say(f"Could not join: {why}", Style(bold=True))
            return
        from .screens.dialogs import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.sit(table, take_over=True)
            else:
                screen.say(f"Your seat at table {table} stays in your other terminal.", Style(italic=True))

        screen.app.push_screen(ConfirmScreen(
            f"Your seat at table {table} is open in another terminal of your SSH key.",
            "Take it over here? That terminal is told so and can go back to the lobby.",
            no="no, leave it there"), answered)

    def say(self, line: str) -> None:
        screen = self.lobby_screen()
        if screen is not None and self.app.screen is screen:
            screen.say(line)

    async def _open_lobby(self) -> None:
        """Connect to the lobby, trying again for a minute: on a busy server (many
        sessions starting at once) the first answer may come late."""
        await self.close()
        delay, waited = 0.5, 0.0
        while True:
            client = LobbyClient(self.lobby_host, self.lobby_port, name=self.you, identity=self.identity,
                                 connect_timeout=10.0)
            lobby = self.lobby = InLobby(client)

            def heard(update: LobbyUpdate, lobby: InLobby = lobby) -> None:
                self.app.call_later(self._lobby_update, lobby, update)

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
        self.app.first_frame_drawn()

    async def close(self) -> None:
        """Leave the lobby (its connection closes)."""
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
            if not self.arrived:
                self.arrived = True
                if update.seat_at and self.app.screen is screen:
                    screen.say(f"Back to your seat at table {update.seat_at}.")
                    self.sit(update.seat_at)
        elif isinstance(update, m.Created):
            self.sit(update.code)
        elif isinstance(update, m.ChatLine):
            screen.chat(update)
        elif isinstance(update, m.Refused):
            if update.code == "seat_in_use":  # said at every visit to the lobby: shown once
                if update.message == self.said_in_use:
                    return
                self.said_in_use = update.message
            screen.say(update.message, Style(italic=True))
        elif isinstance(update, LobbyClosed):
            screen.say(f"Lobby: {update.reason}", Style(bold=True))

    # ----- tables -----------------------------------------------------------------------------

    def sit(self, code: str, spectate: bool = False, *, take_over: bool = False) -> None:
        """Go to table ``code`` (a seat, or a chair to watch; ``take_over``: the seat
        from this key's other terminal, once the player said yes)."""
        self.arrived = True  # (a seat held there is taken back by sitting)
        self.sitting = None if spectate else code
        self.app.run_worker(self.close(), group="lobby")

        def make(_options: GameOptions) -> RemoteGame:
            game = RemoteGame(self.lobby_host, self.lobby_port, name=self.you, spectate=spectate,
                              table=code, identity=self.identity, keyed=self.keyed, take_over=take_over)
            game.hints = (
                f"table code {code}: in the lobby press c and type it",
                f"ssh -t -p {self.ssh_port} {self.public_host} join {code}",
            )
            return game

        self.app.play(make)

    def handle(self, message: HomeMessage) -> None:
        """The lobby screen's wishes: a table to sit at or watch, quick match, a new
        table, a chat line; the lobby's answers come back as lobby updates."""
        client = self.lobby.client if self.lobby is not None else None
        if isinstance(message, JoinTable):
            self.sit(message.code, message.spectate)
        elif client is None:
            return  # (not connected yet: the lobby screen says so)
        elif isinstance(message, QuickMatch):
            client.quick()
        elif isinstance(message, CreateTable):
            client.create(message.name, message.seats, message.bots, message.rules, message.level,
                          message.turn_timer, message.private)
        elif isinstance(message, LobbyChat):
            client.chat(message.text)
        elif isinstance(message, ShowMatches):
            from .screens.lobby_matches import LobbyMatchesScreen

            screen = LobbyMatchesScreen(keyed=self.keyed)
            self.app.push_screen(screen)
            self.app.run_worker(self._list_matches(client, screen), group="lobby-matches")
        elif isinstance(message, ReviewKept):
            self.app.run_worker(self._review_kept(client, message), group="lobby-matches")

    # ----- recent matches and their review ------------------------------------------------------

    async def _list_matches(self, client: LobbyClient, screen: Any) -> None:
        from ..net.lobby_client import KeptError

        try:
            screen.listed = await client.matches()
        except KeptError as exc:
            screen.say(f"The lobby did not list your matches: {exc}")

    async def _review_kept(self, client: LobbyClient, message: ReviewKept) -> None:
        """Fetch the kept match's transcript and open its review, reviewed on this
        server only with a slot the lobby grants (:mod:`unotui.ui.lobby_review`)."""
        from ..net.lobby_client import KeptError
        from ..transcript import TranscriptError
        from .review_launch import open_review

        screen = self.app.screen
        try:
            transcript = await client.kept(message.id)
            open_review(self.app, transcript, message.seat, self.review_job())
        except (KeptError, TranscriptError) as exc:
            if hasattr(screen, "say"):
                screen.say(f"Cannot review that match: {exc}")

    def review_job(self) -> Any:
        """The job a review in this session runs (the recent matches' and a lobby table's
        summary ``r``: :func:`~unotui.ui.match_review.review_match`): it asks the lobby
        for a slot first."""
        from .lobby_review import LobbyReviewJob

        def current() -> LobbyClient | None:
            return self.lobby.client if self.lobby is not None else None

        def connect() -> LobbyClient:
            return LobbyClient(self.lobby_host, self.lobby_port, name=self.you, identity=self.identity)

        return LobbyReviewJob(asyncio.get_running_loop(), current, connect)
