"""The client's end of a connection: :class:`PeerSession`.

The host's end is :class:`~unotui.protocol.session.HostSession`; what both ends share
(framing, timers, heartbeats, closing) is :class:`~unotui.protocol.session.Session`, and
what each may send or receive in each state is the table in :mod:`.states`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import SeatView
from .codec import decode_host
from .errors import LocalProtocolError, RemoteProtocolError
from .events import ConnectionClosed, Fault, RecordReceived, RecordTooLong, ViewUpdated, record_bound
from .framing import CLIENT_LIMITS, PEER_ACCEPTS, Limits
from .messages import (
    SEAT_ACTS,
    Accepted,
    Bye,
    ChatLine,
    Closed,
    Deadline,
    Delta,
    Error,
    Hello,
    Message,
    Presence,
    Refused,
    Snapshot,
    TableState,
    TranscriptPart,
    Welcome,
)
from .session import Session, Timing
from .states import PEER_RULES, PEER_SENDS, State, step
from .sync import ViewDecoder
from .text import clean_chat

__all__ = ["PeerEvent", "PeerSession"]

PeerEvent = (
    Welcome | ViewUpdated | Accepted | Refused | Presence | Deadline | ChatLine | TableState
    | RecordReceived | RecordTooLong | ConnectionClosed
)
"""What a client's session delivers."""


class PeerSession(Session[PeerEvent]):
    """The client's end of a connection.  Sends ``hello`` at once.

    Snapshots and deltas come out of :meth:`receive_data` as :class:`ViewUpdated` with
    the rebuilt view; ``error`` and ``closed`` as :class:`ConnectionClosed`; chat
    cleaned again; the finished match's ``transcript`` parts (version 2) as one
    :class:`RecordReceived` once the last is in, strictly in order: a part out of order,
    a second copy, or one on a version 1 connection is ``bad_message`` (the session
    ends, as at any protocol error; the match is over, so nothing of it is lost).  The
    parts are counted as they come against :attr:`record_limit` (what the seat was shown
    of the match): once the keys or steps so far pass it, the record is refused at once
    (:class:`RecordTooLong`, the connection stays open) and the rest of its parts are
    read in order and dropped, so a hostile host cannot make a seat hold more of a
    record than the match it watched could have had.

    Args:
        hello: the hello to send (its version range is what this client speaks).
        now: the time the connection was made.
        keep: log events the rebuilt view keeps (see :class:`ViewDecoder`).
        limits: what this client accepts from a host (default: up to 256 KiB frames).
    """

    _limit_out = CLIENT_LIMITS.frame

    def __init__(
        self,
        hello: Hello,
        now: float,
        *,
        timing: Timing = Timing(),
        keep: int = 1000,
        limits: Limits = PEER_ACCEPTS,
    ) -> None:
        self._limit_in = limits
        super().__init__(now, timing, State.AUTHENTICATING)
        self.hello = hello
        self.welcome: Welcome | None = None
        self._views = ViewDecoder(keep)
        self._record = _Intake()
        self._queue(hello)

    @property
    def view(self) -> SeatView | None:
        """The latest view (``None`` before the first snapshot)."""
        return self._views.view

    @property
    def record_limit(self) -> int:
        """The most keys, and the most steps, of the match's record this session takes:
        :func:`~.events.record_bound` of the log its view was shown so far (the view is
        the one the parts arrive after: the match's end; ``0`` events before any)."""
        view = self._views.view
        return record_bound(0 if view is None else view.log_start + len(view.log))

    @property
    def record_held(self) -> tuple[int, int]:
        """How many keys and steps of the record are held now, waiting for its last part
        (never more than :attr:`record_limit`; none once refused or delivered)."""
        return self._record.keys, self._record.steps

    def send(self, message: Message) -> None:
        """Queue an intent, ready, chat, ping or bye (``bye`` closes the session)."""
        if self.state not in (State.ACTIVE, State.SPECTATING):
            raise LocalProtocolError("bad_message", f"cannot send {message.TYPE} in state {self.state}")
        if not isinstance(message, PEER_SENDS):
            raise LocalProtocolError("bad_message", f"a client does not send {type(message).__name__}")
        if self.state is State.SPECTATING and isinstance(message, SEAT_ACTS):
            raise LocalProtocolError("spectator", "a spectator has no seat to act for")
        self._queue(message)
        if isinstance(message, Bye):
            self.state = State.CLOSED

    def _receive(self, body: bytes, now: float) -> list[Any]:
        return step(PEER_RULES, self, decode_host(body, self._limit_in), now)

    def _ended(self, message: Error | Closed, _now: float) -> list[Any]:
        self.state = State.CLOSED
        fault = Fault.LOCAL if isinstance(message, Error) else Fault.NONE
        return [ConnectionClosed(message.code, message.message, fault)]

    def _view_in(self, message: Snapshot | Delta, _now: float) -> list[Any]:
        welcome = self.welcome
        if isinstance(message, Snapshot) and welcome is not None and message.view.seat != welcome.seat:
            raise RemoteProtocolError("bad_message", "a view of another seat")
        return [ViewUpdated(self._views.apply(message))]

    def _chat_line(self, message: ChatLine, _now: float) -> list[Any]:
        text, name = clean_chat(message.text), clean_chat(message.name)
        return [replace(message, text=text, name=name)] if text else []

    def _record_part(self, part: TranscriptPart, _now: float) -> list[Any]:
        welcome = self.welcome
        if welcome is None or welcome.version < 2:
            raise RemoteProtocolError("bad_message", "transcript: not a message of protocol version 1")
        got = self._record
        if got.done:
            raise RemoteProtocolError("bad_message", "transcript: the match's record came already")
        due = got.due
        if part.part != due or (got.head is not None and got.head != (part.parts, part.dealer)):
            raise RemoteProtocolError(
                "bad_message", f"transcript: part {part.part} of {part.parts} where part {due} was due")
        got.due, got.head = due + 1, (part.parts, part.dealer)
        got.done = due + 1 == part.parts
        if got.refused:
            return []  # (refused already: read on, in order, keeping nothing)
        keys, steps, limit = got.keys + len(part.keys), got.steps + len(part.actions), self.record_limit
        if keys > limit or steps > limit:
            got.refuse()
            return [RecordTooLong(keys, steps, limit)]
        got.parts.append(part)
        got.keys, got.steps = keys, steps
        if not got.done:
            return []
        parts = got.parts
        got.release()
        return [RecordReceived(parts[0].names, parts[0].dealer, tuple(k for p in parts for k in p.keys),
                               tuple(a for p in parts for a in p.actions))]

    def _welcome(self, welcome: Welcome, _now: float) -> list[Any]:
        if not self.hello.min_version <= welcome.version <= self.hello.max_version:
            raise RemoteProtocolError("version", f"the host chose version {welcome.version}")
        self.welcome = welcome
        self._heartbeat = welcome.heartbeat_ms / 1000
        self._next_ping = self._last_recv + self._heartbeat
        self.state = State.ACTIVE if welcome.seat is not None else State.SPECTATING
        return [welcome]

    def _handshake_deadline(self) -> float | None:
        return self._opened + self.timing.welcome if self.state is State.AUTHENTICATING else None


@dataclass
class _Intake:
    """How far the match's record has come on one connection: the parts held until the
    last (with how many keys and steps they carry, what :attr:`PeerSession.record_limit`
    bounds), the next part's number and what every part must repeat of part 0.  Once the
    record is refused or delivered its parts are let go; the numbering goes on, so that a
    part out of order or a second record is still a protocol error."""

    parts: list[TranscriptPart] = field(default_factory=list)
    keys: int = 0
    steps: int = 0
    due: int = 0  # the next part's number
    head: tuple[int, int | None] | None = None  # part 0's ``parts`` and ``dealer``
    refused: bool = False  # too long: what is left of it is dropped
    done: bool = False  # its last part came (another part is an error)

    def release(self) -> None:
        """Hold nothing more of the record."""
        self.parts, self.keys, self.steps = [], 0, 0

    def refuse(self) -> None:
        """Drop the record (too long) and whatever of it comes next."""
        self.release()
        self.refused = True
