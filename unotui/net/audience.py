"""Who is at a table and what each of them is sent: the table core's members.

A member is one connection (or solo play's in-process seat) at a seat, or watching.  The
core decides *what* happens; this object knows *who hears it*: one seat's members, every
member, everyone but a seat, and which outboxes have new messages since the core last
drained (``dirty``), so that the adapter writes each connection once per call.  Views go
out here too, the views of one moment built together for every member (what all seats
see alike is computed and packed once, see :func:`~unotui.engine.seat_views`), and the
referee's clocks as ``deadline`` messages (:meth:`Audience.send_clocks`; a newcomer is
told those running, :meth:`Audience.send_running`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import TYPE_CHECKING, Generic, TypeVar

from ..engine import Game, seat_views
from ..protocol import messages as m
from ..table import DeadlineKind, Deadlines, PresenceState
from .effects import Outbox

if TYPE_CHECKING:
    from ..protocol.shared import SharedDeltas

__all__ = ["Audience"]

K = TypeVar("K", bound=Hashable)

#: the longest a deadline may say (the wire's limit: an hour)
_MAX_MS = 3_600_000


def clock_message(kind: DeadlineKind, due: tuple[int, float] | None, now: float) -> m.Deadline:
    """The ``deadline`` message for a clock (``due``: seat and when; ``None``: none runs).
    A running clock says at least 1 ms, since ``ms`` 0 with a seat means that seat's turn
    timer ran out and the table acted for it."""
    if due is None:
        return m.Deadline(kind, None, 0)
    return m.Deadline(kind, due[0], min(_MAX_MS, max(1, round((due[1] - now) * 1000))))


class Audience(Generic[K]):
    """A table's members: each one's seat (``None``: watching) and outbox."""

    def __init__(self) -> None:
        self.members: dict[K, int | None] = {}
        self.outbox: dict[K, Outbox] = {}
        #: a spectator's name (what its chat lines say; "" for a seat, whose name is its seat's)
        self.watchers: dict[K, str] = {}
        #: members with messages queued since the core last drained
        self.dirty: set[K] = set()
        #: the holds everyone was last told of (sent again only when one begins or ends)
        self._holds: tuple[tuple[int, float], ...] = ()
        #: each seat a computer player plays for its person, and what everyone was told
        self._stood_in: dict[int, m.Presence] = {}

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

    def send_presence(self, presence: m.Presence) -> None:
        """A seat's presence, to everyone else at the table; ``bot`` and ``back`` to the
        seat too (a person still connected whose turns ran out is told a computer player
        plays for them, and told when the seat is theirs again: SPEC, Presence and
        deadlines).  The seats a computer player stands in for are kept for newcomers
        (:meth:`send_running`)."""
        seat = presence.seat
        assert seat is not None  # (this host sends presence for seats only)
        if presence.state == PresenceState.BOT:
            self._stood_in[seat] = presence
        elif presence.state == PresenceState.BACK:
            self._stood_in.pop(seat, None)
        own = presence.state in (PresenceState.BOT, PresenceState.BACK)
        self.send_all(presence, but_seat=None if own else seat)

    def send_views(self, game: Game) -> None:
        """Bring every member up to date with ``game``: the views of one moment, built
        together (each from the log entry its member already has)."""
        start = game.round_log_start
        outboxes = [self.outbox[member] for member in self.members]
        seats = self.members.values()
        viewers = [(seat, max(box.log_from, start)) for seat, box in zip(seats, outboxes, strict=True)]
        views = seat_views(game, viewers)
        shared: SharedDeltas | None = None
        if len(outboxes) > 1:  # what several members see alike, packed once for them all
            # Imported here: solo play (one member, no wire) need not load the wire's
            # packing, codec and view sync (bench/tui.py: launch to first frame).
            from ..protocol.shared import SharedDeltas

            shared = SharedDeltas(views.public)
        for box, view in zip(outboxes, views, strict=True):
            box.send_view(view, shared)
        self.dirty.update(self.members)

    def send_clocks(self, timeouts: tuple[int, ...], deadlines: Deadlines | None, now: float) -> None:
        """Tell everyone of the referee's clocks after an outcome: each seat whose turn
        timer ran out (``turn``, ``ms`` 0: the view before it shows what the table did),
        then, when the clocks changed, the turn timer and catch grace (running or
        cancelled) and, when a hold began or ended, every hold (after a cancel of all)."""
        for seat in timeouts:
            self.send_all(m.Deadline(DeadlineKind.TURN, seat, 0))
        if deadlines is None:
            return
        self.send_all(clock_message(DeadlineKind.TURN, deadlines.turn, now))
        self.send_all(clock_message(DeadlineKind.CATCH, deadlines.catch, now))
        if deadlines.holds != self._holds:
            if self._holds:
                self.send_all(m.Deadline(DeadlineKind.HOLD, None, 0))
            for due in deadlines.holds:
                self.send_all(clock_message(DeadlineKind.HOLD, due, now))
            self._holds = deadlines.holds

    def send_running(self, member: K, deadlines: Deadlines, now: float) -> None:
        """Tell a member just admitted (a spectator, a player back mid-turn) the clocks
        running now, so its screen counts them down at once, and which other seats a
        computer player plays for their person, so its Players panel marks them."""
        for kind, due in ((DeadlineKind.TURN, deadlines.turn), (DeadlineKind.CATCH, deadlines.catch)):
            if due is not None:
                self.send(member, clock_message(kind, due, now))
        for due in deadlines.holds:
            self.send(member, clock_message(DeadlineKind.HOLD, due, now))
        for seat, presence in self._stood_in.items():
            if seat != self.members.get(member):  # (one's own: ``back`` follows a resume)
                self.send(member, presence)
