"""Every message of the protocol, as a typed frozen dataclass.

Each class has a ``TYPE``: the ``"t"`` value that names it on the wire.  Which messages
may travel which way is fixed (:data:`CLIENT_MESSAGES`, :data:`HOST_MESSAGES`); ``ping``
and ``pong`` go both ways.  The wire form of every field is defined in
:mod:`unotui.protocol.codec` and written down in ``protocol/SPEC.md``; durations are
whole milliseconds, seats are ``0..9`` or ``None`` (a spectator, or "nobody").

These are plain values: building one checks nothing.  The codec checks everything when a
message is encoded or decoded, so a message that was decoded is always valid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..engine import Action, Event, Rules, SeatView

__all__ = [
    "CLIENT_MESSAGES",
    "HOST_MESSAGES",
    "Accepted",
    "Bye",
    "Chat",
    "ChatLine",
    "ClientMessage",
    "Closed",
    "Deadline",
    "Delta",
    "Error",
    "Hello",
    "HostMessage",
    "Intent",
    "Message",
    "Ping",
    "Pong",
    "Presence",
    "Ready",
    "Refused",
    "SeatState",
    "Snapshot",
    "Start",
    "TableState",
    "Welcome",
]

# ----- both ways --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ping:
    """Are you there?  Answered by a :class:`Pong` with the same ``n``."""

    TYPE: ClassVar[str] = "ping"
    n: int = 0


@dataclass(frozen=True, slots=True)
class Pong:
    """The answer to :class:`Ping` ``n``."""

    TYPE: ClassVar[str] = "pong"
    n: int = 0


# ----- client to host ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message of a connection, and the only one allowed before ``welcome``.

    Attributes:
        min_version / max_version: protocol versions the client speaks (inclusive).
        name: the player's name (the host cleans it; 1-16 cells).
        password: the table password, if the table has one.
        token: a resume token from an earlier ``welcome`` (take the seat back).
        spectate: watch without a seat.
        client: the program and version, e.g. ``"unotui/0.1.0"`` (for logs).
        table: the table's code on a host with several tables (``""``: its only one).
    """

    TYPE: ClassVar[str] = "hello"
    min_version: int
    max_version: int
    name: str
    password: str | None = None
    token: str | None = None
    spectate: bool = False
    client: str = ""
    table: str = ""


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
class Bye:
    """The player leaves for good: the host need not hold the seat."""

    TYPE: ClassVar[str] = "bye"


# ----- host to client ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Welcome:
    """The host accepted ``hello``.

    Attributes:
        version: the protocol version chosen (the highest both speak).
        seat: the client's seat, or ``None`` for a spectator.
        token: the resume token for this seat (a new one on every resume; ``None``
            for a spectator).  Keep it secret.
        table / table_name: the table's id and its name for people.
        seats: seats at the table; ``rules``: the table's rules.
        heartbeat_ms: ping when nothing arrived for this long; dead after 3 times it.
        max_frame: the largest frame body the host accepts from the client, in bytes.
    """

    TYPE: ClassVar[str] = "welcome"
    version: int
    seat: int | None
    token: str | None
    table: str
    table_name: str
    seats: int
    rules: Rules
    heartbeat_ms: int = 15_000
    max_frame: int = 4096


@dataclass(frozen=True, slots=True)
class Error:
    """The client broke the protocol (or was not admitted); the host closes the connection."""

    TYPE: ClassVar[str] = "error"
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Closed:
    """The host ends the connection in good order (``code`` says why); nothing follows."""

    TYPE: ClassVar[str] = "closed"
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything the client's seat may see now; replaces whatever it held."""

    TYPE: ClassVar[str] = "snapshot"
    view: SeatView


@dataclass(frozen=True, slots=True)
class Delta:
    """What changed since the last snapshot or delta.

    Attributes:
        log_at: absolute log index of the first event in ``log`` (the client's next).
        log: new log events, already redacted for the client's seat.
        changes: view fields that changed, by name, with their new values.
    """

    TYPE: ClassVar[str] = "delta"
    log_at: int
    log: tuple[Event, ...] = ()
    changes: dict[str, Any] = field(default_factory=dict)


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
    """A timer runs: ``seat`` must act within ``ms`` (kind ``turn``), or may be caught
    after ``ms`` (kind ``catch``).  ``seat`` ``None`` cancels the timer of that kind."""

    TYPE: ClassVar[str] = "deadline"
    kind: str
    seat: int | None
    ms: int


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A chat line relayed by the host, already cleaned (clean it again before showing)."""

    TYPE: ClassVar[str] = "chat"
    seat: int | None
    name: str
    text: str


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
    """

    TYPE: ClassVar[str] = "table"
    status: str
    seats: tuple[SeatState, ...]
    you: int | None
    owner: bool
    bots: int
    turn_timer_ms: int | None
    spectators: int


ClientMessage = Hello | Intent | Ready | Chat | Ping | Pong | Bye | Start
HostMessage = (
    Welcome | Error | Closed | Snapshot | Delta | Accepted | Refused | Presence | Deadline | ChatLine
    | Ping | Pong | TableState
)
Message = ClientMessage | HostMessage

#: wire type -> class, for messages a client sends
CLIENT_MESSAGES: dict[str, type[Any]] = {
    c.TYPE: c for c in (Hello, Intent, Ready, Chat, Ping, Pong, Bye, Start)
}
#: wire type -> class, for messages a host sends
HOST_MESSAGES: dict[str, type[Any]] = {
    c.TYPE: c
    for c in (
        *(Welcome, Error, Closed, Snapshot, Delta, Accepted),
        *(Refused, Presence, Deadline, ChatLine, Ping, Pong, TableState),
    )
}
