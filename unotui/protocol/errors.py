"""The protocol's one exception type, its stable error codes, and whose fault it was.

Every failure to frame, decode, validate or send a message raises a
:class:`ProtocolError` carrying a stable ``code`` from :data:`CODES`: the same code goes
on the wire in an ``error`` message, so the codes are part of the contract
(``protocol/SPEC.md``) and must not be renamed.  Nothing in this package lets a bare
``ValueError``, ``KeyError`` or ``TypeError`` escape from parsing peer bytes: callers
catch one type and still know what went wrong.

Following h11, the error says *whose* fault it was::

    ProtocolError
    +-- RemoteProtocolError   the other side sent something invalid (bytes we received)
    +-- LocalProtocolError    this side tried to send something invalid (a bug here)

The engine's refusal codes (``not_your_turn``, ``wrong_phase``, ...) are not protocol
errors: an illegal intent is *refused* and the connection goes on.
"""

from __future__ import annotations

__all__ = [
    "CODES",
    "ENGINE_CODES",
    "LocalProtocolError",
    "ProtocolError",
    "RemoteProtocolError",
]

#: Protocol error codes (sent in ``error`` and ``closed`` messages, or in ``refused``).
CODES: dict[str, str] = {
    "bad_frame": "the bytes are not a frame of one msgpack object",
    "too_large": "a frame is longer than the receiver's limit",
    "bad_message": "a well-formed msgpack object that is not a valid message here",
    "bad_action": "an intent's action is not a canonical action text",
    "version": "no protocol version in common",
    "timeout": "hello, a frame or the heartbeat did not arrive in time",
    "rate_limited": "too many messages (or chat lines) too fast",
    "bad_name": "the player name is empty or too wide once cleaned",
    "password": "wrong or missing table password",
    "bad_token": "the resume token is unknown or expired",
    "table_full": "no free seat (spectating may still be possible)",
    "spectator": "a spectator has no seat to act for",
    "too_early": "a catch before the grace period ended (the referee's rule)",
    "duplicate": "an intent whose seq was already answered",
    "server_error": "the host failed; the connection is closed",
    "bye": "the peer said goodbye",
    "host_left": "the host ended the table",
    "replaced": "the same seat resumed on another connection",
    "match_over": "the match is over and the table is closing",
    "eof": "the connection ended without a goodbye",
    "no_such_table": "hello.table names no table on this host",
    "not_in_lobby": "create or quick on a connection that is not the lobby's",
    "too_many_tables": "the host already has as many tables as it allows",
    "banned": "the lobby's operator banned this key",
    "kicked": "the lobby's operator removed this player",
    "no_such_match": "kept names no match kept for this key (missing, pruned, or not this key's)",
}

#: The engine's stable refusal codes (``unotui.engine.errors``), echoed in ``refused``.
ENGINE_CODES: tuple[str, ...] = (
    "not_your_turn",
    "wrong_phase",
    "not_in_hand",
    "unplayable",
    "bad_choice",
    "no_such_seat",
    "illegal",
)


class ProtocolError(Exception):
    """A frame or message that breaks the protocol.

    Args:
        code: one of :data:`CODES`.
        message: a sentence for people (logs, the closing screen); never peer data
            copied verbatim beyond a short excerpt.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class RemoteProtocolError(ProtocolError):
    """The other side broke the protocol; the connection is answered with ``error`` and closed."""


class LocalProtocolError(ProtocolError):
    """This side tried to send something the protocol forbids: a bug in the caller."""
