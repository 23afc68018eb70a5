"""The simple levels: ``greedy`` (the published anchor), ``easy`` and ``medium``.

They share the small decisions (targets, discards, dealing) with the strong level and
differ in how they pick a card, a colour and whether to challenge:

* ``greedy`` plays its highest-value playable card and names its most-held colour, and
  never challenges.  It is the anchor of the published figures (55-57% against random).
* ``easy`` plays like greedy but slips: a random playable card one time in three, a
  random colour one time in four; it never challenges and catches slowly.
* ``medium`` follows the ordering heuristics with evidence behind them (shed Draw Two,
  Skip, numbers, Reverse, then wilds; save wilds; attack a player about to go out; steer
  to its longest colour) and challenges with the hand-size prior, but counts no cards.
"""

from __future__ import annotations

from ..engine import (
    ACCEPT,
    CHALLENGE,
    COLOURS,
    DRAW,
    KEEP,
    Action,
    Card,
    ChooseColour,
    ChooseTarget,
    Discard,
    Phase,
    Rank,
    SeatView,
    most_held_colour,
)
from .base import BaseBot, plays_of

__all__ = [
    "EasyBot",
    "GreedyBot",
    "MediumBot",
    "choose_discard",
    "choose_target",
    "colour_counts",
    "most_held_colour",
    "prior_holds",
]


def colour_counts(hand: tuple[Card, ...] | list[Card]) -> list[int]:
    """Cards of each colour in ``hand`` (wilds not counted)."""
    counts = [0, 0, 0, 0]
    for c in hand:
        if c.colour is not None:
            counts[c.colour] += 1
    return counts


def prior_holds(cards: int, share: float = 25 / 108) -> float:
    """Chance that ``cards`` random cards include one of a colour (about 1-(83/108)^k)."""
    return 1.0 - (1.0 - share) ** max(0, cards)


def choose_target(view: SeatView) -> Action:
    """Swap hands with the opponent holding the fewest cards (never a partner)."""
    me = view.seat
    assert me is not None
    options = [a for a in view.legal if isinstance(a, ChooseTarget)]
    mine = view.teams[me]
    others = [a for a in options if view.teams[a.seat] != mine] or options
    return min(others, key=lambda a: (view.counts[a.seat], a.seat))


def small_decision(view: SeatView, points: bool = False) -> Action | None:
    """The choices every simple level makes alike: the most-held colour, the swap target
    with fewest cards, the least useful discard.  ``None`` in every other phase."""
    phase = view.phase
    if phase == Phase.COLOUR:
        return ChooseColour(most_held_colour(view.hand))
    if phase == Phase.TARGET:
        return choose_target(view)
    if phase == Phase.DISCARD:
        return choose_discard(view, points)
    return None


def choose_discard(view: SeatView, points: bool = False) -> Action:
    """Discard the card that helps least: keep wilds and the longest colour.

    Under a points objective the high-value cards go first instead (a discarded card
    scores nothing against us).
    """
    counts = colour_counts(view.hand)
    options = [a for a in view.legal if isinstance(a, Discard)]

    def keep_value(a: Discard) -> tuple[float, int]:
        c = a.card
        if c.is_wild:
            return (100.0 - (c.points if points else 0), c.code)
        v = counts[c.colour] * 3.0 if c.colour is not None else 0.0
        v += 2.0 if c.rank >= Rank.SKIP else 0.0
        v -= c.points / (5.0 if points else 20.0)
        return (v, c.code)

    return min(options, key=keep_value)


class GreedyBot(BaseBot):
    """Plays the highest-value playable card; wilds name the most-held colour."""

    name = "greedy"
    FORGET_UNO = 0.3

    def choose(self, view: SeatView) -> Action:
        """Highest points first; draw only when nothing is playable; never challenge."""
        first = self.housekeeping(view) or small_decision(view, points=True)
        if first is not None:
            return first
        legal = view.legal
        phase = view.phase
        if phase == Phase.CHALLENGE:
            return ACCEPT if ACCEPT in legal else legal[0]
        cards = plays_of(legal)
        if cards:
            return self.play_and_call(max(cards, key=lambda c: (c.points, -c.code)), legal)
        return DRAW if DRAW in legal else (KEEP if KEEP in legal else legal[0])


class EasyBot(GreedyBot):
    """Greedy with slips: sometimes a random card or colour; slow to catch."""

    name = "easy"
    FORGET_UNO = 0.3

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("catch_rate", 0.25)
        kwargs.setdefault("catch_delay", 3.0)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def choose(self, view: SeatView) -> Action:
        """Like greedy, but a random card 1/3 and a random colour 1/4 of the time."""
        first = self.housekeeping(view)
        if first is not None:
            return first
        if view.phase == Phase.COLOUR and self.rng.random() < 0.25:
            return ChooseColour(COLOURS[self.rng.randrange(4)])
        if view.phase in (Phase.PLAY, Phase.DRAWN):
            cards = plays_of(view.legal)
            if cards and self.rng.random() < 1 / 3:
                return self.play_and_call(cards[self.rng.randrange(len(cards))], view.legal)
        return super().choose(view)


# Order to shed cards in when playing for hands (notes: evidence from UnoAI studies).
_SHED = {Rank.DRAW2: 6.0, Rank.SKIP: 5.0, Rank.REVERSE: 3.0, Rank.WILD4: 1.0, Rank.WILD: 0.0}


class MediumBot(BaseBot):
    """The ordering heuristics, colour steering and a challenge prior; no card counting."""

    name = "medium"
    FORGET_UNO = 0.1

    def __init__(self, *args: object, objective: str = "hands", **kwargs: object) -> None:
        kwargs.setdefault("catch_rate", 0.6)
        kwargs.setdefault("catch_delay", 2.5)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.points = objective == "points"

    def card_score(self, view: SeatView, card: Card) -> float:
        """How much we like playing ``card`` now (higher is better)."""
        hand = view.hand
        me = view.seat
        assert me is not None
        others = len(hand) - 1
        nxt = view.next_seat(me)
        threat = view.counts[nxt] <= 2 and view.teams[nxt] != view.teams[me]
        rank = card.rank
        score = _SHED.get(rank, 4.0)
        if rank <= Rank.N9:
            score += rank / 20
        if self.points:
            score += card.points / 25
        if card.is_wild:
            keep = others > 4 and not threat if rank is Rank.WILD4 else others > 2
            if keep:
                score -= 6.0
            if threat and rank is Rank.WILD4:
                score += 8.0
            return score
        counts = colour_counts(hand)
        assert card.colour is not None
        score += 1.2 * (counts[card.colour] - 1)
        stops = rank in (Rank.DRAW2, Rank.SKIP) or (rank is Rank.REVERSE and len(view.active) == 2)
        if threat and stops:
            score += 8.0
        return score

    def choose(self, view: SeatView) -> Action:
        """Best card by :meth:`card_score`; otherwise the common small decisions."""
        first = self.housekeeping(view) or small_decision(view, self.points)
        if first is not None:
            return first
        legal = view.legal
        phase = view.phase
        cards = plays_of(legal)
        if phase == Phase.CHALLENGE:
            if cards:  # stacking: pass the penalty on
                return self.play_and_call(cards[0], legal)
            if CHALLENGE in legal and view.wd4_by >= 0:
                k = view.counts[view.wd4_by]
                limit = 0.2 if len(view.active) == 2 else 1 / 3
                if prior_holds(k) > limit + 0.25:
                    return CHALLENGE
            return ACCEPT if ACCEPT in legal else legal[0]
        if cards:
            best = max(cards, key=lambda c: (self.card_score(view, c), -c.code))
            if phase == Phase.DRAWN and KEEP in legal and self.card_score(view, best) < 0:
                return KEEP
            return self.play_and_call(best, legal)
        return DRAW if DRAW in legal else (KEEP if KEEP in legal else legal[0])
