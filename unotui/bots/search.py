"""Anytime search over sampled hidden hands, used by the ``hard`` level near the end.

Flat Monte-Carlo with determinization: sample the unseen cards into the other hands
(respecting what :class:`~unotui.bots.knowledge.Knowledge` inferred: a player who drew
on red gets no red card and no wild in those slots) and the draw pile, then play each
candidate move followed by a playout to the end of the hand.  The same samples and
playout seeds are used for every candidate (common random numbers), so the comparison is
far less noisy than the raw win rates.  It stops at its deadline or its playout budget,
whichever comes first, and otherwise keeps the policy's choice: the policy is strong and
search only adds something where the policy's ranking is close and the hand is short.

The playouts run on :mod:`unotui.bots.playout`, a model derived from the engine and
tested against it move by move; tables whose house rules it does not play are not
searched.
"""

from __future__ import annotations

import time
from random import Random
from typing import Protocol

from ..engine import ALL_CARDS, DRAW, KEEP, Action, Card, Colour, Phase, Play, SeatView
from .base import with_uno
from .knowledge import Knowledge, colour_bit
from .playout import World, draw_turn, playout, searchable

__all__ = ["Policy", "first_move", "refine", "sample_world", "score_candidates"]

ENDGAME_MINE = 3
"""Search when we hold at most this many cards ..."""
ENDGAME_ENEMY = 2
"""... or an opponent holds at most this many."""


class Policy(Protocol):
    """What search needs of the policy it refines (:class:`~unotui.bots.hard.HardPolicy`)."""

    def ranked_plays(self, view: SeatView, know: Knowledge) -> list[tuple[float, Card]]:
        """Playable cards best first, with their scores."""
        ...

    def best_colour(self, view: SeatView, know: Knowledge, hand: list[Card]) -> Colour:
        """The colour to name after a wild."""
        ...


def sample_world(view: SeatView, know: Knowledge, rng: Random) -> World:
    """One determinization of ``view``: the unseen cards dealt at random into the other
    hands (respecting what ``know`` inferred) and the draw pile.

    Reads only the view and what was inferred from it: the one sampling path of the hard
    bot's search and of game review (:mod:`unotui.review`).
    """
    me = view.seat
    assert me is not None
    pool = [c for c, k in zip(ALL_CARDS, know.unseen, strict=True) for _ in range(k)]
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
    return World(hands, pool, discard, view.top, int(view.colour), active, active.index(view.turn),
                  view.direction)


def refine(
    view: SeatView,
    know: Knowledge,
    policy: Policy,
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
    wins, samples = score_candidates(view, know, candidates, colours, rng, rollouts // len(candidates), stop)
    if samples == 0:
        return action
    best = max(range(len(candidates)), key=lambda i: (wins[i], -i))
    # Keep the policy's choice unless the playouts clearly prefer another move.
    if wins[best] - wins[0] < max(1.0, 0.05 * samples):
        return action
    return candidates[best]


def score_candidates(
    view: SeatView,
    know: Knowledge,
    candidates: list[Action],
    colours: dict[Action, int],
    rng: Random,
    samples: int,
    stop: float | None = None,
    caught: frozenset[Action] = frozenset(),
) -> tuple[list[float], int]:
    """Play each candidate on the same ``samples`` sampled worlds (common random numbers:
    one world and one playout seed per sample, shared by every candidate).

    Args:
        colours: the colour each wild candidate names (others: absent).
        stop: a :func:`time.perf_counter` deadline, checked before each sample.
        caught: Wild Draw Four candidates that are bluffs, played as challenged and found
            guilty (:meth:`~unotui.bots.playout.World.land_caught`): game review never
            credits a bluff with going unchallenged.

    Returns:
        the wins of each candidate (for ``view.seat``'s team) and the samples played.
    """
    me = view.seat
    assert me is not None
    teams = view.teams
    wins = [0.0] * len(candidates)
    done = 0
    while done < samples:
        if stop is not None and time.perf_counter() >= stop:
            break
        world = sample_world(view, know, rng)
        seed = rng.getrandbits(32)
        for i, a in enumerate(candidates):
            wins[i] += first_move(world.copy(), me, a, colours.get(a, 0), teams, Random(seed), a in caught)
        done += 1
    return wins, done


def first_move(
    w: World, me: int, action: Action, colour: int, teams: tuple[int, ...], rng: Random, caught: bool = False
) -> float:
    """Play the candidate ``action`` for us (``caught``: a bluff found guilty), then the rest
    of the hand by the playout policy."""
    if caught and isinstance(action, Play):
        w.land_caught(me, action.card, colour, rng)
    elif isinstance(action, Play):
        w.land(me, action.card, colour, rng)
    elif action is DRAW:
        draw_turn(w, me, rng)
    else:  # KEEP
        w.advance(1)
    if w.winner >= 0:
        return 1.0
    return playout(w, teams[me], teams, rng)
