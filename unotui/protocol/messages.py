"""Every message of the protocol, as a typed frozen dataclass.

Each class has a ``TYPE``: the ``"t"`` value that names it on the wire.  Which messages
may travel which way is fixed (:data:`CLIENT_MESSAGES`, :data:`HOST_MESSAGES`); ``ping``
and ``pong`` go both ways.  The wire form of every field is defined in
:mod:`unotui.protocol.codec` and written down in ``protocol/SPEC.md``; durations are
whole milliseconds, seats are ``0..9`` or ``None`` (a spectator, or "nobody").

These are plain values: building one checks nothing.  The codec checks everything when a
message is encoded or decoded, so a message that was decoded is always valid.

Every name is reached as ``messages.Name``, and this module defines none of them: each is
loaded from its module when first used (PEP 562).  The messages a table and its seats
exchange, solo play's in-process table too (intents, answers, presence, deadlines, chat,
the seats, closing) are in :mod:`unotui.protocol.table_messages`; the ones only a
connection or the lobby carries (the handshake, keep-alive, the view's sync, the lobby's
list) are in :mod:`unotui.protocol.link_messages`, with the unions of which way each
travels.  Why: building a frozen dataclass compiles its methods, and solo play's table
uses none of them before its first frame (the link's fourteen cost it a twentieth of its
start-up, the table's twelve a fortieth).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (every name of ``__all__``, for type checkers: at run time __getattr__)
    from .link_messages import *  # noqa: F403
    from .table_messages import *  # noqa: F403

__all__ = [
    "CLIENT_MESSAGES",
    "HOST_MESSAGES",
    "SEAT_ACTS",
    "Accepted",
    "Bye",
    "Chat",
    "ChatLine",
    "ClientMessage",
    "Closed",
    "Create",
    "Created",
    "Deadline",
    "Delta",
    "Error",
    "Hello",
    "HostMessage",
    "Intent",
    "Kept",
    "KeptList",
    "KeptRow",
    "KeptText",
    "LeaderRow",
    "LobbyState",
    "LobbyTable",
    "Matches",
    "Message",
    "Ping",
    "Pong",
    "Presence",
    "Quick",
    "Ready",
    "Refused",
    "Review",
    "ReviewDone",
    "ReviewSlot",
    "SeatState",
    "Snapshot",
    "Start",
    "TableState",
    "TranscriptPart",
    "Welcome",
]

def __getattr__(name: str) -> Any:
    """A message (or a union), loaded from its module on first use and kept here."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import table_messages

    if name in table_messages.__all__:
        value = getattr(table_messages, name)
    else:  # (the link's module imports the table's: looking there first loads nothing more)
        from . import link_messages

        value = getattr(link_messages, name)
    globals()[name] = value
    return value
