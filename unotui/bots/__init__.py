"""Computer players.  They import only the engine and see only a seat's view.

``make_bot(level)`` builds one of :data:`LEVELS` (named from :data:`BOT_NAMES` at a
table); ``suggest(view)`` is the hint API.
See ``docs/bots.md``.

The hard bot's names (``HardBot``, ``HardPolicy``, ``HonestBot``, ``suggest``,
``Knowledge``) are loaded from their modules on first use (PEP 562), like the hard bot that
:func:`make_bot` builds: a solo table of medium bots starts without the search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import names_from
from .base import MIN_CATCH_DELAY, BaseBot, Bot, RandomBot, react
from .factory import LEVELS, VARIANTS, make_bot
from .names import BOT_NAMES
from .policy import EasyBot, GreedyBot, MediumBot

if TYPE_CHECKING:
    from .hard import HardBot, HardPolicy, HonestBot, suggest
    from .knowledge import Knowledge

#: the names loaded on first use -> the module that defines each
_LATER = {"HardBot": "hard", "HardPolicy": "hard", "HonestBot": "hard", "suggest": "hard",
          "Knowledge": "knowledge"}


__getattr__ = names_from(__name__, _LATER)

__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "MIN_CATCH_DELAY",
    "VARIANTS",
    "BaseBot",
    "Bot",
    "EasyBot",
    "GreedyBot",
    "HardBot",
    "HardPolicy",
    "HonestBot",
    "Knowledge",
    "MediumBot",
    "RandomBot",
    "make_bot",
    "react",
    "suggest",
]
