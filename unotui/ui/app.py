"""The Textual application: screens, theme, and the table it is at.

The app is at home or at one table.  Its home is a part it is given
(:mod:`unotui.ui.home`): the main menu (:class:`~unotui.ui.menu_home.MenuHome`, the
default) or the SSH lobby (:class:`~unotui.ui.lobby_home.LobbyHome`); the app asks it
only what differs between them, and hands it every message from the home's screens.  A
table is an :class:`~unotui.ui.modes.AtTable` the app holds while it is there: the
controller, the last :class:`SeatView` and the chart's rows.  Leaving the table drops it,
so the next game (solo from the menu, hosted, joined, a lobby's) starts from nothing.
Controller updates arrive as :class:`~unotui.ui.messages.GameUpdate` messages, all
handled in :meth:`UnoApp.on_game_update`; the app keeps the view and hands it down to
the table screen.  The screens send everything back up as messages (an intent, the next
round, a rematch, a hint request, a theme or hand-order change, the home's choices): only
the app and its home talk to controllers and the settings file, and no screen imports
either.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ClassVar

from textual.actions import SkipAction
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from ..engine import Action, Phase, SeatView
from ..net.controller import Controller, JoinError, RecordArrived, RecordRefused
from ..protocol import messages as m
from ..protocol.events import ViewUpdated
from .home import Home
from .lan import ranking_note, show_closed, show_update, waiting_room, waiting_room_on
from .menu_home import MenuHome
from .messages import (
    CycleSort,
    CycleTheme,
    GameUpdate,
    GoHome,
    HintRequest,
    HomeMessage,
    Intent,
    LeaveTable,
    NextRound,
    Rematch,
    SendChat,
    StartMatch,
    TableStarted,
)
from .modes import AtTable, ControllerFactory, local_game
from .over_table import OverTable
from .screen_css import load_screen_css
from .screens.table import TableScreen
from .settings import HAND_ORDERS, THEMES, Config, GameOptions, save_changes
from .theme import MONO, TEXTUAL_THEMES

if TYPE_CHECKING:
    from ..net.controller import Update
    from .session_driver import SessionTerminalLike

__all__ = ["UnoApp"]

class UnoApp(App[int]):
    """unotui: its home, the table and their dialogs.

    Args:
        menu: start at home (else at a table: ``start``, or a solo one).
        factory: the solo table's controller (the menu's first entry; tests script it).
        start: the table to go to at once instead of a solo one (``unotui host``/``join``).
        home: the app's home (default: the main menu, :class:`MenuHome`).
    """

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
        start: ControllerFactory | None = None,
        save_settings: bool = True,
        terminal: SessionTerminalLike | None = None,
        home: Home | None = None,
    ) -> None:
        super().__init__()
        if terminal is not None:  # an SSH session's thread in a worker process
            from .session_driver import attach

            attach(self, terminal)
        self.config = config
        self.options = options
        self.menu = menu
        self.factory = factory
        self._first = start or factory
        self.save_settings = save_settings
        #: the table the app is at, if any (see :mod:`unotui.ui.modes`)
        self.mode: AtTable | None = None
        #: where the app is when it is at no table (see :mod:`unotui.ui.home`)
        self.home: Home = home if home is not None else MenuHome()
        self.home.attach(self)
        self.palette = config.theme if config.theme in THEMES else "default"
        #: a sentence to print after the full-screen view is gone (why a join failed)
        self.exit_message = ""
        #: a screen over the table, if one is (see :meth:`_screen_changed`)
        self._over = OverTable()

    async def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, self._screen_changed, immediate=True)
        self.register_theme(MONO)
        self._apply_theme(self.palette)
        if self.config.problems and not self.menu:  # the menu shows them on its own line
            for problem in self.config.problems:
                title = "Settings file problem (defaults used)"
                self.notify(problem, title=title, severity="warning", timeout=20, markup=False)
        if self.menu:
            await self.home.open()
        else:
            await self._start(self._first)

    async def on_unmount(self) -> None:
        await self.shutdown()

    async def shutdown(self) -> None:
        """The app is closing: end the game and close what the home keeps open."""
        await self.home.close()
        await self._stop()

    def first_frame_drawn(self) -> None:
        """Start-up is over: freeze what exists and let the garbage collector run again."""
        if not gc.isenabled():
            gc.freeze()
            gc.enable()

    # ----- the table the app is at ----------------------------------------------------------

    @property
    def controller(self) -> Controller | None:
        """The table's controller (None at home)."""
        return self.mode.controller if self.mode is not None else None

    @property
    def view(self) -> SeatView | None:
        """The table's last view (None at home, or before a hosted table fills up)."""
        return self.mode.view if self.mode is not None else None

    @property
    def history(self) -> list[tuple[int, ...]]:
        """The totals after each round, for the match chart."""
        return self.mode.history if self.mode is not None else []

    @property
    def table_screen(self) -> TableScreen | None:
        """The table's screen, once its first view is drawn."""
        return self.mode.table if self.mode is not None else None

    def _leave(self) -> AtTable | None:
        """Leave the table at once (nothing of it stays); its controller is the caller's
        to close."""
        mode, self.mode = self.mode, None
        if mode is not None:
            mode.controller.listen(None)
        return mode

    async def _stop(self) -> None:
        mode = self._leave()
        if mode is not None:
            await mode.controller.close()

    def play(self, make: ControllerFactory) -> None:
        """Go to a new table whose controller ``make`` makes (solo, hosted, joined)."""
        self.run_worker(self._start(make), exclusive=True, group="game")

    def start_game(self, options: GameOptions | None = None) -> None:
        """A new game with ``options`` (default: the current ones) at a new table made
        the way the current one was (a solo one from home)."""
        if options is not None:
            self.options = options
        self.play(self.mode.make if self.mode is not None else self.factory)

    async def _start(self, make: ControllerFactory) -> None:
        old = self.mode.table if self.mode is not None else None
        await self._stop()
        if old is not None and old in self.screen_stack:
            while self.screen is not old:
                self.pop_screen()
            self.pop_screen()
        mode = AtTable(make, make(self.options))
        self.mode = mode
        mode.controller.listen(self._deliver(mode))
        if await self._started(mode):
            self.post_message(TableStarted())

    async def on_table_started(self, _: TableStarted) -> None:
        """The table's controller has started: its table on screen (drawn complete from
        the view it has), or its waiting room if it has none yet (a table filling up).
        A view that came first has opened the table already."""
        mode = self.mode
        if mode is None or mode.table is not None or waiting_room_on(self.screen_stack) is not None:
            return
        try:
            mode.saw(mode.controller.view)
        except LookupError:
            await self.push_screen(waiting_room(mode.controller))
            self.call_after_refresh(self.first_frame_drawn)
            self._said_early(mode)
            return
        await self._open_table(mode)

    def _said_early(self, mode: AtTable) -> None:
        """Show what came before the table's first screen was up, on that screen."""
        early, mode.early = mode.early, []
        for update in early:
            if isinstance(update, m.Closed):
                show_closed(update, mode.table, waiting_room_on(self.screen_stack))
            else:
                show_update(update, mode.view, mode.table, waiting_room_on(self.screen_stack))

    async def _started(self, mode: AtTable) -> bool:
        """Start the table's controller; if the table cannot be reached or refuses, say
        why and leave (to the home screen if there is one, else quit with status 1)."""
        try:
            await mode.controller.start()
        except JoinError as exc:
            if self.mode is mode:
                self._leave()
            self._failed(str(exc), exc.code)
            return False
        return True

    def _failed(self, why: str, code: str) -> None:
        """A table could not be joined: the home says so, or (none up) the app quits
        with the reason printed after the full-screen view is gone."""
        if self.home.is_up():
            self.home.failed(why, code)
            return
        self.exit_message = why
        self.exit(1)

    async def _open_table(self, mode: AtTable) -> None:
        """Put the table on screen (over the menu, or instead of the waiting room)."""
        table = TableScreen(
            mode.view,
            self.palette,
            self.config.hand_order,
            history=mode.history,
            summary_pause=self.options.summary_pause,
            can_chat=mode.controller.can_chat,
            home=self.home.name.split()[-1].capitalize(),  # "Menu", "Lobby": the key bar is short
            quit_label=self.home.quit_label,
            marks=mode.controller.marks,
        )
        table.match_note = ranking_note(mode.controller)
        mode.table = table
        waiting = waiting_room_on(self.screen_stack)
        if waiting is not None:
            for line in waiting.said:  # the room's chat goes on in the table's log
                table.chat(line)
            await self.switch_screen(table)
        else:
            await self.push_screen(table)
        self.call_after_refresh(self.first_frame_drawn)
        self._said_early(mode)

    def _deliver(self, mode: AtTable) -> Callable[[Update], None]:
        def deliver(update: Update) -> None:
            if mode is self.mode:  # (a table left behind may still be heard from)
                self.post_message(GameUpdate(update))

        return deliver

    def go_home(self) -> None:
        """Leave the table for home (its controller closes in the background)."""
        self._close(self._leave())
        self.home.back()

    def _close(self, mode: AtTable | None) -> None:
        """Close a table left behind (in the background: the screen changes at once)."""
        if mode is not None:
            self.run_worker(mode.controller.close(), group="stop")

    # ----- a screen over the table ---------------------------------------------------------

    def _screen_changed(self, screen: Screen[object]) -> None:
        """The one place that knows a screen (a dialog, the help, the command palette) is
        over the table: Textual's screen-change signal, on every push, pop and switch.
        What follows (the table waits, or is told what happened) is :class:`OverTable`'s."""
        mode = self.mode
        over = mode is not None and mode.table in self.screen_stack and screen is not mode.table
        self._over.changed(mode, screen if over else None)

    # ----- leaving a match -------------------------------------------------------------

    def match_running(self) -> bool:
        """Whether leaving now would abandon a match (a table is up, its game is not
        closed, and the match is not over)."""
        mode = self.mode
        view = self.view
        return (
            mode is not None
            and mode.table is not None
            and mode.table in self.screen_stack
            and not mode.table.closed
            and view is not None
            and view.seat is not None  # a spectator abandons nothing
            and view.phase != Phase.MATCH_OVER
        )

    def leave_match(self, then: Callable[[], object], question: str, after: str = "") -> None:
        """Run ``then`` at once, or after a yes if it would abandon a running match (the
        question says what becomes of the seat, then ``after``)."""
        from .screens.dialogs import ConfirmScreen

        if not self.match_running():
            then()
            return
        assert self.controller is not None  # (match_running says so)
        detail = " ".join(filter(None, (self.controller.leaving, after)))

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
        self.leave_match(lambda: self.exit(0), f"{self.home.quitting} and leave this match?")

    async def on_game_update(self, message: GameUpdate) -> None:
        """Every controller update, in this one place: the view kept and handed down,
        a refusal said, the rest (presence, chat, timers, the end) shown by :mod:`.lan`."""
        update, mode = message.update, self.mode
        if mode is None:
            return
        table = mode.table
        if table is not None:
            table.marks = mode.controller.marks  # (who holds each seat: presence, the room)
        if isinstance(update, ViewUpdated):
            mode.saw(update.view)
            if table is None:
                await self._open_table(mode)
            else:
                table.history = mode.history
                table.view = update.view
        elif isinstance(update, RecordArrived | RecordRefused):
            heard = getattr(self.screen, "record_changed", None)  # (the match summary, if up)
            if callable(heard):
                heard(update)
        elif table is None and waiting_room_on(self.screen_stack) is None:
            mode.early.append(update)  # no screen up yet: shown on the first (_said_early)
        elif isinstance(update, m.Refused):
            if table is not None:
                table.refused(update.code, update.message)
        elif isinstance(update, m.Accepted):
            self._over.own_move(mode)
        elif isinstance(update, m.Closed):
            show_closed(update, table, waiting_room_on(self.screen_stack))
        else:
            show_update(update, mode.view, table, waiting_room_on(self.screen_stack))

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
        """The match summary's rematch: what that is, the home says (the lobby has none)."""
        self.home.rematch()

    def on_go_home(self, _: GoHome) -> None:
        """Back home from the table (the match summary, Escape): asked first during a match."""
        self.leave_match(self.go_home, f"Leave this match for {self.home.name}?", self.home.way_back)

    def on_home_message(self, message: HomeMessage) -> None:
        """Every message from the home's screens, in this one place: the home's to handle."""
        self.home.handle(message)

    async def on_hint_request(self, _: HintRequest) -> None:
        """Ask the controller's computer player, then hand the answer down to the table."""
        mode = self.mode
        hint = await mode.controller.hint() if mode is not None else None
        if mode is not None and mode is self.mode and mode.table is not None:
            mode.table.show_hint(hint)

    def on_cycle_theme(self, _: CycleTheme) -> None:
        """``t``: the next theme."""
        self.choose_theme(THEMES[(THEMES.index(self.palette) + 1) % len(THEMES)])

    def choose_theme(self, name: str) -> None:
        """Restyle everything with the theme ``name`` (the cards' palette and Textual's
        theme together: there is no other way to change either), save it in the settings,
        hand it down to the table and say it where the player is."""
        self._apply_theme(name)
        self._save(theme=self.palette)
        name = self.palette
        table = self.table_screen
        if table is not None:
            table.palette = self.palette
        if table is not None and self.screen is table:
            table.say(f"Theme: {name}.")
        else:
            self.home.say(f"Theme: {name} (t: next).")

    def on_cycle_sort(self, _: CycleSort) -> None:
        """The next hand order, saved in the settings and handed down to the table."""
        order = HAND_ORDERS[(HAND_ORDERS.index(self.config.hand_order) + 1) % len(HAND_ORDERS)]
        self._save(hand_order=order)
        table = self.table_screen
        if table is not None:
            table.hand_order = order
            shown = {"colour": "by colour", "rank": "by rank"}[order]
            table.say(f"Hand shown {shown} (s: next order).")

    def on_send_chat(self, message: SendChat) -> None:
        """A chat line from the table."""
        if self.controller is not None:
            self.controller.chat(message.text)

    def on_start_match(self, _: StartMatch) -> None:
        """The host's player starts the match from the waiting room."""
        if self.controller is not None:
            self.controller.start_match()

    def on_leave_table(self, _: LeaveTable) -> None:
        """Leave the waiting room: back home, or quit if there is none up."""
        if self.home.is_up():
            self.go_home()
        else:
            self.exit(0)

    # ----- settings -------------------------------------------------------------------------

    def set_config(self, config: Config) -> None:
        """New settings (already saved): they apply to the next game."""
        self.config = config
        self.options = self.options._replace(
            name=config.name, rules=config.rules, level=config.bots, players=config.players
        )
        self._apply_theme(config.theme)

    def _load_screen_css(self, screen: Screen[object]) -> None:
        """A screen's sheet scoped to it, parsed alone (:mod:`unotui.ui.screen_css`)."""
        load_screen_css(self, screen)

    def _apply_theme(self, name: str) -> None:
        self.palette = name if name in THEMES else "default"
        self.theme = TEXTUAL_THEMES[self.palette]
        self.set_class(self.palette == "mono", "-mono")

    def _save(self, **changes: str) -> None:
        """Apply ``changes`` to the settings, and write just those to the settings file
        (:func:`~unotui.ui.settings.save_changes`) unless this app saves none."""
        self.config = self.config.with_(**changes)
        if self.save_settings:
            save_changes(**changes)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        from .palette import app_commands  # (the palette's: loaded when it first opens)

        # Textual's own "Theme" picker would set a Textual theme the cards do not follow:
        # the palette offers the app's themes instead (:mod:`unotui.ui.palette`).
        yield from (c for c in super().get_system_commands(screen) if c.title != "Theme")
        yield from app_commands(self, screen)
