"""A running scoreboard between rounds (issue 19 item 7): each round's points and the
totals so far on the round summary, not only the chart at the match's end.  The summary
is put up over a small app, as the table puts it up, at 80x24 and 120x40."""

from __future__ import annotations

from random import Random

import pytest
from textual.app import App

from unotui.engine import Game, Rules
from unotui.engine.views import seat_view
from unotui.ui.screens.results import RoundOverScreen

from .tui_support import full_text


def _rows(rounds: int) -> list[list[int]]:
    rng, rows = Random(3), [[0, 0, 0]]
    for _ in range(rounds):
        winner = rng.randrange(3)
        rows.append([x + (rng.randrange(5, 90) if s == winner else 0) for s, x in enumerate(rows[-1])])
    return rows


@pytest.mark.parametrize(("size", "rounds"), [((80, 24), 3), ((120, 40), 3), ((80, 24), 14), ((120, 40), 14)])
async def test_the_round_summary_shows_every_rounds_points_and_the_totals(
        size: tuple[int, int], rounds: int) -> None:
    rows = _rows(rounds)
    view = seat_view(Game(["Me", "Ada", "Blaise"], Rules.preset("classic"), seed=1), 0)
    view = view._replace(scores=tuple(rows[-1]), round_no=rounds)

    class Table(App[None]):
        def on_mount(self) -> None:
            self.push_screen(RoundOverScreen(view, "default", rows))

    app = Table()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = full_text(app)
        assert "Scores so far" in text
        lines = [line.strip().strip("█").strip() for line in text.splitlines()]  # (inside the frame)
        header = next(line for line in lines if "total" in line and f"R{rounds}" in line)
        assert header.startswith("player ")  # the names' column is never narrower than its header
        if rounds > 8 and size[0] == 80:
            assert "R1-" in header  # the rounds that do not fit are added up, the latest shown
        ada = next(line for line in lines if line.startswith("Ada") and line.endswith(str(rows[-1][1]))
                   and "+" not in line)  # (the scoreboard's row, not the round's)
        assert any("Shuffle not checked" in line for line in lines)  # the mark is never split
        assert str(rows[rounds][1] - rows[rounds - 1][1]) in ada.split()


async def test_the_first_rounds_summary_has_no_scoreboard_yet() -> None:
    rows = _rows(1)
    view = seat_view(Game(["Me", "Ada", "Blaise"], Rules.preset("classic"), seed=1), 0)
    view = view._replace(scores=tuple(rows[-1]), round_no=1)

    class Table(App[None]):
        def on_mount(self) -> None:
            self.push_screen(RoundOverScreen(view, "default", rows))

    async with Table().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Scores so far" not in full_text(pilot.app)


def test_short_names_leave_the_scoreboards_header_whole() -> None:
    """"pl… R1 R2 total" at a table of You and Ada: the names' column is as wide as its header."""
    from rich.console import Console

    from unotui.ui.screens.results import scoreboard

    rows = _rows(2)
    view = seat_view(Game(["You", "Ada", "Bo"], Rules.preset("classic"), seed=1), 0)
    board = scoreboard(view._replace(scores=tuple(rows[-1]), round_no=2), rows, 68)
    console = Console(width=72, record=True)
    console.print(board)
    header = console.export_text().splitlines()[1].split()
    assert header == ["player", "R1", "R2", "total"]  # (was "pl…")
