"""Actions a seat can take, as small immutable values with a round-tripping text form.

=================  ==============================================================
text               action
=================  ==============================================================
``R5``             play the red five
``R5!``            play it and call UNO in the same breath (next-to-last card)
``draw``           draw (one card, or until playable under draw-to-match; or take
                   the stacked penalty)
``keep``           keep the card just drawn and end the turn
``colour G``       name the colour after a wild
``target 2``       choose seat 2 (swap hands, seven-o, ...)
``discard R5``     discard a card (custom wild "draw or discard to N")
``challenge``      challenge the Wild Draw Four just played on you
``accept``         accept it and draw
``uno``            call UNO (safe once called)
``catch 1``        catch seat 1, who did not call UNO
``deal``           the dealer starts the next round
=================  ==============================================================

Actions with no arguments and plays of each card are interned, so building the legal
action list allocates nothing.  ``Action.parse(str(a)) == a`` always holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .cards import ALL_CARDS, Card, Colour
from .errors import ParseError

__all__ = [
    "ACCEPT",
    "CALL_UNO",
    "CHALLENGE",
    "DEAL",
    "DRAW",
    "KEEP",
    "Accept",
    "Action",
    "CallUno",
    "Catch",
    "Challenge",
    "ChooseColour",
    "ChooseTarget",
    "Deal",
    "Discard",
    "Draw",
    "Keep",
    "Play",
    "play",
]


class Action:
    """Base class of every action.  Subclasses are frozen dataclasses."""

    __slots__ = ()
    keyword: ClassVar[str] = ""

    @staticmethod
    def parse(text: str) -> Action:
        """Parse an action's text form; raises :class:`ParseError` naming the problem."""
        if not isinstance(text, str):
            raise ParseError(f"an action is a string, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise ParseError("empty action")
        head = words[0].lower()
        if head in _SIMPLE:
            if len(words) != 1:
                raise ParseError(f"{head!r} takes no argument")
            return _SIMPLE[head]
        if head in ("colour", "color"):
            return ChooseColour(Colour.parse(_one_arg(words)))
        if head == "target":
            return ChooseTarget(_seat_arg(words))
        if head == "catch":
            return Catch(_seat_arg(words))
        if head == "discard":
            return Discard(Card.parse(_one_arg(words)))
        if len(words) == 1:
            word = words[0]
            uno = word.endswith("!")
            return play(Card.parse(word[:-1] if uno else word), uno)
        raise ParseError(f"not an action: {text!r}")


def _one_arg(words: list[str]) -> str:
    if len(words) != 2:
        raise ParseError(f"{words[0]!r} takes exactly one argument")
    return words[1]


def _seat_arg(words: list[str]) -> int:
    arg = _one_arg(words)
    if not arg.isdigit() or len(arg) > 2:
        raise ParseError(f"{words[0]!r} takes a seat number, not {arg!r}")
    return int(arg)


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play ``card`` from the hand; ``uno`` calls UNO with it."""

    card: Card
    uno: bool = False

    def __str__(self) -> str:
        return self.card.text + ("!" if self.uno else "")


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw from the pile (or take a pending stacked penalty)."""

    keyword: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Keep the card just drawn; the turn ends."""

    keyword: ClassVar[str] = "keep"

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class ChooseColour(Action):
    """Name the colour after a wild card."""

    colour: Colour

    def __str__(self) -> str:
        return f"colour {self.colour.letter}"


@dataclass(frozen=True, slots=True)
class ChooseTarget(Action):
    """Choose a seat for a card that needs one (swap hands, seven-o 7)."""

    seat: int

    def __str__(self) -> str:
        return f"target {self.seat}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard a card to reach a hand size demanded by a custom wild."""

    card: Card

    def __str__(self) -> str:
        return f"discard {self.card.text}"


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    """Challenge the Wild Draw Four just played on you."""

    keyword: ClassVar[str] = "challenge"

    def __str__(self) -> str:
        return "challenge"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Accept the Wild Draw Four (draw the penalty without challenging)."""

    keyword: ClassVar[str] = "accept"

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class CallUno(Action):
    """Call UNO while holding one card; safe from catches afterwards."""

    keyword: ClassVar[str] = "uno"

    def __str__(self) -> str:
        return "uno"


@dataclass(frozen=True, slots=True)
class Catch(Action):
    """Catch ``seat``, who went down to one card without calling UNO."""

    seat: int

    def __str__(self) -> str:
        return f"catch {self.seat}"


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """The dealer deals the next round (only between rounds)."""

    keyword: ClassVar[str] = "deal"

    def __str__(self) -> str:
        return "deal"


DRAW = Draw()
KEEP = Keep()
CHALLENGE = Challenge()
ACCEPT = Accept()
CALL_UNO = CallUno()
DEAL = Deal()
_SIMPLE: dict[str, Action] = {a.keyword: a for a in (DRAW, KEEP, CHALLENGE, ACCEPT, CALL_UNO, DEAL)}
_PLAYS = [Play(c) for c in ALL_CARDS]
_PLAYS_UNO = [Play(c, True) for c in ALL_CARDS]
COLOUR_CHOICES: tuple[ChooseColour, ...] = tuple(ChooseColour(c) for c in Colour)


def play(card: Card, uno: bool = False) -> Play:
    """The interned :class:`Play` action for ``card``."""
    return (_PLAYS_UNO if uno else _PLAYS)[card.code]
