"""Card counting and inference, rebuilt from one seat's view of the current round.

Everything here reads only a :class:`~unotui.engine.SeatView`: the seat's own hand, the
card counts and the log as the engine redacted it for that seat.  From the round's log
it keeps

* the discard pile, so that *unseen* = deck - own hand - discard pile (these cards are in
  the other hands or the draw pile);
* for each other seat, what its unknown cards cannot be: a player who drew on a colour
  held none of it (and no wild, which is always playable) when it drew; those cards keep
  that mark until played, while cards drawn later are unmarked;
* cards known exactly (a hand revealed to us by a Wild Draw Four challenge, hands face
  up), and each seat's record of guilty/innocent Wild Draw Fours and of challenging;
* the colour in play before the last Wild Draw Four, which decides a challenge.

It is rebuilt from scratch at each decision rather than updated incrementally: the log of
a round is a few hundred events, and a stateless bot is trivially picklable and cannot
drift from the game when a host skips a view.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import ALL_CARDS, COLOURS, Card, Colour, EventKind, Rank, SeatView, build_deck

__all__ = ["WILD_BIT", "Knowledge", "colour_bit"]

WILD_BIT = 1 << 4
"""Exclusion bit meaning "this card is not a wild"."""

_DECK_CACHE: dict[object, list[int]] = {}


def colour_bit(card: Card) -> int:
    """The exclusion bit a card would violate (its colour's, or the wild bit)."""
    return WILD_BIT if card.colour is None else 1 << card.colour


def _deck_counts(view: SeatView) -> list[int]:
    rules = view.rules
    counts = _DECK_CACHE.get(rules)
    if counts is None:
        counts = [0] * len(ALL_CARDS)
        for c in build_deck(rules):
            counts[c.code] += 1
        _DECK_CACHE[rules] = counts
    return counts


@dataclass(slots=True)
class SeatInfo:
    """What we know about one other seat's hand.

    Attributes:
        known: cards we know it holds.
        slots: one exclusion bitmask per other card (bits: colours, then WILD_BIT).
        guilty / innocent: its Wild Draw Fours found guilty / innocent on challenge.
        challenged / accepted: how often it challenged / accepted a Wild Draw Four.
    """

    known: list[Card] = field(default_factory=list)
    slots: list[int] = field(default_factory=list)
    guilty: int = 0
    innocent: int = 0
    challenged: int = 0
    accepted: int = 0


class Knowledge:
    """Card counting and inference for ``view.seat`` (see the module docstring)."""

    __slots__ = ("colour_before_wd4", "info", "me", "pile", "unseen", "unseen_total", "view")

    def __init__(self, view: SeatView) -> None:
        assert view.seat is not None
        self.view = view
        self.me = view.seat
        self.info: dict[int, SeatInfo] = {s: SeatInfo() for s in range(view.players) if s != self.me}
        self.pile: list[Card] = []
        self.colour_before_wd4: Colour | None = None
        self._read_log()
        unseen = list(_deck_counts(view))
        for c in view.hand:
            unseen[c.code] -= 1
        for c in self.pile:
            unseen[c.code] -= 1
        for s, cards in view.face_up.items():
            if s in self.info:
                self.info[s].known = list(cards)
                self.info[s].slots = []
        for s, inf in self.info.items():
            for c in inf.known:
                unseen[c.code] -= 1
            self._resync(s, inf)
        self.unseen = [max(0, k) for k in unseen]
        self.unseen_total = sum(self.unseen)

    # ----- reading the log -------------------------------------------------------------

    def _read_log(self) -> None:
        log = self.view.log
        start = 0
        for i in range(len(log) - 1, -1, -1):
            if log[i].kind == EventKind.DEAL:
                start = i
                break
        info = self.info
        colour: Colour | None = None
        last_draw_turn: tuple[int, Colour | None] | None = None
        for i, e in enumerate(log):
            kind = e.kind
            if kind == EventKind.CHALLENGE:
                # Track records over the whole visible log, rounds included.
                if e.target in info:
                    if e.value:
                        info[e.target].guilty += 1
                    else:
                        info[e.target].innocent += 1
                if e.seat in info:
                    info[e.seat].challenged += 1
                continue
            if kind == EventKind.ACCEPT:
                if e.seat in info:
                    info[e.seat].accepted += 1
                continue
            if i < start:
                continue
            seat = e.seat
            if kind == EventKind.DEAL:
                for inf in info.values():
                    inf.known = []
                    inf.slots = [0] * self.view.rules.hand_size
                continue
            if kind in (EventKind.PLAY, EventKind.JUMP):
                card = e.cards[0]
                if card.rank is Rank.WILD4:
                    self.colour_before_wd4 = colour
                self.pile.append(card)
                if card.colour is not None:
                    colour = card.colour
                if seat in info:
                    self._remove(info[seat], card)
                last_draw_turn = None
            elif kind == EventKind.FLIP:
                card = e.cards[0]
                self.pile.append(card)
                colour = card.colour
            elif kind == EventKind.REFLIP:
                if self.pile:
                    self.pile.pop()
            elif kind == EventKind.COLOUR:
                colour = Colour(e.value)
            elif kind == EventKind.DRAW:
                if seat in info:
                    inf = info[seat]
                    if e.cards and e.to == self.me:  # pragma: no cover - others' draws are hidden
                        inf.known.extend(e.cards)
                    else:
                        inf.slots.extend([0] * e.value)
                    if e.note == "turn" and colour is not None:
                        last_draw_turn = (seat, colour)
                        mask = (1 << colour) | WILD_BIT
                        inf.slots = [m | mask for m in inf.slots]
            elif kind == EventKind.KEEP:
                if last_draw_turn is not None and last_draw_turn[0] in info and last_draw_turn[1] is not None:
                    # It kept a playable card: the newest one may be anything playable.
                    slots = info[last_draw_turn[0]].slots
                    if slots:
                        slots[-1] = 0
                last_draw_turn = None
            elif kind == EventKind.DISCARD:
                self.pile.extend(e.cards)
                if seat in info:
                    for c in e.cards:
                        self._remove(info[seat], c)
            elif kind == EventKind.RESHUFFLE:
                self.pile = self.pile[-1:]
            elif kind == EventKind.REVEAL and e.target == self.me and seat in info:
                info[seat].known = list(e.cards)
                info[seat].slots = []
            elif kind in (EventKind.SWAP, EventKind.ROTATE, EventKind.SHUFFLE):
                for inf in info.values():
                    inf.slots = [0] * (len(inf.slots) + len(inf.known))
                    inf.known = []

    @staticmethod
    def _remove(inf: SeatInfo, card: Card) -> None:
        if card in inf.known:
            inf.known.remove(card)
            return
        bit = colour_bit(card)
        slots = inf.slots
        for j in range(len(slots) - 1, -1, -1):
            if not slots[j] & bit:
                del slots[j]
                return
        if slots:
            slots.pop()  # our inference was wrong (a human drew on purpose): forget a mark

    def _resync(self, seat: int, inf: SeatInfo) -> None:
        want = self.view.counts[seat] - len(inf.known)
        if want < 0:
            del inf.known[want:]
            want = 0
        have = len(inf.slots)
        if have < want:
            inf.slots.extend([0] * (want - have))
        elif have > want:
            del inf.slots[: have - want]  # forget the oldest marks first

    # ----- questions ---------------------------------------------------------------------

    def p_holds(self, seat: int, colour: Colour | None) -> float:
        """Probability that ``seat`` holds at least one card of ``colour`` (``None``: a wild)."""
        inf = self.info.get(seat)
        if inf is None:
            return 0.0
        if any(c.colour is colour for c in inf.known):
            return 1.0
        total = self.unseen_total
        if not total:
            return 0.0
        if colour is None:
            k = sum(self.unseen[c.code] for c in ALL_CARDS if c.colour is None)
            bit = WILD_BIT
        else:
            k = sum(self.unseen[c.code] for c in ALL_CARDS if c.colour is colour)
            bit = 1 << colour
        miss = 1.0 - k / total
        free = sum(1 for m in inf.slots if not m & bit)
        return 1.0 - miss**free

    def lacks(self, seat: int) -> set[Colour]:
        """Colours ``seat`` almost surely lacks (every unknown card marked)."""
        inf = self.info.get(seat)
        if inf is None or (not inf.slots and not inf.known):
            return set()
        out = set()
        for col in COLOURS:
            bit = 1 << col
            if all(m & bit for m in inf.slots) and not any(c.colour is col for c in inf.known):
                out.add(col)
        return out

    def unseen_of(self, colour: Colour) -> int:
        """Unseen cards of ``colour``."""
        return sum(self.unseen[c.code] for c in ALL_CARDS if c.colour is colour)
