"""The server's side of worker processes (see :mod:`unotui.ssh.worker`): which worker a
new session goes to, the control socket, the worker's log, and each session's end.

A new session goes to the fullest worker that has room (fewer workers: less memory), or
to a new worker forked from the forkserver.  A worker's slot stays taken until the worker
says the session's thread has ended.  When a worker has no session left the pool closes
its control socket and forgets it: the worker exits.  If a worker dies (a segfault,
``os._exit``, the kernel's OOM killer), every session it held ends with its status.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from typing import Any, Protocol

from . import control
from .control import ControlChannel
from .forkserver import Forkserver
from .logpipe import LogPipe
from .spec import SessionSpec

__all__ = ["Tenant", "Worker", "WorkerPool"]

log = logging.getLogger("unotui.ssh")


class Tenant(Protocol):
    """What a worker needs of a session it runs (a :class:`~unotui.ssh.session.ShellSession`):
    the pool knows sessions only by this, so that it does not import them."""

    @property
    def number(self) -> int:
        """The session's number on the control socket."""

    @property
    def finished(self) -> bool:
        """The session is over on the server's side."""

    def log_record(self, level: int, text: str) -> None:
        """A record from the session's app, for the server's log."""


class Worker:
    """One worker process, as the server sees it."""

    def __init__(self, pool: WorkerPool, number: int) -> None:
        self.pool = pool
        self.number = number
        self.pid: int | None = None
        #: sessions given to this worker whose end it has not reported yet
        self.load = 0
        self.retired = False
        self.sessions: dict[int, Tenant] = {}
        self._loop = asyncio.get_running_loop()
        self._channel: ControlChannel | None = None
        self._ready: asyncio.Future[None] = self._loop.create_future()
        self._starting: dict[int, asyncio.Future[None]] = {}
        self._exits: dict[int, asyncio.Future[int]] = {}
        self._running: set[int] = set()

    async def start(
        self, forkserver: Forkserver, env: dict[str, str], memory_mib: int, cpu_seconds: int
    ) -> None:
        ours, theirs = control.socket_pair()
        log_r, log_w = os.pipe()
        try:
            self.pid = await forkserver.spawn_worker(theirs.fileno(), log_w, env, memory_mib, cpu_seconds)
        except BaseException as exc:
            ours.close()
            os.close(log_r)
            if not self._ready.done():
                self._ready.set_exception(exc if isinstance(exc, Exception) else OSError("cancelled"))
                self._ready.exception()  # retrieved: the waiters re-raise it
            raise
        finally:
            theirs.close()
            os.close(log_w)
        self._channel = ControlChannel(ours, self._handle, self._gone)
        LogPipe(self._loop, log_r, self._log_record, lambda text: self._log_line(logging.ERROR, 0, text))
        forkserver.exit_status(self.pid).add_done_callback(self._on_process_exit)
        log.info("worker %d: started pid %d", self.number, self.pid)
        if not self._ready.done():
            self._ready.set_result(None)

    async def run(self, session: Tenant, spec: SessionSpec, tty: int, environ: dict[str, str]) -> None:
        """Start ``session`` in this worker on the pty slave ``tty`` (the caller closes its own).

        Raises:
            OSError: the worker is gone or could not start it.
        """
        await self._ready
        number = session.number
        if self._channel is None or self._channel.closed:
            raise OSError("the worker has ended")
        future: asyncio.Future[None] = self._loop.create_future()
        self._starting[number] = future
        self.sessions[number] = session
        try:
            self._send(("start", number, spec, environ), [tty])
            await future
        except BaseException:
            self._starting.pop(number, None)
            self.sessions.pop(number, None)
            raise

    def exit_status(self, number: int) -> asyncio.Future[int]:
        """Resolves to the session's status once its thread has ended (or the worker died)."""
        return self._exits.setdefault(number, self._loop.create_future())

    def resize(self, number: int) -> None:
        self._send_quietly(("resize", number))

    def hangup(self, number: int) -> None:
        self._send_quietly(("hangup", number))

    def forget(self, number: int) -> None:
        """The server is done with the session (its slot is freed when the worker says so)."""
        self._exits.pop(number, None)
        if number not in self._running:
            self.sessions.pop(number, None)

    # ----- the control socket -----------------------------------------------------------------

    def _send(self, message: tuple[Any, ...], fds: list[int] | None = None) -> None:
        if self._channel is None or self._channel.closed:
            raise OSError("the worker has ended")
        self._channel.send(message, fds or ())

    def _send_quietly(self, message: tuple[Any, ...]) -> None:
        with contextlib.suppress(OSError):
            self._send(message)

    def _handle(self, message: tuple[Any, ...]) -> None:
        kind, number = message[0], int(message[1])
        if kind in ("started", "failed"):
            future = self._starting.pop(number, None)
            if kind == "started":  # now: its "exited" may come in this same read
                self._running.add(number)
            if future is not None and not future.done():
                if kind == "started":
                    future.set_result(None)
                else:
                    future.set_exception(OSError(str(message[2])))
        elif kind == "exited":
            self._ended(number, int(message[2]))

    def _ended(self, number: int, status: int) -> None:
        if number in self._running:
            self._running.discard(number)
            self.pool.release(self)
        future = self.exit_status(number)
        if not future.done():
            future.set_result(status)
        session = self.sessions.get(number)
        if session is None or session.finished:
            self.sessions.pop(number, None)
            self._exits.pop(number, None)

    def _gone(self) -> None:
        """The control socket closed: the worker ended."""
        for future in self._starting.values():
            if not future.done():
                future.set_exception(OSError("the worker ended"))
        self._starting.clear()
        self.pool.forget(self)
        if self._running and not self.retired:
            # The process died with sessions in it: they end with its status, which the
            # forkserver reports (a moment later) - or 255 if it never does.
            self._loop.call_later(2.0, self._end_running, 255)

    def _on_process_exit(self, status: asyncio.Future[int]) -> None:
        code = status.result()
        if self._running:
            log.error("worker %d (pid %s) ended with status %d while running sessions %s",
                      self.number, self.pid, code, sorted(self._running))
        self._end_running(code if code != 0 else 255)
        if self.pid is not None:
            self.pool.forkserver.forget(self.pid)

    def _end_running(self, status: int) -> None:
        for number in sorted(self._running):
            self._ended(number, status)

    def retire(self) -> None:
        """No session left: close the control socket (the worker exits) and the log
        once it has drained."""
        self.retired = True
        if self._channel is not None:
            self._channel.close()
        log.info("worker %d: no session left, pid %s ends", self.number, self.pid)

    # ----- the log pipe -----------------------------------------------------------------------

    def _log_record(self, record: str) -> None:
        parts = record.split(" ", 2)
        if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
            self._log_line(int(parts[0]), int(parts[1]), parts[2])
        else:  # raw text (a fatal error's dump, a C library's message)
            self._log_line(logging.ERROR, 0, record)

    def _log_line(self, level: int, number: int, text: str) -> None:
        """One line of the worker's log: to its session's log, or the worker's own."""
        session = self.sessions.get(number) if number else None
        if session is not None:
            session.log_record(level, text)
        else:
            who = f"sessions {sorted(self._running)}" if self._running else "no session"
            log.log(level, "worker %d (pid %s, %s): %s", self.number, self.pid, who, text.rstrip())


class WorkerPool:
    """Up to ``per_process`` sessions per worker; as many workers as it takes.

    ``spread``: a new session gets a worker of its own while fewer than this many run,
    then joins the least busy one with room (sessions spread over the cores first);
    with 1 it joins the busiest one with room (the fewest workers, the least memory).
    """

    def __init__(
        self,
        forkserver: Forkserver,
        per_process: int,
        env: dict[str, str],
        memory_mib: int,
        cpu_seconds: int,
        *,
        spread: int = 1,
    ) -> None:
        self.forkserver = forkserver
        self.per_process = per_process
        self.spread = spread
        self.env = env
        self.memory_mib = memory_mib
        self.cpu_seconds = cpu_seconds
        self.workers: list[Worker] = []
        self._numbers = 0

    def pids(self) -> list[int]:
        """The running workers' pids."""
        return [w.pid for w in self.workers if w.pid is not None]

    async def run(
        self, session: Tenant, spec: SessionSpec, tty: int, environ: dict[str, str]
    ) -> Worker:
        """Start ``session`` in a worker with room (a new one if none has); that worker.

        Raises:
            OSError: no worker could be started, or it could not start the session.
        """
        live = [w for w in self.workers if not w.retired]
        room = [w for w in live if w.load < self.per_process]
        if room and len(live) >= self.spread:
            pick = max if self.spread == 1 else min
            worker = pick(room, key=lambda w: w.load)
            worker.load += 1
        else:
            self._numbers += 1
            worker = Worker(self, self._numbers)
            worker.load = 1
            self.workers.append(worker)
            k = self.per_process
            memory = self.memory_mib * k
            cpu = self.cpu_seconds * k
            try:
                await worker.start(self.forkserver, self.env, memory, cpu)
            except BaseException:
                self.forget(worker)
                raise
        try:
            await worker.run(session, spec, tty, environ)
        except BaseException:
            if worker in self.workers:
                self.release(worker)
            raise
        return worker

    def release(self, worker: Worker) -> None:
        """A slot of ``worker`` is free again; retire it once it has none taken."""
        worker.load -= 1
        if worker.load <= 0 and not worker.retired:
            worker.retire()
            self.forget(worker)

    def forget(self, worker: Worker) -> None:
        with contextlib.suppress(ValueError):
            self.workers.remove(worker)

    def close(self) -> None:
        """The server stops: retire every worker (each ends once its sessions have)."""
        for worker in list(self.workers):
            worker.retire()
        self.workers.clear()
