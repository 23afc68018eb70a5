"""Every message of the protocol, as a typed frozen dataclass.

Each class has a ``TYPE``: the ``"t"`` value that names it on the wire.  Which messages
may travel which way is fixed (:data:`CLIENT_MESSAGES`, :data:`HOST_MESSAGES`); ``ping``
and ``pong`` go both ways.  The wire form of every field is defined in
:mod:`unotui.protocol.codec` and written down in ``protocol/SPEC.md``; durations are
whole milliseconds, seats are ``0..9`` or ``None`` (a spectator, or "nobody").

These are plain values: building one checks nothing.  The codec checks everything when a
message is encoded or decoded, so a message that was decoded is always valid.

This module holds the messages a table and its seats exchange, solo play's in-process
table too (intents, answers, presence, deadlines, chat, the seats, closing); the ones only
a connection or the lobby carries (the handshake, keep-alive, the view's sync, the lobby's
list) are in :mod:`unotui.protocol.link_messages`, with the unions of which way each
travels, and are loaded from here on first use.  Every name is reached as
``messages.Name`` all the same.  Why two modules: building a frozen dataclass compiles
its methods, and the link's fourteen cost solo play a twentieth of its start-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..engine import Action

if TYPE_CHECKING:
    from .link_messages import (
        CLIENT_MESSAGES,
        HOST_MESSAGES,
        Bye,
        ClientMessage,
        Create,
        Created,
        Delta,
        Error,
        Hello,
        HostMessage,
        Kept,
        KeptList,
        KeptRow,
        KeptText,
        LeaderRow,
        LobbyState,
        LobbyTable,
        Matches,
        Message,
        Ping,
        Pong,
        Quick,
        Review,
        ReviewDone,
        ReviewSlot,
        Snapshot,
        TranscriptPart,
        Welcome,
    )

__all__ = [
    "CLIENT_MESSAGES",
    "HOST_MESSAGES",
    "SEAT_ACTS",
    "Accepted",
    "Bye",
    "Chat",
    "ChatLine",
    "ClientMessage",
    "Closed",
    "Create",
    "Created",
    "Deadline",
    "Delta",
    "Error",
    "Hello",
    "HostMessage",
    "Intent",
    "Kept",
    "KeptList",
    "KeptRow",
    "KeptText",
    "LeaderRow",
    "LobbyState",
    "LobbyTable",
    "Matches",
    "Message",
    "Ping",
    "Pong",
    "Presence",
    "Quick",
    "Ready",
    "Refused",
    "Review",
    "ReviewDone",
    "ReviewSlot",
    "SeatState",
    "Snapshot",
    "Start",
    "TableState",
    "TranscriptPart",
    "Welcome",
]

def __getattr__(name: str) -> Any:
    """A connection's or the lobby's message (or a union), loaded on first use."""
    if name in _LINK:
        from . import link_messages

        value = getattr(link_messages, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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

#: the names loaded from :mod:`.link_messages` on first use
_LINK = frozenset(__all__) - frozenset(globals())
