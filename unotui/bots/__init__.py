"""Computer players.  They import only the engine and see only a seat's view.

``make_bot(level)`` builds one of :data:`LEVELS` (named from :data:`BOT_NAMES` at a
table); ``suggest(view)`` is the hint API.
See ``docs/bots.md``.
"""

from .base import MIN_CATCH_DELAY, BaseBot, Bot, RandomBot, react
from .factory import LEVELS, VARIANTS, make_bot
from .hard import HardBot, HardPolicy, HonestBot, suggest
from .knowledge import Knowledge
from .names import BOT_NAMES
from .policy import EasyBot, GreedyBot, MediumBot

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
