"""One SSH session channel: a pty, a child process (or a worker's thread) on it, and the
bytes pumped between.

The session knows nothing of the game.  It takes the client's pty request (TERM and
size), an optional exec request (checked against the allow-list; nothing is executed),
then starts the child through the server's forkserver (or, with several sessions per
process, gives the pty to a worker: :mod:`unotui.ssh.pool`) and pumps bytes both ways: a
client that stops reading pauses the pty's reader; what the client types passes a byte
budget with a bounded backlog (:mod:`unotui.ssh.pump`; past it the session ends with a
line).  Window changes go to the pty (``TIOCSWINSZ``: a child gets
``SIGWINCH``; a worker is told on its control socket).  When the child (or the session's
thread) ends abnormally the client's terminal is reset first.

A session is handed a :class:`~unotui.ssh.host.SessionHost`, the few things of its server
it uses, not the server: it cannot reach the other sessions, the connections or the
admission, and it imports neither the server nor the pool (:mod:`unotui.ssh.host`).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import signal
import struct
import termios
import tty
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace

import asyncssh

from ..tokens import TokenBucket
from .host import Placement, SessionHost
from .logpipe import LogPipe
from .pump import InputPump
from .spec import CommandError, SessionSpec, parse_command, safe_term

__all__ = ["RESET", "RefusalSession", "ShellSession"]

log = logging.getLogger("unotui.ssh")

#: leaves the alternate screen, stops mouse and focus reports and bracketed paste, pops
#: the kitty keyboard mode, shows the cursor and resets colours: a terminal fit to use
RESET = (
    b"\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1016l"
    b"\x1b[?1004l\x1b[?2004l\x1b[<u\x1b[?25h\x1b[0m\r\n"
)
_READ_SIZE = 64 * 1024
_DEFAULT_SIZE = (80, 24)


def set_size(fd: int, columns: int, rows: int, pixwidth: int = 0, pixheight: int = 0) -> None:
    """Size the pty (on the master: the child's session gets ``SIGWINCH``)."""
    packed = struct.pack("HHHH", max(1, min(rows, 1000)), max(1, min(columns, 1000)), pixwidth, pixheight)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, packed)


class ShellSession(asyncssh.SSHServerSession[bytes]):
    """A session channel of one SSH connection: runs the server's entry on a pty."""

    def __init__(self, host: SessionHost[ShellSession], spec: SessionSpec, number: int) -> None:
        self._host = host
        self._spec = spec
        self.number = number
        self._loop = asyncio.get_running_loop()
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._has_pty = False
        self._size: tuple[int, int, int, int] = (*_DEFAULT_SIZE, 0, 0)
        self._command: tuple[str, ...] = ()
        self._refusal = ""
        self._master = -1
        self._pid: int | None = None
        self._worker: Placement | None = None
        self._status: int | None = None
        limits = host.limits
        budget = TokenBucket(limits.input_rate, limits.input_burst, self._loop.time())
        self._input = InputPump(self._loop, budget, limits.input_backlog)
        self._output_paused = False
        self._master_eof = False
        self._exited = False
        self._finished = False
        self._ended_by = ""  # "idle", "input" (too much), "hangup" (client left), "closing", ""
        self._last_input = self._loop.time()
        self._timers: list[asyncio.TimerHandle] = []
        self._starting: asyncio.Future[None] | None = None
        self.done = self._loop.create_future()

    # ----- requests from the client -----------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan
        chan.set_write_buffer_limits(high=256 * 1024, low=64 * 1024)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: object) -> bool:
        self._has_pty = True
        columns, rows, pixwidth, pixheight = term_size
        if columns <= 0 or rows <= 0:
            columns, rows = _DEFAULT_SIZE
        self._size = (columns, rows, pixwidth, pixheight)
        term = safe_term(term_type)
        if term != term_type and term_type:
            log.info("session %d: TERM %r is not a terminal's name; %s instead", self.number, term_type, term)
        self._spec = replace(self._spec, term=term, size=(columns, rows))
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        try:
            self._command = parse_command(command, self._host.commands)
        except CommandError as exc:
            self._host.count_refusal("exec")
            self._refusal = f"unotui: {exc}"
        return True  # accepted so that the client reads why; nothing is executed

    def subsystem_requested(self, subsystem: str) -> bool:
        self._host.count_refusal("subsystem")
        log.info("session %d: subsystem %r refused", self.number, subsystem)
        return False

    def break_received(self, msec: int) -> bool:
        return True  # nothing to break: the app reads its keys itself

    def signal_received(self, signal: str) -> None:
        pass  # signals are not forwarded: only the server ends a session's process

    def eof_received(self) -> bool:
        self._end("hangup")
        return False

    def session_started(self) -> None:
        chan = self._chan
        assert chan is not None
        if self._refusal:
            self._refuse(self._refusal)
        elif not self._has_pty:
            hint = " ".join(("ssh -t -p", str(self._host.port or 22), "HOST", *self._command))
            self._refuse(f"unotui needs a terminal: run ssh with -t (for example: {hint})")
        else:
            self._starting = asyncio.ensure_future(self._start_or_refuse())

    async def _start_or_refuse(self) -> None:
        try:
            await self._start_child()
        except Exception:
            log.exception("session %d: the child did not start", self.number)
            if self._chan is not None:
                self._refuse("unotui: the game could not start; please try again later")
            else:
                self._finish_future()

    def _refuse(self, line: str) -> None:
        assert self._chan is not None
        self._chan.write(line.encode("utf-8", "replace") + b"\r\n")
        self._chan.exit(2)
        self._finish_future()

    # ----- the child --------------------------------------------------------------------------

    async def _start_child(self) -> None:
        host = self._host
        columns, rows, _, _ = self._size
        spec = replace(self._spec, command=self._command)
        if host.extra_for is not None:
            spec = replace(spec, extra=dict(host.extra_for(spec)))
        self._spec = spec
        assert self._chan is not None
        environ = host.environ(spec.term, self._chan.get_environment().get("COLORTERM"))
        if host.place is not None:
            await self._start_in_worker(host.place, environ)
        else:
            await self._start_process(environ)
        host.started(self)
        where = f"worker {self._worker.number} pid {self._pid}" if self._worker else f"pid {self._pid}"
        log.info(
            "session %d: started in %s for user %r (%s) from %s, %r %dx%d, command %r",
            self.number, where, spec.user, spec.fingerprint or "guest", spec.peer,
            spec.term, columns, rows, spec.command,
        )
        if host.limits.idle_timeout > 0:
            self._schedule_idle_check(host.limits.idle_timeout)
        if self._ended_by:  # the client left (or the server closed) while it started
            self._signal(signal.SIGHUP)
            self._schedule_kill()
        else:
            self._input.attach(self._master)

    def _open_pty(self) -> tuple[int, int]:
        columns, rows, pixwidth, pixheight = self._size
        master, slave = os.openpty()
        try:
            tty.setraw(slave)  # before the app runs: early keys are never echoed
            set_size(slave, columns, rows, pixwidth, pixheight)
        except BaseException:
            os.close(master)
            os.close(slave)
            raise
        return master, slave

    async def _start_process(self, env: dict[str, str]) -> None:
        """A process of its own (one session per process)."""
        host = self._host
        master, slave = self._open_pty()
        log_r, log_w = os.pipe()
        try:
            limits = host.limits
            self._pid = await host.forkserver.spawn(
                self._spec, slave, log_w, env, limits.child_memory_mib, limits.child_cpu_seconds
            )
        except BaseException:
            os.close(master)
            os.close(log_r)
            raise
        finally:
            os.close(slave)
            os.close(log_w)
        os.set_blocking(master, False)
        self._master = master
        self._loop.add_reader(master, self._read_master)
        LogPipe(self._loop, log_r, self._log_record, lambda text: self.log_record(logging.ERROR, text))
        host.forkserver.exit_status(self._pid).add_done_callback(self._on_exit)

    async def _start_in_worker(
        self,
        place: Callable[[ShellSession, SessionSpec, int, dict[str, str]], Awaitable[Placement]],
        environ: dict[str, str],
    ) -> None:
        """A thread in a worker process shared with other sessions."""
        master, slave = self._open_pty()
        try:
            worker = await place(self, self._spec, slave, environ)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self._worker, self._pid = worker, worker.pid
        os.set_blocking(master, False)
        self._master = master
        self._loop.add_reader(master, self._read_master)
        worker.exit_status(self.number).add_done_callback(self._on_exit)

    @property
    def input(self) -> InputPump:
        """What the client typed, on its way to the pty."""
        return self._input

    @property
    def client_env(self) -> Mapping[str, str]:
        """The client's ``env`` requests this session kept (see :mod:`unotui.ssh.channel`)."""
        return self._chan.get_environment() if self._chan is not None else {}

    @property
    def busy(self) -> bool:
        """The session runs (or is starting) a child."""
        return self._starting is not None and not self.done.done()

    @property
    def pid(self) -> int | None:
        """The child's pid, or its worker's (None before it starts)."""
        return self._pid

    @property
    def worker(self) -> Placement | None:
        """The worker the session runs in (None: a process of its own)."""
        return self._worker

    @property
    def finished(self) -> bool:
        """The session is over on the server's side."""
        return self._finished

    @property
    def spec(self) -> SessionSpec:
        """The spec the child was given."""
        return self._spec

    def _read_master(self) -> None:
        try:
            data = os.read(self._master, _READ_SIZE)
        except BlockingIOError:
            return
        except OSError as exc:  # EIO: every copy of the slave is closed (the child ended)
            if exc.errno != errno.EIO:
                log.warning("session %d: reading the pty: %s", self.number, exc)
            data = b""
        if not data:
            self._master_eof = True
            self._loop.remove_reader(self._master)
            self._maybe_finish()
            return
        if self._chan is not None and not self._finished:
            self._chan.write(data)

    def _log_record(self, record: str) -> None:
        level_text, _, text = record.partition(" ")
        if level_text.isdigit():
            self.log_record(int(level_text), text)
        else:  # raw text (a fatal error's dump, a C library's message)
            self.log_record(logging.ERROR, record)

    def log_record(self, level: int, text: str) -> None:
        """A record from the session's program, into the server's log, tagged."""
        log.log(level, "session %d (user %r from %s): %s", self.number, self._spec.user,
                self._spec.peer, text.rstrip())

    def _on_exit(self, status: asyncio.Future[int]) -> None:
        if self._exited:
            return
        self._status = status.result()
        self._exited = True
        if not self._master_eof:  # let the last output arrive, but not forever
            self._timers.append(self._loop.call_later(1.0, self._give_up_output))
        self._maybe_finish()

    def _give_up_output(self) -> None:
        if not self._master_eof and self._master >= 0:
            self._loop.remove_reader(self._master)
            self._master_eof = True
        self._maybe_finish()

    def _maybe_finish(self) -> None:
        if self._finished or not self._exited or not self._master_eof:
            return
        self._finished = True
        code = self._status
        chan = self._chan
        normal = code == 0 and not self._ended_by
        if code != 0 and not self._ended_by:
            log.warning("session %d: the child ended abnormally (status %s)", self.number, code)
        if chan is not None and self._ended_by != "hangup":
            with contextlib.suppress(Exception):
                if not normal:
                    chan.write(RESET)
                if self._ended_by == "idle":
                    minutes = self._host.limits.idle_timeout / 60
                    chan.write(f"Disconnected after {minutes:g} minutes without a key.\r\n".encode())
                elif self._ended_by == "input":
                    chan.write(b"Disconnected: more input at once than anyone types (a paste too long?).\r\n")
                elif self._ended_by == "closing":
                    chan.write(b"The server is shutting down.\r\n")
                elif code != 0:
                    chan.write(b"The game ended unexpectedly; sorry.\r\n")
                status = code if code is not None and 0 <= code <= 255 else 1
                chan.exit(status)
        self._cleanup()

    # ----- input ------------------------------------------------------------------------------

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self._last_input = self._loop.time()
        if self._finished or self._ended_by:
            return
        if not self._input.feed(data):
            log.info("session %d: more input than the budget holds (%d bytes waiting), ending it",
                     self.number, self._host.limits.input_backlog)
            self._end("input")

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width <= 0 or height <= 0:
            return
        self._size = (width, height, pixwidth, pixheight)
        if self._master >= 0:
            with contextlib.suppress(OSError):
                set_size(self._master, width, height, pixwidth, pixheight)
            if self._worker is not None:  # no SIGWINCH: the pty is nobody's controlling terminal
                self._worker.resize(self.number)

    # ----- output backpressure ----------------------------------------------------------------

    def pause_writing(self) -> None:
        if self._master >= 0 and not self._master_eof and not self._output_paused:
            self._output_paused = True
            self._loop.remove_reader(self._master)

    def resume_writing(self) -> None:
        if self._output_paused:
            self._output_paused = False
            if self._master >= 0 and not self._master_eof:
                self._loop.add_reader(self._master, self._read_master)

    # ----- ending -----------------------------------------------------------------------------

    def _schedule_idle_check(self, delay: float) -> None:
        self._timers.append(self._loop.call_later(delay, self._check_idle))

    def _check_idle(self) -> None:
        if self._finished:
            return
        left = self._last_input + self._host.limits.idle_timeout - self._loop.time()
        if left > 0:
            self._schedule_idle_check(left)
        else:
            log.info("session %d: idle, ending it", self.number)
            self._end("idle")

    def _end(self, why: str) -> None:
        """End the child: hang up its session, kill it after the grace period."""
        if self._ended_by or self._finished:
            return
        self._ended_by = why
        self._input.close()  # nothing more reaches the app: what waits would only delay its end
        if self._pid is None:
            if self._starting is None:  # never started: nothing to wait for
                self._finish_future()
            return  # starting: _start_child hangs it up once it runs
        if not self._exited:
            self._signal(signal.SIGHUP)
            self._schedule_kill()

    def _schedule_kill(self) -> None:
        grace = self._host.limits.kill_grace
        self._timers.append(self._loop.call_later(grace, self._signal, signal.SIGKILL))

    def _signal(self, sig: int) -> None:
        if self._pid is None or self._exited:
            return
        if self._worker is not None:
            if sig == signal.SIGKILL:
                self._abandon()
            else:
                self._worker.hangup(self.number)
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._pid, sig)

    def _abandon(self) -> None:
        """A session's thread that did not end within the grace period: a thread cannot
        be killed, so the session ends here (its pty closes: the app's next read or write
        fails) and its slot in the worker stays taken until the thread ends."""
        log.warning("session %d: its app did not end %g s after a hang-up; left to its worker %s",
                    self.number, self._host.limits.kill_grace, self._pid)
        self._status = -signal.SIGKILL
        self._exited = True
        self._give_up_output()

    def close(self) -> None:
        """The server is shutting down: end the child, tell the client."""
        self._end("closing")
        if self._pid is None and self._chan is not None:
            self._chan.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._chan = None
        self._end("hangup")

    def _cleanup(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        if self._master >= 0:
            self._loop.remove_reader(self._master)
            self._input.close()
            os.close(self._master)
            self._master = -1
        if self._worker is not None:
            self._worker.forget(self.number)
        elif self._pid is not None:
            self._host.forkserver.forget(self._pid)
        self._host.ended(self)
        self._finish_future()

    def _finish_future(self) -> None:
        if not self.done.done():
            self.done.set_result(None)


class RefusalSession(asyncssh.SSHServerSession[bytes]):
    """The session of a connection over a limit: one line on the terminal, status 1.

    The line goes on the channel rather than in an authentication banner: OpenSSH shows
    banners only at its default log level, and never with ``LogLevel=ERROR`` or ``-q``.
    """

    def __init__(self, line: str) -> None:
        self._line = line
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: object) -> bool:
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return True

    def session_started(self) -> None:
        assert self._chan is not None
        self._chan.write(self._line.encode() + b"\r\n")
        self._chan.exit(1)
