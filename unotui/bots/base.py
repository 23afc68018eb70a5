"""The computer-player interface, and the uniformly random player.

A bot is given a :class:`~unotui.engine.SeatView` and nothing else: never the
:class:`~unotui.engine.Game`, so it cannot see hidden cards by construction.  It returns
one action from ``view.legal``.  Bots may keep private memory between calls (card
counting) but it is fed only from views.
"""

from __future__ import annotations

from random import Random
from typing import Protocol, runtime_checkable

from ..engine import Action, SeatView

__all__ = ["Bot", "RandomBot"]


@runtime_checkable
class Bot(Protocol):
    """A computer player: picks one of ``view.legal`` for the view's seat."""

    name: str

    def choose(self, view: SeatView) -> Action:
        """Return one of ``view.legal``.  Must not block for long (see ``deadline``)."""
        ...


class RandomBot:
    """Uniform over the legal actions: the baseline every other level must beat."""

    name = "random"

    def __init__(self, rng: Random | None = None) -> None:
        self.rng = rng or Random()

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        return legal[self.rng.randrange(len(legal))]
