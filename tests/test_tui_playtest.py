"""Issue 7, as a player saw it: each test drives the real app in Textual's pilot and
checks what is on the screen (zero delays, seeded deals)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from unotui.engine import Rules
from unotui.ui.app import UnoApp
from unotui.ui.widgets import GameLog

from .tui_support import ScriptedBot, deal_order, scripted_app, settle

CLASSIC = Rules.preset("classic")
pytestmark = pytest.mark.usefixtures("fast_keys")
SIZES = [(80, 24), (120, 40)]


def full_text(app: UnoApp) -> str:
    """The whole terminal as plain text, with the screens a dialog leaves visible below it."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), color_system=None, record=True, legacy_windows=False
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def _long_log_app() -> UnoApp:
    """A two-player deal where the person draws a few times: the log fills with lines,
    the longest being Ada's 'played ... and called UNO!' and our own 'drew' lines."""
    rules = CLASSIC.with_(hand_size=7, target_score=1000)
    deck = deal_order(["R5 R6 R7 R8 R9 G1 G2", "B1 B2 B3 B4 B5 B6 B7"], "Y1", dealer=1)
    return scripted_app(["Me", "Ada Lovelace-Byron"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)


async def _draw_rounds(pilot: Any, times: int) -> None:
    app = pilot.app
    for _ in range(times):
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        if app.view is not None and app.view.phase == "drawn":
            await pilot.press("k")
            await settle(pilot)


def _challenge_app() -> UnoApp:
    """Ada (a long name) bluffs a Wild Draw Four holding yellow; the person challenges."""
    rules = CLASSIC.with_(hand_size=5, target_score=1000)
    deck = deal_order(["R5 R6 G1 G2 B9", "Y2 W+4 Y3 B1 B2"], "Y1", dealer=1)
    bot = ScriptedBot(["Y2", "W+4", "colour G"])
    return scripted_app(["Me", "Ada Lovelace-Byron"], rules, {1: bot}, dealer=1, deck=deck)


async def _challenge(pilot: Any) -> None:
    app = pilot.app
    for _ in range(3):  # we draw and keep; Ada plays Y2, then W+4 naming green
        await settle(pilot)
        if app.view.phase == "challenge":
            break
        await pilot.press("d")
        await settle(pilot)
        if app.view.phase == "drawn":
            await pilot.press("k")
    assert app.view.phase == "challenge"
    await pilot.press("x")
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES)
async def test_log_lines_wrap_to_the_pane_without_a_horizontal_scrollbar(size: tuple[int, int]) -> None:
    app = _challenge_app()
    async with app.run_test(size=size) as pilot:
        await _challenge(pilot)
        await pilot.press("enter")  # close the revealed hand
        await settle(pilot)
        await pilot.pause()
        log = app.screen.query_one(GameLog)
        width = log.scrollable_content_region.width
        assert not log.show_horizontal_scrollbar
        assert log.virtual_size.width <= width
        lines = [strip.text.rstrip() for strip in log.lines]
        assert all(len(line) <= width for line in lines)
        # The long sentences are there in full, wrapped over several lines of the pane.
        joined = " ".join(lines)
        assert "You challenged Ada Lovelace-Byron's Wild Draw Four: guilty!" in joined
        assert "Ada Lovelace-Byron drew 4 cards after the challenge" in joined


async def test_after_a_resize_the_log_shows_its_newest_lines_rewrapped() -> None:
    app = _long_log_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await _draw_rounds(pilot, 12)
        for size in ((80, 24), (100, 30), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            log = app.screen.query_one(GameLog)
            assert log.max_scroll_y > 0, "the test needs a log taller than its pane"
            assert log.scroll_y == log.max_scroll_y
            assert log.virtual_size.width <= log.scrollable_content_region.width
        assert app.view is not None
        last = app.view.log[-1]
        assert last.kind in ("draw", "keep", "play")
        assert "Ada Lovelace-Byron" in full_text(app).split("Log")[-1]


async def test_red_0_drawn_and_played_is_named_on_the_screen() -> None:
    rules = CLASSIC.with_(hand_size=2, target_score=1000)
    deck = deal_order(["G5 G6", "B7 B8"], "R1", draws="R0", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        text = full_text(app)
        assert "You drew R0: play it (Enter) or keep it (k)." in text
        assert "Selected: red 0 (R0)" in text
        await pilot.press("enter")
        await settle(pilot)
        assert "You played red 0 (R0)." in full_text(app)


async def _open_house_rules(pilot: Any) -> None:
    await pilot.pause()
    await pilot.press("down", "down", "down", "enter")  # "House rules and your name"
    await pilot.pause()


@pytest.mark.parametrize(("field", "value", "words"), [
    ("target_score", "0", "target_score must be between 1 and 100000"),
    ("players", "11", "players must be between 2 and 10"),
    ("custom", "bogus", "unknown effect 'bogus'"),
])
async def test_house_rules_save_error_is_on_screen_and_focus_goes_to_the_field(
    field: str, value: str, words: str
) -> None:
    from textual.widgets import Input

    from unotui.client.config import Config
    from unotui.client.options import GameOptions
    from unotui.ui.screens.house_rules import HouseRulesScreen

    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_house_rules(pilot)
        assert isinstance(app.screen, HouseRulesScreen)
        assert app.focused is app.screen.query_one("#name", Input), "the form opens on its first field"
        app.screen.query_one(f"#{field}", Input).value = value
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, HouseRulesScreen), "a bad value is not saved"
        text = full_text(app)
        assert "Not saved" in text and words in text
        assert app.focused is app.screen.query_one(f"#{field}", Input)
