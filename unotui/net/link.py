"""The asyncio shell around one sans-I/O protocol session: bytes in, bytes out, timers.

Everything that decides anything (framing, limits, the handshake, heartbeats, rate
limits) lives in the session object of :mod:`unotui.protocol`; this module only moves
bytes and calls the session's clock.  It is an :class:`asyncio.BufferedProtocol` rather than a
pair of streams: a host with a thousand peers must not keep a reading task per peer,
and a callback per chunk is the cheapest way asyncio offers to hand bytes on.  Buffered,
because a plain protocol's transport allocates a fresh 256 KiB ``bytes`` for every read:
above malloc's mmap threshold, that is an ``mmap``, an ``mremap`` and a ``munmap`` (and
page faults) per message.  Here each read lands in one buffer per thread (reads and
their handling never interleave on one loop) and only the bytes read are copied out.

Slow readers: the transport buffers what the peer has not read yet.  When that buffer
passes ``max_buffer`` bytes the peer is disconnected (its seat is held, and it resumes
with a fresh snapshot), so one stuck peer can never make the host hold unbounded memory
or wait on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

__all__ = ["Link", "Session", "session_of"]

_S = TypeVar("_S")

#: bytes read from the socket at a time (a frame may span reads: the session reassembles)
_READ_SIZE = 64 * 1024
_per_thread = threading.local()


class Session(Protocol):
    """What :class:`Link` needs of a sans-I/O session (host or peer side)."""

    def receive_data(self, data: bytes, now: float) -> list[Any]:
        """Bytes from the socket (``b""`` at end of stream) -> protocol events."""

    def data_to_send(self) -> bytes:
        """Bytes the session wants written, and forget them."""

    def tick(self, now: float) -> list[Any]:
        """Deadlines that passed (heartbeats, hello and frame timeouts) -> events."""

    def next_deadline(self) -> float | None:
        """When :meth:`tick` must be called next (loop time), if ever."""

    @property
    def closed(self) -> bool:
        """Whether the session is over (the link then closes the socket)."""


class Link(asyncio.BufferedProtocol):
    """One connection: feeds a session and hands its events to ``on_events``.

    Args:
        session: the protocol state machine for this connection.
        on_events: called with each non-empty list of events, in order.
        on_close: called once when the connection is gone (any reason).
        max_buffer: unread bytes the peer may owe us before it is dropped as a slow reader.
    """

    def __init__(
        self,
        session: Session,
        on_events: Callable[[Link, list[Any]], None],
        on_close: Callable[[Link], None],
        *,
        max_buffer: int = 1 << 20,
    ) -> None:
        self.session = session
        self._on_events = on_events
        self._on_close = on_close
        self.max_buffer = max_buffer
        self.transport: asyncio.Transport | None = None
        self.peer: tuple[str, int] = ("", 0)
        self._timer: asyncio.TimerHandle | None = None
        self._gone = False
        self.closed_by_us = ""
        self.loop = asyncio.get_running_loop()
        buffer = getattr(_per_thread, "buffer", None)
        if buffer is None:
            buffer = _per_thread.buffer = memoryview(bytearray(_READ_SIZE))
        self._buffer: memoryview = buffer

    # ----- asyncio.BufferedProtocol --------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            self.peer = (str(peer[0]), int(peer[1]))
        with contextlib.suppress(OSError, AttributeError):
            import socket

            sock = transport.get_extra_info("socket")
            if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._after(self.session.tick(self.loop.time()))

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._buffer

    def buffer_updated(self, nbytes: int) -> None:
        if nbytes:
            self.data_received(bytes(self._buffer[:nbytes]))

    def data_received(self, data: bytes) -> None:
        """Bytes read from the socket (tests may call this directly)."""
        self._after(self.session.receive_data(data, self.loop.time()))

    def eof_received(self) -> bool:
        self._after(self.session.receive_data(b"", self.loop.time()))
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        if self._gone:
            return
        self._gone = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._on_close(self)

    # ----- for the owner ----------------------------------------------------------------

    def flush(self) -> None:
        """Write whatever the session has queued (call after giving it messages)."""
        transport = self.transport
        if transport is None or self._gone:
            return
        data = self.session.data_to_send()
        if data:
            transport.write(data)
            if transport.get_write_buffer_size() > self.max_buffer:
                self.abort("slow_reader")
                return
        if self.session.closed:
            self.close()
        else:
            self._arm()

    def close(self) -> None:
        """Close after writing what is queued."""
        if self.transport is not None and not self._gone:
            self.transport.close()

    def abort(self, why: str) -> None:
        """Drop the connection now, discarding unsent bytes."""
        self.closed_by_us = why
        if self.transport is not None and not self._gone:
            self.transport.abort()

    # ----- internals ----------------------------------------------------------------------

    def _after(self, events: list[Any]) -> None:
        if events:
            self._on_events(self, events)
        self.flush()

    def _arm(self) -> None:
        deadline = self.session.next_deadline()
        if self._timer is not None:
            if deadline is not None and self._timer.when() <= deadline:
                return  # it fires early, ticks (a no-op) and re-arms: cheaper than a new
                # timer handle per message, as heartbeat deadlines move on every receive
            self._timer.cancel()
            self._timer = None
        if deadline is not None and not self._gone:
            self._timer = self.loop.call_at(deadline, self._fire)

    def _fire(self) -> None:
        self._timer = None
        if not self._gone:
            self._after(self.session.tick(self.loop.time()))


def session_of(link: Link, kind: type[_S]) -> _S:
    """``link``'s session, as the side that made it knows it to be (a host's links carry a
    :class:`~unotui.protocol.HostSession`, a client's a :class:`~unotui.protocol.PeerSession`).

    Raises:
        TypeError: the link carries another kind of session (a bug, never the peer's doing).
    """
    session = link.session
    if not isinstance(session, kind):
        raise TypeError(f"a link of a {type(session).__name__}, not a {kind.__name__}")
    return session
