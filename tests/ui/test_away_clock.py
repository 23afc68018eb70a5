"""A held seat's countdown on the table (the fake clock moves it): on the status line
instead of "Waiting for Bob to play." when it is Bob's turn, below the pile otherwise,
gone when the host says the hold is over; and the log's "time's up" words."""

from __future__ import annotations

import pytest

from tests.clock import FakeClock
from tests.hostile.test_screens import wait_for
from tests.ui.tui_support import full_text, showing
from unotui.engine import ACCEPT, DRAW, Action, Game, Rules, deal_order, seat_view
from unotui.ui.screens.table import TableScreen
from unotui.ui.turn_clock import times_up

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_deciding_seat_s_hold_replaces_waiting_and_counts_down(size: tuple[int, int]) -> None:
    game = Game(["Ann", "Bob", "Cleo"], Rules.preset("classic"), seed=3)
    bob = game.actor  # (the seat deciding: whoever it is, called Bob below)
    names = ["Ann", "Cleo", "Dan"]
    names[bob] = "Bob"
    game = Game(names, Rules.preset("classic"), seed=3)  # (the same deal: names change nothing)
    assert game.actor == bob and game.names[bob] == "Bob"
    me = (bob + 1) % 3
    table = TableScreen(seat_view(game, me))
    clock = FakeClock()
    table.turn_clock.clock = clock.time
    app = showing(table)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: "Draw pile" in full_text(app))
        status = lambda: full_text(app).splitlines()[0]  # noqa: E731
        assert "Waiting for Bob to play." in status()
        table.hold = (bob, 120.0)
        await pilot.pause()
        assert "Bob is away: a computer player takes the seat in 2:00." in status()
        assert "Waiting for Bob" not in status()
        clock.advance(15.2)
        table.tick_clock()
        await pilot.pause()
        assert "takes the seat in 1:45." in status()
        clock.advance(200)
        table.tick_clock()
        await pilot.pause()
        assert "takes the seat in 0:00." in status()  # the host takes it any moment
        table.hold = (-1, None)  # the hold is over (back, or a computer player has it)
        await pilot.pause()
        assert "Waiting for Bob to play." in status() and "away" not in full_text(app)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_held_seat_that_is_not_deciding_is_counted_down_below_the_pile(size: tuple[int, int]) -> None:
    game = Game(["Ann", "Bob", "Cleo"], Rules.preset("classic"), seed=3)
    me = game.actor
    other = (me + 1) % 3
    table = TableScreen(seat_view(game, me))
    clock = FakeClock()
    table.turn_clock.clock = clock.time
    app = showing(table)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: "Draw pile" in full_text(app))
        table.hold = (other, 105.0)
        await pilot.pause()
        name = game.names[other]
        assert f"{name} is away: a bot takes over in 1:45" in full_text(app)
        assert "Your turn" in full_text(app).splitlines()[0]


def test_time_s_up_says_what_the_table_did_for_whom() -> None:
    game = Game(["Ann", "Bob"], Rules.preset("classic"), seed=3)
    actor = game.actor
    game.apply(actor, DRAW)
    other = 1 - actor
    assert times_up(seat_view(game, actor), actor) == "Time's up: the table drew 1 card for you."
    name = game.names[actor]
    assert times_up(seat_view(game, other), actor) == f"Time's up for {name}: the table drew 1 card."
    assert times_up(seat_view(game, None), actor) == f"Time's up for {name}: the table drew 1 card."


def test_time_s_up_after_accepting_a_wild_draw_four_says_accepted_not_the_skip_after_it() -> None:
    rules = Rules.preset("classic").with_(hand_size=3)
    game = Game(["Ann", "Bob"], rules, dealer=1, deck=deal_order(["W+4 R5 R6", "B1 B2 B3"], "G1", dealer=1),
                seed=1)
    game.apply(0, Action.parse("W+4"))
    game.apply(0, Action.parse("colour R"))
    game.apply(1, ACCEPT)  # the engine's timeout action in the challenge phase: draw 4, lose the turn
    assert times_up(seat_view(game, 0), 1) == "Time's up for Bob: the table accepted the Wild Draw Four."
