"""The engine's exception hierarchy.

Everything the engine raises on bad input is an :class:`UnoError`, and also a
``ValueError`` so that generic callers can catch it.  Illegal actions carry a stable
``code`` string: the network layer sends it to the peer and the UI maps it to a message,
so the codes are part of the protocol and must not be renamed.

::

    UnoError
    +-- ParseError             text that is not a card, colour or action
    +-- RulesError             a rules configuration that does not make sense
    +-- IllegalActionError     ``apply`` refused an action; the state is unchanged
        +-- NotYourTurnError       (code "not_your_turn")
        +-- WrongPhaseError        (code "wrong_phase")  e.g. drawing while a colour is due
        +-- CardNotInHandError     (code "not_in_hand")
        +-- UnplayableCardError    (code "unplayable")
        +-- BadChoiceError         (code "bad_choice")   a bad colour, target or discard
        +-- NoSuchSeatError        (code "no_such_seat")
"""

from __future__ import annotations

__all__ = [
    "BadChoiceError",
    "CardNotInHandError",
    "IllegalActionError",
    "NoSuchSeatError",
    "NotYourTurnError",
    "ParseError",
    "RulesError",
    "UnoError",
    "UnplayableCardError",
    "WrongPhaseError",
]


class UnoError(ValueError):
    """Base class of every error the engine raises on bad input."""


class ParseError(UnoError):
    """Text that is not a valid card, colour, action or rule value."""


class RulesError(UnoError):
    """A rules configuration that is invalid; the message names the bad part."""


class IllegalActionError(UnoError):
    """An action that the rules do not allow now.  The game state is left unchanged."""

    code = "illegal"


class NotYourTurnError(IllegalActionError):
    """The seat may not act now (it is another seat's turn or decision)."""

    code = "not_your_turn"


class WrongPhaseError(IllegalActionError):
    """The action does not fit the current phase (e.g. drawing while a colour is due)."""

    code = "wrong_phase"


class CardNotInHandError(IllegalActionError):
    """The seat does not hold the card it tried to play or discard."""

    code = "not_in_hand"


class UnplayableCardError(IllegalActionError):
    """The card does not match the discard pile (or is refused by a house rule)."""

    code = "unplayable"


class BadChoiceError(IllegalActionError):
    """A colour, target seat or discard that is not one of the allowed choices."""

    code = "bad_choice"


class NoSuchSeatError(IllegalActionError):
    """A seat number outside the table."""

    code = "no_such_seat"
