"""The waiting room of a hosted table: who has joined, the rules, how others join.

Everything on it comes from the host (a :class:`~unotui.net.room_info.RoomInfo`), and
every name on it came from another person, so names are shown as plain
:class:`~rich.text.Text`, cleaned again here (the host may be hostile).  The host's own
seat may start the match (``s``); computer players then fill the open seats.  The
screen posts what the player wants up to the app; it never calls the controller.
"""

from __future__ import annotations

from collections import deque
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...engine import Rules
from ...net.room_info import RoomInfo
from ...protocol import messages as m
from ...protocol.text import CHAT_RECENT
from ...table import SeatKind, TableStatus
from ..game_log import SentenceLog
from ..messages import LeaveTable, SendChat, StartMatch
from ..words import display_name

__all__ = ["WaitingScreen", "room_text"]


def rules_line(rules: Rules) -> str:
    """The rules in one line: the preset, the target and the house rules that are on."""
    on = [
        label
        for label, active in (
            (f"stacking {rules.stacking.value}", rules.stacking.value != "off"),
            ("no challenges", not rules.challenge),
            ("no bluffing", rules.no_bluffing),
            ("draw until playable", rules.draw_to_match),
            ("forced play", rules.forced_play),
            ("jump-in", rules.jump_in),
            ("seven-o", rules.seven_o),
            ("teams", rules.teams),
        )
        if active
    ]
    text = f"{rules.name}, {rules.scoring.value} scoring to {rules.target_score}"
    return text + (f"; {', '.join(on)}" if on else "")


_STATUS_TEXT: dict[str, str] = {
    TableStatus.WAITING: "waiting for players",
    TableStatus.PLAYING: "match in progress",
    TableStatus.OVER: "match over",
}


def room_text(room: RoomInfo, hints: tuple[str, ...] = (), closed: bool = False) -> Text:
    """The waiting room as text (also what the tests read); ``closed``: the table is gone
    (the host left), so nobody is waiting for anything."""
    out = Text()
    out.append("Table ", Style(bold=True))
    out.append(display_name(room.name), Style(bold=True))
    out.append(f"  ({'closed' if closed else _STATUS_TEXT.get(room.status, room.status)})\n\n")
    wanted, opened = room.wanted, 0
    for seat, info in enumerate(room.seats):
        mark = ">" if seat == room.you else " "
        if info.kind == SeatKind.OPEN:
            opened += 1
            if not room.autostart:
                who = Text("(open: a computer player if nobody joins)", Style(dim=True))
            elif opened <= wanted:
                who = Text("(open for a player)", Style(dim=True))
            else:
                who = Text("(a computer player)", Style(dim=True))
        else:
            who = Text(display_name(info.name))
            if info.kind == SeatKind.BOT:
                who.append("  (computer)", Style(dim=True))
            if info.away:
                who.append("  (away)", Style(italic=True))
            if seat == room.you:
                who.append("  (you)", Style(bold=True))
        out.append(f"{mark} {seat + 1:>2}. ")
        out.append_text(who)
        out.append("\n")
    if room.spectators:
        out.append(f"\n{room.spectators} watching\n")
    out.append("\nRules: ", Style(bold=True))
    out.append(rules_line(room.rules) + "  (? shows every rule)")
    timer = "off" if room.turn_timer is None else f"{room.turn_timer:g} s per decision"
    out.append(f"\nTurn timer: {timer}\n")
    if closed:
        return out
    if hints:
        out.append("\nOthers join with:\n", Style(bold=True))
        for hint in hints:
            out.append(f"  {hint}\n")
    out.append("\n")
    fill = room.open_seats
    if wanted:
        out.append(f"The match starts when {wanted} more player{'s join' if wanted != 1 else ' joins'}.\n",
                   Style(bold=not room.owner))
    if room.owner:
        extra = (
            f" ({fill} computer player{'s' if fill != 1 else ''} will fill the open seats)" if fill else ""
        )
        now = " now" if wanted else ""
        out.append(f"Press s to start the match{now}{extra}.", Style(bold=True))
    elif not wanted:
        out.append("Waiting for the host to start the match.", Style(dim=True))
    return out


class WaitingScreen(Screen[None]):
    """Seats filling up before a hosted match; the table replaces it when play starts."""

    CSS_PATH = "waiting.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        # "s" starts the match for the seat that may start it, and the footer offers it
        # only there; anyone else pressing it is told why nothing happens (the second
        # binding, which runs when the first is not available).
        Binding("s", "start", "Start match"),
        Binding("s", "not_owner", show=False),
        Binding("escape", "leave", "Leave"),
        Binding("slash", "chat", "Chat", key_display="/"),
        Binding("question_mark", "help", "Rules"),
    ]

    #: the room as the host last sent it (set by the app); the keys follow whose it is
    room: var[RoomInfo | None] = var(None, always_update=True, bindings=True, init=False)
    #: the table is gone: nothing to wait for, nothing to start
    closed: var[bool] = var(False, bindings=True, init=False)

    def __init__(self, room: RoomInfo | None = None, hints: tuple[str, ...] = (), note: str = "") -> None:
        """``note``: the first line under the room (the name the host gave, if not the
        one asked for)."""
        super().__init__()
        self.set_reactive(WaitingScreen.room, room)
        self.hints = hints
        self.note = note
        #: chat lines that came before the room was composed (written when it is)
        self._early_chat: list[m.ChatLine] = []
        #: the last lines said here, as many as a host keeps: the table that replaces the
        #: room starts its log with them (what was said just before the deal stays in view)
        self.said: deque[m.ChatLine] = deque(maxlen=CHAT_RECENT)

    def compose(self) -> ComposeResult:
        with Vertical(id="waiting"):
            yield Static(id="room")
            yield Static(Text(self.note), id="note")
        with Vertical(id="chat-dock"):  # below the room, shown once someone speaks
            yield SentenceLog(id="waiting-chat", max_lines=100)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#waiting-chat").border_title = "Chat"
        self.refresh_room()
        if self._early_chat:  # after the first layout, as a line that comes later is shown
            self.call_after_refresh(self._show_early_chat)

    def _show_early_chat(self) -> None:
        early, self._early_chat = self._early_chat, []
        for line in early:
            self.chat(line)

    def watch_room(self) -> None:
        self.refresh_room()

    def watch_closed(self) -> None:
        self.refresh_room()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``start`` only for the seat that may start the match (see ``BINDINGS``)."""
        if action == "start":
            return self.room is not None and self.room.owner and not self.closed
        return True

    def refresh_room(self) -> None:
        """Redraw from the last room state."""
        found = self.query("#room")
        if not found:
            return  # not composed yet: on_mount draws it
        body = found.only_one(Static)
        if self.room is None:
            body.update(Text("Connecting to the table..."))
        else:
            body.update(room_text(self.room, self.hints, self.closed))

    def table_closed(self, why: str) -> None:
        """The table is gone (``why``: the sentence to show): the room says so, and the
        lines about waiting, starting and joining go."""
        self.closed = True
        self.say(why)

    def say(self, text: str) -> None:
        """A one-line note under the room (why a key did nothing, presence, errors).

        An update can reach the room before it is composed (the note is then its first
        line) or after it is gone (the app closing with updates still queued, as a player
        leaving just as the host quits): neither is an error, and the latter shows nothing."""
        note, log = self.query("#note"), self.query("#waiting-chat")
        if not note or not log:
            self.note = text
            return
        note.only_one(Static).update(Text(text))
        log.only_one(SentenceLog).end_run()  # (a reconnection says so here)

    def chat(self, line: m.ChatLine) -> None:
        """A chat line in the room's chat box, under the room, marked as chat as at the table
        (:meth:`SentenceLog.chat`); before the room is composed, kept for it (see :meth:`say`)."""
        dock, log = self.query("#chat-dock"), self.query("#waiting-chat")
        if not dock or not log:
            self._early_chat.append(line)
            return
        self.said.append(line)
        dock.first().display = True
        log.only_one(SentenceLog).chat(line)

    def action_not_owner(self) -> None:
        """``s`` from a seat that may not start the match: say why nothing happens."""
        closed = "The table is closed: Escape leaves."
        self.say(closed if self.closed else "Only the host can start the match.")

    def action_start(self) -> None:
        """Start now (the seat that may: see :meth:`check_action`)."""
        if self.room is None or not self.room.owner:
            self.action_not_owner()
            return
        if self.room.status != TableStatus.WAITING:
            self.say("The match has already started.")
            return
        self.post_message(StartMatch())

    def action_chat(self) -> None:
        """Say something to the people waiting (the line comes back from the host into
        the room's chat, as theirs do)."""
        if self.closed:
            self.say("The table is closed: Escape leaves.")
            return
        from .chat import ChatScreen

        def said(text: str | None) -> None:
            if text:
                self.post_message(SendChat(text))

        self.app.push_screen(ChatScreen("Say to the waiting room"), said)

    def action_help(self) -> None:
        """Every rule of the table."""
        if self.room is not None:
            from .help import HelpScreen

            self.app.push_screen(HelpScreen(self.room.rules))

    def action_leave(self) -> None:
        """Leave the table."""
        self.post_message(LeaveTable())
