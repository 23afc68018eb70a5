"""The main menu: the first, focused choice starts a solo game with one key (Enter).

The first entry says what Enter will start (the seats and level from the settings).  A
line under the entries carries what the menu has to tell: entries not available yet,
and problems in the settings file (read before the full-screen view opened, so they
cannot go to stderr, where nobody would see them until the app quits).
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...client.options import GameOptions

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
    """Choose what to do.  Enter on the first entry starts a game at once."""

    CSS_PATH = "menu.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('solo')", "Solo", show=False),
        Binding("r", "choose('rules')", "House rules", show=False),
        Binding("question_mark", "choose('help')", "Help", show=False),
        Binding("q,escape", "choose('quit')", "Quit", show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(Text(LOGO.strip("\n"), Style(bold=True)), id="logo")
            yield OptionList(*(Option(label, id=key) for key, label in self._entries()), id="choices")
            yield Static(id="note")
            yield Static(Text("Enter: choose   Up/Down: move   Ctrl+Q: quit", Style(dim=True)), id="hint")
        yield Footer()

    def _entries(self) -> list[tuple[str, str]]:
        from ..app import UnoApp

        app = self.app
        options = app.options if isinstance(app, UnoApp) else GameOptions()
        return [(key, solo_label(options) if key == "solo" else label) for key, label in MENU]

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()
        from ..app import UnoApp

        self.say("")
        if isinstance(self.app, UnoApp):
            problems = self.app.config.problems
            if problems:
                self.say("Settings file problem (defaults used): " + "; ".join(problems), warn=True)
            self.call_after_refresh(self.app.first_frame_drawn)

    def on_screen_resume(self) -> None:
        # Back from the house-rules screen: the solo entry follows the saved settings.
        choices = self.query_one(OptionList)
        highlighted = choices.highlighted
        choices.replace_option_prompt_at_index(0, self._entries()[0][1])
        choices.highlighted = highlighted

    def say(self, text: str, warn: bool = False) -> None:
        """Show ``text`` on the menu's note line (nothing: hide the line)."""
        note = self.query_one("#note", Static)
        note.update(Text(text, Style(bold=True, reverse=warn)))
        note.display = bool(text)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.action_choose(event.option.id)

    def action_choose(self, key: str) -> None:
        """Carry out menu entry ``key``."""
        from ..app import UnoApp

        app = self.app
        assert isinstance(app, UnoApp)
        if key == "solo":
            app.start_game()
        elif key == "host":
            from ...net.room import RoomConfig

            config = app.config
            room = RoomConfig(
                name=config.name, seats=config.players, rules=config.rules, level=config.bots,
                bot_delay=config.delay,
            )
            app.host_game(room, config.name, app.host_bind, app.host_port)
        elif key == "join":
            from .chat import AddressScreen

            def joined(address: str | None) -> None:
                if not address:
                    return
                from ...net.addresses import split_address

                try:
                    host, port = split_address(address)
                except ValueError as exc:
                    self.say(str(exc), warn=True)
                    return
                app.join_game(host, port, name=app.config.name)

            app.push_screen(AddressScreen(), joined)
        elif key == "rules":
            from .house_rules import HouseRulesScreen

            app.push_screen(HouseRulesScreen(app.config))
        elif key == "help":
            from .help import HelpScreen

            app.push_screen(HelpScreen(app.config.rules))
        elif key == "quit":
            app.exit(0)
