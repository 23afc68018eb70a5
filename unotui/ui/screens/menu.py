"""The main menu: the first, focused choice starts a solo game with one key (Enter).

The first entry says what Enter will start (the seats and level from the settings).  A
line under the entries carries what the menu has to tell: entries not available yet,
and problems in the settings file (read before the full-screen view opened, so they
cannot go to stderr, where nobody would see them until the app quits).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ..messages import HostGame, JoinGame, PlaySolo, SettingsSaved
from ..settings import Config, GameOptions

if TYPE_CHECKING:  # (the Join form and its checks load when the form first opens)
    from ..join_request import JoinRequest
    from .join_form import JoinForm

__all__ = ["MENU", "MenuScreen", "solo_label"]

#: (id, label); the solo entry's label is worked out from the settings (solo_label)
MENU: tuple[tuple[str, str], ...] = (
    ("solo", "Play solo against three computer players"),
    ("host", "Host a game on your network"),
    ("join", "Join a game"),
    ("rules", "House rules and your name"),
    ("help", "Help: rules and keys"),
    ("quit", "Quit"),
)

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")

LOGO = r"""
 _   _ _  _  ___
| | | | \| |/ _ \   unotui
| |_| | .` | (_) |  UNO in the terminal
 \___/|_|\_|\___/
"""


def solo_label(options: GameOptions) -> str:
    """The solo entry: how many computer players Enter will deal in, and how strong."""
    bots = max(0, options.players - 1)
    count = _NUMBERS[bots] if bots < len(_NUMBERS) else str(bots)
    plural = "s" if bots != 1 else ""
    return f"Play solo against {count} computer player{plural} ({options.level})"


class MenuScreen(Screen[None]):
    """Choose what to do.  Enter on the first entry starts a game at once.

    The app hands the settings down (``config``, ``options``, then :meth:`show_settings`
    after a save) and the menu posts each choice up as a message of
    :mod:`unotui.ui.messages`: it never imports the app or starts a game itself.
    """

    CSS_PATH = "menu.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('solo')", "Solo", show=False),
        Binding("r", "choose('rules')", "House rules", show=False),
        Binding("question_mark", "choose('help')", "Help", show=False),
        Binding("q,escape", "choose('quit')", "Quit", show=False),
    ]

    def __init__(self, config: Config, options: GameOptions, draft: JoinRequest | None = None) -> None:
        super().__init__()
        self.config = config
        self.options = options
        #: the last join asked for here, without its password (the Join form opens with it)
        self.draft = draft

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(Text(LOGO.strip("\n"), Style(bold=True)), id="logo")
            yield OptionList(*(Option(label, id=key) for key, label in self._entries()), id="choices")
            yield Static(id="note")
            yield Static(Text("Enter: choose   Up/Down: move   Ctrl+Q: quit", Style(dim=True)), id="hint")
        yield Footer()

    def _entries(self) -> list[tuple[str, str]]:
        return [(key, solo_label(self.options) if key == "solo" else label) for key, label in MENU]

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()
        self.say("")
        problems = self.config.problems
        if problems:
            self.say("Settings file problem (defaults used): " + "; ".join(problems), warn=True)

    def show_settings(self, config: Config, options: GameOptions) -> None:
        """New settings (saved on the house-rules screen): the solo entry follows them."""
        self.config = config
        self.options = options
        choices = self.query_one(OptionList)
        highlighted = choices.highlighted
        choices.replace_option_prompt_at_index(0, self._entries()[0][1])
        choices.highlighted = highlighted

    def highlight(self, key: str) -> None:
        """Put the cursor on entry ``key`` (Enter then chooses it), and the focus on the list."""
        choices = self.query_one(OptionList)
        choices.highlighted = choices.get_option_index(key)
        choices.focus()

    def say(self, text: str, warn: bool = False) -> None:
        """Show ``text`` on the menu's note line (nothing: hide the line)."""
        note = self.query_one("#note", Static)
        note.update(Text(text, Style(bold=True, reverse=warn)))
        note.display = bool(text)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.action_choose(event.option.id)

    def join_form(self) -> JoinForm:
        """The Join form, filled in with what was typed before a join that failed (all
        but the password), else the settings' last address and the settings' name."""
        from .join_form import JoinForm

        draft = self.draft
        if draft is not None:
            return JoinForm(draft.address, draft.name, draft.table, draft.spectate)
        return JoinForm(self.config.join_address, self.config.name)

    def _joined(self, request: JoinRequest | None) -> None:
        if request is not None:
            self.draft = replace(request, password="")
            self.post_message(JoinGame(request))

    def action_choose(self, key: str) -> None:
        """Carry out menu entry ``key``."""
        if key == "solo":
            self.post_message(PlaySolo())
        elif key == "host":
            self.post_message(HostGame())
        elif key == "join":
            self.app.push_screen(self.join_form(), self._joined)
        elif key == "rules":
            from .house_rules import HouseRulesScreen

            def saved(config: Config | None) -> None:
                if config is not None:
                    self.post_message(SettingsSaved(config))

            self.app.push_screen(HouseRulesScreen(self.config), saved)
        elif key == "help":
            from .help import HelpScreen

            self.app.push_screen(HelpScreen(self.config.rules))
        elif key == "quit":
            self.app.exit(0)
