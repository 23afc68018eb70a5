"""Test-only session entries (``tests.ssh.entries:NAME``), run in the SSH shell's children."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
from pathlib import Path
from types import FrameType
from typing import Any

from unotui.ssh import SessionSpec

ENV_SHOWN = ("TERM", "COLORTERM", "LANG", "LC_ALL", "USER", "SSH_CONNECTION")


def _record(spec: SessionSpec) -> None:
    path = spec.extra.get("record")
    if path:
        with Path(path).open("a", encoding="utf-8") as file:
            file.write(json.dumps(dataclasses.asdict(spec)) + "\n")


def echo(spec: SessionSpec) -> int:
    """A line of JSON (the spec, some environment), then a byte-driven loop.

    Each byte read from the terminal is answered with ``got XX`` (hex); ``q`` ends with
    status 0, ``e`` with status 3, ``k`` kills the process, ``r`` raises.  A window
    change prints ``size COLSxROWS``.
    """
    _record(spec)
    env = {name: os.environ.get(name) for name in ENV_SHOWN}

    def say(text: str) -> None:  # unbuffered: the SIGWINCH handler writes too
        os.write(1, text.encode() + b"\r\n")

    def resized(_sig: int, _frame: FrameType | None) -> None:
        size = os.get_terminal_size(0)
        say(f"size {size.columns}x{size.lines}")

    signal.signal(signal.SIGWINCH, resized)
    payload: dict[str, Any] = {"spec": dataclasses.asdict(spec), "env": env, "tty": os.isatty(0)}
    say("SPEC " + json.dumps(payload))
    while True:
        try:
            data = os.read(0, 1024)
        except InterruptedError:
            continue
        if not data:
            return 0
        for byte in data:
            say(f"got {byte:02x}")
            char = chr(byte)
            if char == "q":
                return 0
            if char == "e":
                return 3
            if char == "k":
                os.kill(os.getpid(), signal.SIGKILL)
            if char == "r":
                raise RuntimeError("boom from the echo entry")


def play(spec: SessionSpec) -> int:
    """Record the spec, then the demo (a solo game at the table)."""
    _record(spec)
    from unotui.ssh.demo import run

    return run(spec)


def _crash_class() -> Any:
    """The crash app's class (Textual is imported only by the entries that use it): ``c``
    counts, ``x`` crashes the process (SIGSEGV), ``t`` raises; it shows its size
    (``size WxH``), says when Esc arrives alone, and paints a line in RGB."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Crash(App[int]):
        CSS = "#paint { color: rgb(18, 52, 86); }"

        def compose(self) -> ComposeResult:
            yield Static("crash-test ready, count 0", id="count")
            yield Static("size ?", id="size")
            yield Static("paint", id="paint")

        def on_mount(self) -> None:
            self.count = 0

        def on_resize(self, event: Any) -> None:
            self.query_one("#size", Static).update(f"size {event.size.width}x{event.size.height}")

        def on_key(self, event: Any) -> None:
            if event.key == "c":
                self.count += 1
                self.query_one("#count", Static).update(f"crash-test ready, count {self.count}")
            elif event.key == "x":
                os.kill(os.getpid(), signal.SIGSEGV)
            elif event.key == "t":
                raise RuntimeError("boom from the crash app")
            elif event.key == "escape":
                self.query_one("#count", Static).update("a lone escape")

    return Crash


def crash_app(spec: SessionSpec) -> int:
    """A tiny Textual app (see :func:`_crash_class`) in a process of its own."""
    from unotui.ui.session_driver import guard

    _record(spec)
    app = guard(_crash_class()())
    app.run()
    return app.return_code or 0


# ----- app entries for a worker shared by several sessions (``function(spec, terminal)``) -----


class EchoApp:
    """:func:`echo` for a worker: the same lines and keys on the session's terminal, plus
    the worker's pid; ``k`` ends the whole worker (``os._exit``); a hang-up ends it."""

    def __init__(self, spec: SessionSpec, terminal: Any) -> None:
        self.spec = spec
        self.terminal = terminal
        self.return_code: int | None = None
        self._hung_up = False

    def say(self, text: str) -> None:
        self.terminal.write(text + "\r\n")

    def _resized(self) -> None:
        columns, rows = self.terminal.size
        self.say(f"size {columns}x{rows}")

    def _hangup(self) -> None:
        self._hung_up = True

    def run(self) -> None:
        import select
        import threading

        _record(self.spec)
        env = {name: self.terminal.environ.get(name) or os.environ.get(name) for name in ENV_SHOWN}
        payload: dict[str, Any] = {
            "spec": dataclasses.asdict(self.spec), "env": env, "tty": os.isatty(self.terminal.fd),
            "pid": os.getpid(), "thread": threading.current_thread().name,
        }
        self.terminal.listen(self._resized, self._hangup)
        self.say("SPEC " + json.dumps(payload))
        fd = self.terminal.fd
        while not self._hung_up:
            if not select.select([fd], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(fd, 1024)
            except OSError:
                data = b""
            if not data:
                self.return_code = 0
                return
            for byte in data:
                self.say(f"got {byte:02x}")
                char = chr(byte)
                if char == "q":
                    self.return_code = 0
                    return
                if char == "e":
                    self.return_code = 3
                    return
                if char == "k":
                    os._exit(1)
                if char == "r":
                    raise RuntimeError("boom from the echo entry")
        self.return_code = 0


def echo_app(spec: SessionSpec, terminal: Any) -> EchoApp:
    return EchoApp(spec, terminal)


def play_app(spec: SessionSpec, terminal: Any) -> Any:
    """:func:`play` for a worker: record the spec, then the demo's app."""
    _record(spec)
    from unotui.ssh.demo import make_app

    return make_app(spec, terminal)


def crash_app_threaded(spec: SessionSpec, terminal: Any) -> Any:
    """:func:`crash_app` for a worker, bound to the session's terminal."""
    _record(spec)
    from unotui.ui.session_driver import attach

    return attach(_crash_class()(), terminal)
