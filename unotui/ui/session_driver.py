"""A Textual driver for an app that runs in a thread of an SSH worker process, on a pty
that is not the process's terminal (see :mod:`unotui.ssh.worker`).

Textual's :class:`~textual.drivers.linux_driver.LinuxDriver` reads ``sys.__stdin__``,
draws on ``sys.__stderr__``, asks ``shutil`` for the size and installs signal handlers
(``SIGTSTP``, ``SIGCONT``, ``SIGWINCH``, ``SIGTTOU``), which Python allows only in the main
thread.  :class:`SessionDriver` is the same driver bound to the session's tty fd instead:

* its size comes from the tty (``TIOCGWINSZ``); a window change, which sends no
  ``SIGWINCH`` to a pty that is nobody's controlling terminal, arrives from the server
  through the session's terminal and is posted on the app's own loop;
* the end of the pty (the SSH channel closed: a read returns EOF, a write fails) or a
  hang-up from the server ends the app, and with it the session's thread;
* suspending (Ctrl+Z) is off: it would stop every session of the process;
* in-band resize (mode 2048) is never asked for, and a resize or mode report in the
  input is dropped: the SSH window change (clamped by the server) is the only size, and
  a guest who typed ``ESC[48;4000;4000;0;0t`` had their app draw 4000x4000.

:func:`attach` binds an app to a session's terminal: this driver, and a console whose
colour depth follows the client's ``TERM``/``COLORTERM`` (the worker's ``os.environ`` is
shared by its sessions, so Rich's detection is given the session's own values).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import selectors
import termios
import tty
from codecs import getincrementaldecoder
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from threading import Event, Lock, Thread
from typing import Any, ClassVar, Protocol

import textual.app
from rich.console import Console
from textual import constants, events
from textual._loop import loop_last
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.dom import DOMNode
from textual.driver import Driver
from textual.drivers._writer_thread import WriterThread
from textual.drivers.linux_driver import (
    KITTY_DISAMBIGUATE_ESCAPE_CODES,
    KITTY_REPORT_ALL_KEYS,
    KITTY_REPORT_ASSOCIATED_TEXT,
    LinuxDriver,
)
from textual.geometry import Size
from textual.message import Message
from textual.messages import InBandWindowResize

__all__ = [
    "COPIED",
    "DRIVER_ATTRIBUTES",
    "RELIES_ON",
    "GuardedDriver",
    "SessionDriver",
    "SessionTerminalLike",
    "attach",
    "guard",
]

#: Every private Textual name this module and :mod:`unotui.ui.screen_css` (and so unotui)
#: rely on, as (owner, name): nothing else in the package touches Textual's internals, and
#: ``tests/ui/test_textual_internals.py`` checks each is still there.
RELIES_ON: tuple[tuple[object, str], ...] = (
    (textual.app, "redirect_stdout"),  # replaced (_keep_process_streams)
    (textual.app, "redirect_stderr"),
    (App, "_post_message"),  # a size event from the server's thread
    (XTermParser, "feed"),
    (XTermParser, "tick"),
    (App, "_load_screen_css"),  # overridden by UnoApp: each screen's sheet scoped to it
    (DOMNode, "_css_type_name"),  # the scope of a screen's sheet
)
#: the private attributes of a LinuxDriver (an instance) it reads, sets or overrides
DRIVER_ATTRIBUTES = (
    "_app", "_loop", "_debug", "_file", "_key_thread", "_writer_thread", "_must_signal_resume",
    "_in_band_window_resize", "_mouse_pixels", "_get_terminal_size", "_enable_mouse_support",
    "_disable_mouse_support", "_request_terminal_sync_mode_support", "_query_in_band_window_resize",
    "_enable_bracketed_paste", "_disable_line_wrap", "_patch_lflag", "_patch_iflag", "_run_input_thread",
)

#: LinuxDriver's methods this module rewrites from a copy of their body (without the
#: signal handlers, on the session's tty): when Textual changes one, the copy must be
#: read again against it, and the test's digest of the original updated.
COPIED = ("__init__", "start_application_mode", "disable_input", "run_input_thread")

#: bytes the input thread reads at once, and so the most keys the app has queued
_READ_SIZE = 1024


class SessionTerminalLike(Protocol):
    """What the driver needs of :class:`unotui.ssh.terminal.SessionTerminal`."""

    fd: int
    environ: dict[str, str]

    @property
    def size(self) -> tuple[int, int]: ...

    def listen(self, on_resize: Callable[[], None], on_hangup: Callable[[], None]) -> None: ...

    def unlisten(self) -> None: ...

    def write(self, text: str) -> None: ...


class _TtyFile:
    """What the writer thread writes to: the tty, never blocking the app on a dead one."""

    def __init__(self, fd: int, on_gone: Callable[[], None]) -> None:
        self._fd = fd
        self._on_gone = on_gone
        self._gone = False

    def write(self, text: str) -> int:
        if self._gone:
            return len(text)
        data = memoryview(text.encode("utf-8", "backslashreplace"))
        try:
            while data:
                data = data[os.write(self._fd, data) :]
        except OSError:  # EIO: the server closed the pty (the client left)
            self._gone = True
            self._on_gone()
        return len(text)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return True


class GuardedDriver(LinuxDriver):
    """LinuxDriver for a terminal a stranger types into (an SSH session): in-band resize
    (mode 2048) is never asked for, and a resize or mode report in the input is dropped,
    so the pty's size (the SSH window change, clamped by the server) is the only size.
    An app in a session's process of its own runs on it (:func:`guard`); in a worker,
    :class:`SessionDriver` adds the rest."""

    def _query_in_band_window_resize(self) -> None:
        """Never ask: over SSH the terminal's answer is whatever the guest types."""

    def process_message(self, message: Message) -> None:
        """LinuxDriver's, less what only a terminal may say: a size, a mode 2048 report."""
        if isinstance(message, events.Resize | InBandWindowResize):
            return
        super().process_message(message)


class SessionDriver(GuardedDriver):
    """LinuxDriver on a session's tty (see the module docstring); :func:`attach` makes a
    subclass that knows the terminal."""

    terminal: ClassVar[SessionTerminalLike]

    def __init__(
        self, app: App[Any], *, debug: bool = False, mouse: bool = True, size: tuple[int, int] | None = None
    ) -> None:
        Driver.__init__(self, app, debug=debug, mouse=mouse, size=size)  # not LinuxDriver's: no signals
        self.fileno = self.terminal.fd
        self._file = _TtyFile(self.fileno, self._hang_up)  # type: ignore[assignment]
        self.input_tty = True
        self.attrs_before: list[Any] | None = None
        self.exit_event = Event()
        self._key_thread: Thread | None = None
        self._writer_thread: WriterThread | None = None
        self._must_signal_resume = False
        self._in_band_window_resize = False
        self._mouse_pixels = False
        self._hung_up = Lock()
        self._ending = False
        self._caught_up = Event()
        self._wake_r, self._wake_w = os.pipe()

    @property
    def can_suspend(self) -> bool:
        return False

    def _get_terminal_size(self) -> tuple[int, int]:
        return self.terminal.size

    def _hang_up(self) -> None:
        """End the app (from any thread), once; the input thread stops handing it keys."""
        self._ending = True
        self._caught_up.set()
        if not self._hung_up.acquire(blocking=False):
            return
        with contextlib.suppress(RuntimeError):  # the loop has already closed
            self._loop.call_soon_threadsafe(self._app.exit)

    def _send_size_event(self) -> None:
        width, height = self._get_terminal_size()
        size = Size(width, height)
        with contextlib.suppress(RuntimeError):
            message = self._app._post_message(events.Resize(size, size))
            asyncio.run_coroutine_threadsafe(message, loop=self._loop)

    def send_message(self, message: Message) -> None:
        """Straight onto the app's queue (thread-safe, in order: :meth:`_wait_for_app`
        relies on it), rather than a task per key; nothing once the session is ending."""
        if not self._ending:
            self._app.post_message(message)

    def _wait_for_app(self) -> None:
        """Block the input thread until the app has handled what it was given (or the
        session ends).  Textual's input thread otherwise drains the tty into the app's
        unbounded queue: a 16 MiB paste grew a worker by 860 MiB, and a hang-up waited
        behind every queued key.  While the thread waits the pty fills, which pauses
        the SSH channel: the client's side holds the rest."""
        caught_up = self._caught_up
        caught_up.clear()
        if self._ending or not self._app.call_later(caught_up.set):
            return
        caught_up.wait()

    def _on_resize(self) -> None:
        if not self._in_band_window_resize:
            self._send_size_event()

    def start_application_mode(self) -> None:
        """LinuxDriver's, without signal handlers and with the session's size and events."""
        self._loop = asyncio.get_running_loop()
        self._writer_thread = WriterThread(self._file)  # type: ignore[arg-type]
        self._writer_thread.start()
        self._send_size_event()
        self.terminal.listen(self._on_resize, self._hang_up)

        self.write("\x1b[?1049h")  # alternate screen
        self._enable_mouse_support()
        try:
            self.attrs_before = termios.tcgetattr(self.fileno)
        except termios.error:
            self.attrs_before = None
        try:
            newattr = termios.tcgetattr(self.fileno)
        except termios.error:
            pass
        else:
            newattr[tty.LFLAG] = self._patch_lflag(newattr[tty.LFLAG])
            newattr[tty.IFLAG] = self._patch_iflag(newattr[tty.IFLAG])
            newattr[tty.CC][termios.VMIN] = 1
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self.fileno, termios.TCSANOW, newattr)
        self.write("\x1b[?25l")  # hide the cursor
        self.write("\x1b[?1004h")  # focus in/out
        if not constants.DISABLE_KITTY_KEY:
            flags = KITTY_DISAMBIGUATE_ESCAPE_CODES | KITTY_REPORT_ALL_KEYS | KITTY_REPORT_ASSOCIATED_TEXT
            self.write(f"\x1b[>{flags}u")
        self.flush()
        self._key_thread = Thread(target=self._run_input_thread, name="textual-input", daemon=True)
        self._key_thread.start()
        self._request_terminal_sync_mode_support()
        self._query_in_band_window_resize()
        self._enable_bracketed_paste()
        self._disable_line_wrap()
        self._enable_mouse_support()

    def disable_input(self) -> None:
        """LinuxDriver's, without the signal handler (it would raise outside the main thread
        and, caught, skip the rest)."""
        self.terminal.unlisten()
        if self.exit_event.is_set():
            return
        with contextlib.suppress(Exception):
            self._disable_mouse_support()
        self.exit_event.set()
        self._caught_up.set()  # the input thread may wait for the app, which is ending
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")  # the input thread waits on the tty and this pipe
        if self._key_thread is not None:
            self._key_thread.join()
        self.exit_event.clear()
        with contextlib.suppress(termios.error):
            termios.tcflush(self.fileno, termios.TCIFLUSH)

    def _run_input_thread(self) -> None:
        try:
            self.run_input_thread()
        except BaseException:
            import rich.traceback

            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._app.panic, rich.traceback.Traceback())

    def run_input_thread(self) -> None:
        """LinuxDriver's loop, but asleep until a key (or the parser's Esc timeout, or the
        end) rather than awake every 0.1 s: K sessions' input threads polling in one process
        would take the GIL from the session that is drawing 10 K times a second.  The end of
        the pty (EOF, EIO) ends the app.  After each read it waits for the app to catch up
        (:meth:`_wait_for_app`)."""
        selector = selectors.SelectSelector()
        fileno = self.fileno
        selector.register(fileno, selectors.EVENT_READ)
        selector.register(self._wake_r, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode
        try:
            while not self.exit_event.is_set():
                ready = selector.select(_tick_in(parser))
                for _last, (key, mask) in loop_last(ready):
                    if key.fd != fileno or not mask & selectors.EVENT_READ:
                        continue
                    try:
                        data = os.read(fileno, _READ_SIZE)
                    except OSError:
                        data = b""
                    if not data:  # the pty's master side is gone
                        self._hang_up()
                        return
                    for event in parser.feed(decode(data, final=False)):
                        self.process_message(event)
                    self._wait_for_app()
                    if self._ending:
                        return
                for event in parser.tick():
                    self.process_message(event)
        finally:
            selector.close()
            with contextlib.suppress(Exception):
                for _event in parser.feed(""):
                    pass

    def close(self) -> None:
        super().close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)


def _tick_in(parser: XTermParser) -> float | None:
    """Seconds until the parser must be ticked (a lone Esc becomes a key after a moment);
    None: nothing pending, wait for input.  (Textual keeps the deadline private: if it
    is not found, poll as LinuxDriver does.)"""
    deadline = getattr(parser, "_timeout_time", 0.0)
    if deadline is None:
        return None
    if not isinstance(deadline, float) or deadline <= 0.0:
        return 0.1
    return min(0.1, max(0.0, deadline - get_time()))


def _no_redirect(_target: object) -> AbstractContextManager[None]:
    return nullcontext()


def _keep_process_streams() -> None:
    """Stop Textual swapping the process's ``sys.stdout``/``sys.stderr`` for an app's own
    print capture while it runs (``contextlib.redirect_stdout``).  With several apps in
    threads the swaps interleave: one app's traceback would land in another app's capture,
    lost, instead of the worker's ``sys.stderr``, which sends it to the server's log."""
    textual.app.redirect_stdout = _no_redirect  # type: ignore[attr-defined,assignment]
    textual.app.redirect_stderr = _no_redirect  # type: ignore[attr-defined,assignment]


def _console(console: Console, environ: Mapping[str, str]) -> Console:
    """The app's console again (Textual's arguments), its colour depth detected from the
    session's ``TERM``/``COLORTERM`` rather than the process's."""
    env = {k: v for k, v in os.environ.items() if k not in ("TERM", "COLORTERM")}
    env.update(environ)
    return Console(
        color_system=constants.COLOR_SYSTEM,  # type: ignore[arg-type]
        file=console.file,
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        _environ=env,
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
    )


def guard(app: App[Any]) -> App[Any]:
    """Make ``app`` run on this process's terminal with :class:`GuardedDriver` (an SSH
    session in a process of its own); returns it."""
    app.driver_class = GuardedDriver
    return app


def attach(app: App[Any], terminal: SessionTerminalLike) -> App[Any]:
    """Make ``app`` run on ``terminal`` (a session's tty in a worker); returns it."""
    _keep_process_streams()
    app.driver_class = type("BoundSessionDriver", (SessionDriver,), {"terminal": terminal})
    app.console = _console(app.console, terminal.environ)
    return app
