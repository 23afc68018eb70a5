"""A forkserver for sessions: one process that imported Textual and the entry once, and
forks a child per session.

Why: a fresh interpreter that imports Textual costs ~24 MiB and ~0.25 s per session; a
fork of a preloaded process shares those pages (copy on write) and starts at once.  The
forkserver is started *before* any session, by :class:`Forkserver` (server side), as a
separate interpreter (``python -c``): it never inherits the server's event loop, threads,
sockets or asyncssh.

Protocol, over a control channel (:mod:`unotui.ssh.control`: a ``SOCK_SEQPACKET``
socket pair, one pickled tuple per packet):

* forkserver -> server, once: ``("ready", error)``: preloaded (``error`` is "" or why the
  entry does not resolve);
* server -> forkserver: ``(request id, "session", (spec, env, memory MiB, CPU s))`` with
  two fds attached (the pty's slave, the log pipe's write end): a session's own process;
  or ``(request id, "worker", (env, memory MiB, CPU s))`` with a control socket and a log
  pipe's write end: a worker for several sessions (see :mod:`unotui.ssh.worker`);
* forkserver -> server: ``("started", request id, pid)`` or ``("failed", request id,
  why)``, and later ``("exited", pid, status)`` (the status as
  :func:`os.waitstatus_to_exitcode` gives it: negative for a signal).

The forkserver ends when the server's end of the socket closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from . import control
from .control import ControlChannel
from .errors import EntryError
from .spec import SessionSpec

__all__ = ["Forkserver", "main"]


class Forkserver:
    """The server's handle on its forkserver process."""

    def __init__(self, entry: str, preload: Sequence[str], app_entry: str | None = None) -> None:
        self.entry = entry
        self.app_entry = app_entry or ""
        modules = [e.partition(":")[0] for e in (entry, self.app_entry) if e]
        if app_entry:
            modules.append("unotui.ssh.worker")
        self.preload = list(dict.fromkeys([*preload, *modules]))
        self.pid: int | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._channel: ControlChannel | None = None
        self._ready: asyncio.Future[str] | None = None
        self._starting: dict[int, asyncio.Future[int]] = {}
        self._exits: dict[int, asyncio.Future[int]] = {}
        self._requests = 0

    async def start(self) -> None:
        """Start the forkserver and wait until it has preloaded.

        Raises:
            EntryError: the entry does not resolve (or the forkserver died).
        """
        loop = asyncio.get_running_loop()
        ours, theirs = control.socket_pair()
        with theirs:
            code = "import sys; from unotui.ssh.forkserver import main; main(sys.argv[1:])"
            args = [str(theirs.fileno()), self.entry, json.dumps(self.preload), json.dumps(sys.path),
                    self.app_entry]
            self._process = subprocess.Popen(
                # -P: the working directory is not put first on the path (a checkout of another
                # unotui there would run in every session); the path is the server's own below
                [sys.executable, "-P", "-c", code, *args], pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True,
            )
        self.pid = self._process.pid
        self._ready = loop.create_future()
        self._channel = ControlChannel(ours, self._handle, self._gone)
        error = await self._ready
        if error:
            await self.close()
            raise EntryError(error)

    async def spawn(
        self, spec: SessionSpec, tty: int, log: int, env: dict[str, str], memory_mib: int, cpu_seconds: int
    ) -> int:
        """Fork a child for ``spec`` on the pty slave ``tty`` (logs to ``log``); its pid.

        The caller keeps (and closes) its own ``tty`` and ``log``: the child gets copies.

        Raises:
            OSError: the forkserver is gone or could not fork.
        """
        return await self._fork("session", (spec, env, memory_mib, cpu_seconds), [tty, log])

    async def spawn_worker(self, control: int, log: int, env: dict[str, str], memory_mib: int,
                           cpu_seconds: int) -> int:
        """Fork a worker for several sessions (the app entry) with its end of the control
        socket and the log pipe's write end (the caller keeps and closes its own); its pid.

        ``memory_mib`` and ``cpu_seconds`` are the whole worker's limits.

        Raises:
            OSError: the forkserver is gone or could not fork.
        """
        return await self._fork("worker", (env, memory_mib, cpu_seconds), [control, log])

    async def _fork(self, kind: str, args: tuple[Any, ...], fds: list[int]) -> int:
        if self._channel is None or self._channel.closed:
            raise OSError("the forkserver is not running")
        self._requests += 1
        request = self._requests
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._starting[request] = future
        try:
            self._channel.send((request, kind, args), fds)
        except OSError:
            del self._starting[request]
            raise
        pid = await future
        self._exits.setdefault(pid, asyncio.get_running_loop().create_future())
        return pid

    def exit_status(self, pid: int) -> asyncio.Future[int]:
        """Resolves to the child's status once it has ended (negative: killed by that signal)."""
        return self._exits.setdefault(pid, asyncio.get_running_loop().create_future())

    def forget(self, pid: int) -> None:
        """The session of ``pid`` is over: drop its exit status."""
        self._exits.pop(pid, None)

    def _handle(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "ready" and self._ready is not None and not self._ready.done():
            self._ready.set_result(str(message[1]))
        elif kind in ("started", "failed"):
            future = self._starting.pop(int(message[1]), None)
            if future is not None and not future.done():
                if kind == "started":
                    future.set_result(int(message[2]))
                else:
                    future.set_exception(OSError(str(message[2])))
        elif kind == "exited":
            future = self.exit_status(int(message[1]))
            if not future.done():
                future.set_result(int(message[2]))

    def _gone(self) -> None:
        """The forkserver ended: nothing more will start; running children are orphans
        (their sessions still end when their pty closes)."""
        if self._channel is not None:
            self._channel.close()
        if self._ready is not None and not self._ready.done():
            self._ready.set_result("the forkserver ended before it was ready (see the server's stderr)")
        for future in self._starting.values():
            if not future.done():
                future.set_exception(OSError("the forkserver ended"))
        self._starting.clear()
        for future in self._exits.values():
            if not future.done():
                future.set_result(255)
        self._exits.clear()

    async def close(self) -> None:
        """End the forkserver (children already started run on)."""
        if self._channel is not None and not self._channel.closed:
            self._gone()
        process = self._process
        if process is not None:
            self._process = None
            try:
                await asyncio.get_running_loop().run_in_executor(None, process.wait, 5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# ----- the forkserver process ------------------------------------------------------------------


def main(argv: list[str]) -> None:
    """The forkserver: ``main([socket fd, entry, preload JSON, sys.path JSON, app entry])``
    (the app entry, for workers, may be "")."""
    fd, entry, preload, path = int(argv[0]), argv[1], json.loads(argv[2]), json.loads(argv[3])
    app_entry = argv[4] if len(argv) > 4 else ""
    sys.path[:] = path
    sock = socket.socket(fileno=fd)
    error = ""
    for module in preload:
        try:
            __import__(module)
        except Exception as exc:  # a missing optional preload costs memory, not correctness
            print(f"unotui ssh forkserver: preloading {module}: {exc}", file=sys.stderr)
    from .child import resolve_entry

    try:
        resolve_entry(entry)
        if app_entry:
            resolve_entry(app_entry)
    except EntryError as exc:
        error = str(exc)
    # What exists now is shared with every child: keep the collector off its pages.
    gc.collect()
    gc.freeze()
    control.send(sock, ("ready", error))
    if error:
        return
    _serve(sock, entry, app_entry)


def _serve(sock: socket.socket, entry: str, app_entry: str) -> None:
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in the server's terminal is the server's
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    selector.register(wake_r, selectors.EVENT_READ)
    while True:
        ready = {key.fileobj for key, _ in selector.select()}
        if wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_r, 4096)
            _reap(sock)
        if sock in ready:
            data, fds = control.receive(sock, 4)
            if not data:
                return  # the server has gone
            _fork(sock, data, fds, (entry, app_entry), (selector, wake_r, wake_w))


def _fork(
    sock: socket.socket, data: bytes, fds: list[int], entries: tuple[str, str], own: tuple[Any, int, int]
) -> None:
    request: int = -1
    try:
        request, kind, args = control.decode(data)
        if kind not in ("session", "worker") or (kind == "worker" and not entries[1]):
            raise ValueError(f"cannot fork a {kind!r}")
        tty, log = fds
        pid = os.fork()
    except Exception as exc:
        for fd in fds:
            os.close(fd)
        control.send(sock, ("failed", request, f"{type(exc).__name__}: {exc}"))
        return
    if pid == 0:  # the child: drop the forkserver's own things, then become the session
        try:
            selector, wake_r, wake_w = own
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            selector.close()
            sock.close()
            os.close(wake_r)
            os.close(wake_w)
            if kind == "worker":
                from .worker import worker_main

                env, memory_mib, cpu_seconds = args
                worker_main(tty, log, entries[1], env, memory_mib, cpu_seconds)
            else:
                from .child import child_main

                spec, env, memory_mib, cpu_seconds = args
                child_main(spec, entries[0], tty, log, env, memory_mib, cpu_seconds)
        finally:
            os._exit(1)
    os.close(tty)
    os.close(log)
    control.send(sock, ("started", request, pid))


def _reap(sock: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        with contextlib.suppress(OSError):
            control.send(sock, ("exited", pid, os.waitstatus_to_exitcode(status)))
