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

Every action is interned: ``Play(card)`` returns the one object for that card, so
equality is identity, membership tests in the legal list are fast and building that
list allocates nothing.  ``Action.parse(str(a)) is a`` always holds.
"""

from __future__ import annotations

from typing import Any, ClassVar

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


class _Interned(Action):
    """Shared machinery: instances are immutable and interned per argument value."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.parse, (str(self),))

    @classmethod
    def _make(cls, *values: object) -> Any:
        obj = object.__new__(cls)
        for name, value in zip(cls._fields, values, strict=True):
            object.__setattr__(obj, name, value)
        return obj


class Play(_Interned):
    """Play ``card`` from the hand; ``uno`` calls UNO with it."""

    __slots__ = ("card", "uno")
    _fields = ("card", "uno")
    card: Card
    uno: bool

    def __new__(cls, card: Card, uno: bool = False) -> Play:
        return _PLAYS_UNO[card.code] if uno else _PLAYS[card.code]

    def __str__(self) -> str:
        return self.card.text + ("!" if self.uno else "")


class _Simple(_Interned):
    __slots__ = ()

    def __new__(cls) -> Any:
        return _SIMPLE[cls.keyword]

    def __str__(self) -> str:
        return self.keyword


class Draw(_Simple):
    """Draw from the pile (or take a pending stacked penalty)."""

    __slots__ = ()
    keyword = "draw"


class Keep(_Simple):
    """Keep the card just drawn; the turn ends."""

    __slots__ = ()
    keyword = "keep"


class Challenge(_Simple):
    """Challenge the Wild Draw Four just played on you."""

    __slots__ = ()
    keyword = "challenge"


class Accept(_Simple):
    """Accept the Wild Draw Four (draw the penalty without challenging)."""

    __slots__ = ()
    keyword = "accept"


class CallUno(_Simple):
    """Call UNO while holding one card; safe from catches afterwards."""

    __slots__ = ()
    keyword = "uno"


class Deal(_Simple):
    """The dealer deals the next round (only between rounds)."""

    __slots__ = ()
    keyword = "deal"


class ChooseColour(_Interned):
    """Name the colour after a wild card."""

    __slots__ = ("colour",)
    _fields = ("colour",)
    colour: Colour

    def __new__(cls, colour: Colour) -> ChooseColour:
        return _COLOURS[Colour(colour)]

    def __str__(self) -> str:
        return f"colour {self.colour.letter}"


class _SeatAction(_Interned):
    __slots__ = ("seat",)
    _fields = ("seat",)
    seat: int
    _cache: ClassVar[dict[int, Any]]

    # Seats 0-15 are interned; other numbers make fresh objects that the engine refuses.


class ChooseTarget(_SeatAction):
    """Choose a seat for a card that needs one (swap hands, seven-o 7)."""

    __slots__ = ()
    _cache: ClassVar[dict[int, Any]] = {}

    def __new__(cls, seat: int) -> ChooseTarget:
        return cls._cache.get(seat) or cls._make(int(seat))  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return f"target {self.seat}"


class Catch(_SeatAction):
    """Catch ``seat``, who went down to one card without calling UNO."""

    __slots__ = ()
    _cache: ClassVar[dict[int, Any]] = {}

    def __new__(cls, seat: int) -> Catch:
        return cls._cache.get(seat) or cls._make(int(seat))  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return f"catch {self.seat}"


class Discard(_Interned):
    """Discard a card to reach a hand size demanded by a custom wild."""

    __slots__ = ("card",)
    _fields = ("card",)
    card: Card

    def __new__(cls, card: Card) -> Discard:
        return _DISCARDS[card.code]

    def __str__(self) -> str:
        return f"discard {self.card.text}"


_SIMPLE: dict[str, Action] = {c.keyword: c._make() for c in (Draw, Keep, Challenge, Accept, CallUno, Deal)}
DRAW: Draw = _SIMPLE["draw"]  # type: ignore[assignment]
KEEP: Keep = _SIMPLE["keep"]  # type: ignore[assignment]
CHALLENGE: Challenge = _SIMPLE["challenge"]  # type: ignore[assignment]
ACCEPT: Accept = _SIMPLE["accept"]  # type: ignore[assignment]
CALL_UNO: CallUno = _SIMPLE["uno"]  # type: ignore[assignment]
DEAL: Deal = _SIMPLE["deal"]  # type: ignore[assignment]
_PLAYS: list[Play] = [Play._make(c, False) for c in ALL_CARDS]
_PLAYS_UNO: list[Play] = [Play._make(c, True) for c in ALL_CARDS]
_DISCARDS: list[Discard] = [Discard._make(c) for c in ALL_CARDS]
_COLOURS: dict[Colour, ChooseColour] = {c: ChooseColour._make(c) for c in Colour}
COLOUR_CHOICES: tuple[ChooseColour, ...] = tuple(_COLOURS.values())
ChooseTarget._cache = {s: ChooseTarget._make(s) for s in range(16)}
Catch._cache = {s: Catch._make(s) for s in range(16)}


def play(card: Card, uno: bool = False) -> Play:
    """The interned :class:`Play` action for ``card``."""
    return _PLAYS_UNO[card.code] if uno else _PLAYS[card.code]
