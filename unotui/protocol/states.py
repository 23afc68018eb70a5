"""The sessions' state machine as tables: in each state, what each side does with each
message it receives, and what each side may send (h11's ``_state.py`` is the model).

A rule names the session's method that handles the message (its effects: queueing an
answer, cleaning chat, changing the state) or the error that refuses it; a message with
no rule in a state is refused with that state's error.  :func:`step` is the only place
that reads the tables.  Which messages travel which way comes from
:mod:`~unotui.protocol.messages` (its two unions), so nothing here lists them again.

States (``protocol/SPEC.md`` has the full table)::

    AWAIT_HELLO --hello--> AUTHENTICATING --accept--> ACTIVE      --+--> CLOSED
         (host only)          (host: deciding;     \\-> SPECTATING --/
                               peer: hello sent)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .errors import RemoteProtocolError
from .messages import (
    CLIENT_MESSAGES,
    HOST_MESSAGES,
    SEAT_ACTS,
    Bye,
    Chat,
    ChatLine,
    Closed,
    Delta,
    Error,
    Hello,
    Ping,
    Pong,
    Snapshot,
    TranscriptPart,
    Welcome,
)

__all__ = ["HOST_RULES", "HOST_SENDS", "PEER_RULES", "PEER_SENDS", "Refuse", "State", "step"]


class State(enum.StrEnum):
    """Where a connection is (see the module docstring)."""

    AWAIT_HELLO = "await_hello"
    AUTHENTICATING = "authenticating"
    ACTIVE = "active"
    SPECTATING = "spectating"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Refuse:
    """A rule refusing the message: ``bad_message`` with ``why`` (the connection ends)."""

    why: str


#: a rule: the name of the session's method handling the message, or a refusal
Rule = str | Refuse
#: state -> (message class -> its rule; the error for a message without one)
RuleTable = dict[State, tuple[dict[type[Any], Rule], str]]


def step(rules: RuleTable, session: Any, message: Any, now: float) -> list[Any]:
    """What ``session`` does with ``message``, received in its state: the events."""
    table, otherwise = rules[session.state]
    rule = table.get(type(message), Refuse(otherwise))
    if isinstance(rule, Refuse):
        raise RemoteProtocolError("bad_message", rule.why)
    events: list[Any] = getattr(session, rule)(message, now)
    return events


def _every(messages: dict[str, type[Any]], rule: Rule, but: set[type[Any]]) -> dict[type[Any], Rule]:
    return dict.fromkeys(set(messages.values()) - but, rule)


#: the error of a state whose table has a rule for every message (never raised)
_EVERY = "no rule for this message"
_ALREADY_HELLO = Refuse("hello was already sent")

_HOST_ALWAYS: dict[type[Any], Rule] = {Ping: "_ping", Pong: "_ignore", Bye: "_bye"}
_HOST_ADMITTED: dict[type[Any], Rule] = {
    **_HOST_ALWAYS,
    Hello: _ALREADY_HELLO,
    Chat: "_chat_in",
    **_every(CLIENT_MESSAGES, "_forward", {*_HOST_ALWAYS, Hello, Chat}),
}
#: what a host does with each client message, in each state.  A spectator's lobby
#: requests (create, quick) pass: the host knows whether this is a lobby connection.
HOST_RULES: RuleTable = {
    State.AWAIT_HELLO: ({**_HOST_ALWAYS, Hello: "_hello"}, "the first message must be hello"),
    State.AUTHENTICATING: (
        {**_HOST_ALWAYS, Hello: _ALREADY_HELLO},
        "wait for welcome before sending anything",
    ),
    State.ACTIVE: (_HOST_ADMITTED, _EVERY),
    State.SPECTATING: ({**_HOST_ADMITTED, **dict.fromkeys(SEAT_ACTS, "_no_seat")}, _EVERY),
    State.CLOSED: ({}, _EVERY),
}

_PEER_ALWAYS: dict[type[Any], Rule] = {Ping: "_ping", Pong: "_ignore", Error: "_ended", Closed: "_ended"}
_PEER_ADMITTED: dict[type[Any], Rule] = {
    **_PEER_ALWAYS,
    Welcome: Refuse("welcome was already received"),
    Snapshot: "_view_in",
    Delta: "_view_in",
    ChatLine: "_chat_line",
    TranscriptPart: "_record_part",
    **_every(HOST_MESSAGES, "_forward", {*_PEER_ALWAYS, Welcome, Snapshot, Delta, ChatLine, TranscriptPart}),
}
#: what a client does with each host message, in each state
PEER_RULES: RuleTable = {
    State.AUTHENTICATING: ({**_PEER_ALWAYS, Welcome: "_welcome"}, "the host must answer hello with welcome"),
    State.ACTIVE: (_PEER_ADMITTED, _EVERY),
    State.SPECTATING: (_PEER_ADMITTED, _EVERY),
    State.CLOSED: ({}, _EVERY),
}

#: what a host sends with ``HostSession.send``: every host message but those with a
#: method of their own (welcome, error, closed, the views) and the automatic pong
HOST_SENDS = tuple(set(HOST_MESSAGES.values()) - {Welcome, Error, Closed, Snapshot, Delta, Pong})
#: what a client sends with ``PeerSession.send`` (a spectator: none of ``SEAT_ACTS``):
#: every client message but hello (sent at once) and the automatic pong
PEER_SENDS = tuple(set(CLIENT_MESSAGES.values()) - {Hello, Pong})
