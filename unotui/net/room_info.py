"""What a seat knows of a hosted table's room: its seats, status and rules.

Before a hosted match starts there is no game yet, only seats filling up.  The host
sends its table state whenever that changes (someone joined, left, the match started);
the remote seat (:mod:`unotui.net.remote`) turns it into a :class:`RoomInfo` and tells
the front end with :class:`RoomChanged`, which shows it on its waiting screen and switches
to the table when the first view of the game arrives.

It also says who holds each seat during the match (:func:`seat_marks`: a computer
player, a person who is away, a person a computer player stands in for), what the Players
panel marks: from the seats' kinds and ``away`` flags here, and the ``presence`` updates
since (a stand-in after timeouts, or a hold that ran out, is said only by those).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from typing import NamedTuple

from ..engine import Rules
from ..table import PresenceState, SeatKind

__all__ = ["RoomChanged", "RoomInfo", "SeatInfo", "SeatMark", "seat_marks"]


class SeatMark(enum.StrEnum):
    """Who holds a seat, as the Players panel says it after the name (the viewer's own
    seat says ``you`` there instead).

    ``""``: a person plays it (or nobody knows better); ``bot``: a computer player, for
    the match (an open seat filled at the start, or a held seat whose hold ran out);
    ``away``: its person's connection dropped and the seat is held for them; ``idle``: a
    computer player plays for its person after three timeouts in a row, until they act.
    """

    PERSON = ""
    BOT = "bot"
    AWAY = "away"
    IDLE = "idle"


class SeatInfo(NamedTuple):
    """One seat: ``kind`` ``open``, ``human`` or ``bot``; ``away`` while its person is
    disconnected (the seat is held for them)."""

    name: str
    kind: str
    away: bool = False


class RoomInfo(NamedTuple):
    """A hosted table before and during its match.

    Attributes:
        name: the table's name (the host's choice).
        status: ``waiting`` (seats filling), ``playing`` or ``over``.
        seats: every seat, in seat order.
        rules: the table's rules.
        you: the viewer's seat (``None`` for a spectator).
        owner: whether the viewer may start the match (the host's own seat).
        bots: how many computer players fill the open seats at the start.
        turn_timer: seconds per decision, or ``None`` when there is no turn timer.
        spectators: how many people are watching.
        autostart: the match starts by itself once the seats for people are taken (the
            open seats left are ``bots``, computer players'); else only at ``s``.
    """

    name: str
    status: str
    seats: tuple[SeatInfo, ...]
    rules: Rules
    you: int | None
    owner: bool
    bots: int
    turn_timer: float | None
    spectators: int = 0
    autostart: bool = False

    @property
    def open_seats(self) -> int:
        """Seats nobody has taken yet."""
        return sum(1 for s in self.seats if s.kind == SeatKind.OPEN)

    @property
    def wanted(self) -> int:
        """People still awaited before a self-starting table starts (0 without autostart:
        then the open seats are all anyone's until ``s``)."""
        return max(0, self.open_seats - self.bots) if self.autostart else 0


class RoomChanged(NamedTuple):
    """The waiting room (or the table's seats) changed."""

    room: RoomInfo


def seat_marks(room: RoomInfo | None, presence: Mapping[int, PresenceState],
               held: Collection[int] = ()) -> tuple[SeatMark, ...]:
    """Each seat's mark from the room's last ``table``, each seat's latest ``presence``
    since and the seats whose hold runs (``hold`` deadlines); empty without a room.  The
    table says which seats are computer players' and whose person is away; a held seat is
    ``away`` (a stand-in may play it after timeouts meanwhile); a ``bot`` presence is a
    stand-in for a person still here (``idle``, until ``back``) or, for a person away whose
    seat is no longer held, the hold run out (``bot``)."""
    if room is None:
        return ()
    marks = []
    for s, info in enumerate(room.seats):
        state = presence.get(s)
        if info.kind == SeatKind.OPEN:
            mark = SeatMark.PERSON  # (nobody's yet: a "left" before the match opened it)
        elif info.kind == SeatKind.BOT:
            mark = SeatMark.BOT
        elif s in held:
            mark = SeatMark.AWAY
        elif state == PresenceState.BOT:
            mark = SeatMark.BOT if info.away else SeatMark.IDLE
        elif info.away or state in (PresenceState.AWAY, PresenceState.LEFT):
            mark = SeatMark.AWAY
        else:
            mark = SeatMark.PERSON
        marks.append(mark)
    return tuple(marks)
