"""Leaving a mode leaves nothing of it behind (issue 17, section 4; the seams issue's bug:
the menu after a network match still thought it was joined, and its Play solo entry
hosted or joined again).  Each test plays through the real app, against a real host on
loopback, then goes back to the menu and plays solo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.hosted import HostedGame
from unotui.net.local import LocalGame
from unotui.ui.app import UnoApp
from unotui.ui.menu_home import MenuHome
from unotui.ui.screens.menu import MenuScreen
from unotui.ui.screens.table import TableScreen
from unotui.ui.screens.waiting import WaitingScreen
from unotui.ui.settings import Config, GameOptions

from .tui_support import settle, table_up

pytestmark = pytest.mark.usefixtures("fast_keys")


async def _until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition`` holds (bounded generously: a loaded machine)."""
    for _ in range(1000):
        if condition():
            return
        await pilot.pause(0.02)
    app = pilot.app
    stack = [type(screen).__name__ for screen in app.screen_stack]
    raise AssertionError(f"never: {what} (screens {stack}, focused {app.focused!r})")


async def _leave_for_the_menu_then_play_solo(pilot: Pilot[Any]) -> None:
    """From the table, by the command palette's Main menu (and yes: the match is running),
    then Enter on the menu's first entry."""
    app = pilot.app
    assert isinstance(app, UnoApp)
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*"main menu")
    await pilot.pause(0.3)
    await pilot.press("enter")
    await pilot.pause()
    await pilot.press("y")  # leave this match
    await _until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
    assert app.controller is None and app.view is None  # nothing of the match is left
    menu = app.screen
    await _until(pilot, lambda: isinstance(app.focused, OptionList) and app.focused.screen is menu
                 and app.focused.highlighted == 0, "the menu's entries, focused, the first highlighted")
    await pilot.press("enter")  # Play solo
    await settle(pilot)
    await _until(pilot, lambda: any(isinstance(s, TableScreen) for s in app.screen_stack),
                 "the solo table (under its first dialog when the deal opens on one: a wild to name)")
    assert isinstance(app.controller, LocalGame)
    assert app.view is not None and app.view.players == 4 and app.view.seat == 0
    assert app.view.names[0] == app.config.name


def menu_app(name: str = "") -> UnoApp:
    """The menu (of ``name``, else the settings' default), whose Host entry listens on
    loopback, on any free port."""
    config = Config(name=name) if name else Config()
    return UnoApp(config, GameOptions(delay=0), menu=True, save_settings=False,
                  home=MenuHome(bind="127.0.0.1", port=0))


async def hosting(pilot: Pilot[Any]) -> HostedGame:
    """The menu's Host entry, by keys, until its waiting room is up; the hosted game."""
    app = pilot.app
    await pilot.pause()
    await pilot.press("down", "enter")  # Host a game on your network
    await _until(pilot, lambda: isinstance(app.screen, WaitingScreen) and app.screen.room is not None,
                 "the waiting room")
    assert isinstance(app, UnoApp) and isinstance(app.controller, HostedGame)
    return app.controller


async def test_after_hosting_a_match_the_menu_plays_solo() -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await hosting(pilot)
        await pilot.press("s")  # start with computer players
        await _until(pilot, lambda: table_up(app), "the hosted table")
        hosted = app.controller
        await _leave_for_the_menu_then_play_solo(pilot)
        assert app.controller is not hosted


async def test_after_joining_a_match_the_menu_plays_solo() -> None:
    config = RoomConfig(seats=2, autostart=True, rules=Rules.preset("classic"), bot_delay=0.0)
    host = HostedGame(config, "Hostess", bind="127.0.0.1", port=0)
    await host.start()
    try:
        app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("down", "down", "enter")  # Join a game
            await pilot.pause()
            await pilot.press(*f"127.0.0.1:{host.port}", "enter")
            await _until(pilot, lambda: table_up(app), "the joined table")
            assert app.view is not None and "Hostess" in app.view.names
            await _leave_for_the_menu_then_play_solo(pilot)
    finally:
        await host.close()
