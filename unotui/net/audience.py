"""Who is at a table and what each of them is sent: the table core's members.

A member is one connection (or solo play's in-process seat) at a seat, or watching.  The
core decides *what* happens; this object knows *who hears it*: one seat's members, every
member, everyone but a seat, and which outboxes have new messages since the core last
drained (``dirty``), so that the adapter writes each connection once per call.  Views go
out here too, the views of one moment built together for every member (what all seats
see alike is computed and packed once, see :func:`~unotui.engine.seat_views`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

from ..engine import Game, seat_views
from ..protocol import messages as m
from .effects import Outbox

__all__ = ["Audience"]

K = TypeVar("K", bound=Hashable)


class Audience(Generic[K]):
    """A table's members: each one's seat (``None``: watching) and outbox."""

    def __init__(self) -> None:
        self.members: dict[K, int | None] = {}
        self.outbox: dict[K, Outbox] = {}
        #: a spectator's name (what its chat lines say; "" for a seat, whose name is its seat's)
        self.watchers: dict[K, str] = {}
        #: members with messages queued since the core last drained
        self.dirty: set[K] = set()

    def __contains__(self, member: object) -> bool:
        return member in self.members

    def add(self, member: K, outbox: Outbox, seat: int | None, watcher: str = "") -> None:
        """``member`` sits at ``seat`` (or watches, as ``watcher``)."""
        self.members[member] = seat
        self.outbox[member] = outbox
        self.watchers[member] = watcher
        self.dirty.add(member)

    def remove(self, member: K) -> int | None:
        """``member`` is gone (its outbox is not closed here); returns its seat."""
        del self.outbox[member]
        del self.watchers[member]
        return self.members.pop(member)

    def holding(self, seat: int) -> Iterator[K]:
        """The members at ``seat`` (a copy: callers may remove them)."""
        return iter([member for member, held in self.members.items() if held == seat])

    def seated(self, seat: int) -> bool:
        """Whether any member is at ``seat``."""
        return seat in self.members.values()

    def close_all(self, code: str, reason: str) -> None:
        """Tell every member why, and forget them all."""
        for member, box in self.outbox.items():
            box.close(code, reason)
            self.dirty.add(member)
        self.members.clear()
        self.outbox.clear()
        self.watchers.clear()

    def send(self, member: K, message: m.Message) -> None:
        """One message to one member, if it is still here."""
        box = self.outbox.get(member)
        if box is not None:
            box.send(message)
            self.dirty.add(member)

    def send_seat(self, seat: int, message: m.Message) -> None:
        """One message to every member at ``seat``."""
        for member, held in self.members.items():
            if held == seat:
                self.outbox[member].send(message)
                self.dirty.add(member)

    def send_all(self, message: m.Message, *, but_seat: int | None = None) -> None:
        """One message to every member still open (except those at ``but_seat``)."""
        for member, box in self.outbox.items():
            if not box.closed and (but_seat is None or self.members[member] != but_seat):
                box.send(message)
                self.dirty.add(member)

    def send_each(self, message_for: Callable[[int | None], m.Message]) -> None:
        """To every member still open, the message made for its seat."""
        for member, seat in self.members.items():
            box = self.outbox[member]
            if not box.closed:
                box.send(message_for(seat))
                self.dirty.add(member)

    def send_views(self, game: Game) -> None:
        """Bring every member up to date with ``game``: the views of one moment, built
        together (each from the log entry its member already has)."""
        start = game.round_log_start
        outboxes = [self.outbox[member] for member in self.members]
        seats = self.members.values()
        viewers = [(seat, max(box.log_from, start)) for seat, box in zip(seats, outboxes, strict=True)]
        views = seat_views(game, viewers)
        # Imported here, not at the top: solo play's start-up need not load the wire's
        # packing, codec and view sync (bench/tui.py: launch to first frame).
        from ..protocol.shared import SharedDeltas

        shared = SharedDeltas(views.public)
        for box, view in zip(outboxes, views, strict=True):
            box.send_view(view, shared)
        self.dirty.update(self.members)
