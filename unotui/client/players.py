"""Where the front end gets computer players and hints.

This is the one place to change when stronger bots land: ``make_bot(level, rng)`` and
``suggest(view)`` come from :mod:`unotui.bots` when it provides them; until then every
level is the uniformly random player and the hint is a simple legal-action heuristic.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import cast

from .. import bots as _bots
from ..bots import Bot, RandomBot
from ..engine import (
    ACCEPT,
    CALL_UNO,
    DEAL,
    DRAW,
    Action,
    Card,
    Catch,
    ChooseColour,
    Colour,
    Discard,
    Play,
    SeatView,
)

__all__ = ["BOT_LEVELS", "BOT_NAMES", "catch_delay", "make_bot", "react", "suggest"]

BOT_LEVELS: tuple[str, ...] = ("random", "greedy", "easy", "medium", "hard")
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

_make = cast("Callable[[str, Random], Bot] | None", getattr(_bots, "make_bot", None))
_suggest = cast("Callable[[SeatView], Action] | None", getattr(_bots, "suggest", None))
_react = cast("Callable[[object, SeatView], Action | None] | None", getattr(_bots, "react", None))


def react(bot: Bot, view: SeatView) -> Action | None:
    """What ``bot`` does out of turn (catch, late UNO call), or ``None`` to let it pass.

    Uses ``unotui.bots.react`` when the bots provide it; until then a bot always catches
    a seat that forgot UNO, and never calls UNO late for itself.
    """
    if _react is not None:
        try:
            return _react(bot, view)
        except Exception:  # a broken bot must not stop the game
            return None
    for a in view.legal:
        if isinstance(a, Catch):
            return a
    return None


def catch_delay(bot: Bot) -> float:
    """The bot's own least delay before a catch (0 if it has none)."""
    value = getattr(bot, "catch_delay", 0.0)
    return float(value) if isinstance(value, int | float) else 0.0


def make_bot(level: str, rng: Random) -> Bot:
    """A computer player of ``level`` (every level is random until stronger bots land)."""
    if _make is not None:
        try:
            return _make(level, rng)
        except (KeyError, ValueError):
            pass
    return RandomBot(rng)


def _best_colour(hand: tuple[Card, ...]) -> Colour:
    counts = {c: 0 for c in Colour}
    for card in hand:
        if card.colour is not None:
            counts[card.colour] += 1
    return max(Colour, key=lambda c: (counts[c], -int(c)))


def suggest(view: SeatView) -> Action | None:
    """A sensible legal action for the viewer now, or ``None`` if there is none."""
    legal = view.legal
    if not legal:
        return None
    if _suggest is not None:
        try:
            return _suggest(view)
        except Exception:  # a hint must never break the game
            pass
    for a in legal:
        if a == CALL_UNO or isinstance(a, Catch):
            return a
    colours = [a for a in legal if isinstance(a, ChooseColour)]
    if colours:
        best = _best_colour(view.hand)
        return next((a for a in colours if a.colour is best), colours[0])
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        # Shed coloured cards before wilds, high value first; always call UNO.
        plays.sort(key=lambda a: (a.card.is_wild, -a.card.points, not a.uno))
        return plays[0]
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        return max(discards, key=lambda a: a.card.points)
    for preferred in (DRAW, ACCEPT, DEAL):
        if preferred in legal:
            return preferred
    return legal[0]
