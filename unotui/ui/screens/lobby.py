"""The lobby: the public tables, the leaderboard and the lobby's chat, by keyboard.

Everything on this screen came from the lobby host and most of it from other people
(table names, player names, chat), so it is cleaned again and shown as plain
:class:`~rich.text.Text`, never as markup.  The screen posts what the player wants up
to the app (the lobby messages of :mod:`unotui.ui.messages`); it never talks to the
network.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ...engine import Rules
from ...protocol.messages import ChatLine, LobbyState, LobbyTable
from ...protocol.text import clean
from ...table import TableStatus
from ..game_log import SentenceLog
from ..lobby_messages import CreateTable, JoinTable, LobbyChat, QuickMatch, ShowMatches
from ..messages import CycleTheme
from ..words import display_name

__all__ = ["LobbyScreen", "held_text", "lobby_text", "quick_text", "started_text"]

def players(table: LobbyTable) -> str:
    """``2/4 (+1 bot)``: people seated of the seats people may take, and the bots."""
    bots = f" +{table.bots} bot{'s' if table.bots != 1 else ''}" if table.bots else ""
    return f"{table.humans}/{table.seats - table.bots}{bots}"


def quick_text(seats: int) -> str:
    """What quick match starts, said before it does."""
    target = Rules.preset("classic").target_score
    return (f"You get a seat at a table waiting for players, or else a new table of {seats} seats "
            f"where computer players take the other {seats - 1}: the classic rules, a match to "
            f"{target} points (many rounds). It starts as soon as its seats are filled.")


def started_text(code: str) -> str:
    """Why Enter does not seat the player at a table whose match has started."""
    return f"The match at {code} has started: w watches it, q finds you a seat elsewhere."


def held_text(code: str) -> str:
    """The line that says where the player's seat is held (after leaving that table)."""
    return f"Your seat at table {code} is held for you: Enter on it takes it back."


def lobby_text(state: LobbyState) -> str:
    """The lobby as plain text (what the tests read): the tables and the leaders."""
    lines = [f"{display_name(state.you)} - {state.online} online"]
    lines += [f"{t.code} {display_name(t.name)} {players(t)} {t.status} {t.rules}" for t in state.tables]
    lines += [f"{i}. {display_name(r.name)} {r.rating_tenths / 10:.1f}"
              for i, r in enumerate(state.leaders, 1)]
    return "\n".join(lines)


class LobbyScreen(Screen[None]):
    """Choose a table.  Enter sits at the highlighted one; the footer lists the rest."""

    CSS_PATH = "lobby.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "join", "Sit", priority=True),
        Binding("w", "watch", "Watch"),
        Binding("n", "create", "New"),
        Binding("q", "quick", "Quick"),
        Binding("c", "code", "Code"),
        Binding("m", "matches", "Matches"),
        Binding("slash", "chat", "Chat"),
        Binding("question_mark", "help", "Help"),
        Binding("t", "theme", "Colours", show=False),
    ]

    #: what the lobby last said (set by the app); the list, leaders and head follow it
    state: var[LobbyState | None] = var(None, always_update=True, init=False)

    def __init__(self, keyed: bool = False, quick_seats: int = 4) -> None:
        super().__init__()
        #: whether the player came with an SSH key (only keyed players are ranked)
        self.keyed = keyed
        #: the seats of a table quick match opens (its question says what it starts)
        self.quick_seats = quick_seats
        self._held: str | None = None  # the table whose held seat the cursor went to
        self._pending: list[Text | ChatLine] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("Connecting to the lobby...", Style(dim=True)), id="lobby-head")
        with Vertical(id="tables-box"):
            table: DataTable[Text] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
            yield table
            yield Static(Text("No tables yet: n opens one, q finds you a quick match.", Style(dim=True)),
                         id="empty")
        with Horizontal(id="lower"):
            yield Static(id="leaders")
            yield SentenceLog(id="lobby-log", max_lines=200)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#tables", DataTable)
        table.add_columns("Code", "Table", "Players", "Status", "Rules", "Timer")
        self.query_one("#tables-box").border_title = "Tables"
        self.query_one("#leaders").border_title = "Leaderboard"
        self.query_one("#lobby-log").border_title = "Lobby chat"
        table.focus()
        self.say("Welcome! Enter sits at the highlighted table, q finds you a quick match, "
                 "n opens a new table.", Style(dim=True))
        log = self.query_one("#lobby-log", SentenceLog)
        for said in self._pending:
            if isinstance(said, ChatLine):
                log.chat(said, table=False)
            else:
                log.add(said)
        self._pending.clear()
        self._draw()

    # ----- what the lobby says --------------------------------------------------------------

    def watch_state(self) -> None:
        self._draw()
        if self.query("#lobby-log"):  # a lobby connection's recent lines come after its state:
            self.query_one("#lobby-log", SentenceLog).end_run()  # a run of them is over

    def _draw(self) -> None:
        """Draw the lobby's state (keeps the highlighted table where it was, by code)."""
        state = self.state
        if state is None or not self.is_mounted or not self.query("#tables"):
            return  # drawn from self.state when mounted
        head = Text()
        head.append("unotui lobby", Style(bold=True))
        head.append(f"   you are {display_name(state.you)}   {state.online} online")
        if state.motd:
            head.append("\n")
            head.append(clean(state.motd), Style(italic=True))
        if state.seat_at:
            head.append("\n")
            head.append(held_text(state.seat_at), Style(bold=True))
        self.query_one("#lobby-head", Static).update(head)
        table = self.query_one("#tables", DataTable)
        keep = self.highlighted()
        table.clear()
        for t in state.tables:
            timer = f"{t.turn_timer_ms // 1000} s" if t.turn_timer_ms else "-"
            table.add_row(Text(t.code), Text(clean(t.name)), Text(players(t)), Text(t.status),
                          Text(clean(t.rules)), Text(timer), key=t.code)
        self.query_one("#empty").display = not state.tables
        codes = {t.code for t in state.tables}
        if state.seat_at != self._held and state.seat_at in codes:  # newly held: go to it
            keep = state.seat_at
        self._held = state.seat_at
        if keep is not None and keep in codes:
            table.move_cursor(row=table.get_row_index(keep))
        board = Text()
        if not state.leaders:  # what it takes to be on it (a guest is never ranked)
            how = "Finish a match\nto be ranked." if self.keyed else "Play with an SSH key\nto be ranked."
            board.append(f"No rated games yet.\n{how}", Style(dim=True))
        else:  # what the numbers are (? says more): a skill that starts at 0, matches rated
            board.append(f"    {'player':<10} skill games\n", Style(dim=True))
        for i, r in enumerate(state.leaders[:12], 1):  # 26 columns: the panel at 80x24
            name = display_name(r.name)
            name = name if len(name) <= 10 else name[:9] + "…"
            board.append(f"{i:>2}. {name:<10} {r.rating_tenths / 10:>5.1f} {r.games:>5}\n")
        self.query_one("#leaders", Static).update(board)

    def say(self, line: str, style: Style | None = None) -> None:
        """A line in the lobby's log (chat, refusals, notices); kept until the log is up."""
        text = Text(clean(line), style or Style())
        try:
            log = self.query_one("#lobby-log", SentenceLog)
        except NoMatches:  # not composed yet: written when it is
            self._pending.append(text)
            return
        log.add(text)

    def chat(self, line: ChatLine) -> None:
        """A chat line in the lobby's chat, marked as chat as at a table (an earlier one
        already shown is not shown again: :meth:`SentenceLog.chat`)."""
        try:
            log = self.query_one("#lobby-log", SentenceLog)
        except NoMatches:  # not composed yet: written when it is
            self._pending.append(line)
            return
        log.chat(line, table=False)

    def highlighted(self) -> str | None:
        """The code of the highlighted table, if any."""
        table = self.query_one("#tables", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None

    # ----- keys -----------------------------------------------------------------------------

    def started(self, code: str) -> bool:
        """Whether the lobby last listed table ``code`` as playing."""
        tables = self.state.tables if self.state is not None else ()
        return any(t.code == code and t.status == TableStatus.PLAYING for t in tables)

    def action_join(self) -> None:
        """Enter: sit at the highlighted table."""
        code = self.highlighted()
        if code is None:
            self.notify("No table to sit at: n opens one, q finds you a quick match.", markup=False)
            return
        state = self.state
        row = next((t for t in state.tables if t.code == code), None) if state is not None else None
        if row is not None and row.status != TableStatus.WAITING and (state is None or state.seat_at != code):
            if row.status == TableStatus.OVER:
                self.say(f"The match at {code} is over: pick another table, or q finds you a seat.")
                return
            if not self.keyed:  # a guest has no seat at a started match; a key may have one,
                self.say(started_text(code))  # in use in its other terminal (the lobby asks
                return  # before taking it over): the table's host says which
        self.post_message(JoinTable(code))

    def action_watch(self) -> None:
        """w: watch the highlighted table."""
        code = self.highlighted()
        if code is None:
            self.notify("No table to watch yet.", markup=False)
            return
        self.post_message(JoinTable(code, spectate=True))

    def action_quick(self) -> None:
        """q: a seat at once, once the player has said yes to what it starts (a match to
        hundreds of points is no thing to fall into by one key)."""
        from .dialogs import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.say("Finding you a seat...", Style(dim=True))
                self.post_message(QuickMatch())

        self.app.push_screen(ConfirmScreen("Start a quick match?", quick_text(self.quick_seats),
                                           no="no, stay in the lobby"), answered)

    def action_create(self) -> None:
        """n: open a table."""
        from .create_table import CreateTableScreen

        def created(result: CreateTable | None) -> None:
            if result is not None:
                self.post_message(result)

        name = f"{self.state.you}'s table" if self.state is not None else "My table"
        self.app.push_screen(CreateTableScreen(name), created)

    def action_code(self) -> None:
        """c: join a private table by its code."""
        from .chat import CodeScreen

        def entered(code: str | None) -> None:
            if code:
                self.post_message(JoinTable(code.strip().upper()))

        self.app.push_screen(CodeScreen(), entered)

    def action_chat(self) -> None:
        """/: say something to the lobby."""
        from .chat import ChatScreen

        def said(text: str | None) -> None:
            if text:
                self.post_message(LobbyChat(text))

        self.app.push_screen(ChatScreen("Say to everyone in the lobby"), said)

    def action_matches(self) -> None:
        """m: your recent matches (kept by the lobby for your key), to review."""
        self.post_message(ShowMatches())

    def action_theme(self) -> None:
        """t: the next colour theme (mono for terminals whose colours are wrong or missing)."""
        self.post_message(CycleTheme())

    def action_help(self) -> None:
        """?: the lobby's keys, then a table's keys and the classic rules."""
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(Rules.preset("classic"), lobby=True))

