"""Seats this user holds at tables elsewhere, kept on disk.

A host holds a dropped player's seat for a while (120 s by default) and gives it back to
whoever shows its resume token.  A connection that drops is resumed by the running
``unotui join`` itself; this file is for the process that ended: a closed terminal, a
Ctrl+Q in the middle of a match, a crash.  ``unotui join HOST`` run again finds the token
here and takes the seat back, if the host still holds it.

A remembered seat is a :class:`Place`: the address the socket actually connected to (the
peer address, made canonical by :func:`place_of`; ``localhost`` and ``127.0.0.1`` reach
the same 127.0.0.1 and so are one host, while the typed text never enters the key), the
port, the table's code on a lobby, and **the name the seat was taken with**.  One account
may hold several seats at one table (two terminals, ``--name Cleo`` and ``--name Bob``):
keyed by the address alone, Bob's second run took Cleo's token and threw her out.  Now a
join looks up only its own name's seat, and with none it joins as a newcomer would.

The file (``seats.json`` beside the settings file, 0600 in a 0700 directory:
:mod:`unotui.private`) holds each place's latest token (tokens rotate on every resume, so
each welcome writes it again).  Entries go when a seat's match is over, when the host no
longer knows the token, and after :data:`KEEP_S`; at most :data:`MOST` are kept, and a
file larger than :data:`MOST_BYTES` or with fields out of bounds is not trusted.  A
damaged file is treated as empty: losing a token only costs what the crash already cost.
A file of the first version (keyed by the address as typed) is read as empty and its
entries dropped: the typed address cannot be turned into the connected one without
connecting, and a seat dropped that way is one a newcomer would be refused.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from ..private import DataDirError, private_dir, write_private

__all__ = ["KEEP_S", "MOST", "MOST_BYTES", "VERSION", "Place", "SeatMemory", "place_of"]

#: how long a seat is remembered (a host restarted from its journal holds seats again)
KEEP_S = 6 * 3600.0
#: the most seats remembered at once (the oldest go first)
MOST = 32
#: a larger file is not read (MOST entries take a few KiB)
MOST_BYTES = 64 * 1024
#: the file's format: 2 keys a seat by Place; 1 keyed it by the address as typed
VERSION = 2
#: bounds on each field read back (a name is at most 16 characters at a host)
_LONGEST = {"host": 64, "table": 64, "name": 64, "token": 256}


class Place(NamedTuple):
    """Whose seat, and where: the key of one remembered seat."""

    #: the address connected to, canonical (:func:`place_of`)
    host: str
    port: int
    #: the table's code on a lobby (``""``: a LAN host's only table)
    table: str
    #: the name the seat was taken with, exactly (the host tells ``Bob`` from ``bob``)
    name: str


def place_of(peer: tuple[str, int], table: str, name: str) -> Place:
    """The place of ``name``'s seat at ``table`` of the host whose socket's peer address
    (``getpeername``) is ``peer``.

    The peer address is what the socket reached, whatever was typed: a host name resolves
    to it, an IPv4 address seen through a dual-stack socket (``::ffff:127.0.0.1``) is that
    IPv4 address, and an IPv6 address is written in its one compressed form.
    """
    host, port = peer
    text, _, scope = host.partition("%")
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:  # not an IP address (a socket's peer always is; keep it as it came)
        return Place(host.lower(), port, table, name)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    canonical = str(ip) + (f"%{scope}" if scope and ip.version == 6 else "")
    return Place(canonical, port, table, name)


class SeatMemory:
    """Resume tokens by :class:`Place`, in one small JSON file."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock

    def recall(self, place: Place) -> str | None:
        """The token of the seat held at ``place`` (its name's seat, no other), if remembered."""
        entry = self._read().get(place)
        return None if entry is None else str(entry["token"])

    def remember(self, place: Place, token: str) -> None:
        """``place``'s seat now answers to ``token`` (written at once: a crash may follow)."""
        seats = self._read()
        seats[place] = {"token": token, "at": self.clock()}
        self._write(seats)

    def forget(self, place: Place) -> None:
        """``place``'s seat is over (its match ended, or the host no longer knows it)."""
        seats = self._read()
        if seats.pop(place, None) is not None:
            self._write(seats)

    # ----- the file -----------------------------------------------------------------------------

    def _read(self) -> dict[Place, dict[str, Any]]:
        try:
            with self.path.open("rb") as file:
                raw = file.read(MOST_BYTES + 1)
            data = json.loads(raw) if len(raw) <= MOST_BYTES else None
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != VERSION:
            return {}  # damaged, or version 1's typed addresses: dropped (see the module)
        entries = data.get("seats")
        if not isinstance(entries, list):
            return {}
        now = self.clock()
        seats: dict[Place, dict[str, Any]] = {}
        for entry in entries[:MOST]:
            place = _place(entry)
            if place is not None and 0 <= now - entry["at"] <= KEEP_S:
                seats[place] = {"token": entry["token"], "at": entry["at"]}
        return seats

    def _write(self, seats: dict[Place, dict[str, Any]]) -> None:
        newest = sorted(seats.items(), key=lambda item: float(item[1]["at"]), reverse=True)[:MOST]
        entries = [place._asdict() | entry for place, entry in newest]
        data = json.dumps({"version": VERSION, "seats": entries}).encode()
        # a seat that cannot be remembered is only not remembered
        with contextlib.suppress(OSError, DataDirError):
            private_dir(self.path.parent)
            write_private(self.path, data)


def _place(entry: object) -> Place | None:
    """The place of one entry read back, if every field is there and within bounds."""
    if not isinstance(entry, dict):
        return None
    for key, longest in _LONGEST.items():
        value = entry.get(key)
        if not isinstance(value, str) or len(value) > longest:
            return None
    port, at = entry.get("port"), entry.get("at")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        return None
    if not isinstance(at, int | float) or isinstance(at, bool) or not entry["token"]:
        return None
    return Place(entry["host"], port, entry["table"], entry["name"])
