"""Anytime search over sampled hidden hands, used by the ``hard`` level near the end.

Flat Monte-Carlo with determinization: sample the unseen cards into the other hands
(respecting what :class:`~unotui.bots.knowledge.Knowledge` inferred: a player who drew
on red gets no red card and no wild in those slots) and the draw pile, then play each
candidate move followed by a fast playout to the end of the hand.  The same samples and
playout seeds are used for every candidate (common random numbers), so the comparison is
far less noisy than the raw win rates.  It stops at its deadline or its playout budget,
whichever comes first, and otherwise keeps the policy's choice: the policy is strong and
search only adds something where the policy's ranking is close and the hand is short.

The playouts use a small internal model of the rules, not the engine, because they must
be fast: numbers, Skip, Reverse, Draw Two, wilds and Wild Draw Four (accepted, never
challenged).  Tables whose house rules it does not model (stacking, seven-o, jump-in,
draw to match, custom wild effects) are not searched.
"""

from __future__ import annotations

import time
from random import Random
from typing import TYPE_CHECKING

from ..engine import DRAW, KEEP, Action, Card, Phase, Play, Rank, SeatView, Stacking, most_held_colour
from .base import with_uno
from .knowledge import Knowledge, colour_bit

if TYPE_CHECKING:
    from .hard import HardPolicy

__all__ = ["refine", "searchable"]

_SKIP, _REV, _D2, _W4 = Rank.SKIP, Rank.REVERSE, Rank.DRAW2, Rank.WILD4
_MAX_MOVES = 160
ENDGAME_MINE = 3
"""Search when we hold at most this many cards ..."""
ENDGAME_ENEMY = 2
"""... or an opponent holds at most this many."""


def searchable(view: SeatView) -> bool:
    """Whether the playout model covers this table's rules."""
    r = view.rules
    return not (
        r.stacking is not Stacking.OFF or r.seven_o or r.jump_in or r.draw_to_match or r.custom.effects
    )


class _World:
    """One determinized state: every hand, the draw pile, the discards."""

    __slots__ = ("active", "colour", "direction", "discard", "hands", "pile", "pos", "top")

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
        self.pile = pile
        self.discard = discard
        self.top = top
        self.colour = colour
        self.active = active
        self.pos = pos
        self.direction = direction

    def copy(self) -> _World:
        return _World(
            [h[:] for h in self.hands], self.pile[:], self.discard[:], self.top, self.colour,
            self.active, self.pos, self.direction,
        )

    def draw(self, seat: int, count: int, rng: Random) -> Card | None:
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
        self.pos = (self.pos + steps * self.direction) % len(self.active)

    def land(self, seat: int, card: Card, colour: int, rng: Random) -> bool:
        """``seat`` plays ``card`` (naming ``colour`` if wild); True if it went out."""
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(self.top)
        self.top = card
        self.colour = colour if card.colour is None else card.colour
        rank = card.rank
        n = len(self.active)
        if rank is _SKIP or (rank is _REV and n == 2):
            if hand:
                self.advance(2)
            return not hand
        if rank is _REV:
            self.direction = -self.direction
            self.advance(1)
            return not hand
        if rank is _D2 or rank is _W4:
            victim = self.active[(self.pos + self.direction) % n]
            self.draw(victim, 2 if rank is _D2 else 4, rng)
            self.advance(2)
            return not hand
        self.advance(1)
        return not hand


def _pick(hand: list[Card], top: Card, colour: int) -> tuple[Card, int] | None:
    """The playout policy: steer to the longest colour, actions first, wilds last."""
    rank = top.rank
    playable = [c for c in hand if c.colour is None or c.colour == colour or c.rank is rank]
    if not playable:
        return None
    if len(playable) == 1:
        card = playable[0]
        return card, (_most(hand) if card.colour is None else 0)
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


def _most(hand: list[Card]) -> int:
    return int(most_held_colour(hand))


def _playout(world: _World, me_team: int, teams: tuple[int, ...], rng: Random) -> float:
    """Play the hand out with the playout policy; 1 if our side goes out first."""
    for _ in range(_MAX_MOVES):
        seat = world.active[world.pos]
        hand = world.hands[seat]
        choice = _pick(hand, world.top, world.colour)
        if choice is None:
            card = world.draw(seat, 1, rng)
            if card is not None and (
                card.colour is None or card.colour == world.colour or card.rank is world.top.rank
            ):
                choice = (card, _most(hand))
            else:
                world.advance(1)
                continue
        if world.land(seat, choice[0], choice[1], rng):
            return 1.0 if teams[seat] == me_team else 0.0
    sizes = {teams[s]: len(world.hands[s]) for s in world.active}
    return 1.0 if min(sizes, key=lambda t: (sizes[t], t != me_team)) == me_team else 0.0


def _sample(view: SeatView, know: Knowledge, rng: Random) -> _World:
    me = view.seat
    assert me is not None
    pool = [c for c, k in zip(_cards(), know.unseen, strict=True) for _ in range(k)]
    rng.shuffle(pool)
    hands: list[list[Card]] = [[] for _ in range(view.players)]
    hands[me] = list(view.hand)
    for s in view.active:
        if s == me:
            continue
        inf = know.info[s]
        hand = list(inf.known)
        for mask in inf.slots:
            for j in range(len(pool) - 1, -1, -1):
                if not colour_bit(pool[j]) & mask:
                    hand.append(pool.pop(j))
                    break
            else:
                if pool:
                    hand.append(pool.pop())
        hands[s] = hand
    discard = list(know.pile[:-1])
    active = list(view.active)
    return _World(hands, pool, discard, view.top, int(view.colour), active, active.index(view.turn),
                  view.direction)


_CARDS: list[Card] = []


def _cards() -> list[Card]:
    if not _CARDS:
        from ..engine import ALL_CARDS

        _CARDS.extend(ALL_CARDS)
    return _CARDS


def refine(
    view: SeatView,
    know: Knowledge,
    policy: HardPolicy,
    action: Action,
    rng: Random,
    rollouts: int,
    stop: float | None,
) -> Action:
    """Check the policy's ``action`` against its close alternatives by sampled playouts.

    Searches only when the hand is near its end (see :data:`ENDGAME_MINE` and
    :data:`ENDGAME_ENEMY`) and there is a real choice; otherwise returns ``action`` at once.
    """
    me = view.seat
    assert me is not None
    if not searchable(view):
        return action
    team = view.teams[me]
    enemy = min(view.counts[s] for s in view.active if view.teams[s] != team)
    if len(view.hand) > ENDGAME_MINE and enemy > ENDGAME_ENEMY:
        return action
    ranked = policy.ranked_plays(view, know)
    candidates: list[Action] = [with_uno(c, view.legal) for _, c in ranked[:3]]
    if view.phase == Phase.PLAY and DRAW in view.legal:
        candidates.append(DRAW)
    if view.phase == Phase.DRAWN and KEEP in view.legal:
        candidates.append(KEEP)
    if action not in candidates:
        candidates.insert(0, action)
    elif candidates[0] != action:
        candidates.remove(action)
        candidates.insert(0, action)
    if len(candidates) < 2:
        return action
    colours: dict[Action, int] = {}
    for a in candidates:
        if isinstance(a, Play) and a.card.is_wild:
            rest = list(view.hand)
            rest.remove(a.card)
            colours[a] = int(policy.best_colour(view, know, rest))
    teams = view.teams
    wins = [0.0] * len(candidates)
    done = 0
    per_round = len(candidates)
    while done + per_round <= rollouts:
        if stop is not None and time.perf_counter() >= stop:
            break
        world = _sample(view, know, rng)
        seed = rng.getrandbits(32)
        for i, a in enumerate(candidates):
            w = world.copy()
            prng = Random(seed)
            wins[i] += _first_move(w, me, a, colours.get(a, 0), teams, prng)
        done += per_round
    if done == 0:
        return action
    best = max(range(len(candidates)), key=lambda i: (wins[i], -i))
    # Keep the policy's choice unless the playouts clearly prefer another move.
    samples = done // per_round
    if wins[best] - wins[0] < max(1.0, 0.05 * samples):
        return action
    return candidates[best]


def _first_move(
    w: _World, me: int, action: Action, colour: int, teams: tuple[int, ...], rng: Random
) -> float:
    team = teams[me]
    if isinstance(action, Play):
        if w.land(me, action.card, colour, rng):
            return 1.0
    elif action is DRAW:
        card = w.draw(me, 1, rng)
        playable = card is not None and (
            card.colour is None or card.colour == w.colour or card.rank is w.top.rank
        )
        if playable and card is not None:
            if w.land(me, card, _most(w.hands[me]), rng):
                return 1.0
        else:
            w.advance(1)
    else:  # KEEP
        w.advance(1)
    return _playout(w, team, teams, rng)
