"""The pile while a wild's colour is being named (issue 19 item 3).

Until the colour is named the view's colour is the one before the wild; the pile showed it
as the colour in play (``Colour: Red (R)``, ``=R`` on the Wild Draw Four) and the player
then named green.  It says the colour is being chosen instead, to everyone: the player
choosing (the colour picker over the table) and the others (a computer player's pause).
Pilot tests at 80x24 and 120x40, on a fake clock so the moment between the wild and its
colour stays on screen.
"""

from __future__ import annotations

import pytest

from tests.clock import FakeClock
from tests.ui.tui_support import ScriptedBot, deal_order, play_card, screen_text, settle, table
from unotui.engine import Rules
from unotui.net.local import LocalGame
from unotui.ui.app import UnoApp
from unotui.ui.screens.dialogs import ColourPicker
from unotui.ui.settings import Config, GameOptions
from unotui.ui.widgets import PileView

RULES = Rules.preset("classic").with_(hand_size=3, target_score=1000)
SIZES = [(80, 24), (120, 40)]


def _app(hands: list[str], dealer: int, script: list[str], clock: FakeClock) -> UnoApp:
    deck = deal_order(hands, "R1", dealer=dealer)

    def factory(options: GameOptions) -> LocalGame:
        return LocalGame(["Me", "Ada"], RULES, bots={1: ScriptedBot(script)}, delay=1.0, catch_grace=0,
                         dealer=dealer, deck=deck, clock=clock)

    options = GameOptions(players=2, rules=RULES, delay=1.0)
    return UnoApp(Config(), options, factory=factory, save_settings=False)


def pile(app: UnoApp) -> str:
    shown = table(app).query_one(PileView)._shown
    assert shown is not None
    return shown.plain


@pytest.mark.parametrize("size", SIZES)
async def test_another_players_wild_shows_the_colour_being_chosen(size: tuple[int, int]) -> None:
    clock = FakeClock()
    app = _app(["G5 G6 G7", "W+4 B1 B2"], 0, ["W+4", "colour G"], clock)  # Ada plays first
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        before = pile(app)
        assert "Colour:  Red  (R)" in before and "being chosen" not in before
        clock.advance(1.0)  # Ada plays her Wild Draw Four; her colour comes after her pause
        await settle(pilot)
        assert app.view is not None and app.view.phase == "colour" and app.view.top.text == "W+4"
        shown = pile(app)
        assert "Colour: being chosen" in shown, shown
        assert "=R" not in shown and "Red" not in shown, shown
        assert "Colour: being chosen" in screen_text(app)
        clock.advance(1.0)  # she names green
        await settle(pilot)
        shown = pile(app)
        assert "Colour:  Green  (G)" in shown and "being chosen" not in shown, shown
        if "┌─────┐" in shown:  # the large card (not the compact chip) names it on the card
            assert "=G" in shown


@pytest.mark.parametrize("size", SIZES)
async def test_my_own_wild_shows_the_colour_being_chosen_behind_the_picker(size: tuple[int, int]) -> None:
    clock = FakeClock()
    app = _app(["W G6 G7", "B1 B2 B3"], 1, [], clock)  # my turn first
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await play_card(pilot, "W")
        assert isinstance(app.screen, ColourPicker)
        shown = pile(app)
        assert "Colour: being chosen" in shown and "Red" not in shown and "=R" not in shown, shown
        await pilot.press("g")
        await settle(pilot)
        shown = pile(app)
        assert "Colour:  Green  (G)" in shown and "being chosen" not in shown, shown
