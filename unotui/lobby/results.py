"""A finished match as the store records it: each seat's place, points and who held it.

Kept apart from :mod:`unotui.lobby.lobby` (which decides *when* a result is recorded) so
that the ranking rule (the winner first, then by points in the direction the rules score;
equal points share a place) is one small pure function.
"""

from __future__ import annotations

from ..engine import Game
from ..net.seats import SeatBook
from ..table import SeatKind
from .store import Placing

__all__ = ["placings"]


def placings(game: Game, book: SeatBook, default_level: str) -> list[Placing]:
    """The places of ``game`` (over: ``game.winner`` is set), seat names and owners from
    ``book``; computer players without a level of their own played at ``default_level``."""
    sign = 1 if game.rules.scoring.value == "lowest" else -1  # who did better
    order = sorted(range(game.n), key=lambda s: (s != game.winner, sign * game.scores[s]))
    out: list[Placing] = []
    for place, seat in enumerate(order, 1):
        entry = book.seats[seat]
        tied = bool(out) and seat != game.winner and game.scores[seat] == out[-1].points
        out.append(Placing(
            name=entry.name, rank=out[-1].rank if tied else place, points=game.scores[seat],
            identity=entry.identity if entry.kind == SeatKind.HUMAN else None,
            bot_level=(entry.level or default_level) if entry.kind == SeatKind.BOT else None,
        ))
    return out
