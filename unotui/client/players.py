"""The hint the front end gets: :func:`unotui.bots.suggest`, kept from ever stopping a game.
"""

from __future__ import annotations

from ..bots import suggest as _suggest
from ..engine import Action, SeatView

__all__ = ["suggest"]


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
