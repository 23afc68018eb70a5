"""Building bots by level name: ``make_bot("hard")``.

Every level is cheap to build (no tables, no I/O) and picklable, so a host can build one
per seat, or per decision inside a worker thread or process, without blocking its event
loop.  Reproducible games pass a seeded ``Random``.

The hard bot's module (its search, playouts, knowledge and memory) is imported the first
time a hard bot is built: a table of medium bots, solo play's default, starts without it.
"""

from __future__ import annotations

from random import Random
from typing import Any

from .base import BaseBot, RandomBot
from .policy import EasyBot, GreedyBot, MediumBot

__all__ = ["LEVELS", "VARIANTS", "make_bot"]

#: level -> its class, or the name of its class in :mod:`.hard` (imported when first built)
_CLASSES: dict[str, type[BaseBot] | str] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": "HardBot",
}

LEVELS: tuple[str, ...] = tuple(_CLASSES)
"""Known levels, weakest first (``greedy`` is the published anchor, not a difficulty): the
names :func:`make_bot` builds, so the list and the builders cannot drift apart."""

# Benchmark baselines, not difficulties (no table offers them): name -> (level, options).
_VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "hard-nolearn": ("hard", {"learn": False}),  # hard with the fixed assumptions only
    "honest": ("honest", {}),  # hard, plain, that never bluffs a Wild Draw Four
}
_CLASSES_ALL: dict[str, type[BaseBot] | str] = {**_CLASSES, "honest": "HonestBot"}

VARIANTS: tuple[str, ...] = tuple(_VARIANTS)
"""Other names :func:`make_bot` builds: ``hard-nolearn`` (hard without learning within a
match) and ``honest`` (never bluffs a Wild Draw Four), the baselines of
``bench/bots.py --learning``."""

# Options each level understands beyond the common ones (think_delay, catch_delay, catch_rate).
# Every level below hard may forget to call UNO; hard never does.
_EXTRA: dict[str, frozenset[str]] = {
    "random": frozenset({"forget_uno"}),
    "greedy": frozenset({"forget_uno"}),
    "easy": frozenset({"forget_uno"}),
    "medium": frozenset({"objective", "forget_uno"}),
    "hard": frozenset({"objective", "deadline", "rollouts", "search", "learn"}),
}
_EXTRA["honest"] = _EXTRA["hard"]
_COMMON = frozenset({"think_delay", "catch_delay", "catch_rate"})


def make_bot(level: str, rng: Random | None = None, **options: Any) -> BaseBot:
    """A bot of ``level`` (one of :data:`LEVELS` or :data:`VARIANTS`).

    Args:
        level: the level's name (case-insensitive).
        rng: its random source (default: a fresh unseeded ``Random``).
        **options: ``think_delay``, ``catch_delay``, ``catch_rate`` for every level;
            ``forget_uno`` (chance of forgetting to call UNO) below hard;
            ``objective`` ("hands" or "points") for medium and hard; ``deadline``,
            ``rollouts``, ``search`` and ``learn`` for hard.  Options a level does not use are
            ignored (so one option set can build a whole table), except unknown names.

    Raises:
        ValueError: an unknown level or option, naming the known ones.
    """
    key = level.strip().lower()
    fixed: dict[str, Any] = {}
    if key in _VARIANTS:
        key, fixed = _VARIANTS[key]
    cls = _CLASSES_ALL.get(key)
    if cls is None:
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS + VARIANTS)})")
    if isinstance(cls, str):
        from . import hard

        cls = _CLASSES_ALL[key] = getattr(hard, cls)
    allowed = _COMMON | _EXTRA.get(key, frozenset())
    everything = _COMMON.union(*_EXTRA.values())
    unknown = sorted(set(options) - everything)
    if unknown:
        known = ", ".join(sorted(everything))
        raise ValueError(f"unknown bot option(s) {', '.join(unknown)} (known: {known})")
    kwargs = {k: v for k, v in options.items() if k in allowed} | fixed
    return cls(rng, **kwargs)
