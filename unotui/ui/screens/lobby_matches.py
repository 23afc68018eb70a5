"""Your recent matches (``m`` in the lobby): the matches the lobby kept for your SSH key.

The list comes from the lobby (``matches`` -> ``kept_list``, through the lobby home): the
date, the players, the result.  Enter reviews the highlighted match as your seat saw it
(the home fetches its transcript and opens the review).  Nothing is saved from here: the
session runs on the server, so a file would be written on the lobby's machine, not the
player's (the match summary's ``s`` says the same at a lobby table).  Everything shown
came from the lobby and from other people (names), so it is cleaned and never markup.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ...engine import Rules
from ...protocol.messages import KeptList, KeptRow
from ...protocol.text import clean
from ..lobby_messages import ReviewKept
from ..words import display_name

__all__ = ["EMPTY_TEXT", "GUEST_TEXT", "LobbyMatchesScreen", "matches_text", "result_text"]

EMPTY_TEXT = ("No matches kept for you yet: finish a match at a lobby table and it is listed "
              "here, to review move by move.")
GUEST_TEXT = ("Matches are kept for players who come with an SSH key (ssh -i KEY ...); as a guest "
              "nothing is kept for you.")


def result_text(row: KeptRow) -> str:
    """``you won, 512 to 40`` / ``Bob won, 512 to your 40``: the end as this player saw it."""
    mine, best = row.scores[row.seat], row.scores[row.winner]
    if row.winner == row.seat:
        others = max((s for i, s in enumerate(row.scores) if i != row.seat), default=0)
        return f"you won, {mine} to {others}"
    return f"{display_name(clean(row.names[row.winner]))} won, {best} to your {mine}"


def players_text(row: KeptRow) -> str:
    """The other players, by name (the player is "you")."""
    others = [display_name(clean(n)) for i, n in enumerate(row.names) if i != row.seat]
    return "you, " + ", ".join(others)


def when_text(row: KeptRow) -> str:
    """The date and time it ended (the server's clock, UTC)."""
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(row.when))


def matches_text(listed: KeptList) -> str:
    """The list as plain text (what the tests read)."""
    return "\n".join(f"{when_text(r)} {players_text(r)} {result_text(r)}" for r in listed.rows)


class LobbyMatchesScreen(Screen[None]):
    """The list of kept matches; Enter reviews one, Escape goes back to the lobby."""

    DEFAULT_CSS = """
    LobbyMatchesScreen #matches { height: 1fr; border: round $primary; }
    LobbyMatchesScreen #matches-head, LobbyMatchesScreen #matches-note { height: auto; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "review", "Review", priority=True),
        Binding("escape", "app.pop_screen", "Lobby"),
        Binding("question_mark", "help", "Help"),
    ]

    #: what the lobby answered (set by the home); ``None`` while it is asked
    listed: var[KeptList | None] = var(None, always_update=True, init=False)

    def __init__(self, keyed: bool = False) -> None:
        super().__init__()
        #: whether the player came with an SSH key (a guest's list is always empty)
        self.keyed = keyed

    def compose(self) -> ComposeResult:
        yield Static(Text("Your recent matches", Style(bold=True)), id="matches-head")
        table: DataTable[Text] = DataTable(id="matches", cursor_type="row", zebra_stripes=True)
        table.add_columns("Ended (UTC)", "Players", "Result")
        yield table
        yield Static(Text("Asking the lobby...", Style(dim=True)), id="matches-note")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#matches", DataTable).focus()
        self._draw()

    def watch_listed(self) -> None:
        self._draw()

    def say(self, line: str) -> None:
        """A line under the list (what went wrong, what is happening)."""
        if self.query("#matches-note"):
            self.query_one("#matches-note", Static).update(Text(clean(line), Style(italic=True)))

    def _draw(self) -> None:
        listed = self.listed
        if listed is None or not self.query("#matches"):
            return  # drawn from self.listed when mounted
        table = self.query_one("#matches", DataTable)
        table.clear()
        for row in listed.rows:
            table.add_row(Text(when_text(row)), Text(players_text(row)), Text(result_text(row)),
                          key=str(row.id))
        if listed.rows:
            note = "Enter reviews the highlighted match, as you saw it. Escape: back to the lobby."
        elif not self.keyed:
            note = GUEST_TEXT
        else:
            note = clean(listed.note) or EMPTY_TEXT
        self.query_one("#matches-note", Static).update(Text(note, Style(dim=bool(listed.rows))))

    def highlighted(self) -> KeptRow | None:
        """The highlighted match, if any."""
        listed = self.listed
        table = self.query_one("#matches", DataTable)
        if listed is None or not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next((r for r in listed.rows if str(r.id) == key), None)

    def action_review(self) -> None:
        """Enter: review the highlighted match."""
        row = self.highlighted()
        if row is None:
            self.notify("No match to review.", markup=False)
            return
        self.say("Fetching the match from the lobby...")
        self.post_message(ReviewKept(row.id, row.seat))

    def action_help(self) -> None:
        """?: the lobby's keys (these among them)."""
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(Rules.preset("classic"), lobby=True))
