"""The Players panel says whose each seat is: ``you``, ``bot`` (a computer player),
``away`` (held for a dropped person), ``idle`` (a computer player stands in after
timeouts), and still shows every seat's cards and score at 80x24 with ten players.

Solo play's marks come from the table itself (every seat but yours is a computer
player's); a hosted table's from the room and the presence updates, over real loopback
sockets in ``tests/net/test_clocks_wire.py``.
"""

from __future__ import annotations

import re

import pytest

from tests.hostile.test_screens import wait_for
from tests.ui.test_snapshots import _table
from tests.ui.tui_support import full_text, settle, showing
from unotui.engine import Game, Rules, seat_view
from unotui.net.room_info import SeatMark
from unotui.ui.screens.table import TableScreen

pytestmark = pytest.mark.timeout(60)

SIZES = [(80, 24), (120, 40)]


def panel_rows(text: str, players: int) -> list[str]:
    """The Players panel's rows (one per seat) from the screen's text."""
    rows = [line for line in text.splitlines() if re.match(r"^│ [ >] ?\d", line)]
    assert len(rows) >= players, text
    return rows[:players]


@pytest.mark.parametrize("size", SIZES)
async def test_solo_marks_you_and_every_computer_player_with_ten_players(size: tuple[int, int]) -> None:
    app = _table(10, Rules.preset("classic"), seed=8)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        text = full_text(app)
        rows = panel_rows(text, 10)
        assert re.search(r"\byou\b", rows[0]) and "bot" not in rows[0], text
        for row in rows[1:]:
            assert re.search(r"\bbot\b", row), text
        for row in rows:  # the cards and the score stay whole on every row
            assert re.search(r"\d+ cards?\s+\d+ *│", row), text


@pytest.mark.parametrize("size", SIZES)
async def test_a_hosted_table_marks_who_is_away_and_who_a_computer_player_stands_in_for(
        size: tuple[int, int]) -> None:
    names = ["Hosty", "Joey", "Joey 2", "Cleo", "Ada", "Blaise", "Grace", "Alan", "Edsger", "Barbara"]
    game = Game(names, Rules.preset("classic"), seed=3)
    screen = TableScreen(seat_view(game, 0))
    app = showing(screen)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: "Draw pile" in full_text(app))
        marks = [SeatMark.PERSON, SeatMark.AWAY, SeatMark.IDLE, SeatMark.PERSON, *[SeatMark.BOT] * 6]
        screen.marks = tuple(marks)
        await pilot.pause()
        text = full_text(app)
        rows = panel_rows(text, 10)
        assert re.search(r"Hosty\s+you\b", rows[0]), text
        assert re.search(r"Joey\s+away\b", rows[1]), text
        assert re.search(r"Joey 2\s+idle\b", rows[2]), text
        assert not re.search(r"\b(you|bot|away|idle)\b", rows[3]), text  # another person
        assert all(re.search(r"\bbot\b", row) for row in rows[4:]), text
        assert all(re.search(r"\d+ cards?\s+\d+ *│", row) for row in rows), text
        screen.marks = (SeatMark.PERSON,) * 10  # Joey is back, Joey 2 acted again
        await pilot.pause()
        rows = panel_rows(full_text(app), 10)
        assert "away" not in rows[1] and "idle" not in rows[2]


async def test_a_spectator_s_panel_marks_no_seat_as_its_own() -> None:
    game = Game(["Ann", "Bob", "Ada"], Rules.preset("classic"), seed=3)
    screen = TableScreen(seat_view(game, None), marks=(SeatMark.PERSON, SeatMark.PERSON, SeatMark.BOT))
    app = showing(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Draw pile" in full_text(app))
        rows = panel_rows(full_text(app), 3)
        assert not any("you" in row for row in rows) and re.search(r"Ada\s+bot\b", rows[2])


