"""What a client types, on its way to the session's pty: a byte budget, a bounded backlog,
and backpressure.

Why a budget: the app at the other end (Textual) drains its tty into an unbounded
message queue as fast as it can read, so the pty's own small buffer does not bound what
an app holds: a 16 MiB paste took a worker from 41 to 906 MiB, kept its app busy long
after the client had gone, and slowed the worker's other sessions.  A player types a few
bytes a second (a burst for a paste or a mouse sweep), so the budget (a
:class:`~unotui.tokens.TokenBucket` of bytes) lets ``input_rate`` bytes a second through
with a burst of ``input_burst``; what comes faster waits here, up to ``input_backlog``
bytes; past that the session is ended with a line
(the server cannot tell the rest of a paste from a flood).  Bytes also wait here while
the pty is full (the app reads slowly, see :mod:`unotui.ui.session_driver`), rather than
pausing the SSH channel: a flood would otherwise sit in the client's SSH window, never
over any limit, feeding the app for as long as it likes.
"""

from __future__ import annotations

import asyncio
import os

from ..tokens import TokenBucket

__all__ = ["InputPump"]

_WRITE_SIZE = 4096
#: the least a budget timer waits for (rather than waking for every byte)
_MIN_RELEASE = 256


class InputPump:
    """One session's input: :meth:`feed` what the client sent, :meth:`attach` the pty when
    it is open."""

    def __init__(self, loop: asyncio.AbstractEventLoop, budget: TokenBucket, backlog: int) -> None:
        self._loop = loop
        self._budget = budget
        self._backlog = backlog
        self._buffer = bytearray()
        self._master = -1
        self._blocked = False  # the pty is full: waiting for it to be writable
        self._timer: asyncio.TimerHandle | None = None

    #: bytes taken from the client in all
    received = 0

    @property
    def waiting(self) -> int:
        """Bytes received and not yet written to the pty."""
        return len(self._buffer)

    def feed(self, data: bytes) -> bool:
        """Take bytes from the client; False (and nothing kept) when more than the backlog
        would wait: the session must end."""
        if len(self._buffer) + len(data) > self._backlog:
            self._buffer.clear()
            return False
        self._buffer += data
        self.received += len(data)
        if self._master >= 0:
            self.flush()
        return True

    def attach(self, master: int) -> None:
        """The pty is open (non-blocking master): write what waits."""
        self._master = master
        self.flush()

    def flush(self) -> None:
        """Write what the budget allows; wait for the pty or the budget for the rest."""
        if self._master < 0:
            return
        allowed = self._budget.allowed(self._loop.time())
        full = False
        while self._buffer and allowed > 0:
            try:
                written = os.write(self._master, self._buffer[: min(_WRITE_SIZE, allowed)])
            except BlockingIOError:
                full = True
                break
            except OSError:  # the app's side is gone: nobody reads
                self._buffer.clear()
                break
            del self._buffer[:written]
            self._budget.spend(written)
            allowed -= written
        if full and not self._blocked:
            self._blocked = True
            self._loop.add_writer(self._master, self.flush)
        elif not full and self._blocked:
            self._blocked = False
            self._loop.remove_writer(self._master)
        if self._buffer and not full and self._timer is None:
            delay = self._budget.wait_for(min(len(self._buffer), _MIN_RELEASE))
            self._timer = self._loop.call_later(delay, self._release)

    def _release(self) -> None:
        self._timer = None
        self.flush()

    def close(self) -> None:
        """The session is over: drop what waits, stop every callback (the pty stays open:
        its owner closes it)."""
        self._buffer.clear()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._blocked and self._master >= 0:
            self._loop.remove_writer(self._master)
        self._blocked = False
        self._master = -1
