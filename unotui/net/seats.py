"""Who sits where at a hosted table, and how a returning player proves it is them.

Pure bookkeeping, no I/O: seats are taken in the order people join, names are made
unique (as people read them: case-folded, look-alike letters folded, see
:func:`~unotui.protocol.text.name_key`), and each person gets a resume token that is
compared in constant time and replaced on every resume, so a token seen once (on a
shared screen, in a log) is worth nothing after its owner comes back.  Tokens are never
broadcast and a seat is never handed back by name or address, only by token.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field

from ..protocol.text import NAME_MAX_CELLS, name_key
from ..table import SeatKind
from ..tokens import new_token, same_token

__all__ = ["KEY_SEAT_IN_USE", "KEY_TAKEN_OVER", "RESUMED_ELSEWHERE", "SeatBook", "SeatEntry", "unique_name"]

#: a lobby key's seat is at another connection (two terminals of one key never throw each
#: other out: a token, the same program coming back, still replaces a dying connection)
KEY_SEAT_IN_USE = ("Your seat at this table is in use in another terminal of your SSH key, so it "
                   "stays there unless you take it over (hello.take_over).")
#: what the connection a seat is taken from hears (``closed`` ``replaced``)
RESUMED_ELSEWHERE = "This seat was resumed from another connection."
KEY_TAKEN_OVER = "Your seat moved to another terminal of your SSH key: you took it over there."


def unique_name(wanted: str, taken: Container[str]) -> str:
    """``wanted``, or ``wanted 2``, ``wanted 3`` ... whose :func:`name_key` is not in
    ``taken`` (the keys of the names in use)."""
    if name_key(wanted) not in taken:
        return wanted
    for k in range(2, 100):
        suffix = f" {k}"
        candidate = wanted[: NAME_MAX_CELLS - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in taken:
            return candidate
    return wanted  # pragma: no cover - 100 people of one name


@dataclass
class SeatEntry:
    """One seat: ``kind`` is ``open``, ``human`` or ``bot``; ``away_since`` is the loop
    time the person's connection dropped (``None`` while connected or for bots)."""

    name: str = ""
    kind: str = SeatKind.OPEN
    token: str = ""
    connected: bool = False
    away_since: float | None = None
    owner: bool = False
    level: str = ""
    identity: str | None = None  # a lobby player's key: it takes the seat back like a token


@dataclass
class SeatBook:
    """The seats of one table."""

    size: int
    seats: list[SeatEntry] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [SeatEntry() for _ in range(self.size)]

    # ----- joining --------------------------------------------------------------------------

    def unique_name(self, wanted: str, exclude: int | None = None) -> str:
        """``wanted``, or ``wanted 2``, ``wanted 3`` ... if someone already has it."""
        return unique_name(wanted, {name_key(s.name) for i, s in enumerate(self.seats)
                                    if s.kind != SeatKind.OPEN and i != exclude})

    def open_seats(self) -> list[int]:
        """Seats nobody has taken, in order."""
        return [i for i, s in enumerate(self.seats) if s.kind == SeatKind.OPEN]

    def take(self, name: str, *, owner: bool = False, identity: str | None = None) -> tuple[int, str] | None:
        """Seat a new person: (seat, token), or ``None`` if the table is full."""
        free = self.open_seats()
        if not free:
            return None
        seat = free[0]
        token = new_token()
        entry = SeatEntry(self.unique_name(name), SeatKind.HUMAN, token, True, None, owner, identity=identity)
        self.seats[seat] = entry
        return seat, token

    def leave(self, seat: int) -> None:
        """A person left a table that has not started: the seat is open again."""
        self.seats[seat] = SeatEntry()

    def fill_with_bots(self, names: list[str], level: str) -> list[int]:
        """Computer players take every open seat; returns those seats."""
        filled: list[int] = []
        for seat in self.open_seats():
            name = self.unique_name(names[len(filled) % len(names)])
            self.seats[seat] = SeatEntry(name, SeatKind.BOT, level=level)
            filled.append(seat)
        return filled

    # ----- coming back ------------------------------------------------------------------

    def find_token(self, token: str) -> int | None:
        """The seat whose token this is (constant-time compare against every seat)."""
        found = None
        for i, s in enumerate(self.seats):
            if s.kind == SeatKind.HUMAN and s.token and same_token(token, s.token):
                found = i
        return found

    def find_identity(self, identity: str) -> int | None:
        """The seat a lobby player with this (verified) key holds, if any."""
        for i, s in enumerate(self.seats):
            if s.kind == SeatKind.HUMAN and s.identity is not None and s.identity == identity:
                return i
        return None

    def rotate(self, seat: int) -> str:
        """A new token for ``seat`` (the old one stops working)."""
        token = new_token()
        self.seats[seat].token = token
        return token

    # ----- reading ----------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """Every seat's name (``""`` for an open seat)."""
        return [s.name for s in self.seats]

    def humans(self) -> list[int]:
        """Seats held by people (connected or away)."""
        return [i for i, s in enumerate(self.seats) if s.kind == SeatKind.HUMAN]

    def bots(self) -> list[int]:
        """Seats played by the computer."""
        return [i for i, s in enumerate(self.seats) if s.kind == SeatKind.BOT]
