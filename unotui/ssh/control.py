"""The control channel between the server and a process it started (the forkserver, a
worker): one pickled tuple per packet over a ``SOCK_SEQPACKET`` socket pair, with file
descriptors attached when a pty or a pipe changes hands.

Why one module: the server talks to its forkserver and to each worker the same way, and
both processes answer the same way; the framing, the size limit and the encoding are
stated here once.  Pickle is safe because both ends are this package, started by the
server over a socket pair nobody else holds.

Two sides:

* :class:`ControlChannel`, in the server, on its event loop: :meth:`~ControlChannel.send`
  a message (with fds), every message received goes to a callback, and the peer's end
  closing to another;
* :func:`send` and :func:`receive`, in the forked process, on a blocking socket.
"""

from __future__ import annotations

import asyncio
import pickle
import socket
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["MAX_MESSAGE", "ControlChannel", "decode", "receive", "send", "socket_pair"]

#: the largest packet either end reads (a spec and an environment: a few KiB)
MAX_MESSAGE = 256 * 1024

Message = tuple[Any, ...]


def socket_pair() -> tuple[socket.socket, socket.socket]:
    """A new channel's two ends: the server keeps the first, the process it starts
    inherits the second (one packet per message: no framing of our own)."""
    return socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)


def send(sock: socket.socket, message: Message, fds: Sequence[int] = ()) -> None:
    """Send ``message`` (and copies of ``fds``) as one packet on a blocking socket.

    Raises:
        OSError: the other end has gone.
    """
    data = pickle.dumps(message)
    if fds:
        socket.send_fds(sock, [data], list(fds))
    else:
        sock.send(data)


def receive(sock: socket.socket, max_fds: int) -> tuple[bytes, list[int]]:
    """One packet and the fds that came with it (at most ``max_fds``), waiting for it;
    ``b""`` once the other end has closed (or the socket fails).  The packet is decoded
    apart (:func:`decode`) so that a bad one can be answered and its fds closed."""
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(sock, MAX_MESSAGE, max_fds)
        except InterruptedError:
            continue
        except OSError:
            return b"", []
        return data, fds


def decode(data: bytes) -> Message:
    """A packet's message."""
    message = pickle.loads(data)
    if not isinstance(message, tuple):
        raise ValueError(f"a control message is a tuple, not {type(message).__name__}")
    return message


class ControlChannel:
    """The server's end of a control socket, read on the running event loop.

    ``on_message`` gets each message as it arrives; ``on_closed`` is called once when
    the other end closes (the channel is closed by then).  :meth:`close` (our side ending
    it) calls neither.
    """

    def __init__(
        self, sock: socket.socket, on_message: Callable[[Message], None], on_closed: Callable[[], None]
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self._sock: socket.socket | None = sock
        self._on_message = on_message
        self._on_closed = on_closed
        sock.setblocking(False)
        self._loop.add_reader(sock.fileno(), self._receive)

    @property
    def closed(self) -> bool:
        """No more messages either way."""
        return self._sock is None

    def send(self, message: Message, fds: Sequence[int] = ()) -> None:
        """Send ``message`` (and copies of ``fds``: the caller closes its own).

        Raises:
            OSError: the channel is closed, or the other end has gone.
        """
        sock = self._sock
        if sock is None:
            raise OSError("the control channel is closed")
        sock.setblocking(True)  # a few hundred bytes: never waits in practice
        try:
            send(sock, message, fds)
        finally:
            sock.setblocking(False)

    def close(self) -> None:
        """Stop reading and close our end (the other end sees it close)."""
        sock, self._sock = self._sock, None
        if sock is not None:
            self._loop.remove_reader(sock.fileno())
            sock.close()

    def _receive(self) -> None:
        while (sock := self._sock) is not None:
            try:
                data = sock.recv(MAX_MESSAGE)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self.close()
                self._on_closed()
                return
            self._on_message(decode(data))
