"""The client's end of a connection: :class:`PeerSession`.

The host's end is :class:`~unotui.protocol.session.HostSession`; what both ends share
(framing, timers, heartbeats, closing) is :class:`~unotui.protocol.session.Session`, and
what each may send or receive in each state is the table in :mod:`.states`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine import SeatView
from .codec import decode_host
from .errors import LocalProtocolError, RemoteProtocolError
from .events import ConnectionClosed, Fault, RecordReceived, ViewUpdated
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
    | RecordReceived | ConnectionClosed
)
"""What a client's session delivers."""


class PeerSession(Session[PeerEvent]):
    """The client's end of a connection.  Sends ``hello`` at once.

    Snapshots and deltas come out of :meth:`receive_data` as :class:`ViewUpdated` with
    the rebuilt view; ``error`` and ``closed`` as :class:`ConnectionClosed`; chat
    cleaned again; the finished match's ``transcript`` parts (version 2) as one
    :class:`RecordReceived` once the last is in, strictly in order: a part out of order,
    a second copy, or one on a version 1 connection is ``bad_message`` (the session
    ends, as at any protocol error; the match is over, so nothing of it is lost).

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
        self._record: list[TranscriptPart] = []
        self._recorded = False  # the whole record came (another part is an error)
        self._queue(hello)

    @property
    def view(self) -> SeatView | None:
        """The latest view (``None`` before the first snapshot)."""
        return self._views.view

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
        if self._recorded:
            raise RemoteProtocolError("bad_message", "transcript: the match's record came already")
        got = self._record
        due = len(got)
        first = got[0] if got else part
        if part.part != due or part.parts != first.parts or part.dealer != first.dealer:
            raise RemoteProtocolError(
                "bad_message", f"transcript: part {part.part} of {part.parts} where part {due} was due")
        got.append(part)
        if due + 1 < part.parts:
            return []
        self._recorded, self._record = True, []
        keys = tuple(k for p in got for k in p.keys)
        actions = tuple(a for p in got for a in p.actions)
        return [RecordReceived(first.names, first.dealer, keys, actions)]

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

