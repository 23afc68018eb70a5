"""The one outbound encoder and the one strict parser of messages.

A message goes on the wire as a msgpack map: ``"t"`` (its type) first, then its fields
in the order of :data:`SCHEMAS` (every field always present, ``nil`` when empty), so the
bytes of a message are always the same (the golden vectors in ``protocol/vectors/``
depend on it).  A receiver accepts the keys in any order, but exactly these keys.

:func:`encode` checks every field's type and range on the way out as strictly as
:func:`decode_client` / :func:`decode_host` check them on the way in: a bug that would
put a bare int where a card belongs fails here, in the sender, as a
:class:`~unotui.protocol.errors.LocalProtocolError`.  The parsers only ever raise
:class:`~unotui.protocol.errors.RemoteProtocolError`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

from ..bots import LEVELS
from ..table.states import SENT_PRESENCE, DeadlineKind, SeatKind, TableStatus
from .errors import LocalProtocolError, RemoteProtocolError
from .fields import (
    _IDENTITY,
    _TABLE_CODE,
    _U32,
    Field,
    _code,
    _f,
    _int,
    _local,
    _log_in,
    _match,
    _message,
    _n,
    _name,
    _name_out,
    _one_of,
    _opt,
    _plain,
    _row,
    _seat,
    _seq,
    _str,
    _text,
    _token,
)
from .framing import CLIENT_LIMITS, PEER_ACCEPTS, Limits, frame, pack_body, unpack_body
from .messages import (
    CLIENT_MESSAGES,
    HOST_MESSAGES,
    Accepted,
    Bye,
    Chat,
    ChatLine,
    ClientMessage,
    Closed,
    Create,
    Created,
    Deadline,
    Delta,
    Error,
    Hello,
    HostMessage,
    Intent,
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
    Presence,
    Quick,
    Ready,
    Refused,
    Review,
    ReviewDone,
    ReviewSlot,
    SeatState,
    Snapshot,
    Start,
    TableState,
    TranscriptPart,
    Welcome,
)
from .sync import changes_in, changes_out, view_in, view_out
from .text import CHAT_MAX
from .values import (
    MAX_SEATS,
    action_in,
    action_out,
    bad,
    bool_in,
    event_out,
    int_in,
    list_in,
    rules_in,
    rules_out,
    str_in,
)

__all__ = [
    "SCHEMAS",
    "decode_client",
    "decode_host",
    "encode",
    "encode_frame",
]


_table_code = _match("table code", _TABLE_CODE)
_timer = _opt(_int("turn_timer_ms", 0, 3_600_000))
_status = _one_of("status", tuple(TableStatus))
_presence = _one_of("state", SENT_PRESENCE)
_seat_kind = _one_of("seat kind", tuple(SeatKind))
_deadline_kind = _one_of("kind", tuple(DeadlineKind))
_lobby_table = _row(
    "lobby table",
    lambda v: LobbyTable(
        _table_code(v[0]),
        str_in(v[1], "table name", 64, 1),
        int_in(v[2], "seats", 2, MAX_SEATS),
        int_in(v[3], "humans", 0, MAX_SEATS),
        int_in(v[4], "bots", 0, MAX_SEATS),
        _status(v[5]),
        str_in(v[6], "rules", 200),
        _timer(v[7]),
    ),
    8,
)
_leader = _row(
    "leader",
    lambda v: LeaderRow(
        str_in(v[0], "name", 64, 1),
        int_in(v[1], "games", 0, _U32),
        int_in(v[2], "wins", 0, _U32),
        int_in(v[3], "rating", -(10**7), 10**7),
    ),
    4,
)
MAX_LOBBY_TABLES = 200
MAX_LEADERS = 50
#: a match record's bounds (``transcript``): parts, and round keys and actions per part,
#: so that a part is at most about 60 KB (a host's frames are at most 64 KB: 256 keys of
#: 66 bytes, 3000 actions of at most 14) and a whole record at most 768,000 actions
MAX_RECORD_PARTS = 256
RECORD_KEYS = 256
RECORD_ACTIONS = 3000
_ROUND_KEY = re.compile(r"[0-9a-f]{64}")
_round_key = _match("round key", _ROUND_KEY)
_step = _row("step", lambda v: (_int("step seat", 0, MAX_SEATS - 1)(v[0]), action_in(v[1])), 2)


def _steps_out(steps: tuple[tuple[int, Any], ...]) -> list[object]:
    out: list[object] = [[seat, action_out(action)] for seat, action in steps]
    _local(lambda v: list_in(v, "actions", _step, RECORD_ACTIONS), out)
    return out


def _names_in(v: object) -> tuple[str, ...]:
    names = list_in(v, "names", _str("name", 64, 1), MAX_SEATS)
    if len(names) == 1:
        raise RemoteProtocolError("bad_message", "names: a match has 2-10 seats")
    return names


def _tables_out(tables: tuple[LobbyTable, ...]) -> list[object]:
    out: list[object] = [
        [t.code, t.name, t.seats, t.humans, t.bots, _text(t.status), t.rules, t.turn_timer_ms] for t in tables
    ]
    _local(lambda v: list_in(v, "tables", _lobby_table, MAX_LOBBY_TABLES), out)
    return out


def _leaders_out(leaders: tuple[LeaderRow, ...]) -> list[object]:
    out: list[object] = [[r.name, r.games, r.wins, r.rating_tenths] for r in leaders]
    _local(lambda v: list_in(v, "leaders", _leader, MAX_LEADERS), out)
    return out


def _seat_in(v: object) -> SeatState:
    if type(v) is not list or len(v) != 3:
        raise bad("seat", v)
    name = str_in(v[0], "seat name", 64)
    kind = _seat_kind(v[1])
    if (kind == SeatKind.OPEN) != (name == ""):
        raise RemoteProtocolError("bad_message", "seat: an open seat has no name, a taken one has one")
    return SeatState(name, kind, bool_in(v[2], "away"))


def _seats_in(v: object) -> tuple[SeatState, ...]:
    seats = list_in(v, "seats", _seat_in, MAX_SEATS)
    if len(seats) < 2:
        raise RemoteProtocolError("bad_message", "seats: a table has 2-10 seats")
    return seats


def _seats_out(seats: tuple[SeatState, ...]) -> list[object]:
    out: list[object] = []
    for s in seats:
        try:
            row = [s.name, _text(s.kind), s.away]
            _seat_in(row)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(exc.code, exc.message) from None
        out.append(row)
    if not 2 <= len(out) <= MAX_SEATS:
        raise LocalProtocolError("bad_message", "seats: a table has 2-10 seats")
    return out


# The lobby's kept matches (protocol version 2): a list row, and a transcript's parts.
MAX_KEPT_ROWS = 100
#: a transcript part: at most this many chunks of at most KEPT_CHUNK characters (ASCII
#: JSON: characters are bytes), so that a part fits the host's 64 KiB frame
KEPT_CHUNK, KEPT_CHUNKS, MAX_KEPT_PARTS = 4096, 14, 64
_kept_id = _int("id", 1, 2**53)
_kept_row = _row(
    "kept match",
    lambda v: _kept_checked(KeptRow(
        _kept_id(v[0]),
        int_in(v[1], "when", 0, 2**40),
        list_in(v[2], "names", lambda n: str_in(n, "name", 64, 1), MAX_SEATS),
        int_in(v[3], "seat", 0, MAX_SEATS - 1),
        list_in(v[4], "scores", lambda x: int_in(x, "score", -(10**7), 10**7), MAX_SEATS),
        int_in(v[5], "winner", 0, MAX_SEATS - 1),
        int_in(v[6], "rounds", 0, 100_000),
    )),
    7,
)


def _kept_checked(row: KeptRow) -> KeptRow:
    n = len(row.names)
    if n < 2 or len(row.scores) != n or row.seat >= n or row.winner >= n:
        raise RemoteProtocolError("bad_message", "kept match: 2-10 seats, a score each, seats among them")
    return row


def _kept_rows_out(rows: tuple[KeptRow, ...]) -> list[object]:
    out: list[object] = [[r.id, r.when, list(r.names), r.seat, list(r.scores), r.winner, r.rounds]
                         for r in rows]
    _local(lambda v: list_in(v, "rows", _kept_row, MAX_KEPT_ROWS), out)
    return out


def _chunks_in(v: object) -> tuple[str, ...]:
    return list_in(v, "chunks", lambda c: str_in(c, "chunk", KEPT_CHUNK, 1), KEPT_CHUNKS)


#: message class -> its fields on the wire, in order
SCHEMAS: dict[type[Any], tuple[Field, ...]] = {
    Ping: (_f("n", _n),),
    Pong: (_f("n", _n),),
    Hello: (
        _f("min_version", _int("min_version", 1, 65535)),
        _f("max_version", _int("max_version", 1, 65535)),
        _f("name", _name),
        _f("password", _opt(_str("password", 128))),
        _f("token", _token),
        _f("spectate", lambda v: bool_in(v, "spectate")),
        _f("client", _str("client", 64)),
        _f("table", _str("table", 64)),
        _f("lobby", lambda v: bool_in(v, "lobby")),
        _f("identity", _opt(_match("identity", _IDENTITY))),
        _f("take_over", lambda v: bool_in(v, "take_over")),
    ),
    Intent: (_f("seq", _seq), _f("action", action_in, action_out)),
    Ready: (),
    Chat: (_f("text", _str("text", CHAT_MAX, 1)),),
    Bye: (),
    Start: (),
    Create: (
        _f("name", _str("name", 32, 1)),
        _f("seats", _int("seats", 2, MAX_SEATS)),
        _f("bots", _int("bots", 0, MAX_SEATS - 1)),
        _f("rules", rules_in, rules_out),
        _f("level", _one_of("level", LEVELS)),
        _f("turn_timer_ms", _timer),
        _f("private", lambda v: bool_in(v, "private")),
    ),
    Quick: (),
    Welcome: (
        _f("version", _int("version", 1, 65535)),
        _f("seat", _seat),
        _f("token", _token),
        _f("table", _str("table", 64)),
        _f("table_name", _str("table_name", 64)),
        _f("seats", _int("seats", 2, MAX_SEATS)),
        _f("rules", rules_in, rules_out),
        _f("heartbeat_ms", _int("heartbeat_ms", 1000, 600_000)),
        _f("max_frame", _int("max_frame", 256, 1 << 20)),
        _f("name", _opt(_name)),
    ),
    Error: (_f("code", _code), _f("message", _message)),
    Closed: (_f("code", _code), _f("message", _message)),
    Snapshot: (_f("view", view_in, view_out),),
    Delta: (
        _f("log_at", _int("log_at", 0, 2**62)),
        _f("log", _log_in, lambda log: [event_out(e) for e in log]),
        _f("set", changes_in, changes_out),
    ),
    Accepted: (_f("seq", _seq),),
    Refused: (_f("seq", _opt(_seq)), _f("code", _code), _f("message", _message)),
    Presence: (_f("seat", _seat), _f("state", _presence, _name_out(_presence)), _f("name", _name)),
    Deadline: (
        _f("kind", _deadline_kind, _name_out(_deadline_kind)),
        _f("seat", _seat),
        _f("ms", _int("ms", 0, 3_600_000)),
    ),
    ChatLine: (_f("seat", _seat), _f("name", _name), _f("text", _str("text", CHAT_MAX, 1)),
               _f("earlier", lambda v: bool_in(v, "earlier"))),
    TableState: (
        _f("status", _status, _name_out(_status)),
        _f("seats", _seats_in, _seats_out),
        _f("you", _seat),
        _f("owner", lambda v: bool_in(v, "owner")),
        _f("bots", _int("bots", 0, MAX_SEATS)),
        _f("turn_timer_ms", _opt(_int("turn_timer_ms", 0, 3_600_000))),
        _f("spectators", _int("spectators", 0, 1_000_000)),
        _f("autostart", lambda v: bool_in(v, "autostart")),
    ),
    LobbyState: (
        _f("you", _name),
        _f("motd", _str("motd", 512)),
        _f("online", _int("online", 0, 1_000_000)),
        _f("tables", lambda v: list_in(v, "tables", _lobby_table, MAX_LOBBY_TABLES), _tables_out),
        _f("leaders", lambda v: list_in(v, "leaders", _leader, MAX_LEADERS), _leaders_out),
        _f("seat_at", _opt(_table_code)),
    ),
    Created: (_f("code", _table_code),),
    TranscriptPart: (
        _f("part", _int("part", 0, MAX_RECORD_PARTS - 1)),
        _f("parts", _int("parts", 1, MAX_RECORD_PARTS)),
        _f("names", _names_in, lambda v: _plain(_names_in)(list(v))),
        _f("dealer", _seat),
        _f("keys", lambda v: list_in(v, "keys", _round_key, RECORD_KEYS), lambda v: _plain(
            lambda w: list_in(w, "keys", _round_key, RECORD_KEYS))(list(v))),
        _f("actions", lambda v: list_in(v, "actions", _step, RECORD_ACTIONS), _steps_out),
    ),
    Matches: (),
    Kept: (_f("id", _kept_id),),
    Review: (),
    ReviewDone: (),
    KeptList: (
        _f("rows", lambda v: list_in(v, "rows", _kept_row, MAX_KEPT_ROWS), _kept_rows_out),
        _f("note", _message),
    ),
    KeptText: (
        _f("id", _kept_id),
        _f("part", _int("part", 0, MAX_KEPT_PARTS - 1)),
        _f("parts", _int("parts", 1, MAX_KEPT_PARTS)),
        _f("chunks", _chunks_in, lambda c: _plain(_chunks_in)(list(c))),
    ),
    ReviewSlot: (_f("granted", lambda v: bool_in(v, "granted")), _f("reason", _message)),
}
#: fields a receiver accepts missing, and what a missing one reads as (a sender older than
#: the field omits it).  A sender writes every field but a false flag (WRITTEN_WHEN_TRUE).
OPTIONAL: dict[tuple[type[Any], str], object] = {
    (Welcome, "name"): None, (Hello, "take_over"): False, (TableState, "autostart"): False,
    (ChatLine, "earlier"): False,
}
# The dataclass attribute behind a wire key, where they differ.
_ATTR: dict[tuple[type[Any], str], str] = {(Delta, "set"): "changes"}
#: the optional flags (missing reads as false): written only when true, so that a peer
#: older than the flag, which knows only the other keys, still reads the message
WRITTEN_WHEN_TRUE = frozenset(k for k, missing in OPTIONAL.items() if missing is False)
#: message class -> its fields' (wire key, attribute, out, written only when true) in order
_WRITERS: dict[type[Any], tuple[tuple[str, str, Callable[[Any], object], bool], ...]] = {
    cls: tuple((f.key, _ATTR.get((cls, f.key), f.key), f.out, (cls, f.key) in WRITTEN_WHEN_TRUE)
               for f in fields)
    for cls, fields in SCHEMAS.items()
}


def _record_part_in(part: TranscriptPart) -> None:
    """What one ``transcript`` part must be on its own (the order of the parts is the
    peer session's to check): a part of the record, its names in part 0 alone."""
    if part.part >= part.parts:
        raise RemoteProtocolError("bad_message", f"transcript: part {part.part} of {part.parts}")
    if (part.part == 0) != bool(part.names):
        raise RemoteProtocolError("bad_message", "transcript: the names come in part 0, and only there")


def encode(message: Message) -> bytes:
    """The canonical msgpack body of ``message`` (no length prefix).

    Raises:
        LocalProtocolError: not a message, or a field of the wrong type or range.
    """
    writers = _WRITERS.get(type(message))
    if writers is None:
        raise LocalProtocolError("bad_message", f"not a protocol message: {type(message).__name__}")
    wire: dict[str, object] = {"t": message.TYPE}
    for key, attr, out, when_true in writers:
        value = getattr(message, attr)
        if when_true and value is False:
            continue  # (a flag added to version 1 late: an older peer reads the message still)
        wire[key] = out(value)
    if isinstance(message, Hello) and message.min_version > message.max_version:
        raise LocalProtocolError("bad_message", "hello: min_version is above max_version")
    if isinstance(message, Create) and message.bots >= message.seats:
        raise LocalProtocolError("bad_message", "create: a table needs a seat for its creator")
    if isinstance(message, TranscriptPart):
        try:
            _record_part_in(message)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(exc.code, exc.message) from None
    return pack_body(wire)


def encode_frame(message: Message, limit: int) -> bytes:
    """``message`` as a whole frame (length prefix + body), refused if over ``limit``."""
    return frame(encode(message), limit)


def _check_order() -> None:
    # _decode passes the fields positionally: the wire order must be the class's order.
    for cls, fields in SCHEMAS.items():
        names = [_ATTR.get((cls, f.key), f.key) for f in fields]
        if names != [f.name for f in dataclasses.fields(cls)]:
            raise AssertionError(f"SCHEMAS[{cls.__name__}] is not in the class's field order")


_check_order()


_REQUIRED = object()  # (never read: a required key is never missing here)


def _builder(cls: type[Any], fields: tuple[Field, ...]) -> Callable[[dict[str, Any]], Any]:
    """The function making a ``cls`` from a wire map that has exactly its keys."""
    readers = tuple((f.key, f.read, OPTIONAL.get((cls, f.key), _REQUIRED)) for f in fields)

    def build(wire: dict[str, Any]) -> Any:
        # (the keys were checked first: only an optional one can be missing)
        message = cls(*[read(wire[key]) if key in wire else missing for key, read, missing in readers])
        if cls is Hello and message.min_version > message.max_version:
            raise RemoteProtocolError("bad_message", "hello: min_version is above max_version")
        if cls is Create and message.bots >= message.seats:
            raise RemoteProtocolError("bad_message", "create: a table needs a seat for its creator")
        if cls is TranscriptPart:
            _record_part_in(message)
        return message

    return build


#: message class -> (its wire keys with "t", the keys it may lack, the function making it
#: from its wire map)
_READERS: dict[type[Any], tuple[frozenset[str], frozenset[str], Callable[[dict[str, Any]], Any]]] = {
    cls: (frozenset(["t", *(f.key for f in fields)]),
          frozenset(f.key for f in fields if (cls, f.key) in OPTIONAL), _builder(cls, fields))
    for cls, fields in SCHEMAS.items()
}


def _decode(body: bytes, limits: Limits, table: dict[str, type[Any]]) -> Any:
    wire = unpack_body(body, limits)
    if type(wire) is not dict:
        raise bad("message", wire)
    kind = wire.get("t")
    if type(kind) is not str or kind not in table:
        raise RemoteProtocolError("bad_message", "unknown or missing message type 't'")
    keys, optional, build = _READERS[table[kind]]
    got = wire.keys()
    if got != keys and not (optional and got <= keys and keys - got <= optional):
        # exactly "t" and the fields, in any order (an optional one may be missing)
        raise RemoteProtocolError("bad_message", f"{kind}: wrong set of fields")
    return build(wire)


def decode_client(body: bytes, limits: Limits = CLIENT_LIMITS) -> ClientMessage:
    """Parse a frame body a client sent (host side).  Raises only ``RemoteProtocolError``."""
    return _decode(body, limits, CLIENT_MESSAGES)  # type: ignore[no-any-return]


def decode_host(body: bytes, limits: Limits = PEER_ACCEPTS) -> HostMessage:
    """Parse a frame body a host sent (client side).  Raises only ``RemoteProtocolError``."""
    return _decode(body, limits, HOST_MESSAGES)  # type: ignore[no-any-return]
