"""The per-connection state machines: bytes in, events out, bytes to send.

:class:`HostSession` (one per connection, on the host) and
:class:`~unotui.protocol.peer_session.PeerSession` (the client's end, in its own module)
do no I/O and read no clock (the h11 design).  The asyncio layer:

1. feeds what it read to ``receive_data(data, now)`` (``b""`` at end of file) and acts on
   the returned events;
2. calls ``tick(now)`` when ``next_deadline()`` passes (timeouts, heartbeats);
3. after every call, writes ``data_to_send()`` to the transport, and closes the
   transport once ``state`` is :attr:`State.CLOSED` and the bytes are written.

What each side does with each message in each :class:`~unotui.protocol.states.State` is
the table in :mod:`.states`; the methods here are the effects.  Everything that can go
wrong ends in ``CLOSED`` with one :class:`ConnectionClosed` event whose ``fault`` says
whose fault it was.  The session enforces the protocol's limits: hello
first and within 5 s, every frame complete within 10 s, frame sizes, the message and chat
rate limits (token buckets), and heartbeats (ping after 15 s of silence, dead after 45 s).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from ..engine import Rules, SeatView
from ..tokens import TokenBucket
from .codec import decode_client, encode
from .errors import LocalProtocolError, RemoteProtocolError
from .events import ConnectionClosed, Fault, HelloReceived
from .framing import CLIENT_LIMITS, HOST_LIMITS, FrameDecoder, Limits, frame
from .messages import (
    Bye,
    Chat,
    Closed,
    Create,
    Error,
    Hello,
    Intent,
    Kept,
    Matches,
    Message,
    Ping,
    Pong,
    Quick,
    Ready,
    Refused,
    Review,
    ReviewDone,
    Start,
    TranscriptPart,
    Welcome,
)
from .shared import SharedDeltas
from .states import HOST_RULES, HOST_SENDS, State, step
from .sync import ViewEncoder
from .text import clean_chat, clean_name

__all__ = [
    "OLDEST_VERSION",
    "PROTOCOL_VERSION",
    "HostEvent",
    "HostSession",
    "Rates",
    "Session",
    "State",
    "Timing",
]

HostEvent = (
    HelloReceived | Intent | Ready | Chat | Start | Create | Quick | Matches | Kept | Review | ReviewDone
    | ConnectionClosed
)
"""What a host's session delivers."""

#: the versions this implementation speaks (a range, for negotiation)
PROTOCOL_VERSION = 2
#: the oldest version still spoken: a client offers OLDEST_VERSION..PROTOCOL_VERSION, so a
#: version 1 host still seats it, and a version 1 peer is sent nothing of version 2 (the
#: match record's ``transcript``, the lobby's kept matches: see protocol/SPEC.md)
OLDEST_VERSION = 1
_SUPPORTED = (OLDEST_VERSION, PROTOCOL_VERSION)




@dataclass(frozen=True, slots=True)
class Timing:
    """Timeouts and heartbeat, in seconds (network.md's defaults)."""

    hello: float = 5.0  # host: hello must arrive within this after connecting
    welcome: float = 10.0  # peer: welcome must arrive within this after hello
    frame: float = 10.0  # a frame, once begun, must complete within this
    heartbeat: float = 15.0  # ping after this much silence from the other side
    missed: int = 3  # dead after this many heartbeats of silence


@dataclass(frozen=True, slots=True)
class Rates:
    """Host side rate limits per connection (token buckets)."""

    per_s: float = 10.0
    burst: int = 20
    chat_per_s: float = 1.0
    chat_burst: int = 5


E = TypeVar("E")

#: states in which heartbeats run (the hello timeout covers AWAIT_HELLO)
_BEATING = (State.AUTHENTICATING, State.ACTIVE, State.SPECTATING)


class Session(Generic[E]):
    """What both ends share: framing, outbox, timers, heartbeats, closing (``E``: the
    events this end delivers)."""

    _limit_in: Limits
    _limit_out: int

    def __init__(self, now: float, timing: Timing, state: State) -> None:
        self.timing = timing
        self.state = state
        self._frames = FrameDecoder(self._limit_in.frame)
        self._out = bytearray()
        self._opened = now
        self._last_recv = now
        self._frame_started: float | None = None
        self._heartbeat = timing.heartbeat
        self._next_ping = now + timing.heartbeat
        self._ping_n = 0

    @property
    def closed(self) -> bool:
        """Whether the connection is over (write what is left, then close the transport)."""
        return self.state is State.CLOSED

    def data_to_send(self) -> bytes:
        """The bytes queued since the last call (possibly empty)."""
        out, self._out = bytes(self._out), bytearray()
        return out

    def receive_data(self, data: bytes, now: float) -> list[E]:
        """Take bytes from the transport (``b""``: end of file); return the events."""
        if self.closed:
            return []
        if not data:
            self.state = State.CLOSED
            eof: list[Any] = [ConnectionClosed("eof", "the connection ended without a goodbye", Fault.REMOTE)]
            return eof
        self._last_recv = now
        self._next_ping = now + self._heartbeat
        events: list[Any] = []
        try:
            bodies = self._frames.feed(data)
            for body in bodies:
                events += self._receive(body, now)
                if self.closed:
                    return events
        except RemoteProtocolError as exc:
            return events + self._fail(exc)
        if not self._frames.pending:
            self._frame_started = None
        elif bodies or self._frame_started is None:
            self._frame_started = now
        return events

    def tick(self, now: float) -> list[E]:
        """Act on timers that have passed: time out, or send a heartbeat ping (and the
        hello or welcome and frame timeouts)."""
        if self.closed:
            return []
        t = self.timing
        if self._frame_started is not None and now >= self._frame_started + t.frame:
            return self._fail(RemoteProtocolError("timeout", f"a frame took more than {t.frame:g} s"))
        expired = self._handshake_expired(now)
        if expired:
            return self._fail(RemoteProtocolError("timeout", expired))
        if self.state in _BEATING:
            if now >= self._last_recv + self._heartbeat * t.missed:
                silent = self._heartbeat * t.missed
                return self._fail(RemoteProtocolError("timeout", f"nothing heard for {silent:g} s"))
            if now >= self._next_ping:
                self._ping_n += 1
                self._queue(Ping(self._ping_n & 0xFFFFFFFF))
                self._next_ping = now + self._heartbeat
        return []

    def next_deadline(self) -> float | None:
        """When :meth:`tick` must next be called (``None``: never, the session is closed)."""
        if self.closed:
            return None
        best = self._handshake_deadline()
        if self._frame_started is not None:
            due = self._frame_started + self.timing.frame
            if best is None or due < best:
                best = due
        if self.state in _BEATING:
            due = min(self._next_ping, self._last_recv + self._heartbeat * self.timing.missed)
            if best is None or due < best:
                best = due
        return best

    # ----- for the subclasses -----------------------------------------------------------

    def _queue(self, message: Message) -> None:
        self._out += frame(encode(message), self._limit_out)

    def _receive(self, body: bytes, now: float) -> list[Any]:
        raise NotImplementedError

    def _fail(self, exc: RemoteProtocolError) -> list[Any]:
        self.state = State.CLOSED
        return [ConnectionClosed(exc.code, exc.message, Fault.REMOTE)]

    def _handshake_deadline(self) -> float | None:
        return None

    def _handshake_expired(self, now: float) -> str:
        deadline = self._handshake_deadline()
        return "" if deadline is None or now < deadline else "the handshake took too long"

    def _ping(self, message: Ping, _now: float) -> list[Any]:
        self._queue(Pong(message.n))
        return []

    def _bye(self, _message: Bye, _now: float) -> list[Any]:
        self.state = State.CLOSED
        return [ConnectionClosed("bye", "the peer left", Fault.NONE)]

    def _forward(self, message: Message, _now: float) -> list[Any]:
        return [message]

    def _ignore(self, _message: Message, _now: float) -> list[Any]:
        return []


class HostSession(Session[HostEvent]):
    """The host's end of one connection.

    Args:
        now: the time the connection was accepted (seconds, any monotonic clock).
        timing / rates: limits (defaults from network.md).
        versions: the protocol versions this host speaks (inclusive range).
        max_log: passed to the connection's :class:`~unotui.protocol.sync.ViewEncoder`.
    """

    _limit_in = CLIENT_LIMITS
    _limit_out = HOST_LIMITS.frame

    def __init__(
        self,
        now: float,
        *,
        timing: Timing = Timing(),
        rates: Rates = Rates(),
        versions: tuple[int, int] = _SUPPORTED,
        max_log: int = 200,
    ) -> None:
        super().__init__(now, timing, State.AWAIT_HELLO)
        self.versions = versions
        self.version = 0
        self.seat: int | None = None
        #: the code of :meth:`reject` ("" if not rejected): the host counts failed guesses by it
        self.rejected = ""
        self._messages = TokenBucket(rates.per_s, rates.burst, now)
        self._chat = TokenBucket(rates.chat_per_s, rates.chat_burst, now)
        self._views = ViewEncoder(max_log)

    def receive_data(self, data: bytes, now: float) -> list[HostEvent]:
        """Take bytes from the client (``b""``: end of file); return the events.

        ``ping`` is answered here; ``bye`` and every protocol error end in one
        :class:`ConnectionClosed`.  Chat comes out already cleaned (and rate limited).
        A stream that ends inside a frame is ``bad_frame`` (a half-closed client still
        reads the error); a client, by contrast, takes a host's stream cut mid-frame for
        a dropped connection (``eof``) and resumes.
        """
        if not data and not self.closed:
            try:
                self._frames.close()
            except RemoteProtocolError as exc:
                return self._fail(exc)
        return super().receive_data(data, now)

    @property
    def log_from(self) -> int:
        """Build views from this log index on (see :attr:`ViewEncoder.log_from`)."""
        return self._views.log_from

    def accept(
        self, *, seat: int | None, token: str | None, table: str, table_name: str, seats: int, rules: Rules,
        name: str | None = None,
    ) -> None:
        """Admit the client (after :class:`HelloReceived`): send ``welcome``.

        ``seat`` ``None`` admits a spectator.  ``name``: the seat's name as the table gave
        it (not always the one asked for: see ``Welcome.name``).  Send the first view next.
        """
        self._expect(State.AUTHENTICATING, "accept")
        welcome = Welcome(
            version=self.version,
            seat=seat,
            token=token,
            table=table,
            table_name=table_name,
            seats=seats,
            rules=rules,
            heartbeat_ms=round(self.timing.heartbeat * 1000),
            max_frame=self._limit_in.frame,
            name=name,
        )
        self._queue(welcome)
        self.seat = seat
        self.state = State.ACTIVE if seat is not None else State.SPECTATING

    def reject(self, code: str, message: str) -> None:
        """Refuse the client (bad password, full table ...): send ``error`` and close."""
        self._expect(State.AUTHENTICATING, "reject")
        self.rejected = code
        self._queue(Error(code, message))
        self.state = State.CLOSED

    def send(self, message: Message) -> None:
        """Queue a message for an admitted client (not ``welcome``/``error``: see
        :meth:`accept`, :meth:`reject`; views go through :meth:`send_view`).

        A session that has closed (its client broke the protocol, timed out or said bye)
        drops what it is given: its connection is still a member of its table until the
        transport closes, and the table's broadcasts must not fail on it."""
        if self.state is State.CLOSED:
            return
        if self.state not in (State.ACTIVE, State.SPECTATING):
            raise LocalProtocolError("bad_message", f"cannot send {message.TYPE} in state {self.state}")
        if not isinstance(message, HOST_SENDS):
            raise LocalProtocolError("bad_message", f"{type(message).__name__} is not sent with send()")
        if isinstance(message, TranscriptPart) and self.version < 2:
            raise LocalProtocolError("version", "a version 1 client is sent no transcript")
        self._queue(message)

    def send_view(self, view: SeatView, shared: SharedDeltas | None = None) -> bool:
        """Send the snapshot or delta bringing the client to ``view``; False if unchanged.

        ``shared``: when the same moment goes to several connections (views from
        :func:`~unotui.engine.seat_views`), one :class:`SharedDeltas` for all of them
        packs what they see alike once; without one, the view gets one of its own.
        A closed session drops the view (see :meth:`send`).
        """
        if self.state is State.CLOSED:
            return False
        if self.state not in (State.ACTIVE, State.SPECTATING):
            raise LocalProtocolError("bad_message", f"cannot send a view in state {self.state}")
        if view.seat != self.seat:
            raise LocalProtocolError("bad_message", f"a view of seat {view.seat} for seat {self.seat}")
        body = (shared if shared is not None else SharedDeltas()).follow(self._views, view)
        if body is None:
            return False
        self._out += frame(body, self._limit_out)
        return True

    def close(self, code: str, message: str) -> None:
        """End the connection in good order with ``closed`` (the host leaves, match over...)."""
        if self.closed:
            return
        if self.state in (State.ACTIVE, State.SPECTATING):
            self._queue(Closed(code, message))
        else:
            self._queue(Error(code, message))
        self.state = State.CLOSED

    # ----- receiving --------------------------------------------------------------------

    def _receive(self, body: bytes, now: float) -> list[Any]:
        message = decode_client(body, self._limit_in)
        if not self._messages.take(now):
            raise RemoteProtocolError("rate_limited", "more than 10 messages a second")
        return step(HOST_RULES, self, message, now)

    def _chat_in(self, message: Chat, now: float) -> list[Any]:
        if not self._chat.take(now):
            self._queue(Refused(None, "rate_limited", "more than one chat line a second"))
            return []
        text = clean_chat(message.text)
        return [Chat(text)] if text else []

    def _no_seat(self, message: Intent | Ready | Start, _now: float) -> list[Any]:
        seq = message.seq if isinstance(message, Intent) else None
        self._queue(Refused(seq, "spectator", "spectators have no seat to act for"))
        return []

    def _hello(self, hello: Hello, _now: float) -> list[Any]:
        low, high = max(hello.min_version, self.versions[0]), min(hello.max_version, self.versions[1])
        if low > high:
            lo, hi = self.versions
            raise RemoteProtocolError("version", f"this host speaks protocol versions {lo}..{hi}")
        self.version = high
        self.state = State.AUTHENTICATING
        return [HelloReceived(replace(hello, name=clean_name(hello.name)), high)]

    def _fail(self, exc: RemoteProtocolError) -> list[Any]:
        self._queue(Error(exc.code, exc.message[:512]))
        return super()._fail(exc)

    def _handshake_deadline(self) -> float | None:
        return self._opened + self.timing.hello if self.state is State.AWAIT_HELLO else None

    def _handshake_expired(self, now: float) -> str:
        expired = super()._handshake_expired(now)
        return f"no hello within {self.timing.hello:g} s" if expired else ""

    def _expect(self, state: State, what: str) -> None:
        if self.state is not state:
            raise LocalProtocolError("bad_message", f"cannot {what} in state {self.state}")
