"""The names everyone uses for a table's life, its seats and their deadlines, stated once.

A table's status, a seat's kind and presence, and a deadline's kind travel on the wire
(``table``, ``lobby``, ``presence`` and ``deadline`` messages, see ``protocol/SPEC.md``),
are stored by the lobby or the journal, are decided by
the referee and the host, and are shown by the screens.  Each of those reads the names
from here, so a new state is added in one place and the codec cannot accept a name the
host never sends.  They are :class:`enum.StrEnum`: a member compares equal to its text and
serialises as that text, so the bytes on the wire are the names themselves.

This lives in the table layer because it is the lowest layer that decides any of them
(the referee reports ``away``, ``back`` and ``bot``, and its deadlines); the protocol, the host, the lobby and
the UI all sit above it.
"""

from __future__ import annotations

import enum

__all__ = ["SENT_PRESENCE", "DeadlineKind", "PresenceState", "SeatKind", "TableStatus"]


class TableStatus(enum.StrEnum):
    """A table's life: people gather, the match runs, the result is shown."""

    WAITING = "waiting"
    PLAYING = "playing"
    OVER = "over"


class SeatKind(enum.StrEnum):
    """Who holds a seat: nobody yet, a person, or a computer player (for good)."""

    OPEN = "open"
    HUMAN = "human"
    BOT = "bot"


class DeadlineKind(enum.StrEnum):
    """Which clock a deadline is for: the turn timer, the UNO catch grace, or the hold of
    a dropped person's seat (the three fields of :class:`~unotui.table.outcome.Deadlines`
    a seat is told about)."""

    TURN = "turn"
    CATCH = "catch"
    HOLD = "hold"


class PresenceState(enum.StrEnum):
    """What became of someone's connection to a seat.

    ``joined``: a person took a seat in the waiting room; ``away``: their connection
    dropped (the seat is held); ``back``: they control the seat again; ``bot``: a computer
    player plays the seat (after three timeouts in a row, until the person acts again, or
    for good once the hold expired); ``left``: they said goodbye (``bye``): before the match
    the seat is open again, during it the seat is held as for ``away`` (they may come back
    with their token or key) and the others know not to wait for them.
    ``reconnecting`` is a remote seat telling its own screen that it lost the host and is
    resuming: it is never sent (see :data:`SENT_PRESENCE`).
    """

    JOINED = "joined"
    AWAY = "away"
    BACK = "back"
    BOT = "bot"
    LEFT = "left"
    RECONNECTING = "reconnecting"


SENT_PRESENCE: tuple[PresenceState, ...] = tuple(
    state for state in PresenceState if state is not PresenceState.RECONNECTING
)
"""The presence states a ``presence`` message may carry, in the spec's order."""
