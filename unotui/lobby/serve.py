"""``unotui serve``: one lobby, reachable over SSH and over TCP, until interrupted.

Three doors lead to the same tables (one dict of rooms, one :class:`Lobby`):

* the public TCP port (``--port``), for ``unotui join HOST --table CODE`` peers, with the
  host's per-address limits;
* a loopback-only TCP port that only the SSH sessions' programs use (they all come from
  127.0.0.1, so the per-address limits of the public door would throttle them; the SSH
  layer has already applied its own per-address limits to the real clients);
* the SSH server (``--ssh-port``), which runs the lobby app for each SSH session on a
  pty of its own: :func:`unotui.lobby.session.make_app` in a thread of a worker process
  shared by up to ``--sessions-per-process`` sessions, or with ``--sessions-per-process 1``
  :func:`unotui.lobby.session.run` in a process of its own.

One line per event goes to stdout (joins, tables, results, the SSH layer's refusals),
flushed at once, for a service manager's journal.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from pathlib import Path

from ..net.addresses import listen_error
from ..net.host import Host, HostLimits
from ..net.journal import Journal
from ..net.room import Room
from ..private import DataDirError, private_dir, private_file
from ..protocol.text import clean_name
from .identity import GUEST, Credentials
from .lobby import Lobby, LobbySettings
from .options import ServeOptions
from .sqlite_store import open_store
from .store import LobbyStore, Retention

__all__ = ["ServeOptions", "run_serve", "serve", "session_extra"]

ENTRY = "unotui.lobby.session:run"
APP_ENTRY = "unotui.lobby.session:make_app"
#: what the forkserver imports once for every session (shared pages, a faster first frame)
PRELOAD = ("unotui.ui.preload", "unotui.ui.lobby_home", "unotui.ui.screens.lobby", "unotui.lobby.session")


def _log_to(path: Path) -> None:
    """The SSH layer's and the hosts' records (tracebacks of a session's program among
    them) go to a file in the data directory (private: 0600); the event lines go to stdout."""
    handler = logging.FileHandler(private_file(path))
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    for quiet in ("asyncssh", "unotui.lobby", "unotui.host"):
        logging.getLogger(quiet).setLevel(logging.WARNING)


def session_extra(spec: object, credentials: Credentials, store: LobbyStore, *, port: int, ssh_port: int,
                  public_host: str) -> dict[str, str]:
    """What an SSH session's program is told (``SessionSpec.extra``): where the lobby's
    loopback door is, and its credential, which carries the client's real address (the
    program reaches the lobby from loopback: see ``Lobby._origin``) and, for a key, the
    key; a guest's vouches for the address alone.  A key's ``name`` is the one it first
    came with (the store remembers it): the program plays under that name at every table,
    whatever SSH user name this session gave, since the key is the person."""
    fingerprint = getattr(spec, "fingerprint", None)
    peer = str(getattr(spec, "peer", "") or "")
    extra = {"host": "127.0.0.1", "port": str(port), "ssh_port": str(ssh_port), "public_host": public_host}
    if fingerprint:
        extra["identity"] = credentials.issue(fingerprint, peer)
        why = store.banned(fingerprint)
        if why is not None:
            extra["banned"] = why[:200]
        else:
            typed = clean_name(str(getattr(spec, "user", "") or ""), "guest")
            extra["name"] = store.remember_name(fingerprint, typed)
    elif peer:
        extra["identity"] = credentials.issue(GUEST, peer)
    return extra


def inner_limits(max_sessions: int) -> HostLimits:
    """The door of the SSH sessions' own host.  Every session connects from 127.0.0.1, so
    it has no per-address caps (the SSH server caps sessions per address before they get
    here) and no reserve: ``--max-sessions`` bounds it, a lobby and a table connection per
    session, briefly both.  The back-off after failed guesses stays: keyed by the
    session's key, or for a guest by the address its credential vouches for."""
    cap = max_sessions * 2 + 16
    return HostLimits(max_connections=cap, unauthenticated_per_ip=cap, new_per_ip_per_s=1000.0,
                      new_per_ip_burst=cap, per_ip=cap, resume_reserve=0)


def say(text: str) -> None:
    """One log line, stamped and flushed."""
    print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)


async def serve(options: ServeOptions, stop: asyncio.Event) -> int:
    """Serve until ``stop`` is set; returns the exit status: 1, with one sentence on
    stderr, if a port cannot be listened on or the data directory (its journal, store or
    host key) cannot be used."""
    async with contextlib.AsyncExitStack() as opened:
        try:
            port = await _open(options, opened)
        except DataDirError as exc:
            print(f"unotui serve: {exc}", file=sys.stderr)
            return 1
        except OSError as exc:
            why = listen_error(exc, "--port or --ssh-port")
            print(f"unotui serve: cannot listen: {why}", file=sys.stderr)
            return 1
        shown = options.public_host or "THIS-HOST"
        say(f"TCP lobby on port {port}: unotui join {shown}:{port} --table CODE")
        say(f"data directory: {options.data_dir}")
        await stop.wait()
        say("stopping: telling the players")
    return 0


async def _open(options: ServeOptions, opened: contextlib.AsyncExitStack) -> int:
    """Open the data directory's files and every door; each part is closed by ``opened``
    (in reverse order: the SSH server first, the store last).  Returns the public TCP port."""
    private_dir(options.data_dir)
    _log_to(options.data_dir / "ssh.log")
    store = open_store(options.data_dir)
    opened.callback(store.close)
    journal = Journal(options.data_dir / "journal.sqlite3")
    opened.callback(journal.close)
    rooms: dict[str, Room] = {}
    credentials = Credentials()
    retention = Retention(options.keep_matches, options.keep_days, options.keep_total)
    settings = LobbySettings(max_tables=options.max_tables, turn_timer=options.turn_timer,
                             retention=retention, review_slots=options.review_slots)
    lobby = Lobby(store, rooms, credentials=credentials, settings=settings, on_event=say, journal=journal)
    opened.callback(lobby.close)
    public = Host(rooms, lobby=lobby)
    inner = Host(rooms, lobby=lobby, limits=inner_limits(options.max_sessions))
    for host in (public, inner):
        opened.push_async_callback(host.close, "host_left", "The lobby is shutting down.")
    ssh_port = [options.ssh_port]  # the bound port (``--ssh-port 0`` picks one)
    shown = options.public_host or "THIS-HOST"  # in the lines that tell people how to come in
    bound = await public.listen(options.bind, options.port)
    inner_port = (await inner.listen("127.0.0.1", 0))[0][1]
    if options.ssh:
        from ..ssh import SshLimits
        from ..ssh.server import SshServer

        def extra_for(spec: object) -> dict[str, str]:
            return session_extra(spec, credentials, store, port=inner_port, ssh_port=ssh_port[0],
                                 public_host=shown)

        limits = SshLimits(max_sessions=options.max_sessions, per_ip=options.ssh_per_ip,
                           rate_per_ip=options.ssh_rate_per_ip, rate_burst=options.ssh_rate_burst,
                           idle_timeout=options.idle_timeout,
                           sessions_per_process=options.sessions_per_process,
                           spread_workers=os.cpu_count() or 1)
        ssh = SshServer(ENTRY, options.data_dir, limits=limits, extra_for=extra_for, preload=PRELOAD,
                        app_entry=APP_ENTRY)
        ssh_bound = await ssh.start(options.bind, options.ssh_port)
        opened.push_async_callback(ssh.close)
        ssh_port[0] = ssh_bound[0][1]
        say(f"SSH lobby on port {ssh_bound[0][1]}: ssh -p {ssh_bound[0][1]} NAME@{shown}")
        say(f"host key fingerprint: {ssh.fingerprint}")
    return int(bound[0][1])


def run_serve(options: ServeOptions) -> int:
    """Run until SIGINT or SIGTERM; returns the exit status."""

    async def main() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        return await serve(options, stop)

    return asyncio.run(main())
