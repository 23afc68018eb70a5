"""Where the front end gets computer players and hints: a thin layer over
:mod:`unotui.bots` that keeps a broken bot or hint from stopping a game.

The levels are the bots' own :data:`unotui.bots.LEVELS` (``BOT_LEVELS`` here is the same
tuple, for the settings screens); an unknown level is an error, never a silent fallback.
"""

from __future__ import annotations

from random import Random

from ..bots import LEVELS, Bot
from ..bots import make_bot as _make_bot
from ..bots import suggest as _suggest
from ..engine import Action, SeatView

__all__ = ["BOT_LEVELS", "BOT_NAMES", "make_bot", "suggest"]

BOT_LEVELS: tuple[str, ...] = LEVELS
"""The computer players' levels, weakest first (the one list: :data:`unotui.bots.LEVELS`)."""

BOT_NAMES: tuple[str, ...] = (
    "Ada",
    "Blaise",
    "Grace",
    "Alan",
    "Edsger",
    "Barbara",
    "Donald",
    "Radia",
    "Ken",
)


def make_bot(level: str, rng: Random) -> Bot:
    """A computer player of ``level`` (one of :data:`BOT_LEVELS`).

    Raises:
        ValueError: an unknown level, naming it and the known ones.
    """
    return _make_bot(level, rng)


def suggest(view: SeatView) -> Action | None:
    """A sensible legal action for the viewer now (the hard policy's), or ``None`` if
    there is none.  A hint must never break the game, so a failing policy gives the
    first legal action."""
    legal = view.legal
    if not legal:
        return None
    try:
        return _suggest(view)
    except Exception:
        return legal[0]
