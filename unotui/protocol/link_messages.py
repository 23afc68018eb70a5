"""The messages only a connection or the lobby carries, and which way each travels.

The handshake (``hello``, ``welcome``, ``error``, ``bye``), keep-alive (``ping``,
``pong``), the view's sync (``snapshot``, ``delta``) and the lobby's (``create``,
``quick``, ``created``, its list and leaderboard).  The table and its seats exchange the
messages of :mod:`unotui.protocol.messages`, which also reaches every name here (loaded
on first use: solo play never does); the two unions below say which messages travel which
way, over both modules.  See :mod:`unotui.protocol.messages` for what a message is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, get_args

from ..engine import Action, Event, Rules, SeatView
from .table_messages import (
    Accepted,
    Chat,
    ChatLine,
    Closed,
    Deadline,
    Intent,
    Presence,
    Ready,
    Refused,
    Start,
    TableState,
)

__all__ = [
    "CLIENT_MESSAGES",
    "HOST_MESSAGES",
    "Bye",
    "ClientMessage",
    "Create",
    "Created",
    "Delta",
    "Error",
    "Hello",
    "HostMessage",
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
    "Quick",
    "Review",
    "ReviewDone",
    "ReviewSlot",
    "Snapshot",
    "TranscriptPart",
    "Welcome",
]


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
        lobby: enter the host's lobby (a list of tables) instead of a table.
        identity: a credential the lobby issued to one of its own SSH sessions (the
            player's key); other clients leave it ``None``.
        take_over: with ``identity``: take the key's seat from its other connection (the
            same key's other terminal), which is closed ``replaced``; without it such a
            hello is refused ``seat_in_use``, so a player is asked before it happens.
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
    lobby: bool = False
    identity: str | None = None
    take_over: bool = False


@dataclass(frozen=True, slots=True)
class Create:
    """In the lobby: open a new table; the host answers :class:`Created` with its code.

    Attributes:
        name: the table's name for people.
        seats / bots: seats at the table, and how many of them computer players take.
        rules: the table's rules; ``level``: the computer players' level.
        turn_timer_ms: the turn timer (``None``: none; public lobby tables default to 30 s).
        private: left out of the lobby's list (joined by its code only).
    """

    TYPE: ClassVar[str] = "create"
    name: str
    seats: int
    bots: int
    rules: Rules
    level: str
    turn_timer_ms: int | None
    private: bool


@dataclass(frozen=True, slots=True)
class Quick:
    """In the lobby: a seat at once, at a waiting public table or a new one that
    computer players fill; the host answers :class:`Created` with the table's code."""

    TYPE: ClassVar[str] = "quick"


@dataclass(frozen=True, slots=True)
class Bye:
    """The player leaves for good: the host need not hold the seat."""

    TYPE: ClassVar[str] = "bye"


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
        name: the seat's name as the host gave it (a name another seat has, ignoring
            case, becomes ``Ann 2``), so the client learns who it is here; ``None`` for a
            spectator, and from a host older than the field (it is optional on the wire).
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
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Error:
    """The client broke the protocol (or was not admitted); the host closes the connection."""

    TYPE: ClassVar[str] = "error"
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
class LobbyTable:
    """One table in a :class:`LobbyState` (``humans`` counts seats people hold)."""

    code: str
    name: str
    seats: int
    humans: int
    bots: int
    status: str
    rules: str
    turn_timer_ms: int | None


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of the leaderboard: ``rating_tenths`` is the conservative skill estimate
    (mu - 3 sigma) in tenths, so that it travels as an integer (the packer sends no floats)."""

    name: str
    games: int
    wins: int
    rating_tenths: int


@dataclass(frozen=True, slots=True)
class LobbyState:
    """What a player in the lobby sees, sent on entry and whenever it changes.

    Attributes:
        you: the player's name in the lobby (unique among people online).
        motd: the operator's message of the day.
        online: people connected to the lobby or sitting at its tables.
        tables: the public tables (private ones are joined by code only).
        leaders: the leaderboard, best first.
        seat_at: the code of a table where a seat is held for this player's key (the
            client goes back to it), or ``None``.
    """

    TYPE: ClassVar[str] = "lobby"
    you: str
    motd: str
    online: int
    tables: tuple[LobbyTable, ...]
    leaders: tuple[LeaderRow, ...]
    seat_at: str | None = None


@dataclass(frozen=True, slots=True)
class Created:
    """The answer to :class:`Create` or :class:`Quick`: join table ``code`` now."""

    TYPE: ClassVar[str] = "created"
    code: str


@dataclass(frozen=True, slots=True)
class TranscriptPart:
    """(Version 2.)  One part of the finished match's record, sent to every member of a
    version 2 connection after the match is over: what rebuilds the whole match (every
    round's key, the first dealer, every action in order, out of turn ones too), never
    the match secret.  Parts come in order, ``part`` ``0`` .. ``parts - 1``, each within
    the host's frame limits; the keys and the actions continue from part to part.

    Attributes:
        part / parts: this part's number (from 0) and how many there are.
        names: the match's seat names (part 0 only; ``()`` in the others).
        dealer: the first dealer given at the match's set-up, or ``None`` when the seats
            drew for it with round 0's key (a host's matches always do).
        keys: round keys in hex, continuing: the first part's begins with round 0.
        actions: ``(seat, action)`` steps, continuing from the previous part's.
    """

    TYPE: ClassVar[str] = "transcript"
    part: int
    parts: int
    names: tuple[str, ...]
    dealer: int | None
    keys: tuple[str, ...]
    actions: tuple[tuple[int, Action], ...]


# ----- the lobby's kept matches and review slots (protocol version 2) -----------------------


@dataclass(frozen=True, slots=True)
class Matches:
    """In the lobby: list my kept matches; answered :class:`KeptList`."""

    TYPE: ClassVar[str] = "matches"


@dataclass(frozen=True, slots=True)
class Kept:
    """In the lobby: the transcript of kept match ``id``; answered by :class:`KeptText`
    parts, or ``refused`` ``no_such_match`` (also for a match this key was not seated at)."""

    TYPE: ClassVar[str] = "kept"
    id: int


@dataclass(frozen=True, slots=True)
class Review:
    """In the lobby: may this session run a game review now?  Answered :class:`ReviewSlot`."""

    TYPE: ClassVar[str] = "review"


@dataclass(frozen=True, slots=True)
class ReviewDone:
    """In the lobby: the review this connection was granted is over (slot released)."""

    TYPE: ClassVar[str] = "review_done"


@dataclass(frozen=True, slots=True)
class KeptRow:
    """One kept match in a :class:`KeptList`: ``when`` in Unix seconds, every seat's
    ``names`` and ``scores``, the asker's ``seat``, the ``winner``'s seat, ``rounds`` played."""

    id: int
    when: int
    names: tuple[str, ...]
    seat: int
    scores: tuple[int, ...]
    winner: int
    rounds: int


@dataclass(frozen=True, slots=True)
class KeptList:
    """The answer to :class:`Matches`: the asker's kept matches, newest first, and a
    ``note`` for people ("" or why there are none: a guest's, or keeping is off)."""

    TYPE: ClassVar[str] = "kept_list"
    rows: tuple[KeptRow, ...]
    note: str


@dataclass(frozen=True, slots=True)
class KeptText:
    """Part ``part`` (of ``parts``) of kept match ``id``'s transcript: the JSON text is
    the concatenation of every part's ``chunks``, in order."""

    TYPE: ClassVar[str] = "kept_text"
    id: int
    part: int
    parts: int
    chunks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReviewSlot:
    """The answer to :class:`Review`: ``granted``, or ``reason`` (a sentence) why not."""

    TYPE: ClassVar[str] = "review_slot"
    granted: bool
    reason: str


# Which messages travel which way is written here once, as the two unions; the wire
# tables below and the sessions' rules (``session.py``) are derived from them.
ClientMessage = (
    Hello | Intent | Ready | Chat | Ping | Pong | Bye | Start | Create | Quick
    | Matches | Kept | Review | ReviewDone
)
HostMessage = (
    Welcome | Error | Closed | Snapshot | Delta | Accepted | Refused | Presence | Deadline | ChatLine
    | Ping | Pong | TableState | LobbyState | Created | TranscriptPart
    | KeptList | KeptText | ReviewSlot
)
Message = ClientMessage | HostMessage

#: wire type -> class, for messages a client sends
CLIENT_MESSAGES: dict[str, type[Any]] = {c.TYPE: c for c in get_args(ClientMessage)}
#: wire type -> class, for messages a host sends
HOST_MESSAGES: dict[str, type[Any]] = {c.TYPE: c for c in get_args(HostMessage)}
#: the client messages that act for a seat (a spectator has none to act for)
SEAT_ACTS: tuple[type[Any], ...] = (Intent, Ready, Start)
