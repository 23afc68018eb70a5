"""Strict converters between engine values and their wire form, both ways.

The wire carries only plain data (``None``, ``bool``, ``int``, ``str``, lists and maps with
string keys).  Engine values go out as their canonical text forms and come back only from
exactly those forms:

* a card as ``card.text`` (``R5``, ``W+4``): the wire accepts no lower case, no spaces;
* an action as ``str(action)`` (``R5!``, ``colour G``, ``catch 2``): looked up in a table
  built from the engine's own interned actions, so the wire accepts *exactly* the forms
  the engine prints and nothing of the lenient :meth:`Action.parse` (``COLOR b``,
  ``target 07``, non-ASCII digits, ``catch ²``);
* a colour as its letter; an event as a fixed 6-element array; the rules as
  :meth:`Rules.to_mapping`, which must read back to the identical mapping.

Every ``*_in`` function raises :class:`~unotui.protocol.errors.RemoteProtocolError`
(``bad_message``, or ``bad_action`` for actions) and nothing else; every ``*_out``
function checks the exact Python type it is given and raises
:class:`~unotui.protocol.errors.LocalProtocolError` otherwise, so a caller that hands the
encoder the wrong thing finds out here rather than on someone else's screen.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..engine import ALL_CARDS, Action, Card, Colour, Event, Rules, UnoError
from ..engine.actions import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    COLOUR_CHOICES,
    DEAL,
    DRAW,
    KEEP,
    Catch,
    ChooseTarget,
    Discard,
    play,
)
from ..engine.game import Phase
from .errors import LocalProtocolError, RemoteProtocolError

__all__ = [
    "ACTION_BY_TEXT",
    "CARD_BY_TEXT",
    "EVENT_KINDS",
    "MAX_SEATS",
    "PHASES",
    "PRIVATE_KINDS",
    "action_in",
    "action_out",
    "bad",
    "bool_in",
    "card_in",
    "card_out",
    "cards_in",
    "cards_out",
    "check_redacted",
    "colour_in",
    "colour_out",
    "event_in",
    "event_out",
    "int_in",
    "list_in",
    "opt_in",
    "phase_in",
    "phase_out",
    "rules_in",
    "rules_out",
    "str_in",
]

T = TypeVar("T")

#: the most seats a table has (the engine allows 2-10)
MAX_SEATS = 10

CARD_BY_TEXT: dict[str, Card] = {c.text: c for c in ALL_CARDS}


def _action_table() -> dict[str, Action]:
    actions: list[Action] = [DRAW, KEEP, CHALLENGE, ACCEPT, CALL_UNO, DEAL]
    for card in ALL_CARDS:
        actions += [play(card), play(card, True), Discard(card)]
    actions += COLOUR_CHOICES
    actions += [ChooseTarget(s) for s in range(MAX_SEATS)] + [Catch(s) for s in range(MAX_SEATS)]
    return {str(a): a for a in actions}


#: every canonical action text the wire accepts, mapped to the engine's interned action
ACTION_BY_TEXT: dict[str, Action] = _action_table()

#: every event kind the engine writes (see ``unotui/engine/events.py``)
EVENT_KINDS: frozenset[str] = frozenset(
    {
        *("deal", "dealer", "flip", "reflip", "play", "jump", "draw", "keep", "pass", "skip"),
        *("reverse", "colour", "challenge", "reveal", "accept", "uno", "catch", "swap", "rotate"),
        *("shuffle", "effect", "discard", "reshuffle", "round", "eliminated", "match"),
    }
)
#: kinds whose cards are private, and which field names the seat that may see them
PRIVATE_KINDS: dict[str, str] = {"draw": "seat", "keep": "seat", "reveal": "target"}


def _phase_values() -> dict[str, Any]:
    # Works for today's class of string constants and for a future StrEnum alike.
    phase: Any = Phase
    if issubclass(phase, enum.Enum):
        return {str(p.value): p for p in phase}
    return {v: v for k, v in vars(Phase).items() if k.isupper() and isinstance(v, str)}


#: phase text -> the engine's phase value
PHASES: dict[str, Any] = _phase_values()


def bad(what: str, value: object) -> RemoteProtocolError:
    """The error for a field that has the wrong type or value (the value is not echoed)."""
    return RemoteProtocolError("bad_message", f"{what}: unexpected {type(value).__name__}")


# ----- primitives -------------------------------------------------------------------------


def int_in(value: object, what: str, lo: int, hi: int) -> int:
    """An ``int`` (not a bool) with ``lo <= value <= hi``."""
    if type(value) is not int:
        raise bad(what, value)
    if not lo <= value <= hi:
        raise RemoteProtocolError("bad_message", f"{what}: {value} is outside {lo}..{hi}")
    return value


def bool_in(value: object, what: str) -> bool:
    """A msgpack boolean (0 and 1 are not booleans)."""
    if type(value) is not bool:
        raise bad(what, value)
    return value


def str_in(value: object, what: str, max_len: int, min_len: int = 0) -> str:
    """A string of ``min_len`` to ``max_len`` characters."""
    if type(value) is not str:
        raise bad(what, value)
    if not min_len <= len(value) <= max_len:
        raise RemoteProtocolError(
            "bad_message", f"{what}: length {len(value)} is outside {min_len}..{max_len}"
        )
    return value


def opt_in(value: object, read: Callable[[object], T]) -> T | None:
    """``None``, or whatever ``read`` makes of ``value``."""
    return None if value is None else read(value)


def list_in(value: object, what: str, read: Callable[[object], T], max_len: int) -> tuple[T, ...]:
    """A list (at most ``max_len`` items), each item read by ``read``; returned as a tuple."""
    if type(value) is not list:
        raise bad(what, value)
    if len(value) > max_len:
        raise RemoteProtocolError("bad_message", f"{what}: {len(value)} items, at most {max_len}")
    return tuple([read(v) for v in value])


# ----- cards, colours, actions, phases ----------------------------------------------------


def card_out(card: Card) -> str:
    """The card's text; refuses anything that is not a :class:`Card` (a bare int above all)."""
    if type(card) is not Card:
        raise LocalProtocolError("bad_message", f"expected a Card, got {type(card).__name__}")
    return card.text


def card_in(value: object) -> Card:
    """A card from its exact canonical text."""
    if type(value) is not str:
        raise bad("card", value)
    card = CARD_BY_TEXT.get(value)
    if card is None:
        raise RemoteProtocolError("bad_message", "card: not a canonical card text")
    return card


def cards_out(cards: Sequence[Card]) -> list[str]:
    """A list of card texts."""
    return [card_out(c) for c in cards]


def cards_in(value: object, what: str = "cards", max_len: int = 128) -> tuple[Card, ...]:
    """A list of card texts."""
    return list_in(value, what, card_in, max_len)


def colour_out(colour: Colour) -> str:
    """The colour's letter."""
    if type(colour) is not Colour:
        raise LocalProtocolError("bad_message", f"expected a Colour, got {type(colour).__name__}")
    return colour.letter


#: colour letter -> colour
COLOUR_BY_LETTER: dict[str, Colour] = {c.letter: c for c in Colour}


def colour_in(value: object) -> Colour:
    """A colour from its letter ``R``/``Y``/``G``/``B``."""
    if type(value) is str:
        colour = COLOUR_BY_LETTER.get(value)
        if colour is not None:
            return colour
    raise RemoteProtocolError("bad_message", "colour: expected one of R, Y, G, B")


def action_out(action: Action) -> str:
    """The action's canonical text; refuses actions the wire cannot carry (seats >= 10)."""
    if not isinstance(action, Action):
        raise LocalProtocolError("bad_message", f"expected an Action, got {type(action).__name__}")
    text = str(action)
    if ACTION_BY_TEXT.get(text) is not action:
        raise LocalProtocolError("bad_action", f"{text!r} is not a wire action")
    return text


def action_in(value: object) -> Action:
    """An action from its exact canonical text (``bad_action`` otherwise)."""
    if type(value) is not str:
        raise RemoteProtocolError("bad_action", f"action: expected a string, got {type(value).__name__}")
    action = ACTION_BY_TEXT.get(value)
    if action is None:
        raise RemoteProtocolError("bad_action", "action: not a canonical action text")
    return action


def phase_out(phase: object) -> str:
    """The phase's text (a plain string today, a ``StrEnum`` member later: same text)."""
    text = str(phase)
    if not isinstance(phase, str) or text not in PHASES:
        raise LocalProtocolError("bad_message", f"not a phase: {phase!r}")
    return text


def phase_in(value: object) -> Any:
    """The engine's phase value for a phase text."""
    if type(value) is not str or value not in PHASES:
        raise RemoteProtocolError("bad_message", "phase: not a known phase")
    return PHASES[value]


# ----- events -----------------------------------------------------------------------------

_I32 = 2**31 - 1


def event_out(event: Event) -> list[object]:
    """``[kind, seat, cards, target, value, note]``; ``to`` is not sent (it follows from
    the kind, see :data:`PRIVATE_KINDS`).  Check redaction with :func:`check_redacted`."""
    if type(event) is not Event:
        raise LocalProtocolError("bad_message", f"expected an Event, got {type(event).__name__}")
    kind, seat, cards, target, value, note, _to = event
    if type(value) is not int:  # e.g. a Colour stored as the value
        value = int(value)
    return [kind, seat, cards_out(cards), target, value, note]


def check_redacted(events: Sequence[Event], viewer: int | None) -> None:
    """Refuse to send an event whose cards belong to a seat other than ``viewer``.

    The view builder should already have blanked them; this is the last line of defence
    at the one place where events are turned into bytes.
    """
    for e in events:
        if e.to >= 0 and e.cards and e.to != viewer:
            raise LocalProtocolError(
                "bad_message", f"unredacted {e.kind!r} event: its cards are private to seat {e.to}"
            )


def event_in(value: object) -> Event:
    """An event from its 6-element array; ``to`` is restored from the kind."""
    if type(value) is not list or len(value) != 6:
        raise bad("event", value)
    kind = value[0]
    if type(kind) is not str or kind not in EVENT_KINDS:
        raise RemoteProtocolError("bad_message", "event: unknown kind")
    seat = int_in(value[1], "event seat", -1, MAX_SEATS - 1)
    cards = cards_in(value[2], "event cards")
    target = int_in(value[3], "event target", -1, MAX_SEATS - 1)
    number = int_in(value[4], "event value", -_I32, _I32)
    note = str_in(value[5], "event note", 32)
    who = PRIVATE_KINDS.get(kind)
    to = -1 if who is None else (seat if who == "seat" else target)
    return Event(kind, seat, cards, target, number, note, to)


# ----- rules ------------------------------------------------------------------------------


def rules_out(rules: Rules) -> dict[str, object]:
    """The rules as :meth:`Rules.to_mapping` (a fixed key order)."""
    if type(rules) is not Rules:
        raise LocalProtocolError("bad_message", f"expected Rules, got {type(rules).__name__}")
    return rules.to_mapping()


def rules_in(value: object) -> Rules:
    """Rules from their mapping; only the exact canonical mapping is accepted."""
    if type(value) is not dict:
        raise bad("rules", value)
    try:
        rules = Rules.from_mapping(value)
    except (UnoError, TypeError, ValueError, AttributeError):
        raise RemoteProtocolError("bad_message", "rules: not a valid rules mapping") from None
    if not _same(rules.to_mapping(), value):
        raise RemoteProtocolError("bad_message", "rules: not in canonical form")
    return rules


def _same(a: object, b: object) -> bool:
    """Equal *and* of the same types all the way down (``False == 0`` does not count)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b
