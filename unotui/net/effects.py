"""What a table core returns: the records to store, the members to write to, and what a
member's outbox must do.

Plain values apart from :mod:`unotui.net.core`, so that the adapters that apply them (the
room, its journal) read them without the core's rules.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, NamedTuple, Protocol, TypeVar

from ..engine import Action, Rules, SeatView
from ..protocol import messages as m
from ..table import Accepted, SeatKind, TableStatus
from .config import RoomConfig
from .saved import SavedSeat
from .seats import SeatBook

if TYPE_CHECKING:  # (the wire's packing is loaded by the members that write bytes)
    from ..protocol.shared import SharedDeltas

__all__ = [
    "ActionsApplied",
    "Effects",
    "MatchStarted",
    "Outbox",
    "Record",
    "SeatsSaved",
    "TableClosed",
    "TableOpened",
    "action_rows",
    "saved_seats",
    "table_state",
]

K = TypeVar("K", bound=Hashable)


class Outbox(Protocol):
    """What the core needs of a member's sans-I/O session (:class:`~unotui.protocol.session.
    HostSession` is one): admit or refuse it, queue messages and views, close it."""

    @property
    def closed(self) -> bool: ...
    @property
    def log_from(self) -> int: ...
    @property
    def version(self) -> int:
        """The protocol version the member speaks (0: in this process, no wire)."""
        ...
    def accept(
        self, *, seat: int | None, token: str | None, table: str, table_name: str, seats: int, rules: Rules,
        name: str | None = None,
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


def action_rows(
    applied: Sequence[tuple[int, Action]], accepted: Sequence[Accepted]
) -> tuple[tuple[int, int, str], ...]:
    """The journal's rows for ``applied`` (the game's history since the last outcome).

    The game's history is the truth (every action the referee applied, people's, computer
    players' and the table's own); a person's sequence number is attached where the
    outcome ``accepted`` that person's intent, so a retry after a restart is answered and
    not applied twice."""
    seqs = [(a.seat, a.action, a.seq) for a in accepted if a.seq >= 0]
    rows = []
    for seat, action in applied:
        seq = -1
        for k, (s, act, q) in enumerate(seqs):
            if s == seat and act == action:
                seq = q
                del seqs[k]
                break
        rows.append((seq, seat, str(action)))
    return tuple(rows)


def saved_seats(book: SeatBook) -> tuple[SavedSeat, ...]:
    """The seats as the journal stores them."""
    return tuple(SavedSeat(e.name, e.kind, e.token, e.owner, e.level, e.identity) for e in book.seats)


def table_state(book: SeatBook, config: RoomConfig, status: TableStatus, members: Iterable[int | None],
                viewer: int | None) -> m.TableState:
    """The table as ``viewer`` sees it (the waiting room's content); ``members``: the seat
    of each member (``None``: watching)."""
    seats = tuple(m.SeatState(e.name, e.kind, e.kind == SeatKind.HUMAN and not e.connected)
                  for e in book.seats)
    owner = viewer is not None and book.seats[viewer].owner
    timer = None if config.turn_timer is None else round(config.turn_timer * 1000)
    watching = sum(1 for s in members if s is None)
    return m.TableState(status, seats, viewer, owner, config.bots, timer, watching, config.autostart)
