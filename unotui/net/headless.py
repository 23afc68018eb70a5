"""``unotui host --headless``: a table with no player at the host, logging to stdout.

It starts the match as soon as ``seats - bots`` people have joined, prints one line per
join, drop, start and result (flushed at once, so a service manager or a test reading
the pipe sees them as they happen), and stops cleanly on SIGINT or SIGTERM, telling
every player that the host left.  With ``--data-dir`` every accepted action is journaled
before anyone hears of it, and a host killed at any moment resumes the table when it is
started again with the same directory (private, 0700: :mod:`unotui.private`).  A
directory or journal that cannot be used is one sentence on stderr and exit status 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import time
from pathlib import Path

from ..private import DataDirError, private_dir
from .addresses import join_hints, listen_error
from .config import RoomConfig
from .host import Host
from .journal import Journal
from .recovery import restore_rooms
from .room import Room

__all__ = ["serve_headless"]


def _say(text: str) -> None:
    stamp = time.strftime("%H:%M:%S")
    print(f"{stamp} {text}", flush=True)


async def _serve(config: RoomConfig, bind: str, port: int, data_dir: Path | None = None) -> int:
    journal = None
    room = None
    if data_dir is not None:
        try:
            journal = Journal(private_dir(data_dir) / "journal.sqlite3")
            room = restore_rooms(journal, on_event=_say).get("")
        except DataDirError as exc:
            print(f"unotui host: {exc}", file=sys.stderr)
            if journal is not None:
                journal.close()
            return 1
        if room is not None:
            replayed = len(room.game.history) if room.game is not None else 0
            _say(f"resumed the table from {data_dir}: {replayed} actions replayed; "
                 "players come back with their seats")
    if room is None:
        room = Room("", config, on_event=_say, journal=journal)
    host = Host({"": room})
    try:
        bound = await host.listen(bind, port)
    except OSError as exc:
        print(f"unotui host: cannot listen on {bind}:{port}: {listen_error(exc)}", file=sys.stderr)
        return 1
    actual = bound[0][1]
    _say(f"hosting {config.seats} seats ({config.bots} for computer players) on port {actual}")
    for hint in join_hints(bind, actual):
        _say(f"join with: {hint}")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    _say("stopping: telling the players")
    await host.close("host_left", "The host stopped the table.")
    if journal is not None:
        journal.close()
    return 0


def serve_headless(config: RoomConfig, bind: str, port: int, data_dir: Path | None = None) -> int:
    """Run until interrupted; returns the exit status.  With ``data_dir`` the table is
    journaled there, and an unfinished one found there is resumed instead of a new one."""
    return asyncio.run(_serve(config, bind, port, data_dir))
