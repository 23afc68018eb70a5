"""Rebuilding tables from the journal after the host was killed.

A table comes back as it was: the same seats (names, resume tokens, SSH keys), the same
match (a game built from the journaled secret, with every journaled action applied again:
the shuffles follow from the secret, so the state is the same), every person away with
the seat held, so that each one resumes with the token (or key) they had.  A retried
intent that was applied before the crash is answered and not applied twice.

A table whose rows are damaged (a truncated config, a seat row with a field missing) or
whose match does not replay is set aside in the journal's quarantine and logged; the
others come back.  One bad row never stops a host.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from .config import config_to_dict
from .core import TableCore
from .journal import Journal, JournalError, SavedTable
from .link import Link
from .room import Room

__all__ = ["restore_room", "restore_rooms"]

log = logging.getLogger("unotui.host")


def restore_room(
    saved: SavedTable,
    journal: Journal,
    *,
    on_event: Callable[[str], None] | None = None,
    on_change: Callable[[Room], None] | None = None,
    now: float,
) -> Room:
    """The room ``saved`` describes, its match replayed (:meth:`TableCore.restore`);
    raises ``UnoError`` or ``ValueError`` if the journal does not replay (the caller
    drops that table)."""
    core: TableCore[Link] = TableCore.restore(saved, now)
    return Room(saved.code, core.config, on_event=on_event, on_change=on_change, journal=journal, core=core)


def restore_rooms(
    journal: Journal,
    *,
    on_event: Callable[[str], None] | None = None,
    on_change: Callable[[Room], None] | None = None,
) -> dict[str, Room]:
    """Every unfinished table in ``journal``, by code.  A table that does not decode or
    does not replay is logged and quarantined (the others come back).

    Raises:
        JournalError: the file itself cannot be read, or a table cannot be set aside.
    """
    rooms: dict[str, Room] = {}
    now = asyncio.get_running_loop().time()
    for entry in journal.entries():
        try:
            saved = journal.load(entry)
            room = restore_room(saved, journal, on_event=on_event, on_change=on_change, now=now)
            if "password" in saved.config:  # from before passwords were hashed: the hash replaces it
                journal.set_config(saved.code, config_to_dict(room.config))
        # Whatever a damaged row makes the decoding or the replay raise (a JournalError, an
        # UnoError, a RemoteProtocolError from the rules, a TypeError from a config field),
        # it concerns this table only: it must never stop the host with the others.
        except Exception as exc:
            why = f"{type(exc).__name__}: {exc}" if not isinstance(exc, JournalError) else str(exc)
            line = f"table {entry.code!r} is damaged in the journal ({why!r}): set aside in its quarantine"
            log.error("%s", line)
            if on_event is not None:
                on_event(line)
            journal.quarantine(entry, why, time.time())
            continue
        rooms[saved.code] = room
    return rooms
