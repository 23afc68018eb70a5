"""What an SSH session needs of its server, said as narrow types: the session is handed a
:class:`SessionHost`, not the :class:`~unotui.ssh.server.SshServer`.

Why: a session that holds the whole server can reach every other session, the
connections and the admission, and the server, the pool and the session then import each
other.  With these the dependencies go one way: the server builds a host for each session
(:mod:`unotui.ssh.server`); the session (:mod:`unotui.ssh.session`) knows the forkserver
as a :class:`Spawner` and its worker as a :class:`Placement`; the pool
(:mod:`unotui.ssh.pool`) knows a session as a :class:`~unotui.ssh.pool.Tenant`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from .limits import SshLimits
from .spec import SessionSpec

__all__ = ["Placement", "SessionHost", "Spawner"]

#: the session type the host's callbacks are given
S = TypeVar("S")


class Spawner(Protocol):
    """What a session needs of the forkserver (:class:`~unotui.ssh.forkserver.Forkserver`)
    to run in a process of its own."""

    async def spawn(
        self, spec: SessionSpec, tty: int, log: int, env: dict[str, str], memory_mib: int, cpu_seconds: int
    ) -> int:
        """Fork the session's child on the pty slave ``tty``, logging to ``log``; its pid."""

    def exit_status(self, pid: int) -> asyncio.Future[int]:
        """Resolves to the child's status once it has ended."""

    def forget(self, pid: int) -> None:
        """The session of ``pid`` is over."""


class Placement(Protocol):
    """The worker a session runs in, several to a process (:class:`~unotui.ssh.pool.Worker`);
    the session is known there by its number."""

    @property
    def number(self) -> int:
        """The worker's number, for the log."""

    @property
    def pid(self) -> int | None:
        """The worker's process."""

    def exit_status(self, number: int) -> asyncio.Future[int]:
        """Resolves to the session's status once its thread has ended."""

    def resize(self, number: int) -> None:
        """The session's pty has a new size."""

    def hangup(self, number: int) -> None:
        """End the session's app."""

    def forget(self, number: int) -> None:
        """The server is done with the session."""


@dataclass(frozen=True)
class SessionHost(Generic[S]):
    """What a session uses of its server, and nothing else of it."""

    limits: SshLimits
    #: the exec words allowed
    commands: frozenset[str]
    #: the port the server listens on (for the hint to a client without a pty)
    port: int
    #: counts one refused request, by reason
    count_refusal: Callable[[str], None]
    #: the child's environment for a ``TERM`` and the client's ``COLORTERM``
    environ: Callable[[str, str | None], dict[str, str]]
    #: the server's ``extra_for``: what reaches the child as ``spec.extra``
    extra_for: Callable[[SessionSpec], Mapping[str, str]] | None
    #: forks a process per session (when ``place`` is None)
    forkserver: Spawner
    #: gives a session to a worker: (session, spec, pty slave, environ) -> the worker;
    #: None: a process per session
    place: Callable[[S, SessionSpec, int, dict[str, str]], Awaitable[Placement]] | None
    #: the session's child is running
    started: Callable[[S], None]
    #: the session is over (called once, after its clean-up)
    ended: Callable[[S], None]
