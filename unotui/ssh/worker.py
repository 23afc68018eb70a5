"""A worker process: up to K sessions, each an app in a thread of its own (with its own
event loop), each drawing on its own pty.

Why: a process per session costs ~13 MiB of pages a fork dirties plus the app's own
allocation; a worker pays the first once for K sessions (``bench/ssh_load.py``).  Threads
rather than several apps on one loop: the GIL's switch interval keeps one busy session
from freezing the others.

The forkserver forks a worker (see :mod:`unotui.ssh.forkserver`) with a control socket
(:mod:`unotui.ssh.control`: pickled tuples, one a packet) and a log pipe.
Server -> worker:

* ``("start", session, spec, environ)`` with the pty slave attached: run the app entry
  (``module:function(spec, terminal)``, returning an app to run or an exit status) in a
  new thread;
* ``("resize", session)``: the server has sized the pty; ``("hangup", session)``: end it.

Worker -> server: ``("started", session)`` or ``("failed", session, why)``, later
``("exited", session, status)``.  The server closes the socket when it has no session
left in the worker (it gives it no new one from then on): the worker then exits.

Inside the worker: ``sys.stdout`` and ``sys.stderr`` keep what each session's thread
writes apart and send it, like ``logging`` records, to the log pipe tagged with the
session (``"levelno session text\\x1e"``; 0: the worker itself); fd 2 and
:mod:`faulthandler` write there untagged.  The environment is the server's base one
(no ``TERM``: each session has its own in its :class:`SessionTerminal`).
``RLIMIT_DATA``/``RLIMIT_CPU`` are the per-session limits times K.
"""

from __future__ import annotations

import contextlib
import contextvars
import faulthandler
import io
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO, cast

from . import control
from .child import RECORD_END, _exit_code, resolve_entry, settle
from .spec import SessionSpec
from .terminal import SessionApp, SessionTerminal

__all__ = ["AppEntry", "worker_main"]

#: the session whose thread (or asyncio task) is running: 0 in the worker's own code
SESSION: contextvars.ContextVar[int] = contextvars.ContextVar("unotui_ssh_session", default=0)

AppEntry = Callable[[SessionSpec, SessionTerminal], "SessionApp | int | None"]

log = logging.getLogger("unotui.ssh.worker")


class _TaggedRecordHandler(logging.Handler):
    """Log records as ``"levelno session text\\x1e"`` on the log pipe."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream
        self._write_lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record).replace(RECORD_END, " ")
            with self._write_lock:
                self.stream.write(f"{record.levelno} {SESSION.get()} {text}{RECORD_END}")
                self.stream.flush()
        except Exception:  # pragma: no cover - the server has gone: nobody to tell
            pass


class _SessionStream(io.TextIOBase):
    """``sys.stdout``/``sys.stderr`` in a worker: each thread's lines become one log
    record of the session running there (never anything on a player's terminal)."""

    def __init__(self, level: int) -> None:
        super().__init__()
        self._level = level
        self._local = threading.local()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        buffer: list[str] | None = getattr(self._local, "buffer", None)
        if buffer is None:
            buffer = self._local.buffer = []
        buffer.append(text)
        if "\n" in text:
            self._emit(buffer, whole=False)
        return len(text)

    def flush(self) -> None:
        buffer: list[str] | None = getattr(self._local, "buffer", None)
        if buffer:
            self._emit(buffer, whole=True)

    def _emit(self, buffer: list[str], whole: bool) -> None:
        text = "".join(buffer)
        buffer.clear()
        if not whole:
            text, _, rest = text.rpartition("\n")
            if rest:
                buffer.append(rest)
        if text.strip():
            log.log(self._level, "%s", text.rstrip())


class _Worker:
    """The worker's control loop (main thread) and its sessions' threads."""

    def __init__(self, sock: socket.socket, entry: AppEntry) -> None:
        self.sock = sock
        self.entry = entry
        self.terminals: dict[int, SessionTerminal] = {}
        self.threads: dict[int, threading.Thread] = {}
        self._send_lock = threading.Lock()

    def send(self, message: tuple[Any, ...]) -> None:
        with self._send_lock, contextlib.suppress(OSError):
            control.send(self.sock, message)

    def serve(self) -> None:
        while True:
            data, fds = control.receive(self.sock, 2)
            if not data:
                for fd in fds:
                    os.close(fd)
                return
            try:
                self.handle(control.decode(data), fds)
            except Exception:
                for fd in fds:
                    with contextlib.suppress(OSError):
                        os.close(fd)
                log.exception("a bad control message")

    def handle(self, message: tuple[Any, ...], fds: list[int]) -> None:
        kind, session = message[0], int(message[1])
        if kind == "start":
            spec, environ = message[2], message[3]
            [fd] = fds
            terminal = SessionTerminal(fd, session, environ)
            thread = threading.Thread(
                target=self.run_session, args=(terminal, spec), name=f"session-{session}", daemon=True
            )
            self.terminals[session] = terminal
            self.threads[session] = thread
            with self._send_lock:  # "started" goes before the thread can say "exited"
                try:
                    thread.start()
                    reply: tuple[Any, ...] = ("started", session)
                except Exception as exc:  # no thread to be had (a limit): this session only
                    del self.terminals[session], self.threads[session]
                    terminal.close()
                    reply = ("failed", session, f"{type(exc).__name__}: {exc}")
                with contextlib.suppress(OSError):
                    control.send(self.sock, reply)
            return
        for fd in fds:
            os.close(fd)
        known = self.terminals.get(session)
        if known is None:
            return
        if kind == "resize":
            known.resized()
        elif kind == "hangup":
            known.hangup()

    def run_session(self, terminal: SessionTerminal, spec: SessionSpec) -> None:
        """One session's life, in its own thread: the entry, then its app."""
        SESSION.set(terminal.session)  # this thread's context; asyncio.run copies it to the app
        status = 1
        try:
            made = self.entry(spec, terminal)
            if made is None or isinstance(made, int):
                status = _exit_code(made)
            else:
                made.run()
                status = _exit_code(made.return_code)
        except SystemExit as exc:
            status = _exit_code(exc.code)
        except BaseException:
            log.exception("the session's app failed")
        finally:
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
            terminal.close()
            self.terminals.pop(terminal.session, None)
            self.threads.pop(terminal.session, None)
            self.send(("exited", terminal.session, status))

    def end_all(self, grace: float) -> None:
        """The server has gone: hang every session up, give them ``grace`` seconds."""
        for terminal in list(self.terminals.values()):
            terminal.hangup()
        for thread in list(self.threads.values()):
            thread.join(grace)


def worker_main(
    control_fd: int, log_fd: int, app_entry: str, env: dict[str, str], memory_mib: int, cpu_seconds: int
) -> None:
    """The worker's life (in the forkserver's fresh child); never returns.

    ``memory_mib`` and ``cpu_seconds`` are already the whole worker's (K sessions').
    """
    os.setsid()  # out of the forkserver's process group; no controlling terminal
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(log_fd, 1)
    os.dup2(log_fd, 2)
    if log_fd > 2:
        os.close(log_fd)
    raw = open(2, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False)  # noqa: SIM115
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", closefd=False)  # type: ignore[misc]  # noqa: SIM115
    sys.__stdout__ = sys.__stderr__ = raw  # type: ignore[misc]
    sys.stdout = cast(TextIO, _SessionStream(logging.INFO))
    sys.stderr = cast(TextIO, _SessionStream(logging.ERROR))
    faulthandler.enable(raw, all_threads=True)
    settle(_TaggedRecordHandler(raw), env, memory_mib, cpu_seconds)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # no terminal: only the server ends a worker
    code = 0
    try:
        worker = _Worker(socket.socket(fileno=control_fd), cast(AppEntry, resolve_entry(app_entry)))
        worker.serve()
        worker.end_all(2.0)
    except BaseException:
        log.exception("the worker failed")
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr, raw):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)
