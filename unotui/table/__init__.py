"""The table referee: one time-free, sans-I/O owner of every timing rule of a table.

``LocalGame``, the simulator and a network host all drive the same :class:`Referee`;
tests drive it with a fake clock.  This package imports no asyncio, Textual or msgpack.
See ``docs/architecture.md`` ("The referee").
"""

from .outcome import (
    AUTO_KEEP,
    AWAY,
    BAD_SEQ,
    BOT_SEAT,
    MIN_CATCH_GRACE,
    NOT_READY,
    SEAT_LOST,
    STALE_SEQ,
    TOO_EARLY,
    Accepted,
    Deadlines,
    Outcome,
    Pacing,
    PresenceChange,
    Refusal,
)
from .referee import Referee
from .schedule import Decision
from .seats import ANSWERS_KEPT, STANDIN_LEVEL, TIMEOUTS_TO_BOT
from .states import SENT_PRESENCE, DeadlineKind, PresenceState, SeatKind, TableStatus

__all__ = [
    "ANSWERS_KEPT", "AUTO_KEEP", "AWAY", "BAD_SEQ", "BOT_SEAT", "MIN_CATCH_GRACE", "NOT_READY", "SEAT_LOST",
    "SENT_PRESENCE", "STALE_SEQ", "STANDIN_LEVEL", "TIMEOUTS_TO_BOT", "TOO_EARLY", "Accepted", "DeadlineKind",
    "Deadlines", "Decision", "Outcome", "Pacing", "PresenceChange", "PresenceState", "Referee", "Refusal",
    "SeatKind", "TableStatus",
]
