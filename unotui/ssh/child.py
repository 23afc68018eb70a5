"""A session's process, once forked (see :mod:`unotui.ssh.forkserver`).

The child becomes a session leader with the pty as its controlling terminal and as fds
0, 1 and 2, and calls the entry ``module:function`` with the
:class:`~unotui.ssh.spec.SessionSpec`.  Inside the child:

* ``sys.stdin``/``sys.stdout`` and ``sys.__stderr__`` (where Textual draws) are the pty;
* ``sys.stderr``, the ``logging`` root logger, warnings and :mod:`faulthandler` go to a
  pipe the server reads and writes to its own log: a traceback never reaches the player;
* the environment is only what the server gives (``TERM``, a UTF-8 locale...);
* ``RLIMIT_DATA`` and ``RLIMIT_CPU`` bound a leak or a busy loop to this one session.
"""

from __future__ import annotations

import contextlib
import faulthandler
import fcntl
import importlib
import logging
import os
import resource
import signal
import sys
import termios
from collections.abc import Callable
from typing import Any, cast

from .errors import EntryError
from .spec import SessionSpec

__all__ = ["RECORD_END", "child_main", "resolve_entry", "settle"]

#: ends each log record a child writes to its log pipe ("levelno message\x1e")
RECORD_END = "\x1e"

Entry = Callable[[SessionSpec], int | None]


def resolve_entry(entry: str) -> Entry:
    """The function named by ``"package.module:function"`` (imports the module).

    Raises:
        EntryError: a malformed name, a module that does not import, no such function.
    """
    module_name, sep, attr = entry.partition(":")
    if not sep or not module_name or not attr:
        raise EntryError(f"entry {entry!r} is not 'module:function'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EntryError(f"entry module {module_name!r} does not import: {exc}") from exc
    function = getattr(module, attr, None)
    if not callable(function):
        raise EntryError(f"{module_name!r} has no function {attr!r}")
    return cast(Entry, function)


class _RecordHandler(logging.Handler):
    """Log records as ``"levelno text\x1e"`` on the log pipe (the server splits them)."""

    def __init__(self, stream: Any) -> None:
        super().__init__()
        self.stream = stream

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record).replace(RECORD_END, " ")
            self.stream.write(f"{record.levelno} {text}{RECORD_END}")
            self.stream.flush()
        except Exception:  # pragma: no cover - the server has gone: nobody to tell
            pass


def _exit_code(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 0 <= value <= 255 else 1
    return 1


def settle(handler: logging.Handler, env: dict[str, str], memory_mib: int, cpu_seconds: int) -> None:
    """What a forked session process and a worker both do before running anything: every
    log record (and warning) through ``handler`` only, the server's environment and no
    other, and the data and CPU limits (0: none)."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)
    os.environ.clear()
    os.environ.update(env)
    if memory_mib > 0:
        limit = memory_mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    if cpu_seconds > 0:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))


def child_main(
    spec: SessionSpec,
    entry: str,
    tty: int,
    log: int,
    env: dict[str, str],
    memory_mib: int,
    cpu_seconds: int,
) -> None:
    """The child's life: take the pty, set up stdio, logs, environment, limits; run the entry.

    Runs in the forkserver's fresh child; never returns (``os._exit`` with the entry's status:
    its return value, 0 for None, 1 when it raised; the traceback goes to the log pipe).
    """
    os.setsid()
    fcntl.ioctl(tty, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(tty, fd)
    if tty > 2:
        os.close(tty)
    logfile = open(log, "w", encoding="utf-8", errors="backslashreplace", buffering=1)  # noqa: SIM115
    # Textual reads sys.__stdin__ and draws on sys.__stderr__: both are the pty.
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", errors="replace", closefd=False)  # type: ignore[misc]  # noqa: SIM115
    sys.stdout = sys.__stdout__ = open(  # type: ignore[misc]  # noqa: SIM115
        1, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False
    )
    sys.__stderr__ = open(  # type: ignore[misc]  # noqa: SIM115
        2, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False
    )
    sys.stderr = logfile
    faulthandler.enable(logfile)
    settle(_RecordHandler(logfile), env, memory_mib, cpu_seconds)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    code = 1
    try:
        code = _exit_code(resolve_entry(entry)(spec))
    except SystemExit as exc:
        code = _exit_code(exc.code)
    except BaseException:
        logging.getLogger("unotui.ssh.child").exception("the session's entry %s failed", entry)
    finally:
        for stream in (sys.__stdout__, sys.__stderr__, logfile):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)
