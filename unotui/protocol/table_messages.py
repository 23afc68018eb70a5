"""The messages a table and its seats exchange, each a typed frozen dataclass: intents and
their answers, presence, deadlines, chat, the seats, closing.  Solo play's in-process table
exchanges them too.

Reach them as ``messages.Name`` (:mod:`unotui.protocol.messages`, where every message of
the protocol is named and what each is is said): that module loads this one when one of
these is first used.  Solo play's table uses none before its first frame, and building a
frozen dataclass compiles its methods (twelve here: a fortieth of that frame's start-up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..engine import Action

__all__ = [
    "SEAT_ACTS",
    "Accepted",
    "Chat",
    "ChatLine",
    "Closed",
    "Deadline",
    "Intent",
    "Presence",
    "Ready",
    "Refused",
    "SeatState",
    "Start",
    "TableState",
]


@dataclass(frozen=True, slots=True)
class Intent:
    """Ask to take ``action``; the host answers ``accepted`` or ``refused`` with this ``seq``."""

    TYPE: ClassVar[str] = "intent"
    seq: int
    action: Action


@dataclass(frozen=True, slots=True)
class Ready:
    """The player has read the round summary and is ready for the next round."""

    TYPE: ClassVar[str] = "ready"


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line from the player (at most 280 characters)."""

    TYPE: ClassVar[str] = "chat"
    text: str


@dataclass(frozen=True, slots=True)
class Start:
    """The host's own seat asks for the match to start now (others are refused)."""

    TYPE: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Closed:
    """The host ends the connection in good order (``code`` says why); nothing follows."""

    TYPE: ClassVar[str] = "closed"
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Accepted:
    """The intent ``seq`` was applied (its effect arrives as a delta)."""

    TYPE: ClassVar[str] = "accepted"
    seq: int


@dataclass(frozen=True, slots=True)
class Refused:
    """The intent ``seq`` (``None``: a message without one, e.g. chat) was refused.

    ``code`` is an engine code (``not_your_turn`` ...), the referee's ``too_early`` or a
    protocol code such as ``rate_limited``; nothing changed and the connection goes on.
    """

    TYPE: ClassVar[str] = "refused"
    seq: int | None
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Presence:
    """Someone's connection changed: ``state`` is joined, away, back, bot or left."""

    TYPE: ClassVar[str] = "presence"
    seat: int | None
    state: str
    name: str


@dataclass(frozen=True, slots=True)
class Deadline:
    """A timer runs: ``seat`` must act within ``ms`` (kind ``turn``), may be caught after
    ``ms`` (kind ``catch``), or is held for its away person for ``ms`` before a computer
    player takes it (kind ``hold``, one per held seat).  ``seat`` ``None`` cancels the
    timers of that kind; a ``turn`` with ``ms`` 0 says the seat's timer ran out and the
    table acted for it (a running timer says at least 1 ms)."""

    TYPE: ClassVar[str] = "deadline"
    kind: str
    seat: int | None
    ms: int


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A chat line relayed by the host, already cleaned (clean it again before showing).

    ``earlier``: said before this connection came in (the table's or lobby's recent
    lines, sent after the snapshot to a member just admitted): shown as such, and not
    again if this client already shows it.  Optional on the wire (missing: false).
    """

    TYPE: ClassVar[str] = "chat"
    seat: int | None
    name: str
    text: str
    earlier: bool = False


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat in a :class:`TableState`: ``kind`` open, human or bot; ``away`` while its
    person is disconnected (the seat is held)."""

    name: str
    kind: str
    away: bool = False


@dataclass(frozen=True, slots=True)
class TableState:
    """The seats of the table and its status, sent whenever they change: the waiting
    room before the match (``status`` ``waiting``), then who is away.

    Attributes:
        status: ``waiting``, ``playing`` or ``over``.
        seats: every seat in order.
        you: the receiver's seat (``None`` for a spectator).
        owner: whether the receiver may start the match (the host's own seat).
        bots: seats kept for computer players.
        turn_timer_ms: the turn timer, or ``None`` if there is none.
        spectators: how many are watching.
        autostart: the match starts by itself once no more than ``bots`` seats are open
            (a lobby's tables); else only the owner's ``start`` starts it.
    """

    TYPE: ClassVar[str] = "table"
    status: str
    seats: tuple[SeatState, ...]
    you: int | None
    owner: bool
    bots: int
    turn_timer_ms: int | None
    spectators: int
    autostart: bool = False


#: the client messages that act for a seat (a spectator has none to act for)
SEAT_ACTS: tuple[type[Any], ...] = (Intent, Ready, Start)
