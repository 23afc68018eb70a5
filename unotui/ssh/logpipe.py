"""Reading a child's log pipe on the server's event loop (a session's process or a worker).

The child writes records ending in :data:`~unotui.ssh.child.RECORD_END`; each is handed
to ``record`` as it completes.  Bytes with no record end (faulthandler's dump after a
fatal error, a C library writing to fd 2) are handed to ``raw`` once 64 KiB have piled
up, and whatever is left when the pipe ends, so that nothing the child wrote is lost.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from .child import RECORD_END

__all__ = ["LogPipe"]

_READ_SIZE = 64 * 1024
_MAX_PENDING = 64 * 1024


class LogPipe:
    """Reads ``fd`` (non-blocking, owned from now on: closed at its end) on ``loop``."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        fd: int,
        record: Callable[[str], None],
        raw: Callable[[str], None],
    ) -> None:
        self._loop, self._fd = loop, fd
        self._record, self._raw = record, raw
        self._pending = ""
        os.set_blocking(fd, False)
        loop.add_reader(fd, self._read)

    def _read(self) -> None:
        try:
            data = os.read(self._fd, _READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._loop.remove_reader(self._fd)
            os.close(self._fd)
            if self._pending.strip():
                self._raw(self._pending)
            self._pending = ""
            return
        self._pending += data.decode("utf-8", "replace")
        *records, self._pending = self._pending.split(RECORD_END)
        for record in records:
            self._record(record)
        if len(self._pending) > _MAX_PENDING:
            self._raw(self._pending)
            self._pending = ""
