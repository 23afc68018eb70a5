"""A session's terminal inside a worker process (see :mod:`unotui.ssh.worker`).

In a worker several sessions share one process, so nothing process-wide (fds 0-2,
``os.environ``, signals) may describe one of them.  A :class:`SessionTerminal` is what
an app entry gets instead: the pty slave's fd, the client's ``TERM``/``COLORTERM``, the
size, a way to write a plain line, and the events the server sends for this session
(the window changed; the client hung up), which a driver subscribes to with
:meth:`SessionTerminal.listen`.  Plain standard library: the SSH layer never imports
Textual; the driver that uses this lives in :mod:`unotui.ui.session_driver`.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Mapping
from typing import Protocol

__all__ = ["SessionApp", "SessionTerminal"]

Listener = Callable[[], None]


class SessionApp(Protocol):
    """What an app entry returns: something to run in the session's thread (a Textual App)."""

    def run(self) -> object: ...

    @property
    def return_code(self) -> int | None: ...


class SessionTerminal:
    """One session's pty slave, owned by its worker thread (closed when the session ends).

    Attributes:
        fd: the pty slave (raw mode, sized by the server).
        session: the server's number for the session (its log records carry it).
        environ: ``TERM`` and, when the client draws 24-bit colour, ``COLORTERM``: what
            a session's own process would have in ``os.environ``.
    """

    def __init__(self, fd: int, session: int, environ: Mapping[str, str]) -> None:
        self.fd = fd
        self.session = session
        self.environ: dict[str, str] = dict(environ)
        self._lock = threading.Lock()
        self._on_resize: Listener | None = None
        self._on_hangup: Listener | None = None
        self._hung_up = False
        self._closed = False

    @property
    def term(self) -> str:
        return self.environ.get("TERM", "xterm-256color")

    @property
    def size(self) -> tuple[int, int]:
        """(columns, rows) as the pty says now; (80, 24) if it cannot tell."""
        try:
            size = os.get_terminal_size(self.fd)
        except OSError:
            return (80, 24)
        return (size.columns or 80, size.lines or 24)

    @property
    def hung_up(self) -> bool:
        """The server asked this session to end (client gone, idle, shutting down)."""
        return self._hung_up

    def write(self, text: str) -> None:
        """Write ``text`` on the terminal now (a line before or instead of an app); a
        terminal that is gone is ignored."""
        data = memoryview(text.encode("utf-8", "backslashreplace"))
        with contextlib.suppress(OSError):
            while data:
                data = data[os.write(self.fd, data) :]

    def listen(self, on_resize: Listener, on_hangup: Listener) -> None:
        """Call ``on_resize`` when the window changes and ``on_hangup`` when the session
        must end (at once if it already must).  Both run in the worker's control thread:
        hand the work to the app's loop (``call_soon_threadsafe``)."""
        with self._lock:
            self._on_resize, self._on_hangup = on_resize, on_hangup
            hung_up = self._hung_up
        if hung_up:
            on_hangup()

    def unlisten(self) -> None:
        with self._lock:
            self._on_resize = self._on_hangup = None

    # ----- called by the worker -----------------------------------------------------------------

    def resized(self) -> None:
        with self._lock:
            listener = self._on_resize
        if listener is not None:
            listener()

    def hangup(self) -> None:
        with self._lock:
            if self._hung_up:
                return
            self._hung_up = True
            listener = self._on_hangup
        if listener is not None:
            listener()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._on_resize = self._on_hangup = None
        with contextlib.suppress(OSError):
            os.close(self.fd)
