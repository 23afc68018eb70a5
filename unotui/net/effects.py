"""What a table core returns: the records to store, the members to write to, and what a
member's outbox must do.

Plain values apart from :mod:`unotui.net.core`, so that the adapters that apply them (the
room, its journal) read them without the core's rules.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, NamedTuple, Protocol, TypeVar

from ..engine import Rules, SeatView
from ..protocol import messages as m
from ..protocol.codec import SharedDeltas
from .journal import SavedSeat

__all__ = [
    "ActionsApplied",
    "Effects",
    "MatchStarted",
    "Outbox",
    "Record",
    "SeatsSaved",
    "TableClosed",
    "TableOpened",
]

K = TypeVar("K", bound=Hashable)


class Outbox(Protocol):
    """What the core needs of a member's sans-I/O session (:class:`~unotui.protocol.session.
    HostSession` is one): admit or refuse it, queue messages and views, close it."""

    @property
    def closed(self) -> bool: ...
    @property
    def log_from(self) -> int: ...
    def accept(
        self, *, seat: int | None, token: str | None, table: str, table_name: str, seats: int, rules: Rules
    ) -> None: ...
    def reject(self, code: str, message: str) -> None: ...
    def send(self, message: m.Message) -> None: ...
    def send_view(self, view: SeatView, shared: SharedDeltas | None = None) -> bool: ...
    def close(self, code: str, message: str) -> None: ...


# ----- what to store ---------------------------------------------------------------------------


class TableOpened(NamedTuple):
    """A new table: its set-up as the journal stores it."""

    config: dict[str, object]


class SeatsSaved(NamedTuple):
    """The seats changed (stored before the new token goes out)."""

    seats: tuple[SavedSeat, ...]


class MatchStarted(NamedTuple):
    """The match began: its secret (every shuffle follows from it)."""

    secret: bytes


class ActionsApplied(NamedTuple):
    """Actions the game applied, in order: ``(seq, seat, action text)``, ``seq`` -1 for
    the table's own (computer players, automatic keeps, timeouts)."""

    rows: tuple[tuple[int, int, str], ...]


class TableClosed(NamedTuple):
    """The table is gone for good: forget its journal."""


Record = TableOpened | SeatsSaved | MatchStarted | ActionsApplied | TableClosed


@dataclass(frozen=True, slots=True)
class Effects(Generic[K]):
    """What one call to the core means outside it.

    Attributes:
        records: what to store, in order, before any member's messages are written.
        dirty: members with new messages queued in their outbox (write them once).
        events: lines for the host's log (joins, starts, results).
        changed: the seats or the status changed (a lobby's list of tables).
    """

    records: tuple[Record, ...] = ()
    dirty: frozenset[K] = frozenset()
    events: tuple[str, ...] = ()
    changed: bool = False
