"""The SSH server's limits and the admission rules that apply them (no I/O, no clock).

:class:`Admission` decides, for each new TCP connection, whether it may go on; the
server calls it with the time (``time.monotonic()``), so tests drive it with any clock.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..tokens import TokenBucket

__all__ = ["Admission", "SshLimits"]


@dataclass(frozen=True)
class SshLimits:
    """Every limit of the SSH shell, with the defaults of ``docs/hosting.md``.

    Attributes:
        login_timeout: seconds a client has to finish the handshake and authentication.
        keepalive_interval: seconds of silence before the server pings the client.
        keepalive_count_max: unanswered pings before the connection is dropped.
        idle_timeout: seconds without a key from the player before the session ends
            (with a message); 0 turns it off.
        rate_per_ip: new connections per second from one address (a token bucket)...
        rate_burst: ...with this many at once.
        per_ip: connections at the same time from one address.
        per_ip_refused: connections over ``per_ip`` from one address that are still let
            through the handshake, only to read why they are refused; past those a new
            connection from that address is closed at once, before the handshake (silent
            connections would otherwise hold a file descriptor each until
            ``login_timeout``).
        max_silent: connections in all that have not yet begun to log in (the SSH
            handshake); past them a new connection is closed at once, from any address:
            many addresses holding silent connections would otherwise exhaust the
            process's file descriptors, and with them every table.
        no_session_timeout: seconds a logged-in connection may go without a session
            (before its first, or after one that never started) before it is closed.
        max_sessions: connections (each runs at most one session) at the same time.
        child_memory_mib: a session's data memory (``RLIMIT_DATA``); 0 turns it off.
        child_cpu_seconds: a session's CPU time (``RLIMIT_CPU``); 0 turns it off.
        input_rate: bytes a second of a session's input that reach its app...
        input_burst: ...with this many at once (a paste, a mouse sweep).
        input_backlog: bytes that may wait for that budget; past them the session ends
            with a line (see :mod:`unotui.ssh.pump`).
        kill_grace: seconds a session's process gets to end after a hang-up before it
            is killed.
        sessions_per_process: sessions that share one worker process, each in a thread
            of its own (needs an app entry; the memory and CPU limits above then apply
            to the worker, times this); 1: a process of its own per session.
        spread_workers: with workers, a new session starts a worker of its own while
            fewer than this many run (one interpreter uses one core at a time: a few
            sessions on a many-core host should not share one), and after that joins
            the least busy worker with room.  1: fill a worker before starting the next.
    """

    login_timeout: float = 30.0
    keepalive_interval: float = 15.0
    keepalive_count_max: int = 3
    idle_timeout: float = 30 * 60.0
    rate_per_ip: float = 5.0
    rate_burst: int = 5
    per_ip: int = 8
    per_ip_refused: int = 2
    max_silent: int = 128
    no_session_timeout: float = 10.0
    max_sessions: int = 200
    child_memory_mib: int = 1024
    child_cpu_seconds: int = 3600
    input_rate: float = 8 * 1024.0
    input_burst: int = 64 * 1024
    input_backlog: int = 64 * 1024
    kill_grace: float = 2.0
    sessions_per_process: int = 1
    spread_workers: int = 1

    def __post_init__(self) -> None:
        if self.sessions_per_process < 1:
            raise ValueError("sessions_per_process must be at least 1")
        if self.spread_workers < 1:
            raise ValueError("spread_workers must be at least 1")


#: the reasons a connection is refused, and the line the client reads
REFUSALS: dict[str, str] = {
    "rate": "Too many new connections from your address: wait a few seconds and try again.",
    "per_ip": "Too many connections from your address at once: close one and try again.",
    "full": "The server is full right now: try again in a few minutes.",
}


class Admission:
    """Connections now, per address and in all; new ones per address (token buckets)."""

    def __init__(self, limits: SshLimits) -> None:
        self.limits = limits
        self.per_ip: Counter[str] = Counter()
        self.admitted = 0
        self.silent = 0  # connections that have not begun to log in
        self._buckets: dict[str, TokenBucket] = {}

    def connect(self, ip: str, now: float) -> str | None:
        """A TCP connection from ``ip`` began: None to go on, else the refusal's reason
        ("flood": close it at once; the others: tell the client why after it logs in).

        Every connection, refused or not, counts for its address until :meth:`disconnect`.
        """
        limits = self.limits
        if self.per_ip[ip] >= limits.per_ip + limits.per_ip_refused or self.silent >= limits.max_silent:
            self.per_ip[ip] += 1
            return "flood"
        self.silent += 1
        bucket = self._buckets.get(ip)
        if bucket is None:
            bucket = self._buckets[ip] = TokenBucket(limits.rate_per_ip, limits.rate_burst, now)
        reason: str | None = None
        if not bucket.take(now):
            reason = "rate"
        elif self.per_ip[ip] >= limits.per_ip:
            reason = "per_ip"
        self.per_ip[ip] += 1
        self._forget_full_buckets(now)
        return reason

    def spoke(self) -> None:
        """A connection that :meth:`connect` let on has begun to log in: no longer silent."""
        self.silent -= 1

    def admit(self) -> str | None:
        """A connection asks to log in: None to let it (it then counts in all), else "full"."""
        if self.admitted >= self.limits.max_sessions:
            return "full"
        self.admitted += 1
        return None

    def disconnect(self, ip: str, admitted: bool, silent: bool = False) -> None:
        """A connection from ``ip`` ended (``admitted``: it had passed :meth:`admit`;
        ``silent``: :meth:`connect` let it on and it never :meth:`spoke`)."""
        self.silent -= int(silent)
        self.per_ip[ip] -= 1
        if self.per_ip[ip] <= 0:
            del self.per_ip[ip]
        if admitted:
            self.admitted -= 1

    def _forget_full_buckets(self, now: float) -> None:
        """Drop the buckets that have refilled (bounded memory under many addresses)."""
        if len(self._buckets) < 1024:
            return
        full = [ip for ip, bucket in self._buckets.items() if ip not in self.per_ip and bucket.full(now)]
        for ip in full:
            del self._buckets[ip]
