"""The SSH shell: ``ssh host`` runs one configurable entry function on a pty, per session.

Usage::

    server = SshServer("unotui.ssh.demo:run", Path("~/.local/share/unotui").expanduser())
    addresses = await server.start("0.0.0.0", 2222)
    print(server.fingerprint)        # SHA256:... (also logged)
    ...
    await server.close()

The server accepts any public key (and records its fingerprint: the player's identity)
and lets guests without a key in through keyboard-interactive authentication with no
prompts.  It offers no exec (only an allow-list of words that reach the entry as
``spec.command``), no port forwarding, no SFTP or other subsystem, no agent or X11
forwarding.  Each session's process is forked by a preloaded forkserver (see
:mod:`unotui.ssh.child`); see :mod:`unotui.ssh.session` for the byte pump.

With ``SshLimits(sessions_per_process=K)`` (K > 1) sessions run K to a worker process,
each in a thread of its own: ``app_entry`` (``"module:function"``, called in the worker
as ``function(spec, terminal)``) returns the app to run there (see :mod:`unotui.ssh.worker`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

import asyncssh

from ..private import DataDirError, private_dir, private_file, write_private
from .channel import guard
from .errors import EntryError, HostKeyError
from .forkserver import Forkserver
from .host import SessionHost
from .limits import REFUSALS, Admission, SshLimits
from .pool import WorkerPool
from .session import RefusalSession, ShellSession
from .spec import DEFAULT_COMMANDS, DEFAULT_TERM, SessionSpec, colour_env

__all__ = ["DEFAULT_PRELOAD", "HOST_KEY_FILE", "SshServer", "load_host_key"]

log = logging.getLogger("unotui.ssh")

HOST_KEY_FILE = "ssh_host_ed25519_key"
#: what the forkserver imports before any session (the entry's module is added)
DEFAULT_PRELOAD: tuple[str, ...] = ("textual.app",)


def load_host_key(data_dir: Path) -> asyncssh.SSHKey:
    """The server's ed25519 host key in ``data_dir``, made the first time; the directory
    and both key files are private (0700, 0600: :mod:`unotui.private`), an existing
    looser one is tightened.

    Raises:
        HostKeyError: the file exists but cannot be read as a private key, or cannot be written.
    """
    path = data_dir / HOST_KEY_FILE
    public = path.with_name(path.name + ".pub")
    try:
        private_dir(data_dir)
        if path.exists():
            for file in (path, public):
                if file.exists():
                    private_file(file)
            return asyncssh.read_private_key(path)
        key = asyncssh.generate_private_key("ssh-ed25519", comment="unotui host key")
        write_private(path, key.export_private_key())
        write_private(public, key.export_public_key())
        log.info("made a new SSH host key: %s", path)
        return key
    except (OSError, DataDirError, asyncssh.KeyImportError) as exc:
        raise HostKeyError(f"SSH host key {path}: {exc}") from exc


class SshServer:
    """Serves ``entry`` (``"module:function"``, called in a child as ``function(spec) -> int``).

    Args:
        entry: the function each session runs, as a dotted name (imported in the
            forkserver, never in the server process).
        data_dir: where the host key lives.
        limits: timeouts, rates and caps (see :class:`SshLimits`).
        extra_for: called in the server for each session; its dict reaches the child as
            ``spec.extra`` (a lobby's address and a credential, say).
        preload: modules the forkserver imports before the first session.
        commands: the exec words allowed (``ssh -t host join CODE``).
        env: variables added to every child's environment.
        app_entry: the function a worker runs per session when ``limits.sessions_per_process``
            is more than 1 (``function(spec, terminal) -> app | status``); required then.

    Raises:
        EntryError: several sessions per process without an ``app_entry``.
    """

    def __init__(
        self,
        entry: str,
        data_dir: Path,
        limits: SshLimits | None = None,
        extra_for: Callable[[SessionSpec], Mapping[str, str]] | None = None,
        preload: tuple[str, ...] = DEFAULT_PRELOAD,
        commands: Collection[str] = DEFAULT_COMMANDS,
        env: Mapping[str, str] | None = None,
        app_entry: str | None = None,
    ) -> None:
        self.entry = entry
        self.data_dir = data_dir
        self.limits = limits or SshLimits()
        self.extra_for = extra_for
        self.commands = frozenset(commands)
        self.env = dict(env or {})
        grouped = self.limits.sessions_per_process > 1
        if grouped and not app_entry:
            raise EntryError("sessions_per_process > 1 needs an app entry: module:function(spec, terminal)")
        self.app_entry = app_entry if grouped else None
        self.forkserver = Forkserver(entry, preload, self.app_entry)
        #: the workers (None: one process per session)
        self.pool: WorkerPool | None = None
        if grouped:
            self.pool = WorkerPool(self.forkserver, self.limits.sessions_per_process, self.worker_env(),
                                   self.limits.child_memory_mib, self.limits.child_cpu_seconds,
                                   spread=self.limits.spread_workers)
        self.admission = Admission(self.limits)
        #: connections and requests refused, by reason ("rate", "per_ip", "flood", "full",
        #: "no_session", "exec", "subsystem", "session", "forward", "env": one per request)
        self.refused: Counter[str] = Counter()
        self.port = 0
        self._host_key: asyncssh.SSHKey | None = None
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._sessions: set[ShellSession] = set()
        self._connections: set[_Connection] = set()
        self._numbers = 0

    @property
    def fingerprint(self) -> str:
        """``SHA256:...`` of the host key (after :meth:`start`)."""
        if self._host_key is None:
            raise RuntimeError("the server has not started")
        return str(self._host_key.get_fingerprint("sha256"))

    @property
    def sessions_now(self) -> int:
        """Sessions whose process is running."""
        return len(self._sessions)

    @property
    def connections_now(self) -> int:
        """SSH connections open (logged in or not)."""
        return len(self._connections)

    def sessions(self) -> list[ShellSession]:
        """The running sessions."""
        return list(self._sessions)

    async def start(self, bind: str = "127.0.0.1", port: int = 2222) -> list[tuple[str, int]]:
        """Load (or make) the host key, start the forkserver, listen; the addresses bound.

        Raises:
            HostKeyError: the host key cannot be read or made.
            EntryError: the entry does not resolve.
            OSError: the address cannot be bound.
        """
        self._host_key = load_host_key(self.data_dir)
        await self.forkserver.start()
        limits = self.limits
        try:
            self._acceptor = await asyncssh.create_server(
                lambda: _Connection(self),
                bind,
                port,
                server_host_keys=[self._host_key],
                server_version="unotui",
                login_timeout=limits.login_timeout,
                keepalive_interval=limits.keepalive_interval,
                keepalive_count_max=limits.keepalive_count_max,
                encoding=None,
                line_editor=False,
                allow_pty=True,
                agent_forwarding=False,
                x11_forwarding=False,
                allow_scp=False,
                sftp_factory=None,
                password_auth=False,
                host_based_auth=False,
                gss_host=None,
                kbdint_auth=True,
                public_key_auth=True,
            )
        except BaseException:
            await self.forkserver.close()
            raise
        sockets = self._acceptor.sockets
        addresses = [(str(s.getsockname()[0]), int(s.getsockname()[1])) for s in sockets]
        self.port = addresses[0][1] if addresses else port
        log.info(
            "SSH shell listening on %s, entry %s, host key %s",
            ", ".join(f"{a}:{p}" for a, p in addresses), self.app_entry or self.entry, self.fingerprint,
        )
        if self.pool is not None:
            log.info("up to %d sessions per worker process", self.pool.per_process)
        return addresses

    async def close(self, timeout: float = 5.0) -> None:
        """Stop listening, end every session (their clients are told), close connections."""
        if self._acceptor is not None:
            self._acceptor.close()
        for session in list(self._sessions):
            session.close()
        pending = [s.done for s in self._sessions]
        if pending:
            await asyncio.wait(pending, timeout=timeout)
        for conn in list(self._connections):
            conn.close()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
            self._acceptor = None
        if self.pool is not None:
            self.pool.close()
        await self.forkserver.close()

    # ----- called by connections and sessions -------------------------------------------------

    def count_refusal(self, reason: str) -> None:
        """Count one refused connection or request."""
        self.refused[reason] += 1

    def child_env(self, term: str, client_colorterm: str | None) -> dict[str, str]:
        """A child's whole environment (one session per process)."""
        env = self.worker_env()
        env.update(self.session_env(term, client_colorterm))
        env.update(self.env)
        return env

    def worker_env(self) -> dict[str, str]:
        """What every session's process shares: a worker's whole environment."""
        env = {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
        }
        for name in ("HOME", "TMPDIR"):
            if name in os.environ:
                env[name] = os.environ[name]
        env.update(self.env)
        return env

    @staticmethod
    def session_env(term: str, client_colorterm: str | None) -> dict[str, str]:
        """What is one session's own: ``TERM`` and, for 24-bit colour, ``COLORTERM``."""
        return {"TERM": term, **colour_env(term, client_colorterm)}

    def new_session(self, spec: SessionSpec) -> ShellSession:
        """A session for a connection, handed only what it uses of the server."""
        self._numbers += 1
        host = SessionHost[ShellSession](
            limits=self.limits,
            commands=self.commands,
            port=self.port,
            count_refusal=self.count_refusal,
            environ=self.session_env if self.pool is not None else self.child_env,
            extra_for=self.extra_for,
            forkserver=self.forkserver,
            place=self.pool.run if self.pool is not None else None,
            started=self._sessions.add,
            ended=self._sessions.discard,
        )
        return ShellSession(host, spec, self._numbers)


class _Connection(asyncssh.SSHServer):
    """One client connection: admission, authentication, at most one session at a time."""

    def __init__(self, server: SshServer) -> None:
        self._server = server
        self._conn: asyncssh.SSHServerConnection | None = None
        self._peer = ""
        self._refusal: str | None = None
        self._silent = False
        self._admitted = False
        self._key: asyncssh.SSHKey | None = None
        self._fingerprint: str | None = None
        self._session: ShellSession | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self._peer = str(peer[0]) if peer else ""
        self._server._connections.add(self)
        self._refusal = self._server.admission.connect(self._peer, time.monotonic())
        self._silent = self._refusal != "flood"  # let on, and not yet logging in
        if self._refusal == "flood":  # before the handshake: not a byte sent
            self._server.count_refusal(self._refusal)
            conn.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        server = self._server
        if self in server._connections:
            server._connections.discard(self)
            server.admission.disconnect(self._peer, self._admitted, self._silent)
            self._silent = False
            self._admitted = False

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()

    def begin_auth(self, username: str) -> bool:
        """Always ask for authentication: OpenSSH offers its key only when asked."""
        assert self._conn is not None
        if self._silent:
            self._server.admission.spoke()
            self._silent = False
        if self._refusal is None:
            self._refusal = self._server.admission.admit()
            self._admitted = self._refusal is None
        if self._refusal is not None:
            # Let it in (any key, no record) only to say why on its terminal, then close.
            self._server.count_refusal(self._refusal)
            log.info("connection from %s refused: %s", self._peer, self._refusal)
            asyncio.get_running_loop().call_later(self._REFUSED_FOR, self._conn.close)
        return True

    #: seconds a refused connection may stay (enough to read its one line)
    _REFUSED_FOR = 10.0

    # Keys: any key, fingerprint recorded.  The key recorded is the last one checked:
    # a signed request is checked just before it succeeds, and keyboard-interactive (the
    # guests' way in) forgets it, so a key that was only offered never becomes an identity.
    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._key = key
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._key = None
        return True  # in at once, no prompt

    def password_auth_supported(self) -> bool:
        return False

    def auth_completed(self) -> None:
        self._fingerprint = str(self._key.get_fingerprint("sha256")) if self._key is not None else None
        if self._refusal is None:
            self._expect_session()

    def _expect_session(self) -> None:
        """Close the connection unless a session is running ``no_session_timeout`` s from
        now: a logged-in connection holds a ``max_sessions`` slot."""
        timeout = self._server.limits.no_session_timeout
        asyncio.get_running_loop().call_later(timeout, self._close_without_session, timeout)

    def _close_without_session(self, timeout: float) -> None:
        if self._conn is None or self not in self._server._connections:
            return
        if self._session is not None and not self._session.done.done():
            return  # a session is open (or starting)
        self._server.count_refusal("no_session")
        log.info("connection from %s closed: no session within %g s", self._peer, timeout)
        self._conn.disconnect(asyncssh.DISC_BY_APPLICATION, f"no session opened within {timeout:g} s")

    def session_requested(
        self,
    ) -> tuple[asyncssh.SSHServerChannel[bytes], ShellSession | RefusalSession] | bool:
        assert self._conn is not None
        if self._refusal is not None:
            return self._channel(), RefusalSession(f"unotui: {REFUSALS[self._refusal]}")
        if self._session is not None and self._session.busy:
            self._server.count_refusal("session")
            return False  # one session at a time per connection
        spec = SessionSpec(
            user=str(self._conn.get_extra_info("username") or ""),
            fingerprint=self._fingerprint,
            term=DEFAULT_TERM,
            size=(80, 24),
            peer=self._peer,
        )
        session = self._server.new_session(spec)
        session.done.add_done_callback(lambda _f: self._after_session(session))
        self._session = session
        return self._channel(), session

    def _channel(self) -> asyncssh.SSHServerChannel[bytes]:
        """A new session's channel, keeping only the ``env`` requests the shell uses."""
        assert self._conn is not None
        return guard(self._conn.create_server_channel(), lambda: self._server.count_refusal("env"))

    def _after_session(self, session: ShellSession) -> None:
        """A child's session is over: close the connection soon (no idle links are kept)."""
        conn = self._conn
        if conn is not None and session.pid is not None:
            asyncio.get_running_loop().call_later(1.0, conn.close)
        elif conn is not None:  # refused or never started: the client may try again, briefly
            self._expect_session()

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        self._server.count_refusal("forward")
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self._server.count_refusal("forward")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self._server.count_refusal("forward")
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        self._server.count_refusal("forward")
        return False
