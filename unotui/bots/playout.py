"""The playout model the ``hard`` level's search plays hands out on, derived from the engine.

Search needs thousands of moves per decision, and a playout on the engine itself costs
about 3.5 times as much as on this model (``Game`` logs every event, versions its state,
validates each action and caches legal actions; measured for issue 17 in CPU time over
181 endgame positions: 190 us per playout with its ``Game`` built, against 52 us, so 18
ms instead of 5 for the hard bot's 96 playouts).  Nor can a mid-round ``Game`` be built
through the engine's constructor, which only deals.  So search plays on :class:`World`,
a model of exactly one subset of the engine's rules, and
``tests/bots/test_playout_model.py`` plays seeded hands in the engine and in this model
side by side, move by move, for every table :func:`searchable` accepts, checking that
they agree on the legal cards, every hand, the top card, the colour, the direction, the
next seat and the winner.

The subset: numbers, Skip, Reverse, Draw Two, plain wilds (custom wilds without effects
included) and Wild Draw Four, which is accepted, never challenged; every seat calls UNO.
Those two are choices of the playout policy, not rules: the engine allows them at every
table.  Each rule follows the engine's order of events (``Game._on_play``: the card
lands, the colour changes, going out ends the hand after the Draw Two or Wild Draw Four
penalty, then the card's effect), and the legality test is the engine's matching rule
(:func:`matches`, checked against ``Game.legal_actions`` by the test).  Tables
whose house rules the model does not play (stacking, seven-o, jump-in, draw to match, no
bluffing, swap and shuffle wilds, custom wild effects) are not searched.
"""

from __future__ import annotations

from random import Random

from ..engine import ALL_CARDS, COLOURS, Card, Rank, SeatView, Stacking, most_held_colour

__all__ = ["MAX_MOVES", "World", "draw_turn", "playout", "searchable", "turn"]

MAX_MOVES = 160
"""Turns a playout may take before it is judged by hand sizes."""

# The action ranks as module globals: on Python 3.11 reading ``Rank.SKIP`` goes through
# the enum class's attribute lookup; with these names ``refine`` takes about 14% less CPU
# time over 1,076 endgame decisions (measured for issue 17).
_SKIP, _REV, _D2, _W4 = Rank.SKIP, Rank.REVERSE, Rank.DRAW2, Rank.WILD4


def searchable(view: SeatView) -> bool:
    """Whether :class:`World` plays this table's rules (the side-by-side test covers
    every table this accepts)."""
    r = view.rules
    return not (
        r.stacking is not Stacking.OFF
        or r.seven_o
        or r.jump_in
        or r.draw_to_match
        or r.no_bluffing
        or r.swap_hands
        or r.shuffle_hands
        or r.custom.effects
    )


def matches(card: Card, colour: int, rank: Rank) -> bool:
    """The engine's matching rule (``Game.playable``): a wild, the colour, or the rank."""
    return card.colour is None or card.colour == colour or card.rank is rank


_MATCHING: dict[tuple[int, Rank], frozenset[Card]] = {
    (colour, rank): frozenset(c for c in ALL_CARDS if matches(c, colour, rank))
    for colour in COLOURS
    for rank in Rank
}
"""For each colour in play and top rank, the cards :func:`matches` lets one play.  A
playout asks at every turn; looking the set up instead of calling :func:`matches` per
card takes about 11% off ``refine``'s CPU time (measured for issue 17)."""


class World:
    """One determinized round: every hand, the draw pile, the discards under the top.

    Attributes:
        winner: the seat that went out, or -1 while the hand is on.
    """

    __slots__ = ("active", "colour", "direction", "discard", "hands", "pile", "pos", "top", "winner")

    def __init__(
        self,
        hands: list[list[Card]],
        pile: list[Card],
        discard: list[Card],
        top: Card,
        colour: int,
        active: list[int],
        pos: int,
        direction: int,
    ) -> None:
        self.hands = hands
        self.pile = pile  # the top of the pile is the end of the list, as in the engine
        self.discard = discard
        self.top = top
        self.colour = colour
        self.active = active
        self.pos = pos
        self.direction = direction
        self.winner = -1

    def copy(self) -> World:
        """An independent copy (``active`` is never changed, so it is shared)."""
        return World(
            [h[:] for h in self.hands], self.pile[:], self.discard[:], self.top, self.colour,
            self.active, self.pos, self.direction,
        )

    def matching(self) -> frozenset[Card]:
        """The cards that may be played now (:func:`matches`, looked up)."""
        return _MATCHING[self.colour, self.top.rank]

    def draw(self, seat: int, count: int, rng: Random) -> Card | None:
        """``seat`` draws up to ``count`` cards, reshuffling the discards under the top when
        the pile runs out (fewer if both run out); the last card drawn, if any."""
        last = None
        hand = self.hands[seat]
        for _ in range(count):
            if not self.pile:
                if not self.discard:
                    return last
                self.pile = self.discard
                self.discard = []
                rng.shuffle(self.pile)
            last = self.pile.pop()
            hand.append(last)
        return last

    def advance(self, steps: int) -> None:
        """Pass the turn ``steps`` seats on in the direction of play."""
        self.pos = (self.pos + steps * self.direction) % len(self.active)

    def land_caught(self, seat: int, card: Card, colour: int, rng: Random) -> None:
        """``seat`` plays a Wild Draw Four naming ``colour`` while holding the colour in
        play, and is challenged: it draws the four itself and the victim plays on (the
        engine's ``_on_challenge`` when guilty; it cannot be going out, since it holds
        another card).  Game review scores a bluff this way (search never bluffs)."""
        self.hands[seat].remove(card)
        self.discard.append(self.top)
        self.top = card
        self.colour = colour
        self.draw(seat, 4, rng)
        self.advance(1)

    def land(self, seat: int, card: Card, colour: int, rng: Random) -> bool:
        """``seat`` plays ``card`` (naming ``colour`` if wild); True if it went out."""
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(self.top)
        self.top = card
        rank = card.rank
        n = len(self.active)
        if not hand:
            if rank is _D2 or rank is _W4:
                self.draw(self.active[(self.pos + self.direction) % n], 2 if rank is _D2 else 4, rng)
            if card.colour is not None:
                self.colour = card.colour
            self.winner = seat
            return True
        self.colour = colour if card.colour is None else card.colour
        if rank is _REV:
            self.direction = -self.direction
        if rank is _SKIP or (rank is _REV and n == 2):
            self.advance(2)
        elif rank is _D2 or rank is _W4:
            self.draw(self.active[(self.pos + self.direction) % n], 2 if rank is _D2 else 4, rng)
            self.advance(2)
        else:
            self.advance(1)
        return False


def pick(world: World, hand: list[Card]) -> tuple[Card, int] | None:
    """The playout policy: steer to the longest colour, actions first, wilds last."""
    ok = world.matching()
    playable = [c for c in hand if c in ok]
    if not playable:
        return None
    if len(playable) == 1:
        card = playable[0]
        return card, (int(most_held_colour(hand)) if card.colour is None else 0)
    counts = [0, 0, 0, 0]
    for c in hand:
        if c.colour is not None:
            counts[c.colour] += 1
    best = playable[0]
    best_v = -1.0
    many = len(hand) > 3
    for c in playable:
        col = c.colour
        v = 0.5 if many else 30.0
        if col is not None:
            v = 10.0 + counts[col] + (2.0 if c.rank >= _SKIP else 0.0)
        if v > best_v:
            best, best_v = c, v
    return best, max(range(4), key=counts.__getitem__)


def draw_turn(world: World, seat: int, rng: Random) -> Card | None:
    """``seat`` draws on its turn and plays the card if it can (naming its most-held
    colour), else keeps it (or passes: both piles empty); the card played, if any."""
    card = world.draw(seat, 1, rng)
    if card is not None and card in world.matching():
        world.land(seat, card, int(most_held_colour(world.hands[seat])), rng)
        return card
    world.advance(1)
    return None


def turn(world: World, rng: Random) -> tuple[bool, Card | None, int]:
    """Play one turn of the seat due by the playout policy.

    Returns:
        whether it drew, the card it played (``None``: none) and the colour it named
        (meaningful for a wild only); the side-by-side test replays this on the engine.
    """
    seat = world.active[world.pos]
    choice = pick(world, world.hands[seat])
    if choice is None:
        return True, draw_turn(world, seat, rng), world.colour
    world.land(seat, choice[0], choice[1], rng)
    return False, choice[0], choice[1]


def playout(world: World, me_team: int, teams: tuple[int, ...], rng: Random) -> float:
    """Play the hand out with the playout policy; 1 if our side goes out first."""
    for _ in range(MAX_MOVES):
        turn(world, rng)
        if world.winner >= 0:
            return 1.0 if teams[world.winner] == me_team else 0.0
    sizes = {teams[s]: len(world.hands[s]) for s in world.active}
    return 1.0 if min(sizes, key=lambda t: (sizes[t], t != me_team)) == me_team else 0.0
