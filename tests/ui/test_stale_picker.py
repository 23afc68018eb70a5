"""Pickers and a person who is not deciding: a colour picker whose decision the table
made without the person (the turn timer ran out, or a computer player stands in) closes
with the view that says so, instead of staying open over a turn that has moved on (found
playing a LAN table with a turn timer: "b" in the stale picker sent blue, refused as not
your turn); and while a computer player stands in, no dialog opens over the table."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from unotui.engine import Action, ChooseColour, Colour, Game, Rules, deal_order, seat_view
from unotui.net.room_info import SeatMark
from unotui.ui.screens.dialogs import ColourPicker
from unotui.ui.screens.table import TableScreen

from .tui_support import full_text, showing

pytestmark = pytest.mark.usefixtures("fast_keys")


async def on_top(pilot: Pilot[Any], screen: Screen[Any]) -> bool:
    """Whether ``screen`` comes to the top within a second (a dismissal takes a few turns
    of the app's loop)."""
    for _ in range(100):
        if pilot.app.screen is screen:
            return True
        await pilot.pause(0.01)
    return False


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_colour_picker_closes_when_the_table_named_the_colour(size: tuple[int, int]) -> None:
    rules = Rules.preset("classic").with_(hand_size=3)
    game = Game(["Me", "Ada"], rules, dealer=1, deck=deal_order(["W R5 G3", "B9 G2 Y1"], "R1", dealer=1),
                seed=1)
    game.apply(0, Action.parse("W"))  # my Wild: the table asks me for the colour
    table = TableScreen(seat_view(game, 0))
    app = showing(table)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ColourPicker)
        game.apply(0, ChooseColour(Colour.GREEN))  # the table's timeout action, for me
        table.view = seat_view(game, 0)
        assert await on_top(pilot, table), app.screen  # the picker went with the view that moved on
        game.apply(1, Action.parse("G2"))  # the next view opens nothing stale either
        table.view = seat_view(game, 0)
        await pilot.pause(0.05)
        assert app.screen is table


async def test_no_dialog_opens_while_a_computer_player_stands_in_and_b_brings_it() -> None:
    """While my seat is ``idle`` (a computer player plays it after my turns ran out) my
    colour decision opens no picker over the table: the stand-in makes it.  Once the seat
    is mine again (the host's ``back``: the marks change), the decision still due opens."""
    rules = Rules.preset("classic").with_(hand_size=3)
    game = Game(["Me", "Ada"], rules, dealer=1, deck=deal_order(["W R5 G3", "B9 G2 Y1"], "R1", dealer=1),
                seed=1)
    game.apply(0, Action.parse("W"))
    table = TableScreen(seat_view(game, 0), marks=(SeatMark.IDLE, SeatMark.BOT))
    app = showing(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.05)
        assert app.screen is table and "Take seat back" in full_text(app)
        table.marks = (SeatMark.PERSON, SeatMark.BOT)
        for _ in range(100):
            if isinstance(app.screen, ColourPicker):
                break
            await pilot.pause(0.01)
        assert isinstance(app.screen, ColourPicker), app.screen


async def test_a_hand_shown_while_a_computer_player_stood_in_does_not_open_later() -> None:
    """The stand-in challenged a Wild Draw Four for me: Ann's hand was shown to my seat.
    Coming back (``b``) does not bring up that old hand over the table (the log has the
    verdict), where the turn timer may already be running."""
    rules = Rules.preset("classic").with_(hand_size=3)
    game = Game(["Ann", "Me"], rules, dealer=1, deck=deal_order(["W+4 R5 R6", "B1 B2 B3"], "G1", dealer=1),
                seed=1)
    game.apply(0, Action.parse("W+4"))
    game.apply(0, Action.parse("colour R"))
    table = TableScreen(seat_view(game, 1), marks=(SeatMark.PERSON, SeatMark.IDLE))
    app = showing(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.05)
        game.apply(1, Action.parse("challenge"))  # the stand-in's (innocent: Ann held no green)
        table.view = seat_view(game, 1)
        await pilot.pause(0.05)
        assert app.screen is table
        table.marks = (SeatMark.PERSON, SeatMark.PERSON)
        await pilot.pause(0.1)
        assert app.screen is table, app.screen
