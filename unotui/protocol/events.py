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

__all__ = ["ConnectionClosed", "Fault", "HelloReceived", "RecordReceived", "ViewUpdated"]


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
