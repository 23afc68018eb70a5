"""The modes the app can be in, each an object the app holds only while it is in it.

The app is at home (its :mod:`~unotui.ui.home`: the main menu, or the SSH lobby with
its connection, :class:`~unotui.ui.lobby_home.InLobby`) or at a table.  A table is one :class:`AtTable`: the
controller, the last view, the chart's rows and the table screen.  Leaving the table
drops the object, so nothing of one game (a hosted table's controller, a joined table's
view) is left for the next; the seams issue's menu still thought it was joined because
the way the last game was made outlived it.  What kind of table it is (solo, hosted,
joined, a lobby's) is only how its controller is made (:func:`local_game`,
:func:`unotui.ui.lan.hosted`, :func:`unotui.ui.lan.joined`); a rematch or "New game"
makes another the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..net.controller import Controller
from ..net.local import LocalGame
from .settings import GameOptions

if TYPE_CHECKING:
    from ..engine import SeatView
    from ..net.controller import Update
    from .screens.table import TableScreen

__all__ = ["AtTable", "ControllerFactory", "local_game"]

ControllerFactory = Callable[[GameOptions], Controller]


def local_game(options: GameOptions) -> Controller:
    """The default solo table: the person at seat 0 against computer players."""
    return LocalGame(
        options.names(),
        options.rules,
        level=options.level,
        seed=options.seed,
        delay=options.delay,
        catch_grace=options.catch_grace,
    )


@dataclass(eq=False)
class AtTable:
    """The app at one table (see the module docstring)."""

    #: how this table's controller was made: a rematch or "New game" makes another so
    make: ControllerFactory
    controller: Controller
    #: the controller's last view (None until a hosted table fills up)
    view: SeatView | None = None
    #: the totals after each round, for the match chart (from the view)
    history: list[tuple[int, ...]] = field(default_factory=list)
    #: the table screen, once the first view is drawn
    table: TableScreen | None = None
    #: what the controller said before either screen was up (the waiting room's chat,
    #: presence, the room): shown on the first screen that comes up, not lost
    early: list[Update] = field(default_factory=list)

    def saw(self, view: SeatView) -> None:
        """A new view: keep it, and the chart's rows, which come from the view so that
        someone who joins or resumes in the middle of a match sees the same history."""
        self.view = view
        self.history = [tuple(0 for _ in view.names), *view.history]
