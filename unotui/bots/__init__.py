"""Computer players.  They import only the engine and see only a seat's view."""

from .base import Bot, RandomBot

__all__ = ["Bot", "RandomBot"]
