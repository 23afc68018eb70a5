"""The menu after a network match is the settings' menu (issue 18, item 1).

``unotui join`` (and ``host``) open the app straight onto a table; the menu it reaches
after the match (``m`` on the match summary) must deal the solo game the settings
describe, not join the host again (fixed by the modes: tests/ui/test_modes.py, through the
palette) and not the defaults' four players (``unotui join`` built its options from
defaults: the menu said "three computer players" when the settings said five).  The app
is built by :func:`unotui.ui.cli.table_app`, as ``unotui join`` builds it, against a
real host on loopback; the match is played to its end by keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from tests.net.lan_support import FAST, hosted
from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.local import LocalGame
from unotui.net.remote import RemoteGame
from unotui.ui.cli import table_app
from unotui.ui.lan import joined
from unotui.ui.screens.menu import MenuScreen
from unotui.ui.screens.results import MatchOverScreen
from unotui.ui.screens.table import TableScreen
from unotui.ui.settings import Config, save_config

from . import tui_support
from .tui_support import autoplay, full_text, settle, table_up

pytestmark = [pytest.mark.usefixtures("fast_keys"), pytest.mark.timeout(120)]


async def _until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition`` holds (bounded generously: a loaded machine)."""
    for _ in range(1000):
        if condition():
            return
        await pilot.pause(0.02)
    app = pilot.app
    shown = type(app.screen).__name__ if app.is_running else "nothing (the app ended)"
    said = getattr(app, "exit_message", "")
    raise AssertionError(f"never: {what} (on screen: {shown}{f'; it said {said!r}' if said else ''})")


async def _settle_remote(pilot: Pilot[Any]) -> None:
    """``settle`` for a table elsewhere: only the screen to wait for (``settle`` waits
    for a local game's clock, and spends two seconds per key finding there is none)."""
    if isinstance(pilot.app.controller, RemoteGame):  # type: ignore[attr-defined]
        await pilot.pause(0.01)
    else:
        await settle(pilot)


async def test_m_after_a_joined_match_then_enter_plays_the_settings_solo_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tui_support, "settle", _settle_remote)  # (autoplay's, at the joined table)
    save_config(Config(name="Joey", players=6, bots="hard", delay=0.0))
    rules = Rules.preset("classic").with_(target_score=1, hand_size=4)  # one short round is the match
    room = RoomConfig(seats=2, bots=1, autostart=True, rules=rules, **FAST)
    async with hosted(room) as (_host, _room, port):
        app = table_app(joined("127.0.0.1", port, name="Joey"), "Joey")
        app.options = app.options._replace(summary_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: table_up(app), "the joined table")
            assert isinstance(app.controller, RemoteGame)
            await autoplay(pilot, until=MatchOverScreen)
            assert "leaderboard" not in full_text(app)  # a LAN table ranks nobody: nothing to say
            await pilot.press("m")
            await _until(pilot, lambda: isinstance(app.screen, MenuScreen) and "Play solo" in full_text(app),
                         "the menu, drawn")
            assert app.controller is None and app.view is None
            text = full_text(app)
            assert "Play solo against five computer players (hard)" in text
            assert "three computer players" not in text
            menu = app.screen
            await _until(pilot, lambda: isinstance(app.focused, OptionList) and app.focused.screen is menu
                         and app.focused.highlighted == 0, "the menu's first entry, focused and highlighted")
            await pilot.press("enter")  # the first entry, focused
            await settle(pilot)
            await _until(pilot, lambda: any(isinstance(s, TableScreen) for s in app.screen_stack),
                 "the solo table (under its first dialog when the deal opens on one: a wild to name)")
            assert isinstance(app.controller, LocalGame)  # not the host again
            assert app.view is not None and app.view.players == 6 and app.view.names[0] == "Joey"
            assert "Could not join" not in full_text(app)
