"""Cards, colours and their one compact text form.

Every card has exactly one short text form, used in logs, transcripts, the wire protocol
and the UI, and ``Card.parse(str(card)) is card`` always holds:

=========  =========================================  ======
text       card                                       points
=========  =========================================  ======
``R0-R9``  red number (Y, G, B for the other colours)  face
``RS``     red Skip                                   20
``RR``     red Reverse                                20
``R+2``    red Draw Two                               20
``W``      Wild                                       50
``W+4``    Wild Draw Four                             50
``WX``     Wild Swap Hands (eXchange)                 40
``WH``     Wild Shuffle Hands                         40
``WC``     Wild Customizable                          40
=========  =========================================  ======

Cards are interned: there is one object per distinct card, so two red fives in a deck
are the same object.  That keeps hands cheap to copy and comparisons fast.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from operator import attrgetter

from .errors import ParseError

__all__ = [
    "ALL_CARDS",
    "COLOURS",
    "Card",
    "Colour",
    "Rank",
    "by_code",
    "cards_str",
    "most_held_colour",
    "parse_cards",
]


class Colour(enum.IntEnum):
    """The four suit colours; the text form is the initial letter."""

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3

    @property
    def letter(self) -> str:
        """One-letter form used everywhere cards are written down."""
        return "RYGB"[self]

    @classmethod
    def parse(cls, text: str) -> Colour:
        """Parse ``R``/``Y``/``G``/``B`` or a full colour name, any case."""
        t = text.strip().upper()
        for c in cls:
            if t in (c.letter, c.name):
                return c
        raise ParseError(f"unknown colour {text!r} (use R, Y, G or B)")


COLOURS: tuple[Colour, ...] = tuple(Colour)


class Rank(enum.IntEnum):
    """What a card does; numbers 0-9 share their value with their rank."""

    N0 = 0
    N1 = 1
    N2 = 2
    N3 = 3
    N4 = 4
    N5 = 5
    N6 = 6
    N7 = 7
    N8 = 8
    N9 = 9
    SKIP = 10
    REVERSE = 11
    DRAW2 = 12
    WILD = 13
    WILD4 = 14
    SWAP = 15
    SHUFFLE = 16
    CUSTOM = 17

    @property
    def is_wild(self) -> bool:
        """Wild ranks carry no colour of their own."""
        return self >= Rank.WILD

    @property
    def symbol(self) -> str:
        """Text form of the rank, without any colour letter."""
        return _RANK_SYMBOL[self]


_RANK_SYMBOL = {
    **{Rank(i): str(i) for i in range(10)},
    Rank.SKIP: "S",
    Rank.REVERSE: "R",
    Rank.DRAW2: "+2",
    Rank.WILD: "W",
    Rank.WILD4: "W+4",
    Rank.SWAP: "WX",
    Rank.SHUFFLE: "WH",
    Rank.CUSTOM: "WC",
}

_POINTS = {
    Rank.SKIP: 20,
    Rank.REVERSE: 20,
    Rank.DRAW2: 20,
    Rank.WILD: 50,
    Rank.WILD4: 50,
    Rank.SWAP: 40,
    Rank.SHUFFLE: 40,
    Rank.CUSTOM: 40,
}


class Card:
    """One UNO card.  Immutable and interned: build cards with :meth:`of` or :meth:`parse`.

    A card is a value of its own, not a number: it equals only itself (cards are
    interned, so equality is identity), it is never equal to an ``int``, and every card is
    true.  Its dense number is :attr:`code`, read explicitly wherever a card indexes a
    table or a counter.  A card hashes as its code, so sets of cards iterate in the same
    order in every process: the engine's legal-action lists, and so seeded games, are
    reproducible everywhere (they are the orders the engine offered when a card was an
    ``int``, which the golden vectors and recorded games pin).  Sorting cards sorts them
    by code: red, yellow, green, blue (numbers, Skip, Reverse, Draw Two), then the wilds.
    Write a card with ``str(card)`` or ``card.text``.

    Attributes:
        colour: the printed colour, or ``None`` for wild cards.
        rank: what the card is.
        points: its value when left in a hand at the end of a round.
        code: the card's number (0..len(ALL_CARDS)-1), for tables and counters.
        is_wild: whether the card carries no colour of its own.
        text: the compact text form.
    """

    __slots__ = ("code", "colour", "is_wild", "points", "rank", "text")

    colour: Colour | None
    rank: Rank
    points: int
    code: int
    is_wild: bool
    text: str

    def __init__(self, colour: Colour | None, rank: Rank, code: int) -> None:
        # Only _build() makes cards; everyone else gets the interned ones.
        put = object.__setattr__
        put(self, "colour", colour)
        put(self, "rank", rank)
        put(self, "code", code)
        put(self, "is_wild", rank.is_wild)
        put(self, "points", _POINTS.get(rank, int(rank)))
        put(self, "text", rank.symbol if colour is None else colour.letter + rank.symbol)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("cards are immutable")

    @staticmethod
    def of(colour: Colour | None, rank: Rank) -> Card:
        """The interned card of this colour and rank."""
        key = (None if rank.is_wild else colour, rank)
        try:
            return _BY_KEY[key]
        except KeyError:
            raise ParseError(f"no such card: colour={colour}, rank={rank.name}") from None

    @staticmethod
    def parse(text: str) -> Card:
        """Parse the compact text form (case-insensitive), e.g. ``R5``, ``g+2``, ``W+4``."""
        try:
            return _BY_TEXT[text.strip().upper()]
        except (KeyError, AttributeError):
            raise ParseError(f"not a card: {text!r}") from None

    # Equality is object identity (inherited): cards are interned, and identity is the
    # comparison done in C.  The hash must agree with it, and be the code for the
    # iteration order of sets of cards described above.  Cards order only among cards.
    def __hash__(self) -> int:
        return self.code

    def __lt__(self, other: object) -> bool:
        if type(other) is Card:
            return self.code < other.code
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if type(other) is Card:
            return self.code <= other.code
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if type(other) is Card:
            return self.code > other.code
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if type(other) is Card:
            return self.code >= other.code
        return NotImplemented

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Pickling (e.g. for worker processes) must keep cards interned.
        return (Card.parse, (self.text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


by_code = attrgetter("code")
"""The sort key of cards: their code, the order :meth:`Card.__lt__` defines (red, yellow,
green, blue, then the wilds), compared in C.  The engine sorts with it: every view sorts
the seat's hand, and ``__lt__`` (a Python call per comparison) made that a tenth of the
host's CPU per action (``bench/host_path.py``)."""


def _build() -> tuple[tuple[Card, ...], dict[tuple[Colour | None, Rank], Card]]:
    cards: list[Card] = []
    for colour in Colour:
        for rank in Rank:
            if not rank.is_wild:
                cards.append(Card(colour, rank, len(cards)))
    for rank in Rank:
        if rank.is_wild:
            cards.append(Card(None, rank, len(cards)))
    return tuple(cards), {(c.colour, c.rank): c for c in cards}


ALL_CARDS, _BY_KEY = _build()
_BY_TEXT = {c.text: c for c in ALL_CARDS}


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a space-separated string (or an iterable) of card texts."""
    items = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in items]


def most_held_colour(cards: Iterable[Card]) -> Colour:
    """The colour of which ``cards`` hold the most (wilds do not count).

    Ties go to the colour whose cards are worth more, then to red, yellow, green, blue.
    The one definition shared by the turn timer, the computer players and the hints.
    """
    counts = [0, 0, 0, 0]
    points = [0, 0, 0, 0]
    for c in cards:
        if c.colour is not None:
            counts[c.colour] += 1
            points[c.colour] += c.points
    return max(COLOURS, key=lambda col: (counts[col], points[col], -col))


def cards_str(cards: Iterable[Card]) -> str:
    """Space-separated text of several cards, the inverse of :func:`parse_cards`."""
    return " ".join(c.text for c in cards)
