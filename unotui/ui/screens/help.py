"""Help: the rules in force (the custom wild's rule included) and every key."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...engine import Rules
from ...protocol.text import clean
from ..rule_words import label

__all__ = ["KEYS", "LOBBY_KEYS", "REVIEW_KEYS", "HelpScreen", "rules_rows", "rules_text"]

#: (keys, what they do) - the same list docs/keys.md gives
KEYS: tuple[tuple[str, str], ...] = (
    ("Left/Right, h/l", "move along your hand (Home/End: first/last card)"),
    ("Enter", "play the selected card (discard it when a custom wild asks; jump in)"),
    ("u or !", "play the selected card and call UNO (two cards), or call UNO (one card)"),
    ("d or Space", "draw a card (or take a pending draw penalty)"),
    ("k", "keep the card you just drew"),
    ("c", "catch a player who did not call UNO"),
    ("x / a", "challenge / accept a Wild Draw Four played on you"),
    ("j", "jump in with the card identical to the top of the pile"),
    ("r y g b", "name a colour (in the colour picker)"),
    ("0-9", "choose a player by seat number (swap hands)"),
    ("s", "sort your hand: by colour or by rank (on a match's summary: save the match)"),
    ("/", "chat with the table (LAN games)"),
    ("b", "take your seat back from a computer player (it plays after your turns ran out)"),
    ("n", "hint: what a computer player would do"),
    ("t", "switch colour theme: default, colourblind, mono"),
    ("? or F1", "this help"),
    ("Ctrl+P", "command palette"),
    ("Escape", "at the table: back to the menu (the lobby, at a lobby table); asks during a "
               "match. Elsewhere: close a screen or dialog (on the round summary: next round)"),
    ("Ctrl+Q", "quit, from anywhere; in the SSH lobby it ends the SSH session "
               "(during a match it asks first: y or Ctrl+Q again)"),
)

_STACKING = {"off": "no stacking", "official": "+2 on +2, +4 on +4", "cross": "+2 and +4 stack on each other"}


def rules_rows(rules: Rules) -> list[tuple[str, str]]:
    """The rules of the table in plain words: (the rule's name, how it is here)."""
    rows: list[tuple[str, str]] = []

    def line(name: str, value: str) -> None:
        rows.append((name, value))

    line(label("preset"), rules.name)
    line("Deck", f"{rules.deck_size} cards, {rules.hand_size} dealt each")
    specials = []
    if rules.custom_wilds:
        specials.append(f"{rules.custom_wilds} customizable wild (WC)")
    if rules.swap_hands:
        specials.append(f"{rules.swap_hands} swap hands (WX)")
    if rules.shuffle_hands:
        specials.append(f"{rules.shuffle_hands} shuffle hands (WH)")
    line("Special cards", ", ".join(specials) or "none")
    if rules.custom_wilds:
        line("Customizable wild", clean(rules.custom.describe(), 300, collapse=False))
    line(label("stacking"), _STACKING.get(rules.stacking.value, rules.stacking.value))
    line(label("challenge"), "yes" if rules.challenge else "no")
    line(label("no_bluffing"), "yes" if rules.no_bluffing else "no")
    line(label("draw_to_match"), "yes" if rules.draw_to_match else "no")
    line(label("forced_play"), "yes" if rules.forced_play else "no")
    line(label("jump_in"), "yes" if rules.jump_in else "no")
    line(label("seven_o"), "yes" if rules.seven_o else "no")
    line(label("uno_penalty"), f"{rules.uno_penalty} cards")
    line(label("scoring"), f"{rules.scoring.value}, match to {rules.target_score} points")
    line(label("teams"), "partners sit across" if rules.teams else "no")
    return rows


#: the rules in a paragraph, under the table of them
SUMMARY = (
        "Play a card matching the top card's colour or symbol, or a wild. Can't? Draw. "
        "Call UNO when you play your next-to-last card, or anyone may catch you until the next "
        "player acts. A Wild Draw Four may be challenged: if its player held the colour in play "
        "they draw 4, otherwise you draw 6. First to go out scores everyone's cards."
)


def rules_text(rules: Rules) -> RenderableType:
    """The rules of the table: a name and value a line (a long value wraps in its own
    column, so the names stay a column), then the paragraph."""
    return Group(two_columns(rules_rows(rules), 22), Text("\n" + SUMMARY))


def two_columns(rows: Sequence[tuple[str, str]], width: int) -> Table:
    """Names in a bold column ``width`` wide, and what they mean beside them: a line that
    wraps keeps to its column (a plain text's continuation began under the names)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=width, style="bold", no_wrap=True)
    grid.add_column(ratio=1)
    for name, what in rows:
        grid.add_row(Text(name), Text(what))  # (Text: a str would be read as markup: a table's own text)
    return grid


#: the SSH lobby's keys (the lobby's help shows them first)
LOBBY_KEYS: tuple[tuple[str, str], ...] = (
    ("Up/Down", "move through the list of tables (waiting tables first)"),
    ("Enter", "sit at the highlighted table"),
    ("w", "watch the highlighted table (a spectator sees no hand)"),
    ("n", "open a new table (seats, computer players, rules, timer, length, private)"),
    ("q", "quick match (it asks first): a seat at a waiting table, or a new one with "
          "computer players, to 500 points"),
    ("c", "join a private table by its code"),
    ("m", "your recent matches (kept for your SSH key): Enter reviews one"),
    ("/", "say something to everyone in the lobby"),
    ("t", "switch colour theme: default, colourblind, mono"),
    ("Ctrl+Q", "quit: the SSH session ends (Escape at a table goes back to the lobby)"),
)


#: the review screen's keys (its help shows them first; docs/keys.md lists them too)
REVIEW_KEYS: tuple[tuple[str, str], ...] = (
    ("Right / Left", "next / previous decision of the reviewed seat"),
    ("] / [", "next / previous round"),
    ("m / M", "next / previous inaccuracy or worse (mistakes, blunders), in match order"),
    ("1 2 3", "jump to the seat's costliest, second and third costliest moment"),
    ("Home / End", "first / last decision"),
    ("s", "switch the reviewed seat"),
    ("t", "summary: every seat's share of best moves, chance given away, costliest moments"),
    ("h", "HINDSIGHT on or off: show the other hands at that moment (the analysis never uses them)"),
    ("? or F1", "this help"),
    ("Escape", "back (from the summary or the help: to the decision)"),
)


#: what the leaderboard's numbers are (players with an SSH key who finished a match)
LEADERBOARD_TEXT = (
    "skill: a conservative estimate of how well you play (openskill's mu - 3 sigma). A "
    "newcomer starts at 0 and climbs as finished matches make the lobby surer; one lucky "
    "win does not top the board. games: the matches rated. Guests (no SSH key) are not "
    "ranked."
)


def keys_text(rows: tuple[tuple[str, str], ...] = KEYS) -> Table:
    """Keys as a two-column list."""
    return two_columns(rows, 17)


class HelpScreen(Screen[None]):
    """Rules in force and keys; Escape goes back."""

    CSS_PATH = "help.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,f1", "app.pop_screen", "Back")]

    def __init__(self, rules: Rules, lobby: bool = False, review: bool = False) -> None:
        """``lobby``: opened from the lobby, where no rules are in force yet: its keys
        first, then a table's keys and the classic rules, named as such.  ``review``:
        opened from the review screen: its keys, then the reviewed match's rules."""
        super().__init__()
        self.rules = rules
        self.lobby = lobby
        self.review = review

    def compose(self) -> ComposeResult:
        heading = Style(bold=True, underline=True)
        with VerticalScroll(id="help"):
            if self.review:
                yield Static(Text("Reviewing a match", heading))
                yield Static(keys_text(REVIEW_KEYS))
                yield Static(Text("The match's rules", heading))
                yield Static(rules_text(self.rules))
            elif self.lobby:
                yield Static(Text("The lobby", heading))
                yield Static(keys_text(LOBBY_KEYS))
                yield Static(Text("At a table", heading))
                yield Static(keys_text())
                yield Static(Text("The classic rules (a table's own rules: ? at that table)", heading))
                yield Static(rules_text(self.rules))
                yield Static(Text("The leaderboard", heading))
                yield Static(LEADERBOARD_TEXT)
            else:
                yield Static(Text("Rules in force", heading))
                yield Static(rules_text(self.rules))
                yield Static(Text("Keys", heading))
                yield Static(keys_text())
        yield Footer()
