"""The moves of the turn flow that every action is made of: whose decision is awaited,
passing the turn on, drawing, hands changing places, and the queued steps of a card.

These are functions of a :class:`~unotui.engine.game.Game`'s state, which they change
in place; :mod:`unotui.engine.turns` (what each action does) and
:mod:`unotui.engine.rounds` (dealing and scoring) are made of them.  Everything here
assumes the action that led here was already found legal.

Multi-step cards (a wild needs a colour, a swap needs a target, a custom wild may need
discards from several seats) push their remaining steps onto ``todo`` and wait for the
decision; :func:`run` resumes them when it arrives.  The phases and the step types live
in :mod:`unotui.engine.flow`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import Card, Rank
from .events import EventKind, new_event
from .flow import (
    ADVANCE_0,
    ADVANCE_2,
    Advance,
    AskColour,
    Begin,
    Hit,
    Phase,
    Resize,
    RunEffect,
    seat_after,
)
from .rules import Effect, Stacking
from .shuffle import Label

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "advance",
    "await_",
    "can_play_drawn",
    "draw",
    "next_seat",
    "pull",
    "run",
    "shuffle_hands",
    "shuffled",
    "take",
]

# The enum members this module compares with, as module globals: on Python 3.11 reading
# ``Phase.PLAY`` goes through the enum's class attribute machinery (about 100 ns, a global
# read about 8 ns), and a move makes several such reads: bench/engine.py plays about 7%
# more hands per second this way (best of 9 x 300 hands: 76 ms, not 81), which is what
# keeps it above 80% of what the engine played before its split (about 64 ms).
_CHALLENGE = Phase.CHALLENGE
_COLOUR = Phase.COLOUR
_DISCARD = Phase.DISCARD
_PLAY = Phase.PLAY
_TARGET = Phase.TARGET
_WILD4 = Rank.WILD4

# The event kinds written here, as module globals like the phases and ranks in turns.py
# (an enum member's lookup costs more than a global's, on nearly every action).
_E_DISCARD = EventKind.DISCARD
_E_DRAW = EventKind.DRAW
_E_EFFECT = EventKind.EFFECT
_E_RESHUFFLE = EventKind.RESHUFFLE
_E_ROTATE = EventKind.ROTATE
_E_SHUFFLE = EventKind.SHUFFLE
_E_SKIP = EventKind.SKIP



def shuffled(g: Game, label: str, cards: Sequence[Card]) -> list[Card]:
    """The next shuffle of kind ``label`` this round (top first): every random outcome
    of a round goes through here (:mod:`unotui.engine.shuffle`)."""
    ordinal = g._ordinals[label] = g._ordinals.get(label, 0) + 1
    return g.shuffler.shuffled(g.round_no, label, ordinal, cards)


# ----- turn flow ----------------------------------------------------------------------


def await_(g: Game, phase: Phase, seat: int) -> None:
    """Wait for ``seat``'s decision of kind ``phase``."""
    g.phase = phase
    g.actor = seat


def advance(g: Game, steps: int) -> None:
    """Pass the turn ``steps`` seats on and wait for that seat to play."""
    na = len(g.active)
    g.pos = (g.pos + steps * g.direction) % na
    seat = g.active[g.pos]
    if g.face_up_until == seat:
        g.face_up_until = -1
    g.phase = _PLAY
    g.actor = seat


def next_seat(g: Game, seat: int | None = None, steps: int = 1) -> int:
    """The seat ``steps`` places after ``seat`` (default: the turn) in the direction of play."""
    pos = g.pos if seat is None else g.active.index(seat)
    return seat_after(g.active, pos, g.direction, steps)


def run(g: Game) -> None:
    """Carry out queued steps until one waits for a decision or the queue is empty."""
    todo = g.todo
    while todo:
        step = todo.pop(0)
        match step:
            case Advance(steps):
                advance(g, steps)
            case AskColour():
                await_(g, _COLOUR, g.active[g.pos])
                return
            case Hit():
                _hit(g)
            case Begin():
                await_(g, _PLAY, g.active[g.pos])
            case Resize(seat, size):
                if _resize(g, seat, size):
                    return
            case RunEffect(index):
                if _effect(g, Effect(g.rules.custom.effects[index])):
                    return


def _hit(g: Game) -> None:
    """A Wild Draw Four landed and its colour is named: the next player faces it."""
    g.pending += 4
    advance(g, 1)
    if not g.rules.challenge and g.rules.stacking is Stacking.OFF:
        victim = g.actor
        count, g.pending, g.wd4 = g.pending, 0, None
        draw(g, victim, count, "penalty")
        g.log.append(new_event((_E_SKIP, victim, (), -1, 0, "", -1)))
        advance(g, 1)
    else:
        g.phase = _CHALLENGE


# ----- drawing ------------------------------------------------------------------------


def pull(g: Game) -> Card | None:
    """Top card of the draw pile, reshuffling the discards (all but the top) if needed."""
    pile = g.draw_pile
    if not pile:
        if len(g.discard) <= 1:
            return None
        rest = shuffled(g, Label.RESHUFFLE, g.discard[:-1])  # top first
        del g.discard[:-1]
        rest.reverse()
        pile.extend(rest)
        g.log.append(new_event((_E_RESHUFFLE, -1, (), -1, len(rest), "", -1)))
    return pile.pop()


def draw(g: Game, seat: int, count: int, note: str) -> list[Card]:
    """Seat draws up to ``count`` cards (fewer if both piles run out)."""
    got: list[Card] = []
    for _ in range(count):
        card = pull(g)
        if card is None:
            break
        got.append(card)
    take(g, seat, got, note)
    return got


def take(g: Game, seat: int, got: list[Card], note: str) -> None:
    """``seat`` takes the cards ``got`` into its hand (a private ``draw`` event)."""
    if got:
        g.hands[seat] += got
        g.log.append(new_event((_E_DRAW, seat, tuple(got), -1, len(got), note, seat)))
        g.uno_called[seat] = False
        if g.uno_open == seat:
            g.uno_open = -1


def can_play_drawn(g: Game, seat: int, card: Card) -> bool:
    """Whether the card just drawn may be played (it matches; no-bluffing allows it)."""
    if not g.playable(card):
        return False
    if card.rank is _WILD4 and g.rules.no_bluffing:
        colour = g.colour
        return not any(c.colour is colour for c in g.hands[seat])
    return True


# ----- hands changing places ----------------------------------------------------------


def rotate_hands(g: Game) -> None:
    """Seven-o zero: every hand passes to the next seat in the direction of play."""
    old = [g.hands[s] for s in g.active]
    na = len(g.active)
    for i, seat in enumerate(g.active):
        g.hands[g.active[(i + g.direction) % na]] = old[i]
        g.uno_called[seat] = False
    g.uno_open = -1
    g.log.append(new_event((_E_ROTATE, -1, (), -1, g.direction, "", -1)))


def shuffle_hands(g: Game, seat: int) -> None:
    """Rule 25: gather all hands, shuffle, deal out evenly from the player's left."""
    pool = shuffled(g, Label.HANDS, [c for s in g.active for c in g.hands[s]])
    for s in g.active:
        g.hands[s] = []
        g.uno_called[s] = False
    g.uno_open = -1
    na = len(g.active)
    start = g.active.index(seat)
    for i, card in enumerate(pool):  # from the left (seat numbers rising), whatever the direction
        g.hands[g.active[(start + i + 1) % na]].append(card)
    g.log.append(new_event((_E_SHUFFLE, seat, (), -1, 0, "", -1)))


# ----- the customizable wild ------------------------------------------------------------


def _effect(g: Game, effect: Effect) -> bool:
    """Apply one custom wild effect; True if it now waits for a decision."""
    seat = g.active[g.pos]
    victim = next_seat(g)
    g.log.append(new_event((_E_EFFECT, seat, (), -1, 0, effect.value, -1)))
    if effect is Effect.DRAW_UNTIL_COLOUR:
        got: list[Card] = []
        while (card := pull(g)) is not None:
            got.append(card)
            if card.colour is g.colour:
                break
        take(g, victim, got, "effect")
    elif effect is Effect.DISCARD_WILDS:
        for s in g.active:
            if s == seat:
                continue
            wilds = [c for c in g.hands[s] if c.is_wild]
            if wilds:
                g.hands[s] = [c for c in g.hands[s] if not c.is_wild]
                g.discard[0:0] = wilds
                g.log.append(new_event((_E_DISCARD, s, tuple(wilds), -1, 0, "", -1)))
                if not g.hands[s]:
                    draw(g, s, 1, "effect")
    elif effect is Effect.DRAW3_IF_STUCK:
        if not any(g.playable(c) for c in g.hands[victim]):
            draw(g, victim, 3, "effect")
            _skip_next(g)
    elif effect is Effect.EXTRA_TURN:
        g.todo[-1] = ADVANCE_0
    elif effect is Effect.SKIP_NEXT:
        _skip_next(g)
    elif effect is Effect.NEXT_DRAWS_TWO:
        draw(g, victim, 2, "effect")
    elif effect is Effect.NEXT_TO_SEVEN:
        g.todo.insert(0, Resize(victim, 7))
    elif effect is Effect.ALL_TO_THREE:
        na = len(g.active)
        order = [g.active[(g.pos + k * g.direction) % na] for k in range(na)]
        g.todo[0:0] = [Resize(s, 3) for s in order]
    elif effect is Effect.HANDS_FACE_UP:
        g.face_up_until = seat
    elif effect is Effect.SWAP_HANDS:
        await_(g, _TARGET, seat)
        return True
    elif effect is Effect.SHUFFLE_HANDS:
        shuffle_hands(g, seat)
    return False


def _skip_next(g: Game) -> None:
    # A custom wild's queue ends with its Advance; an extra turn already won stays.
    if g.todo[-1] != ADVANCE_0:
        g.todo[-1] = ADVANCE_2
        g.log.append(new_event((_E_SKIP, next_seat(g), (), -1, 0, "", -1)))


def _resize(g: Game, seat: int, size: int) -> bool:
    """Seat draws or discards to exactly ``size`` cards; True if it must discard."""
    have = len(g.hands[seat])
    if have < size:
        draw(g, seat, size - have, "effect")
    elif have > size:
        g.discard_left = have - size
        await_(g, _DISCARD, seat)
        return True
    return False

