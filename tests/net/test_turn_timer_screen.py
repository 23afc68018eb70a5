"""The turn timer on the table screen: a hosted table's deadline is counted down beside
the pile, for whoever is acting, and disappears when the turn moves on."""

from __future__ import annotations

import re

import pytest

from tests.hostile.test_screens import joined_app, wait_for
from tests.net.lan_support import FAST, hosted
from tests.ui.tui_support import HandClock, full_text, showing
from unotui.engine import DRAW, Game, Rules, seat_view
from unotui.net.config import RoomConfig
from unotui.net.room_info import SeatMark
from unotui.protocol import messages as m
from unotui.table import DeadlineKind
from unotui.ui.lan import show_update
from unotui.ui.screens.table import TableScreen

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("fast_keys")]


@pytest.mark.parametrize("players", [3, 10], ids=["roomy", "compact"])
async def test_the_pile_counts_the_turn_timer_down_on_a_fake_clock(players: int) -> None:
    game = Game(["Me", *(f"P{k}" for k in range(1, players))], Rules.preset("classic"), seed=3)
    me = game.actor
    table = TableScreen(seat_view(game, me))
    clock = table.turn_clock.clock = HandClock()
    app = showing(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Draw pile" in full_text(app))
        assert "Time left" not in full_text(app)  # no timer at this table yet
        table.deadline = (me, 30.0)
        await pilot.pause()
        assert "Time left: 30 s" in full_text(app)
        clock.now += 12.2
        table.tick_clock()
        await pilot.pause()
        assert "Time left: 18 s" in full_text(app)
        clock.now += 60
        table.tick_clock()
        await pilot.pause()
        assert "Time left: 0 s" in full_text(app)  # the host acts for the seat any moment
        game.apply(me, DRAW)  # the turn moves on: an old deadline is not shown for the next seat
        if game.actor == me:
            game.apply(me, game.legal_actions(me)[-1])
        table.view = seat_view(game, me)
        await pilot.pause()
        assert game.actor != me and "Time left" not in full_text(app)
        table.deadline = (game.actor, 5.0)  # the next seat's own timer
        await pilot.pause()
        assert "Time left: 5 s" in full_text(app)
        table.deadline = (-1, None)  # the host says no timer runs
        await pilot.pause()
        assert "Time left" not in full_text(app)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_hosted_table_s_turn_timer_shows_beside_the_pile(size: tuple[int, int]) -> None:
    rules = Rules.preset("classic").with_(target_score=1000)
    config = RoomConfig(seats=2, bots=1, autostart=True, rules=rules, turn_timer=30.0, **FAST)
    async with hosted(config) as (_host, _room, port):
        app = joined_app(port)
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: app.view is not None)
            for _ in range(400):  # until it is our turn, its timer beside the pile (20 s at most)
                view = app.view
                counting = re.search(r"Time left: (2[0-9]|30) s", full_text(app))  # 30 s, less under load
                if view is not None and view.my_turn and counting:
                    break
                if not isinstance(app.screen, TableScreen):  # a first wild: we name its colour
                    await pilot.press("r")
                await pilot.pause(0.05)
            else:
                raise AssertionError(full_text(app))


async def test_the_timer_stays_whole_beside_a_pending_draw_at_80_columns() -> None:
    """With a draw pending, the five lines beside the pile were full and the timer went
    after "Pending draw: +2", cut to "T..." at 80 columns: now the pending draw takes the
    draw pile's line (the pile's card shows its count) and the timer has its own."""

    game = Game(["Me", "P1", "P2"], Rules.preset("classic"), seed=3)
    me = game.actor
    table = TableScreen(seat_view(game, me)._replace(pending=2))
    table.turn_clock.clock = HandClock()
    app = showing(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Pending draw: +2" in full_text(app))
        table.deadline = (me, 30.0)
        await pilot.pause()
        assert "Time left: 30 s" in full_text(app) and "Pending draw: +2" in full_text(app)


async def test_the_turn_timer_line_is_for_a_person_not_for_the_computer_player_standing_in() -> None:
    """"Turn timer: 30 s to decide" is said when my decision's clock starts, but not while
    a computer player plays my seat (my row says idle): it decides, not me."""
    game = Game(["Me", "Ada"], Rules.preset("classic"), seed=3)
    me = game.actor
    marks = [SeatMark.PERSON, SeatMark.PERSON]
    marks[me] = SeatMark.IDLE
    table = TableScreen(seat_view(game, me), marks=tuple(marks))
    app = showing(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Draw pile" in full_text(app))
        clock = m.Deadline(DeadlineKind.TURN, me, 30_000)
        show_update(clock, table.view, table, None)
        await pilot.pause()
        assert "Turn timer" not in full_text(app)
        marks[me] = SeatMark.PERSON
        table.marks = tuple(marks)
        show_update(clock, table.view, table, None)
        await wait_for(pilot, lambda: "Turn timer: 30 s to decide" in full_text(app))
