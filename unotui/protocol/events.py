"""What a connection's session delivers: the events a host or a client acts on.

Apart from :mod:`.session` (the state machines that make them) so that a program that
only consumes them (solo play's table core and its seat, the app) does not load the
codec, the sessions and the view sync: the messages and these events are all it needs.
The unions of what each session delivers are with the sessions (:data:`.session.HostEvent`,
:data:`.peer_session.PeerEvent`): they name the handshake's messages, which such a
program never loads (:mod:`.link_messages`).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, NamedTuple

from ..engine import Action, SeatView

if TYPE_CHECKING:
    from .messages import Hello

__all__ = [
    "ConnectionClosed",
    "Fault",
    "HelloReceived",
    "RecordReceived",
    "RecordTooLong",
    "ViewUpdated",
    "record_bound",
]


class Fault(enum.StrEnum):
    """Whose fault a closed connection was."""

    REMOTE = "remote"  # the other side broke the protocol, went silent or vanished
    LOCAL = "local"  # the other side says we broke it (we received an ``error``)
    NONE = "none"  # an orderly end: bye, closed


class ConnectionClosed(NamedTuple):
    """The connection is over; nothing more will be sent or delivered."""

    code: str
    message: str
    fault: Fault


class HelloReceived(NamedTuple):
    """Host side: a client said hello (``hello.name`` already cleaned) in ``version``.

    Answer with :meth:`HostSession.accept` or :meth:`HostSession.reject`.
    """

    hello: Hello
    version: int


class ViewUpdated(NamedTuple):
    """Peer side: the seat's view after a snapshot or delta."""

    view: SeatView


class RecordReceived(NamedTuple):
    """Peer side (version 2): the whole record of the finished match, its ``transcript``
    parts put together in order (not yet checked against what the seat saw: that is
    :mod:`unotui.net.handover`'s).

    Attributes:
        names: the seats' names; ``dealer``: the first dealer given at set-up (``None``:
            drawn with round 0's key).
        keys: every round's key in hex, from round 0 on.
        actions: every ``(seat, action)`` step of the match, in order.
    """

    names: tuple[str, ...]
    dealer: int | None
    keys: tuple[str, ...]
    actions: tuple[tuple[int, Action], ...]


def record_bound(log_length: int) -> int:
    """The most steps (and the most round keys) a seat takes of a match's record when it
    was shown ``log_length`` events of the match's log: twice as many, plus 100.

    Every step logs about one event, and every round logs its deal, so an honest record is
    well within this; one beyond it is not the match the seat watched.  A seat counts the
    parts against it as they arrive (:class:`RecordTooLong`), so that a hostile host cannot
    make it buffer what the codec's per-part bounds allow in all (256 parts of 3000 steps)
    before the record is checked; the check (:func:`unotui.net.handover.check_record`)
    holds the whole record to the same bound.
    """
    return 2 * log_length + 100


class RecordTooLong(NamedTuple):
    """Peer side (version 2): the match's record was refused while its parts were still
    arriving, because the ``keys`` and ``steps`` received so far passed ``limit``
    (:func:`record_bound` of the log the seat was shown).

    Nothing of it is kept, and no :class:`RecordReceived` follows on this connection; the
    rest of its parts are still read, in order, and dropped (the connection stays open: the
    record is well-formed, only not this match's).
    """

    keys: int
    steps: int
    limit: int
