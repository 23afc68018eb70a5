"""The table: your hand, the piles, the other players, the log, and every game key.

State down, messages up.  The app sets the screen's reactive ``view`` (the one
:class:`SeatView` it keeps) and the palette, hand order, chart rows and turn timer; the
widgets are bound to those (``data_bind``) or to what the screen derives from them, so a
new view redraws what changed and nothing is kept in step by hand.  Keys go up to the app
as messages (:mod:`unotui.ui.messages`): an intent, the next round, a rematch, a hint
request, a theme or hand-order change.  It never imports the app and never talks to the
controller.  The dialogs a view calls for (colour, target, a revealed hand, the round and
match summaries) are opened by its :class:`~unotui.ui.screens.decisions.Decisions`.

Which keys apply now, and what each means, is read from ``view.legal`` alone
(:mod:`unotui.ui.screens.table_keys`); the key bar shows those.  A key that does not
apply still runs and says why on the message line, so no key press is silently ignored.

Escape leaves the table for the app's home (the main menu, or the lobby: the key bar
names it; the app asks first during a match).  When the game is closed (the host quit,
the seat was taken elsewhere) the app sets ``closed`` to why: the status line says it,
the turn clock stops, and the game keys say the game is closed instead of sending.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.geometry import Size
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Static

from ...engine import (
    Action,
    Card,
    Discard,
    Phase,
    Play,
    SeatView,
    ShuffleWatch,
)
from ...net.room_info import SeatMark
from ...protocol import messages as m
from ...protocol.text import clean
from ..game_log import GameLog
from ..key_bar import KeyBar
from ..messages import SendChat
from ..panel import Panel
from ..render import hand_order
from ..settings import HAND_ORDERS
from ..turn_clock import ClockLine, TurnClock
from ..widgets import (
    HandShown,
    HandView,
    PileShown,
    PileView,
    PlayersView,
    StatusLine,
    names_of,
)
from ..words import refusal
from .decisions import Decisions
from .table_actions import GameKeys
from .table_keys import (
    TABLE_BINDINGS,
    closed_note,
    describe_action,
    key_bar,
)
from .table_layout import fit

__all__ = ["TableScreen"]


class TableScreen(GameKeys, Screen[None]):
    """The game table (see the module docstring).

    State comes down as reactive attributes the app sets (``view``, ``palette``,
    ``hand_order``, ``history``, ``deadline``); the widgets are bound to them or to what
    the screen derives from them (``hand``, ``pile``, ``keys``).  Everything the person
    does goes up as a message.

    Args:
        view: the latest view (the app's; it sets each newer one on ``view``).
        palette: the card palette (``render.PALETTES``).
        order: how the hand is shown (one of ``HAND_ORDERS``).
        history: the totals after each round, for the match chart.
        summary_pause: seconds the round's last card stays on show before its summary.
        can_chat: whether there is anyone to chat with (a hosted table).
        home: the app's home as the key bar names Escape's way back ("Menu", "Lobby").
        quit_label: what the key bar says Ctrl+Q does ("Quit"; "Quit SSH" in the lobby).
        marks: who holds each seat (the controller's, for the Players panel).
    """

    CSS_PATH = "table.tcss"
    BINDINGS: ClassVar[list[BindingType]] = TABLE_BINDINGS

    #: the latest view from the controller (set by the app; a new object each time)
    view: var[SeatView | None] = var(None, always_update=True, init=False)
    palette: var[str] = var("default", init=False)
    hand_order: var[str] = var(HAND_ORDERS[0], init=False)
    history: var[Sequence[Sequence[int]]] = var((), init=False)
    #: the host's turn timer: (seat, seconds to decide) when it starts (seat < 0: none)
    deadline: var[tuple[int, float | None]] = var((-1, None), always_update=True, init=False)
    #: a held seat: (seat, seconds until a computer player takes it) (seat < 0: no holds)
    hold: var[tuple[int, float | None]] = var((-1, None), always_update=True, init=False)
    #: who holds each seat (the controller's ``marks``, set by the app): the Players panel's
    marks: var[tuple[SeatMark, ...]] = var((), init=False)
    #: a position in the hand as shown (``order``)
    cursor: var[int] = var(0, init=False)
    # derived, bound to the widgets
    hand: var[HandShown | None] = var(None, init=False)
    pile: var[PileShown | None] = var(None, init=False)
    keys: var[tuple[tuple[str, str, int], ...]] = var((), init=False)
    clock: var[str] = var("", init=False)  # the turn timer's line (its own widget: a tick repaints it alone)
    away: var[str] = var("", init=False)  # the deciding seat's hold, said on the status line
    #: why the game is closed (set by the app when it is; "" while it is open)
    closed: var[str] = var("", init=False)
    #: a line for the match summary about the table itself (set by the app: see lan.ranking_note)
    match_note = ""

    def __init__(
        self,
        view: SeatView | None = None,
        palette: str = "default",
        order: str = "colour",
        *,
        history: Sequence[Sequence[int]] = (),
        summary_pause: float = 0.0,
        can_chat: bool = False,
        home: str = "Menu",
        quit_label: str = "Quit",
        marks: tuple[SeatMark, ...] = (),
    ) -> None:
        super().__init__()
        self.set_reactive(TableScreen.marks, marks)
        self.set_reactive(TableScreen.view, view)  # drawn once mounted
        self.set_reactive(TableScreen.palette, palette)
        self.set_reactive(TableScreen.hand_order, self.validate_hand_order(order))
        self.set_reactive(TableScreen.history, history)
        self.summary_pause = summary_pause
        self.can_chat = can_chat
        self.home = home
        self.quit_label = quit_label
        self.order: tuple[int, ...] = ()  # indices into view.hand, in the order shown
        self.shuffles = ShuffleWatch()  # the commitments this seat saw; round verdicts
        self.decisions = Decisions(self)
        #: version of the view the message line is about, if it is about one moment (a hint,
        #: a 'wait for Ada'): cleared once the view moves on, where other lines stay
        self._moment_for = -1
        # What was said before the screen was up (a chat line or a presence can arrive
        # between the app making the table and its mounting): shown on mount, not lost.
        self._early: list[tuple[str, Style | None] | m.ChatLine] = []
        self._early_say: tuple[str, bool] | None = None
        self._up = False  # composed and mounted (``is_mounted`` comes before the children)
        self._gone = False  # unmounted: an update still in the app's queue says nothing
        self._fitted = Size(0, 0)  # the size the layout was chosen for
        self.turn_clock = TurnClock()  # a hosted table's turn timer, below the pile

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status").data_bind(TableScreen.view, TableScreen.closed, TableScreen.away)
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                yield PlayersView(id="players").data_bind(TableScreen.view, TableScreen.palette,
                                                          TableScreen.marks)
                yield PileView(id="pile").data_bind(shown=TableScreen.pile)
            yield GameLog(id="log").data_bind(TableScreen.view)
        yield Static(id="message")
        yield HandView(id="hand").data_bind(shown=TableScreen.hand)
        yield KeyBar(id="keys", quit_label=self.quit_label).data_bind(TableScreen.keys)
        # (the turn timer's line and the too-small notice are mounted when first needed:
        # a solo table has no timer, and each widget costs start-up to mount and style)

    def on_mount(self) -> None:
        self.query_one(GameLog).border_title = "Log"
        self.set_interval(1.0, self.tick_clock)
        self._fit(self.size.width, self.size.height)
        view = self.view
        if view is not None:  # the panels bound to it have it; the hand, pile and keys
            self.watch_view(None, view)  # derive from it below, so the first frame is complete
        self._up = True
        self._derive()
        for early in self._early:
            if isinstance(early, m.ChatLine):
                self.chat(early)
            else:
                self.note(*early)
        if self._early_say is not None:
            self.say(*self._early_say)
        self._early, self._early_say = [], None

    def on_unmount(self) -> None:
        self._gone = True

    # ----- state down ---------------------------------------------------------------------

    def validate_hand_order(self, order: str) -> str:
        return order if order in HAND_ORDERS else HAND_ORDERS[0]

    def watch_marks(self) -> None:
        """``b`` (take the seat back) is on the key bar while a computer player stands in;
        once the seat is the person's again, the dialog due now opens (a colour to name)."""
        if self._up:
            self.keys = self._key_bar()
            self.decisions.next()

    def watch_view(self, old: SeatView | None, view: SeatView | None) -> None:
        """A newer view: keep the same card selected (or go to the card just drawn),
        redraw what derives from it, and open what it calls for."""
        if view is None:
            return
        self.shuffles.observe(view)
        if self._moment_for >= 0 and view.version != self._moment_for and self.is_mounted:
            self.say("")  # the line was about a moment that has passed
        selected = self._selected_card(old)
        self.order = tuple(hand_order(view.hand, self.hand_order))
        cursor = self.cursor
        if selected is not None and selected in view.hand:  # keep the same card selected
            shown = [view.hand[i] for i in self.order]
            if shown[min(cursor, len(shown) - 1)] is not selected:
                cursor = shown.index(selected)
        drew_before = old is not None and old.my_turn and old.phase == Phase.DRAWN
        if view.phase == Phase.DRAWN and not drew_before and view.my_turn and view.drawn is not None:
            idx = [i for i, c in enumerate(view.hand) if c is view.drawn]
            if idx:
                cursor = self.order.index(idx[-1])
        self.set_reactive(TableScreen.cursor, max(0, min(cursor, len(view.hand) - 1)))
        if not self._up:
            return  # (the first view, from on_mount, which derives the rest)
        self._derive()
        self.decisions.saw(view)

    def watch_palette(self) -> None:
        self._derive()

    def watch_hand_order(self) -> None:
        """Show the hand in the new order, keeping the same card selected."""
        view = self.view
        selected = self._selected_card(view)
        if view is None or selected is None:
            return
        self.order = tuple(hand_order(view.hand, self.hand_order))
        shown = [view.hand[i] for i in self.order]
        if shown[self.cursor] is not selected:
            self.set_reactive(TableScreen.cursor, shown.index(selected))
        self._derive()

    def watch_cursor(self) -> None:
        self._derive()

    def watch_deadline(self, deadline: tuple[int, float | None]) -> None:
        self.turn_clock.set(*deadline)
        self._derive()

    def watch_hold(self, hold: tuple[int, float | None]) -> None:
        self.turn_clock.hold(*hold)
        self._derive()

    def watch_closed(self, why: str) -> None:
        """The game is closed: the turn clock stops, the game keys leave the bar, and the
        message line says why and what the player can do."""
        if not why:
            return
        self.turn_clock.set(-1, None)
        self.turn_clock.hold(-1, None)
        self.say(closed_note(self.home), warn=True)
        self._derive()

    def watch_clock(self, text: str) -> None:
        """The first clock line mounts the clock's widget, below the pile (bound to ``clock``
        from then on, shown or blank: :class:`~unotui.ui.turn_clock.ClockLine`)."""
        if text and not self.query("#clock"):
            self.query_one("#left").mount(ClockLine(id="clock").data_bind(text=TableScreen.clock))

    def tick_clock(self) -> None:
        """Redraw the clocks if their second changed (every second while the table is up)."""
        if self.is_mounted:
            self.clock = self.turn_clock.text(self.view)
            self.away = self.turn_clock.away_text(self.view)

    def _selected_card(self, view: SeatView | None) -> Card | None:
        """The card under the cursor in ``view`` (the one shown before a new one)."""
        if view is None or not self.order or not view.hand:
            return None
        return view.hand[self.order[self.cursor]]

    def _derive(self) -> None:
        """What the hand, pile and key bar show, from the view, the palette, the cursor,
        the turn timer and the terminal's size; each redraws only if it changed."""
        view = self.view
        if view is None or not self._up:
            return
        tall = self.has_class("-tall")
        # a closed game's cards are playable no more: its hand marks none
        hand_view = view._replace(legal=()) if self.closed else view
        self.hand = HandShown(hand_view, self.order, self.cursor, self.palette, tall)
        middle = self.size.height - (9 if tall else 7)
        lines = view.players + 2 + sum(1 for s in view.face_up if s != view.seat)
        compact = lines + 5 + self.turn_clock.timed > middle  # (5 pile lines, and the clock's)
        large = tall and lines + 7 + 1 + self.turn_clock.timed <= middle - 4  # (and rows to spare)
        self.pile = PileShown(view, self.palette, compact, large)
        self.clock = self.turn_clock.text(view)
        self.away = self.turn_clock.away_text(view)
        self.keys = self._key_bar()

    def _key_bar(self) -> tuple[tuple[str, str, int], ...]:
        """The key bar: every binding that is shown and applies now, ranked for room."""
        return key_bar(self.BINDINGS, self.applies, self.home)

    def _fit(self, width: int, height: int) -> None:
        """Choose the layout for a ``width`` x ``height`` terminal (:func:`fit`)."""
        self._fitted = Size(width, height)
        layout = fit(width, height, self.view.players if self.view is not None else 4)
        self.set_class(layout.notice is not None, "-too-small")
        self.set_class(layout.tall, "-tall")
        self.set_class(layout.wide, "-wide")
        if layout.notice is not None:
            shown = self.query("#too-small")
            if shown:
                shown.first(Static).update(layout.notice)
            else:
                self.mount(Static(layout.notice, id="too-small"))

    def on_screen_resume(self) -> None:
        # Back from help (or a dialog): a decision or summary may have come up meanwhile.
        self.decisions.next()

    def on_resize(self, event: Resize) -> None:
        if event.size == self._compositor.size:
            # Laid out at this size already (the compositor's last layout was at it):
            # Textual's own handler would lay the whole table out and paint it again, as it
            # did twice just after the first frame (the screen's layout posts it a Resize,
            # and the app sends the terminal's size once more when it is idle), delaying
            # that frame's way to the terminal.
            event.prevent_default()
        if event.size == self._fitted:  # (the first resize: on_mount fitted the size already)
            return
        self._fit(event.size.width, event.size.height)
        self._derive()
        for panel in self.query(Panel):  # at the new width (those mounted: a resize may come mid-compose)
            panel.draw()

    # ----- events down: lines on the message line and in the log ----------------------------

    def say(self, text: str, warn: bool = False) -> None:
        """Show ``text`` on the message line (literal text)."""
        if self._gone:
            return
        if not self._up:
            self._early_say = (text, warn)
            return
        self._moment_for = -1
        style = Style(bold=True, reverse=True) if warn else Style(italic=True)
        self.query_one("#message", Static).update(
            Text(" " + clean(text, 300, collapse=False), style) if text else Text(), layout=False
        )

    def note(self, text: str, style: Style | None = None) -> None:
        """A line in the log that is not a game event (chat, presence): literal text."""
        if self._gone:
            return
        if not self._up:
            self._early.append((text, style))
            return
        self.query_one(GameLog).add(Text(clean(text, 400, collapse=False), style or Style(italic=True)))

    def chat(self, line: m.ChatLine) -> None:
        """A chat line in the log, marked as chat (:meth:`GameLog.chat`)."""
        if self._gone:
            return
        if not self._up:
            self._early.append(line)
            return
        self.query_one(GameLog).chat(line)

    def refused(self, code: str, message: str) -> None:
        """An intent was refused: say why; nothing else changes."""
        view = self.view
        wait = None
        if code == "not_your_turn" and view is not None and 0 <= view.actor < view.players:
            wait = names_of(view)[view.actor]
        self.say(refusal(code, message, wait), warn=True)
        if wait is not None and view is not None:  # (once the player waited, it was stale)
            self._moment_for = view.version
        self.decisions.refused()

    def show_hint(self, hint: Action | None) -> None:
        """The app's answer to a :class:`HintRequest`: say it and select its card."""
        view = self.view
        if view is None or hint is None:
            self.say("No suggestion: nothing to do now.")
            return
        self.say(f"Hint: {describe_action(hint, view)}.")
        self._moment_for = view.version  # a hint is about this moment: gone with it
        if isinstance(hint, Play | Discard) and hint.card in view.hand:
            self.cursor = self.order.index(view.hand.index(hint.card))

    def action_chat(self) -> None:
        """Open the chat line (games with other people only)."""
        if not self.can_chat:
            self.say("Chat is for games with other people (unotui host / join).")
            return
        if self.game_closed():
            return
        from .chat import ChatScreen

        def done(text: str | None) -> None:
            self.decisions.closed()
            if text:
                self.post_message(SendChat(text))

        self.decisions.push(ChatScreen(), done)
