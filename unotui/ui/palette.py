"""The app's own entries in the command palette (Ctrl+P): its themes, each restyling
everything (Textual's own "Theme" picker is left out: the cards would not follow it), the
table's game keys, a new game and the way home (both ask first during a match).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.screen import Screen

from .screens.table import TableScreen
from .settings import THEME_NOTES, THEMES

if TYPE_CHECKING:
    from .app import UnoApp

__all__ = ["app_commands"]


def app_commands(app: UnoApp, screen: Screen[object]) -> Iterable[SystemCommand]:
    """The palette's entries of ``app`` on ``screen``, after Textual's own."""
    for name in THEMES:
        now = " (now)" if name == app.palette else ""
        yield SystemCommand(f"Theme: {name}{now}", f"{THEME_NOTES[name]}; t cycles the themes",
                            partial(app.choose_theme, name))
    if isinstance(screen, TableScreen):  # the table's game keys
        yield SystemCommand("Draw a card", "Draw from the pile (d)", screen.action_draw)
        yield SystemCommand("Call UNO", "Call UNO, or play and call with two cards (u)", screen.action_uno)
        yield SystemCommand("Catch", "Catch a player who did not call UNO (c)", screen.action_catch)
        yield SystemCommand("Hint", "What would a computer player do? (n)", screen.action_hint)
        yield SystemCommand("Rules and keys", "Help: the rules in force and the keys (?)", screen.action_help)
    yield SystemCommand(
        "New game",
        "Start a new game with the current settings",
        lambda: app.leave_match(app.start_game, "Start a new game and leave this match?"),
    )
    home = app.home.name
    yield SystemCommand(
        home.removeprefix("the ").capitalize(),
        f"Leave the table for {home}",
        lambda: app.leave_match(app.go_home, f"Leave this match for {home}?"),
    )
