"""The Textual application: screens, theme, and the link to one game controller.

The app owns the controller and the one :class:`SeatView` it last sent.  Controller
updates arrive as :class:`~unotui.ui.messages.GameUpdate` messages; the app keeps the
view (and the score history for the final chart) and hands it down to the table screen.
The table sends everything back up as messages (an intent, the next round, a rematch, a
hint request, a theme or hand-order change): only the app talks to the controller and
the settings file, and no screen imports the app.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from textual.actions import SkipAction
from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.theme import Theme

from ..client.config import HAND_ORDERS, THEMES, Config, load_config, save_config
from ..client.controller import Controller, Update
from ..client.local import LocalGame
from ..client.options import GameOptions
from ..engine import Action, Phase, SeatView
from ..protocol import messages as m
from ..protocol.session import ViewUpdated
from .lan import LanApp
from .messages import (
    CycleSort,
    CycleTheme,
    GameUpdate,
    HintRequest,
    HostGame,
    Intent,
    JoinGame,
    MainMenu,
    NextRound,
    PlaySolo,
    Rematch,
    SettingsSaved,
)
from .screens.table import TableScreen

if TYPE_CHECKING:
    from .session_driver import SessionTerminalLike

__all__ = ["GameOptions", "UnoApp", "local_game"]

_TEXTUAL_THEMES = {"default": "textual-dark", "colourblind": "textual-dark", "mono": "unotui-mono"}
MONO = Theme(
    name="unotui-mono",
    primary="#ffffff",
    secondary="#c0c0c0",
    accent="#e0e0e0",
    warning="#ffffff",
    error="#ffffff",
    success="#ffffff",
    foreground="#ffffff",
    background="#000000",
    surface="#101010",
    panel="#202020",
    dark=True,
)


ControllerFactory = Callable[[GameOptions], Controller]


def local_game(options: GameOptions) -> Controller:
    """The default controller: the person at seat 0 against computer players."""
    return LocalGame(
        options.names(),
        options.rules,
        level=options.level,
        seed=options.seed,
        delay=options.delay,
        catch_grace=options.catch_grace,
    )


class UnoApp(LanApp):
    """unotui: the main menu, the table and their dialogs."""

    CSS_PATH = "app.tcss"
    TITLE = "unotui"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("ctrl+c", "quit_hint", show=False, priority=True),
    ]

    def action_quit_hint(self) -> None:
        """Ctrl+C says how to quit, in a dialog too (Textual's own hint is an app binding,
        which a modal screen cuts off: in the colour picker the key did nothing); it still
        copies where there is something to copy (selected text, a field's selection)."""
        if self.screen.get_selected_text() or getattr(self.focused, "selected_text", ""):
            raise SkipAction()
        self.notify("Press [b]ctrl+q[/b] to quit the app", title="Do you want to quit?")

    def __init__(
        self,
        config: Config,
        options: GameOptions,
        *,
        menu: bool = False,
        factory: ControllerFactory = local_game,
        save_settings: bool = True,
        terminal: SessionTerminalLike | None = None,
    ) -> None:
        super().__init__()
        if terminal is not None:  # an SSH session's thread in a worker process
            from .session_driver import attach

            attach(self, terminal)
        self.config = config
        self.options = options
        self.menu = menu
        self.factory = factory
        self.save_settings = save_settings
        self.controller: Controller | None = None
        self.view: SeatView | None = None
        self.history: list[tuple[int, ...]] = []
        self.palette = config.theme if config.theme in THEMES else "default"
        self._table: TableScreen | None = None
        #: a sentence to print after the full-screen view is gone (why a join failed)
        self.exit_message = ""

    async def on_mount(self) -> None:
        self.register_theme(MONO)
        self._apply_theme(self.palette)
        if self.config.problems and not self.menu:  # the menu shows them on its own line
            for problem in self.config.problems:
                title = "Settings file problem (defaults used)"
                self.notify(problem, title=title, severity="warning", timeout=20, markup=False)
        if self.menu:
            await self.open_home()
        else:
            await self._start()

    async def open_home(self) -> None:
        """Put the home screen up (the main menu; the lobby in the SSH lobby's app)."""
        from .screens.menu import MenuScreen

        await self.push_screen(MenuScreen(self.config, self.options))
        self.call_after_refresh(self.first_frame_drawn)

    async def on_unmount(self) -> None:
        await self.shutdown()

    async def shutdown(self) -> None:
        """The app is closing: end the game (and, in subclasses, other connections)."""
        await self._stop()

    def first_frame_drawn(self) -> None:
        """Start-up is over: freeze what exists and let the garbage collector run again."""
        if not gc.isenabled():
            gc.freeze()
            gc.enable()

    # ----- games ----------------------------------------------------------------------------

    async def _stop(self) -> None:
        if self.controller is not None:
            controller, self.controller = self.controller, None
            controller.listen(None)
            await controller.close()

    def start_game(self, options: GameOptions | None = None) -> None:
        """Start a new game with ``options`` (default: the current ones) at a new table."""
        if options is not None:
            self.options = options
        self.run_worker(self._start(), exclusive=True, group="game")

    async def _start(self) -> None:
        await self._stop()
        controller = self.factory(self.options)
        self.controller = controller
        self.view = None
        self.history = []
        if self._table is not None and self._table in self.screen_stack:
            while self.screen is not self._table:
                self.pop_screen()
            self.pop_screen()
        controller.listen(self._deliver(controller))
        if not await self.started(controller):
            return
        try:  # draw the first frame of the table complete (a remote game may not know yet)
            self.view = controller.view
        except LookupError:
            await self.wait_for_players(controller)
            return
        await self._open_table(self.view)

    async def _open_table(self, view: SeatView | None) -> None:
        """Put the table on screen (over the menu, or instead of the waiting room)."""
        if view is not None:
            self.history = [tuple(0 for _ in view.names), *view.history]
        table = TableScreen(view, self.palette, self.config.hand_order)
        table.history = self.history
        table.summary_pause = self.options.summary_pause
        table.can_chat = self.controller is not None and self.controller.can_chat
        self._table = table
        if self.waiting_screen() is not None:
            await self.switch_screen(table)
        else:
            await self.push_screen(table)
        self.call_after_refresh(self.first_frame_drawn)

    def _deliver(self, controller: Controller) -> Callable[[object], None]:
        def deliver(update: object) -> None:
            if controller is self.controller and isinstance(update, Update):
                self.post_message(GameUpdate(update))

        return deliver

    def rematch(self) -> None:
        """Same players and rules; a new deal (the next seed if one was given)."""
        seed = self.options.seed
        self.start_game(replace(self.options, seed=None if seed is None else seed + 1))

    def back_to_menu(self) -> None:
        """Leave the table for the main menu."""
        from .screens.menu import MenuScreen

        self.run_worker(self._stop(), group="stop")
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self._table = None
        self.push_screen(MenuScreen(self.config, self.options))

    # ----- leaving a match -------------------------------------------------------------

    def match_running(self) -> bool:
        """Whether leaving now would abandon a match (a table is up and it is not over)."""
        view = self.view
        return (
            self.controller is not None
            and self._table is not None
            and self._table in self.screen_stack
            and view is not None
            and view.seat is not None  # a spectator abandons nothing
            and view.phase != Phase.MATCH_OVER
        )

    def leave_match(self, then: Callable[[], object], question: str) -> None:
        """Run ``then`` at once, or after a yes if it would abandon a running match."""
        from .screens.dialogs import ConfirmScreen

        if not self.match_running():
            then()
            return
        assert self.controller is not None  # (match_running says so)
        detail = self.controller.leaving

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.push_screen(ConfirmScreen(question, detail), answered)

    async def action_quit(self) -> None:
        """Ctrl+Q: quit at once, or ask first during a match (Ctrl+Q again: yes)."""
        from .screens.dialogs import ConfirmScreen

        if isinstance(self.screen, ConfirmScreen):
            self.exit(0)
            return
        self.leave_match(lambda: self.exit(0), "Quit unotui and leave this match?")

    async def on_game_update(self, message: GameUpdate) -> None:
        update = message.update
        table = self._table
        if isinstance(update, ViewUpdated):
            view = update.view
            # The chart's rows come from the view, so someone who joins or resumes in
            # the middle of a match sees the same history as everyone else.
            self.history = [tuple(0 for _ in view.names), *view.history]
            self.view = view
            if table is None and self.controller is not None:
                await self._open_table(view)
            elif table is not None:
                table.history = self.history
                table.show(view)
        elif isinstance(update, m.Refused):
            if table is not None:
                table.refused(update.code, update.message)
        elif isinstance(update, m.Closed):
            self.game_closed(update)
        else:
            self.other_update(update)

    # ----- messages up from the screens ----------------------------------------------------

    def on_intent(self, message: Intent) -> None:
        """An intent from the table."""
        self.send(message.action)

    def send(self, action: Action) -> None:
        """Send an intent to the controller (the outcome comes back as an update)."""
        if self.controller is not None:
            self.controller.send(action)

    def on_next_round(self, _: NextRound) -> None:
        """The person has read the round summary."""
        if self.controller is not None:
            self.controller.next_round()

    def on_rematch(self, _: Rematch) -> None:
        self.rematch()

    def on_main_menu(self, _: MainMenu) -> None:
        self.back_to_menu()

    async def on_hint_request(self, _: HintRequest) -> None:
        """Ask the controller's computer player, then hand the answer down to the table."""
        hint = await self.controller.hint() if self.controller is not None else None
        if self._table is not None:
            self._table.show_hint(hint)

    def on_cycle_theme(self, _: CycleTheme) -> None:
        name = self.cycle_theme()
        if self._table is not None:
            self._table.set_palette(self.palette)
            self._table.say(f"Theme: {name}.")

    def on_cycle_sort(self, _: CycleSort) -> None:
        """The next hand order, saved in the settings and handed down to the table."""
        order = HAND_ORDERS[(HAND_ORDERS.index(self.config.hand_order) + 1) % len(HAND_ORDERS)]
        self._save(hand_order=order)
        if self._table is not None:
            self._table.set_order(order)
            shown = {"colour": "by colour", "rank": "by rank"}[order]
            self._table.say(f"Hand shown {shown} (s: next order).")

    def on_play_solo(self, _: PlaySolo) -> None:
        """The menu's first entry: a solo game with the current settings."""
        self.start_game()

    def on_host_game(self, _: HostGame) -> None:
        """The menu's Host entry: a table here, with the settings' seats, rules and bots."""
        from ..net.config import RoomConfig

        config = self.config
        room = RoomConfig(
            name=config.name, seats=config.players, rules=config.rules, level=config.bots,
            bot_delay=config.delay,
        )
        self.host_game(room, config.name, self.host_bind, self.host_port)

    def on_join_game(self, message: JoinGame) -> None:
        """The menu's Join entry, with an address it has checked."""
        self.join_game(message.host, message.port, name=self.config.name)

    def on_settings_saved(self, message: SettingsSaved) -> None:
        """The house-rules form saved new settings: keep them and hand them down to the menu."""
        from .screens.menu import MenuScreen

        self.set_config(message.config)
        for screen in self.screen_stack:
            if isinstance(screen, MenuScreen):
                screen.show_settings(self.config, self.options)

    # ----- settings -------------------------------------------------------------------------

    def set_config(self, config: Config) -> None:
        """New settings (already saved): they apply to the next game."""
        self.config = config
        self.options = replace(
            self.options, name=config.name, rules=config.rules, level=config.bots, players=config.players
        )
        self._apply_theme(config.theme)

    def _apply_theme(self, name: str) -> None:
        self.palette = name if name in THEMES else "default"
        self.theme = _TEXTUAL_THEMES[self.palette]
        self.set_class(self.palette == "mono", "-mono")

    def cycle_theme(self) -> str:
        """Switch to the next theme (saved in the settings); returns its name."""
        name = THEMES[(THEMES.index(self.palette) + 1) % len(THEMES)]
        self._apply_theme(name)
        self._save(theme=name)
        return name

    def _save(self, **changes: str) -> None:
        """Apply ``changes`` to the settings, and write just those to the settings file.

        The file is read again so that one-game overrides from the command line
        (``--theme``) are not saved with it, and a file that cannot be read is never
        overwritten (the change then lasts for this session).  A write error is not fatal.
        """
        self.config = self.config.with_(**changes)
        if not self.save_settings:
            return
        on_disk = load_config()
        if not on_disk.problems:
            with contextlib.suppress(OSError):
                save_config(on_disk.with_(**changes))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, TableScreen):
            yield SystemCommand("Draw a card", "Draw from the pile (d)", screen.action_draw)
            yield SystemCommand(
                "Call UNO", "Call UNO, or play and call with two cards (u)", screen.action_uno
            )
            yield SystemCommand("Catch", "Catch a player who did not call UNO (c)", screen.action_catch)
            yield SystemCommand("Hint", "What would a computer player do? (n)", screen.action_hint)
            yield SystemCommand(
                "Rules and keys", "Help: the rules in force and the keys (?)", screen.action_help
            )
            yield SystemCommand("Next theme", "Default, colourblind, monochrome (t)", screen.action_theme)
        yield SystemCommand(
            "New game",
            "Start a new game with the current settings",
            lambda: self.leave_match(self.start_game, "Start a new game and leave this match?"),
        )
        yield SystemCommand(
            "Main menu",
            "Leave the table for the main menu",
            lambda: self.leave_match(self.back_to_menu, "Leave this match for the main menu?"),
        )
