"""The ``hard`` level: a strong policy over card counting, plus a bounded search.

The policy (:class:`HardPolicy`) scores each playable card with the heuristics that
have evidence behind them (see ``docs/bots.md``):

* steer to the colour we hold most of, and away from colours the next player likely
  holds (card counting and "who drew on what" from :mod:`unotui.bots.knowledge`);
* shed Draw Two, Skip, numbers, Reverse before wilds; save a Wild until few cards
  remain, a Wild Draw Four a little longer;
* heads-up, Skip/Reverse/Draw Two/Wild Draw Four give us another turn, so chain them;
* attack the player about to go out (Draw Two, Wild Draw Four, Skip, Reverse);
* challenge a Wild Draw Four when the chance the player held the colour beats 20%
  heads-up (1/3 with more players: where the expected cards of challenging beat
  accepting), using what we know of that hand and how honest the player has been this
  match (:mod:`unotui.bots.memory`, learnt from the public challenge outcomes); bluff a
  Wild Draw Four only to stop a player holding one card, and less against a player who
  challenges often;
* for points games, dump high-value cards earlier.

:class:`HardBot` adds a time-bounded search over sampled hidden hands
(:mod:`unotui.bots.search`) in the close decisions near the end of a hand.
"""

from __future__ import annotations

import time
from random import Random
from typing import ClassVar

from ..engine import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    COLOURS,
    DEAL,
    DRAW,
    KEEP,
    Action,
    Card,
    ChooseColour,
    Colour,
    Phase,
    Rank,
    SeatView,
)
from .base import BaseBot, plays_of, with_uno
from .knowledge import Knowledge
from .memory import Memory
from .policy import choose_discard, choose_target, colour_counts
from .search import refine

__all__ = ["HardBot", "HardPolicy", "HonestBot", "HonestPolicy", "suggest"]

_ACTION = (Rank.SKIP, Rank.REVERSE, Rank.DRAW2)


class HardPolicy:
    """The hard level's decisions without search (also the hint API's policy).

    Args:
        objective: ``"hands"`` (win the hand) or ``"points"`` (score in 500-point games).
        memory: what the bot learnt of its opponents this match (``None``: the plain,
            fixed assumptions; the hint API and the analysis use those).

    Attributes:
        W: the weights of the scoring, tuned by simulation (``bench/bots.py``).
    """

    W: ClassVar[dict[str, float]] = {
        "steer": 1.5,  # per card we keep of the colour left in play
        "lack": 1.5,  # the next player probably lacks the colour
        "lack_threat": 3.0,  # ... when it is about to go out
        "wild": 4.0,  # base of a wild (a plain card is 10)
        "hold": 15.0,  # penalty for spending a wild we should save: rather draw
        "hold_per_card": 0.3,
        "save_wild": 3,  # spend a plain wild freely with this many other cards or fewer
        "save_wd4": 4,
        "draw2": 3.0,
        "skip": 2.5,
        "reverse2": 2.5,  # heads-up Reverse (acts as Skip)
        "reverse": 0.5,
        "face": 0.0,  # per pip (shedding high numbers first measured slightly worse)
        "attack": 8.0,  # stop a player about to go out
        "attack_wd4": 10.0,
        "exposed": 6.0,  # playing into a colour a one-card player may hold
        "follow": 1.5,  # heads-up extra turn with a follow-up card
        "no_follow": -1.0,
        "bluff": 30.0,  # penalty for an illegal Wild Draw Four (4 against a one-card player)
        "bluff_last": 4.0,
        "challenge2": 0.2,  # challenge above this chance of guilt, heads-up
        "challenge": 1 / 3,
    }

    def __init__(self, objective: str = "hands", memory: Memory | None = None) -> None:
        if objective not in ("hands", "points"):
            raise ValueError(f"objective is 'hands' or 'points', not {objective!r}")
        self.points = objective == "points"
        self.memory = memory

    # ----- scoring ---------------------------------------------------------------------

    def colour_value(self, view: SeatView, know: Knowledge, colour: Colour, hand: list[Card]) -> float:
        """How good it is for us that ``colour`` is in play after our move."""
        me = view.seat
        assert me is not None
        counts = colour_counts(hand)
        w = self.W
        value = w["steer"] * counts[colour]
        nxt = view.next_seat(me)
        if view.teams[nxt] != view.teams[me]:
            p = know.p_holds(nxt, colour)
            weight = w["lack_threat"] if view.counts[nxt] <= 2 else w["lack"]
            value += weight * (1.0 - p)
        if self.points:
            value += sum(c.points for c in hand if c.colour is colour) / 40
        return value

    def best_colour(self, view: SeatView, know: Knowledge, hand: list[Card]) -> Colour:
        """The colour to name after a wild."""
        return max(COLOURS, key=lambda col: (self.colour_value(view, know, col, hand), -col))

    def card_score(self, view: SeatView, know: Knowledge, card: Card) -> float:
        """How much we like playing ``card`` now (higher is better; drawing is 0)."""
        me = view.seat
        assert me is not None
        hand = list(view.hand)
        if card in hand:
            hand.remove(card)
        rest = len(hand)
        heads_up = len(view.active) == 2
        nxt = view.next_seat(me)
        enemy_next = view.teams[nxt] != view.teams[me]
        nxt_count = view.counts[nxt] if enemy_next else 99
        threat = nxt_count <= 2
        rank = card.rank
        extra_turn = heads_up and (rank in _ACTION or rank is Rank.WILD4)
        w = self.W
        score = 10.0
        if card.is_wild:
            score = w["wild"] + self.colour_value(view, know, self.best_colour(view, know, hand), hand)
            save = w["save_wd4"] if rank is Rank.WILD4 else w["save_wild"]
            if rest > save and not threat:
                score -= w["hold"] + rest * w["hold_per_card"]
            if rank is Rank.WILD4:
                honest = not any(c.colour is view.colour for c in view.hand)
                if not honest:
                    penalty = w["bluff"] if nxt_count > 1 else w["bluff_last"]
                    if self.memory is not None and enemy_next:
                        penalty *= self.memory.challenge_factor(nxt)
                    score -= penalty
                if threat:
                    score += w["attack_wd4"]
                if extra_turn:
                    score += 1.0
            if self.points:
                score += card.points / 10
            return score
        assert card.colour is not None
        score += self.colour_value(view, know, card.colour, hand)
        if rank is Rank.DRAW2:
            score += w["draw2"]
        elif rank is Rank.SKIP:
            score += w["skip"]
        elif rank is Rank.REVERSE:
            score += w["reverse2"] if heads_up else w["reverse"]
        else:
            score += rank * w["face"]
        if self.points:
            score += card.points / 8
        if threat and enemy_next:
            if rank is Rank.DRAW2 or rank is Rank.SKIP:
                score += w["attack"]
            elif rank is Rank.REVERSE:
                score += w["attack"] if heads_up else self._reverse_value(view, me)
            elif nxt_count == 1:
                score -= w["exposed"] * know.p_holds(nxt, card.colour)
        if extra_turn:
            follow = any(c.is_wild or c.colour is card.colour or c.rank is rank for c in hand)
            score += w["follow"] if follow else w["no_follow"]
            if rest == 1 and follow:
                score += 20.0  # it and the last card go out together
        return score

    @staticmethod
    def _reverse_value(view: SeatView, me: int) -> float:
        """Multiplayer Reverse: good if the player behind us is further from going out."""
        behind = view.next_seat(me, -1)
        nxt = view.next_seat(me)
        return 5.0 if view.counts[behind] > view.counts[nxt] else -2.0

    def ranked_plays(self, view: SeatView, know: Knowledge) -> list[tuple[float, Card]]:
        """Playable cards best first, with their scores."""
        cards = plays_of(view.legal)
        scored = [(self.card_score(view, know, c), c) for c in cards]
        scored.sort(key=lambda sc: (-sc[0], sc[1].code))
        return scored

    # ----- decisions ---------------------------------------------------------------------

    def p_guilty(self, view: SeatView, know: Knowledge) -> float:
        """Chance the Wild Draw Four played on us was a bluff.

        The plain assumption is the chance the player held the colour; with a memory it is
        scaled by how much more or less often than assumed this player's challenged cards
        were bluffs this match (:meth:`Memory.bluff_factor`).
        """
        offender = view.wd4_by
        colour = know.colour_before_wd4
        if offender < 0 or colour is None:
            return 0.0
        p = know.p_holds(offender, colour)
        if self.memory is not None:
            return min(1.0, p * self.memory.bluff_factor(offender))
        inf = know.info.get(offender)
        if inf is not None and inf.guilty + inf.innocent:
            honesty = (inf.guilty + 1) / (inf.guilty + inf.innocent + 1)
            p *= min(1.0, honesty)
        return p

    def decide(self, view: SeatView, know: Knowledge | None = None) -> Action:
        """The policy's action for ``view`` (the caller handled UNO, catches and dealing)."""
        legal = view.legal
        phase = view.phase
        know = know or Knowledge(view)
        if phase == Phase.COLOUR:
            return ChooseColour(self.best_colour(view, know, list(view.hand)))
        if phase == Phase.TARGET:
            return choose_target(view)
        if phase == Phase.DISCARD:
            return choose_discard(view, self.points)
        ranked = self.ranked_plays(view, know)
        if phase == Phase.CHALLENGE:
            if ranked:  # stacking: pass the penalty on
                return with_uno(ranked[0][1], legal)
            if CHALLENGE in legal:
                limit = self.W["challenge2"] if len(view.active) == 2 else self.W["challenge"]
                if self.p_guilty(view, know) > limit:
                    return CHALLENGE
            return ACCEPT if ACCEPT in legal else legal[0]
        if ranked:
            score, best = ranked[0]
            if phase == Phase.DRAWN and KEEP in legal and score < 0:
                return KEEP
            if phase == Phase.PLAY and score < 0 and not view.pending and DRAW in legal:
                return DRAW
            return with_uno(best, legal)
        if DRAW in legal:
            return DRAW
        return KEEP if KEEP in legal else legal[0]


class HardBot(BaseBot):
    """The strong level: :class:`HardPolicy` plus search in close endgame decisions.

    Args:
        rng: random source for sampling hidden hands.
        objective: ``"hands"`` or ``"points"``.
        deadline: seconds the search may take per decision (it answers by then).
        rollouts: most playouts per decision (the search stops at whichever comes first;
            with ``deadline=None`` a seeded game is exactly reproducible).
        search: turn the search off to get the bare policy.
        learn: learn each opponent's Wild Draw Four honesty and challenge rate over the
            match (:mod:`unotui.bots.memory`); off, the plain bot's fixed assumptions
            (default: the class's ``LEARNS``).
    """

    name = "hard"
    uses_log = True
    LEARNS = True
    """Whether the level learns by default (``learn=None``)."""

    def __init__(
        self,
        rng: Random | None = None,
        *,
        objective: str = "hands",
        deadline: float | None = 0.04,
        rollouts: int = 96,
        search: bool = True,
        think_delay: float = 0.0,
        catch_delay: float = 2.0,
        catch_rate: float = 1.0,
        learn: bool | None = None,
    ) -> None:
        super().__init__(rng, think_delay=think_delay, catch_delay=catch_delay, catch_rate=catch_rate)
        self.objective = objective
        self.memory = Memory() if (self.LEARNS if learn is None else learn) else None
        self.policy = self._policy(objective, self.memory)
        self.deadline = deadline
        self.rollouts = rollouts
        self.search = search

    @staticmethod
    def _policy(objective: str, memory: Memory | None) -> HardPolicy:
        return HardPolicy(objective, memory)

    def observe(self, view: SeatView) -> None:
        """Learn from the events of ``view`` not seen yet (every view the bot is given)."""
        if self.memory is not None:
            self.memory.observe(view)

    def react(self, view: SeatView) -> Action | None:
        """Learn from the view, then the shared out-of-turn behaviour."""
        self.observe(view)
        return super().react(view)

    def choose(self, view: SeatView) -> Action:
        """Housekeeping, then the policy, refined by search where it is close."""
        self.observe(view)
        first = self.housekeeping(view)
        if first is not None:
            return first
        start = time.perf_counter()
        know = Knowledge(view)
        action = self.policy.decide(view, know)
        if self.search and view.phase in (Phase.PLAY, Phase.DRAWN) and self.rollouts > 0:
            stop = None if self.deadline is None else start + self.deadline
            action = refine(view, know, self.policy, action, self.rng, self.rollouts, stop)
        return action


class HonestPolicy(HardPolicy):
    """The hard policy that never bluffs a Wild Draw Four (the benchmark's honest player)."""

    def ranked_plays(self, view: SeatView, know: Knowledge) -> list[tuple[float, Card]]:
        """The hard policy's plays without a Wild Draw Four while holding the colour."""
        ranked = super().ranked_plays(view, know)
        if any(c.colour is view.colour for c in view.hand):
            ranked = [(s, c) for s, c in ranked if c.rank is not Rank.WILD4]
        return ranked


class HonestBot(HardBot):
    """``honest``: hard (plain: it learns nothing) that never bluffs a Wild Draw Four.

    The opponent against which the plain hard bot's challenges lose (``bench/bots.py
    --learning``); its search only refines among the plays its policy ranks, so it
    cannot pick a bluff either.
    """

    name = "honest"

    LEARNS = False

    @staticmethod
    def _policy(objective: str, memory: Memory | None) -> HardPolicy:
        return HonestPolicy(objective, memory)


def suggest(view: SeatView, objective: str = "hands") -> Action:
    """A hint for a human: what the hard policy would do now (no search, instant).

    UNO calls come first, then dealing.  Out of turn it suggests a jump-in or a catch if
    there is one.

    Raises:
        ValueError: the view offers no action at all (nothing to suggest).
    """
    legal = view.legal
    if not legal:
        raise ValueError("no action is possible for this seat now")
    if CALL_UNO in legal:
        return CALL_UNO
    if DEAL in legal:
        return DEAL
    if view.actor != view.seat:
        return legal[0]
    return HardPolicy(objective).decide(view)
