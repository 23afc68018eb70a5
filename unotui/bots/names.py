"""The computer players' names, in the order a table's open seats are given them.

Beside the bots because they are theirs: the solo game names its bots with them and the
table core fills a hosted table's open seats with them, so both show the same players.
"""

from __future__ import annotations

__all__ = ["BOT_NAMES"]

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
