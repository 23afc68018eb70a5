"""Building bots by level name: ``make_bot("hard")``.

Every level is cheap to build (no tables, no I/O) and picklable, so a host can build one
per seat, or per decision inside a worker thread or process, without blocking its event
loop.  Reproducible games pass a seeded ``Random``.
"""

from __future__ import annotations

from random import Random
from typing import Any

from .base import BaseBot, RandomBot
from .hard import HardBot
from .policy import EasyBot, GreedyBot, MediumBot

__all__ = ["LEVELS", "make_bot"]

_CLASSES: dict[str, type[BaseBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
}

LEVELS: tuple[str, ...] = tuple(_CLASSES)
"""Known levels, weakest first (``greedy`` is the published anchor, not a difficulty): the
names :func:`make_bot` builds, so the list and the builders cannot drift apart."""

# Options each level understands beyond the common ones (think_delay, catch_delay, catch_rate).
# Every level below hard may forget to call UNO; hard never does.
_EXTRA: dict[str, frozenset[str]] = {
    "random": frozenset({"forget_uno"}),
    "greedy": frozenset({"forget_uno"}),
    "easy": frozenset({"forget_uno"}),
    "medium": frozenset({"objective", "forget_uno"}),
    "hard": frozenset({"objective", "deadline", "rollouts", "search"}),
}
_COMMON = frozenset({"think_delay", "catch_delay", "catch_rate"})


def make_bot(level: str, rng: Random | None = None, **options: Any) -> BaseBot:
    """A bot of ``level`` (one of :data:`LEVELS`).

    Args:
        level: the level's name (case-insensitive).
        rng: its random source (default: a fresh unseeded ``Random``).
        **options: ``think_delay``, ``catch_delay``, ``catch_rate`` for every level;
            ``forget_uno`` (chance of forgetting to call UNO) below hard;
            ``objective`` ("hands" or "points") for medium and hard; ``deadline``,
            ``rollouts`` and ``search`` for hard.  Options a level does not use are
            ignored (so one option set can build a whole table), except unknown names.

    Raises:
        ValueError: an unknown level or option, naming the known ones.
    """
    key = level.strip().lower()
    cls = _CLASSES.get(key)
    if cls is None:
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
    allowed = _COMMON | _EXTRA.get(key, frozenset())
    everything = _COMMON.union(*_EXTRA.values())
    unknown = sorted(set(options) - everything)
    if unknown:
        known = ", ".join(sorted(everything))
        raise ValueError(f"unknown bot option(s) {', '.join(unknown)} (known: {known})")
    kwargs = {k: v for k, v in options.items() if k in allowed}
    return cls(rng, **kwargs)
