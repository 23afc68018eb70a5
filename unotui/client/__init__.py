"""Between the front end and a game: the controller interface and its local implementation.

Nothing here imports Textual, so a network client, the tests and the benchmark can use
it without a screen.  See ``docs/ui.md``.
"""

from .controller import (
    Answered,
    Chat,
    Closed,
    Controller,
    Deadline,
    Listener,
    Presence,
    Refused,
    Update,
    ViewChanged,
)
from .local import MIN_CATCH_GRACE, LocalGame
from .players import suggest

__all__ = [
    "MIN_CATCH_GRACE",
    "Answered",
    "Chat",
    "Closed",
    "Controller",
    "Deadline",
    "Listener",
    "LocalGame",
    "Presence",
    "Refused",
    "Update",
    "ViewChanged",
    "suggest",
]
