"""A closed game shows a clear end state (issue 18, item 5).

Before: after "Game closed" the table kept "Your turn: play a card", "Time left: 0 s" and
every game key; the keys answered "Not connected to the host", and Ctrl+Q asked whether
to abandon a match whose table "plays on".  Here a real host on loopback ends the game
under a joined player, and the screen is read after it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tests.hostile.test_screens import joined_app
from tests.ui.tui_support import full_text, words
from unotui.engine import Colour, Rules
from unotui.net.config import RoomConfig
from unotui.net.hosted import HostedGame
from unotui.ui.app import UnoApp
from unotui.ui.screens.dialogs import ConfirmScreen
from unotui.ui.screens.table import TableScreen

pytestmark = pytest.mark.timeout(60)


async def _until(pilot: Any, condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition`` holds (bounded: a net for a loaded machine)."""
    end = asyncio.get_running_loop().time() + 30
    while not condition():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError(f"never: {what}; the screen is {pilot.app.screen!r}:\n"
                                 + full_text(pilot.app))
        await pilot.pause(0.02)


def _at_table(app: UnoApp) -> bool:
    """Whether the table is the screen; a colour picker is answered (red) on the way: the
    host's deal is not seeded, and a first wild asks the first player for a colour (its
    view may come just after the table is up)."""
    from unotui.ui.screens.dialogs import ColourPicker

    if isinstance(app.screen, ColourPicker):
        app.screen.dismiss(Colour.RED)
    return isinstance(app.screen, TableScreen)


async def _table_up(pilot: Any) -> None:
    """Until the table is the screen (see :func:`_at_table`) and this seat is not naming
    a colour (a first wild's, answered; the host's own player may be naming one)."""
    app = pilot.app

    def settled() -> bool:
        view = app.view
        return _at_table(app) and view is not None and not (view.phase == "colour" and view.my_turn)

    await _until(pilot, settled, "the table")


def _bar(app: UnoApp) -> str:
    """The key bar: the screen's last line."""
    return " ".join(full_text(app).splitlines()[-1].split())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_closed_game_says_so_stops_its_clock_turns_its_keys_off_and_quits_at_once(
        size: tuple[int, int]) -> None:
    config = RoomConfig(seats=2, autostart=True, rules=Rules.preset("classic"), bot_delay=0.0,
                        turn_timer=60.0)
    host = HostedGame(config, "Hostess", bind="127.0.0.1", port=0)
    await host.start()
    try:
        app = joined_app(host.port, name="Ann")
        async with app.run_test(size=size) as pilot:
            await _table_up(pilot)
            await _until(pilot, lambda: _at_table(app) and "Time left" in full_text(app), "the turn clock")
            assert "Play" in _bar(app) or "Draw" in _bar(app) or "Hint" in _bar(app)
            await host.close()  # the host quits: the game is closed under Ann
            await _until(pilot, lambda: "Game closed" in full_text(app).splitlines()[0], "the closed state")
            table = app.screen
            assert isinstance(table, TableScreen)
            await pilot.pause(1.2)  # the clock's next tick: it has stopped, not run down to 0
            screen = full_text(app)
            status = " ".join(screen.splitlines()[0].split())
            assert "Game closed: The host ended the game." in status
            assert "Your turn" not in status and "Waiting for" not in status
            assert "Time left" not in screen
            assert ", 0 playable (*)" in screen  # no card is marked playable any more
            bar = _bar(app)
            assert not any(k in bar for k in ("Play", "Draw", "Hint", "Move", "Sort", "Chat")), bar
            assert "Esc Menu" in bar and "^Q Quit" in bar
            for key in ("enter", "d", "n", "slash"):
                table.say("")
                await pilot.press(key)
                await pilot.pause()
                said = words(app)
                assert "The game is closed: Esc goes back to the menu, Ctrl+Q quits." in said, key
                assert "Not connected" not in said
            await pilot.press("ctrl+q")  # nothing to abandon: no "your seat is held" question
            await pilot.pause(0.3)
            assert not isinstance(app.screen, ConfirmScreen)
            assert app.return_code == 0
    finally:
        await host.close()


async def test_escape_at_a_closed_game_goes_home_at_once() -> None:
    from unotui.ui.screens.menu import MenuScreen

    config = RoomConfig(seats=2, autostart=True, rules=Rules.preset("classic"), bot_delay=0.0)
    host = HostedGame(config, "Hostess", bind="127.0.0.1", port=0)
    await host.start()
    try:
        app = joined_app(host.port, name="Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await _table_up(pilot)
            await host.close()
            await _until(pilot, lambda: "Game closed" in full_text(app).splitlines()[0], "the closed state")
            await pilot.press("escape")
            await _until(pilot, lambda: isinstance(app.screen, MenuScreen), "the main menu, with no question")
            assert app.controller is None
    finally:
        await host.close()
