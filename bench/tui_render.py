"""How fast the table re-renders (``bench/tui.py`` reports these beside the start-up):

1. after a move with 10 players (120x40, headless): the time from handing the screen a new
   view to the frame being composed, median over many moves;
2. at a turn-clock tick at the same table: the time from the clock's next second to the
   frame being composed, and which panels were rendered again for it (only the clock's
   line should be: a seated session pays this every second, whoever is acting).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unotui.engine import Action, SeatView

__all__ = ["clock_tick", "rerender"]


def _views(players: int, moves: int, seed: int) -> list[SeatView]:
    from unotui.engine import Game, Phase, Rules, seat_view

    game = Game(players, Rules.preset("giant"), seed=seed)
    rng = random.Random(seed + 1)
    views = [seat_view(game, 0)]
    while len(views) < moves and not game.over:
        actor = game.actor if game.phase != Phase.ROUND_OVER else game.dealer
        legal = game.legal_actions(actor)
        game.apply(actor, legal[rng.randrange(len(legal))])
        views.append(seat_view(game, 0))
    return views


async def rerender(players: int = 10, moves: int = 200) -> float:
    """Median milliseconds to re-render the table after a move."""
    from unotui.engine import ENDED_PHASES
    from unotui.net.controller import Controller
    from unotui.ui.app import UnoApp
    from unotui.ui.screens.table import TableScreen
    from unotui.ui.settings import Config, GameOptions

    views = _views(players, moves, 7)

    class Frozen(Controller):
        """A controller that sends the first view and nothing else."""

        seat = 0

        @property
        def view(self) -> SeatView:
            return views[0]

        async def start(self) -> None:
            from unotui.protocol.events import ViewUpdated

            self._emit(ViewUpdated(views[0]))

        def send(self, action: Action) -> int:
            return 0

        def next_round(self) -> None:
            pass

        async def hint(self) -> None:
            return None

        async def close(self) -> None:
            pass

    app = UnoApp(Config(), GameOptions(players=players), factory=lambda _: Frozen(), save_settings=False)
    times: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        for view in views[1:]:
            if view.phase in ENDED_PHASES:
                continue
            start = time.perf_counter()
            table.view = view
            await pilot._wait_for_screen()
            app.screen._on_timer_update()  # lay out and compose the frame now
            times.append(time.perf_counter() - start)
            while app.screen is not table:  # a dialog opened (colour, reveal): close it
                app.pop_screen()
                await pilot._wait_for_screen()
    return statistics.median(times) * 1000


async def clock_tick(players: int = 10, ticks: int = 30) -> tuple[float, list[str]]:
    """Median milliseconds to show a turn-clock tick, and the panels rendered for it."""
    from textual.app import App

    from unotui.ui.screens.table import TableScreen

    view = _views(players, 1, 7)[0]
    table = TableScreen(view)
    now = [1000.0]
    table.turn_clock.clock = lambda: now[0]
    rendered: set[str] = set()

    class One(App[None]):
        def on_mount(self) -> None:
            self.push_screen(table)

    times: list[float] = []
    async with One().run_test(size=(120, 40)) as pilot:
        table.deadline = (view.actor, 300.0)
        await pilot.pause()
        for widget in table.query("*"):  # from here on: which panels render their content again
            original = widget.render

            def render(original: Any = original, name: str = f"{type(widget).__name__}#{widget.id}") -> Any:
                rendered.add(name)
                return original()

            widget.render = render  # type: ignore[method-assign]
        for _ in range(ticks):
            now[0] += 1.0
            start = time.perf_counter()
            table.tick_clock()
            await pilot._wait_for_screen()
            table._on_timer_update()
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, sorted(rendered)
