"""Snapshots of the main screens at 80x24 and 120x40 (seeded games, zero delays, no clocks).

Update after a deliberate change with ``pytest tests/ui/test_snapshots.py --snapshot-update``
and look at ``snapshot_report.html``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from unotui.bots import BOT_NAMES
from unotui.engine import Rules
from unotui.ui.app import UnoApp
from unotui.ui.settings import Config, GameOptions

from .tui_support import (
    ScriptedBot,
    deal_order,
    picking_a_colour,
    play_card,
    scripted_app,
    settle,
    wild_in_hand_app,
)

SIZES = [(80, 24), (120, 40)]
CLASSIC = Rules.preset("classic")


async def _one_round_of_turns(pilot: Pilot[Any]) -> None:
    """Draw (keeping the card), so everyone else takes a turn and the log fills."""
    await settle(pilot)
    await pilot.press("d")
    await settle(pilot)
    app = pilot.app
    assert isinstance(app, UnoApp)
    if app.view is not None and app.view.phase == "drawn":
        await pilot.press("k")
        await settle(pilot)
    await pilot.pause()


def _short_round(target: int) -> UnoApp:
    rules = CLASSIC.with_(hand_size=2, target_score=target)
    deck = deal_order(["R5 R6", "B1 B7"], "R1", dealer=1)
    return scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)


async def _go_out(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await play_card(pilot, "R5", key="u")
    await play_card(pilot, "R6")
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_menu(snap_compare: Any, size: tuple[int, int]) -> None:
    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
    assert snap_compare(app, terminal_size=size)


def _table(players: int, rules: Rules, seed: int, theme: str = "default") -> UnoApp:
    """A seeded deal; the computer players are scripted (draw and keep), so the picture
    does not change when the bots' play does."""
    names = ["Me", *BOT_NAMES[: players - 1]]
    bots = {s: ScriptedBot(seed=s) for s in range(1, players)}
    return scripted_app(names, rules, bots, dealer=players - 1, seed=seed, theme=theme)


@pytest.mark.parametrize("size", SIZES)
def test_table(snap_compare: Any, size: tuple[int, int]) -> None:
    app = _table(4, Rules.preset("giant"), seed=3)
    assert snap_compare(app, terminal_size=size, run_before=_one_round_of_turns)


@pytest.mark.parametrize("theme", ["colourblind", "mono"])
def test_table_themes(snap_compare: Any, theme: str) -> None:
    app = _table(4, Rules.preset("giant"), seed=3, theme=theme)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_one_round_of_turns)


def test_table_ten_players(snap_compare: Any) -> None:
    app = _table(10, Rules.preset("classic"), seed=8)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_one_round_of_turns)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare: Any, size: tuple[int, int]) -> None:
    app = _short_round(1000)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_colour_picker(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await picking_a_colour(pilot)
        await pilot.pause()

    assert snap_compare(wild_in_hand_app(), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_round_over(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(_short_round(1000), terminal_size=size, run_before=_go_out)


@pytest.mark.parametrize("size", SIZES)
def test_match_over(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(_short_round(1), terminal_size=size, run_before=_go_out)


def test_house_rules(snap_compare: Any) -> None:
    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("down", "down", "down", "enter")
        await pilot.pause()
        for field in app.screen.query(Input):
            field.cursor_blink = False
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
