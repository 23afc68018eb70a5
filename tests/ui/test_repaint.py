"""The table repaints only what changed (issue 18, "Capacity at human pace").

A seated SSH session's CPU is its screen: every repaint of a panel renders all its lines
again.  These tests count how often a panel's content is rendered (Textual calls a
widget's ``render`` only when it was refreshed and is painted again), through the pilot,
and check that a turn-clock tick repaints the clock's line and not the pile panel, and
that an update whose only news is a log line repaints the log and not the hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from textual.events import Resize
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import VisualType
from textual.widget import Widget

from tests.ui.tui_support import HandClock, full_text, showing
from unotui.engine import Event, EventKind, Game, Rules, seat_view
from unotui.ui.game_log import GameLog
from unotui.ui.screens.table import TableScreen
from unotui.ui.widgets import HandView, PileView, PlayersView, StatusLine

pytestmark = pytest.mark.timeout(30)


def _count_renders(widgets: list[Widget]) -> Counter[str]:
    """Count each widget's content renders (by class name) from now on."""
    counts: Counter[str] = Counter()
    for widget in widgets:
        original = widget.render

        def counting(original: Callable[[], VisualType] = original, name: str = type(widget).__name__) -> Any:
            counts[name] += 1
            return original()

        widget.render = counting  # type: ignore[method-assign]
    return counts


def _table() -> tuple[Game, int, TableScreen]:
    game = Game(["Me", "P1", "P2", "P3"], Rules.preset("classic"), seed=3)
    me = game.actor
    return game, me, TableScreen(seat_view(game, me))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_turn_clock_tick_repaints_the_clock_not_the_pile(size: tuple[int, int]) -> None:
    _game, me, table = _table()
    clock = table.turn_clock.clock = HandClock()
    app = showing(table)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table.deadline = (me, 30.0)
        await pilot.pause()
        assert "Time left: 30 s" in full_text(app)
        counts = _count_renders([table.query_one(w) for w in (PileView, PlayersView, HandView)])
        for second in range(1, 6):
            clock.now += 1.0
            table.tick_clock()
            await pilot.pause()
            assert f"Time left: {30 - second} s" in full_text(app)  # the tick is shown ...
        assert counts == Counter()  # ... and the pile (and the rest) were not rendered again


async def test_an_update_with_only_a_new_log_line_does_not_repaint_the_hand() -> None:
    _game, me, table = _table()
    app = showing(table)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        view = table.view
        assert view is not None
        widgets: list[Widget] = [table.query_one(w) for w in (HandView, PileView, PlayersView, StatusLine)]
        counts = _count_renders(widgets)
        lines = len(table.query_one(GameLog).lines)
        # the same moment, and one more line in the log (someone called UNO early, say)
        uno = Event(EventKind.UNO, seat=(me + 1) % 4)
        table.view = view._replace(log=(*view.log, uno), version=view.version + 1)
        await pilot.pause()
        table.note("P2: good luck")  # a chat line: the log's too
        await pilot.pause()
        assert "good luck" in full_text(app)
        assert len(table.query_one(GameLog).lines) == lines + 2  # the log has its two new lines ...
        assert counts["HandView"] == counts["PileView"] == counts["PlayersView"] == counts["StatusLine"] == 0


async def test_a_move_still_repaints_what_it_changes() -> None:
    """The other side: a real move shows (the comparison does not swallow changes)."""
    game, me, table = _table()
    app = showing(table)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        counts = _count_renders([table.query_one(w) for w in (PileView, PlayersView, HandView)])
        game.apply(me, game.legal_actions(me)[0])
        table.view = seat_view(game, me)
        await pilot.pause()
        assert counts["HandView"] == 1 and counts["PlayersView"] == 1
        table.cursor = (table.cursor + 1) % len(seat_view(game, me).hand)  # the selection moves
        await pilot.pause()
        assert counts["HandView"] == 2 and counts["PlayersView"] == 1


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40)])
async def test_the_tables_first_frame_is_the_finished_table(size: tuple[int, int],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Each panel's first render is of its content at its laid-out width, and none is
    rendered twice before the table is up: the first frame is the finished table, not an
    empty one redrawn at the first resize (issue 19 item 11: one full paint less at
    start-up).  Before, the pile and hand rendered empty first and again at the resize."""
    from unotui.ui.panel import Panel

    renders: list[tuple[str, int, str]] = []
    original = Panel.render

    def render(self: Panel) -> Any:
        out = original(self)
        renders.append((type(self).__name__, self.size.width, str(out)))
        return out

    monkeypatch.setattr(Panel, "render", render)
    _game, _me, table = _table()
    app = showing(table)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        final = {name: text for name, _, text in renders}
        first: dict[str, tuple[int, str]] = {}
        for name, width, text in renders:
            first.setdefault(name, (width, text))
        assert set(first) >= {"PileView", "HandView", "PlayersView", "StatusLine", "KeyBar"}
        for name, (width, text) in first.items():
            assert width == table.query_one(name).size.width, name  # (the type name is its selector)
            assert text and text == final[name], (name, text)
        assert "Draw pile" in first["PileView"][1] and "cards" in first["HandView"][1]
        assert Counter(name for name, _, _ in renders)["PileView"] == 1


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_logs_first_frame_shows_what_was_written_before_it(size: tuple[int, int],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The log's first paint has the sentences written before it had a width (the round's
    opening lines): ``RichLog`` writes those when its first ``Resize`` is handled, after the
    frame it was first laid out in, and the table's first frame showed an empty log."""
    painted: list[str] = []
    original = GameLog.render_lines

    def render_lines(self: GameLog, crop: Region) -> list[Strip]:
        strips = original(self, crop)
        painted.append("\n".join(strip.text for strip in strips))
        return strips

    monkeypatch.setattr(GameLog, "render_lines", render_lines)
    _game, _me, table = _table()
    app = showing(table)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert painted, "the log was never painted"
        assert "Round 1:" in painted[0] and "The first card is" in painted[0], painted[0]
        assert painted[-1].count("The first card is") == 1  # (written once, not again at the resize)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_table_is_laid_out_once_at_a_size(size: tuple[int, int],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``Resize`` to the size the table is laid out at lays nothing out again: the one
    its own first layout posts it and the terminal's size sent again when the app is idle
    laid the whole table out and painted it twice more just after the first frame (five
    layouts at opening, where two remain: the first frame's, and the one the mount's end
    and the log's new scroll height ask for), and that frame waited on them to reach the
    terminal.  A new size is still laid out."""
    layouts: list[tuple[int, int]] = []
    original = TableScreen._refresh_layout

    def refresh_layout(self: TableScreen, size: Size | None = None, scroll: bool = False) -> None:
        if not scroll:  # (a scroll alone moves what is laid out already)
            layouts.append(tuple(size or self.app.size))  # type: ignore[arg-type]
        original(self, size, scroll)

    monkeypatch.setattr(TableScreen, "_refresh_layout", refresh_layout)
    _game, _me, table = _table()
    app = showing(table)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert layouts == [size, size]
        app.post_message(Resize(Size(*size), Size(*size)))  # the terminal says its size again
        await pilot.pause()
        assert layouts == [size, size]
        wider = (size[0] + 10, size[1])
        await pilot.resize_terminal(*wider)
        await pilot.pause()
        assert layouts[2:] and set(layouts[2:]) == {wider}
        assert table.query_one(GameLog).region.right == wider[0]  # laid out at the new size
