"""The main menu: the first, focused choice starts a solo game with one key (Enter)."""

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

__all__ = ["MENU", "MenuScreen"]

#: (id, label)
MENU: tuple[tuple[str, str], ...] = (
    ("solo", "Play solo against three computer players"),
    ("host", "Host a game on your network"),
    ("join", "Join a game"),
    ("rules", "House rules and your name"),
    ("help", "Help: rules and keys"),
    ("quit", "Quit"),
)

LOGO = r"""
 _   _ _  _  ___
| | | | \| |/ _ \   unotui
| |_| | .` | (_) |  UNO in the terminal
 \___/|_|\_|\___/
"""


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
            yield OptionList(*(Option(label, id=key) for key, label in MENU), id="choices")
            yield Static(Text("Enter: choose   Up/Down: move   Ctrl+Q: quit", Style(dim=True)), id="hint")
        yield Footer()

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()
        from ..app import UnoApp

        if isinstance(self.app, UnoApp):
            self.call_after_refresh(self.app.first_frame_drawn)

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
        elif key in ("host", "join"):
            app.notify(
                "Coming soon: LAN play is not in this version yet.",
                title="Host" if key == "host" else "Join",
                markup=False,
            )
        elif key == "rules":
            from .house_rules import HouseRulesScreen

            app.push_screen(HouseRulesScreen(app.config))
        elif key == "help":
            from .help import HelpScreen

            app.push_screen(HelpScreen(app.config.rules))
        elif key == "quit":
            app.exit(0)
