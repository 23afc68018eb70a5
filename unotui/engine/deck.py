"""The deck: the cards a table's rules put in it, and stacked decks for tests and replays.

Split from :mod:`unotui.engine.game`; both functions are re-exported there and from
:mod:`unotui.engine`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from .cards import Card, Colour, Rank, parse_cards
from .errors import RulesError
from .rules import Rules

__all__ = ["build_deck", "cached_deck", "deal_order"]


def build_deck(rules: Rules) -> list[Card]:
    """The full deck for ``rules``, in a fixed (unshuffled) order."""
    deck: list[Card] = []
    for colour in Colour:
        deck.append(Card.of(colour, Rank.N0))
        for rank in Rank:
            if Rank.N1 <= rank <= Rank.DRAW2:
                deck += [Card.of(colour, rank)] * 2
    deck += [Card.of(None, Rank.WILD)] * 4 + [Card.of(None, Rank.WILD4)] * 4
    deck += [Card.of(None, Rank.SWAP)] * rules.swap_hands
    deck += [Card.of(None, Rank.SHUFFLE)] * rules.shuffle_hands
    deck += [Card.of(None, Rank.CUSTOM)] * rules.custom_wilds
    return deck


@functools.lru_cache(maxsize=32)
def cached_deck(rules: Rules) -> tuple[Card, ...]:
    """:func:`build_deck` as a tuple, cached per rules (``Rules`` is frozen and hashable).

    Building the deck from the enums is a large share of the cost of a short game
    (``bench/engine.py`` builds a ``Game`` per hand), so every ``Game`` shares one:
    without the cache 300 hands took 92-98 ms instead of 81 (engine17, best of 9).
    """
    return tuple(build_deck(rules))


def deal_order(
    hands: Sequence[str], first: str, draws: str = "", dealer: int = 0
) -> list[Card]:
    """The top of a deck that deals ``hands`` (one string of cards per seat, seat 0
    first), turns ``first`` up and then gives ``draws`` in that order.

    Dealing goes one card at a time from the dealer's left, as :class:`Game` deals, so
    ``Game(len(hands), rules.with_(hand_size=...), dealer=dealer, deck=deal_order(...))``
    starts with exactly these hands.  For tests, replays and tutorials.

    Raises:
        ParseError: a card text is not a card.
        RulesError: the hands differ in size or ``dealer`` is not a seat.
    """
    cards = [parse_cards(h) for h in hands]
    n = len(cards)
    if not 0 <= dealer < n:
        raise RulesError(f"dealer must be a seat 0-{n - 1}, not {dealer}")
    size = len(cards[0])
    if any(len(h) != size for h in cards):
        raise RulesError("every hand must have the same number of cards")
    order = [cards[(dealer + k) % n][i] for i in range(size) for k in range(1, n + 1)]
    return order + parse_cards(first) + parse_cards(draws)
