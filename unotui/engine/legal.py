"""Which actions a seat may take now, and why any other action is refused.

Functions of a :class:`~unotui.engine.game.Game`'s state that only read it:
:func:`legal` is every phase and every house rule (``Game.legal_actions`` caches its
answer), :func:`refuse` raises the most specific
:class:`~unotui.engine.errors.IllegalActionError` for an action that is not in it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NoReturn

from .actions import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    COLOUR_CHOICES,
    DEAL,
    DRAW,
    KEEP,
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    ChooseTarget,
    Deal,
    Discard,
    Draw,
    Keep,
    Play,
    play,
)
from .cards import ALL_CARDS, Card, Colour, Rank, by_code
from .errors import (
    BadChoiceError,
    CardNotInHandError,
    NoSuchSeatError,
    NotYourTurnError,
    UnplayableCardError,
    WrongPhaseError,
)
from .flow import Phase
from .rules import Stacking
from .steps import can_play_drawn

if TYPE_CHECKING:
    from .game import Game

__all__ = ["legal", "refuse"]

# The enum members this module compares with, as module globals: on Python 3.11 reading
# ``Phase.PLAY`` goes through the enum's class attribute machinery (about 100 ns, a global
# read about 8 ns), and a move makes several such reads: bench/engine.py plays about 7%
# more hands per second this way (best of 9 x 300 hands: 76 ms, not 81), which is what
# keeps it above 80% of what the engine played before its split (about 64 ms).
_CHALLENGE = Phase.CHALLENGE
_COLOUR = Phase.COLOUR
_DISCARD = Phase.DISCARD
_DRAWN = Phase.DRAWN
_MATCH_OVER = Phase.MATCH_OVER
_PLAY = Phase.PLAY
_ROUND_OVER = Phase.ROUND_OVER
_TARGET = Phase.TARGET
_DRAW2 = Rank.DRAW2
_WILD4 = Rank.WILD4



def legal(g: Game, seat: int) -> tuple[Action, ...]:
    """Every action ``seat`` may take now, out-of-turn ones included, in a fixed order
    (bots choose by position in it, so the order is part of a replayable game).

    Raises:
        NoSuchSeatError: ``seat`` is not a seat at this table.
    """
    if not 0 <= seat < g.n:
        raise NoSuchSeatError(f"there is no seat {seat} at this {g.n}-seat table")
    phase = g.phase
    hand = g.hands[seat]
    out: list[Action] = []
    if seat == g.actor:
        if phase is _PLAY:
            out = _plays(_stackable(g, hand) if g.pending else _matching(g, hand), hand)
            out.append(DRAW)
        elif phase is _DRAWN:
            drawn = g.drawn
            assert drawn is not None
            if can_play_drawn(g, seat, drawn):
                out = _plays([drawn], hand)
                if not g.rules.forced_play:
                    out.append(KEEP)
            else:
                out = [KEEP]  # the only choice; others cannot tell it from a keep by choice
        elif phase is _COLOUR:
            out = list(COLOUR_CHOICES)
        elif phase is _CHALLENGE:
            out = [CHALLENGE, ACCEPT] if g.rules.challenge else [ACCEPT]
            if g.rules.stacking is not Stacking.OFF:
                out += _plays(_stackable(g, hand), hand)
        elif phase is _TARGET:
            out = [ChooseTarget(s) for s in g.active if s != seat]
        elif phase is _DISCARD:
            out = [Discard(c) for c in _unique(hand)]
        elif phase is _ROUND_OVER:
            return (DEAL,) if seat == g.dealer else ()
    elif phase is _ROUND_OVER:
        return (DEAL,) if seat == g.dealer else ()
    elif phase is _MATCH_OVER:
        return ()
    elif g.rules.jump_in and phase is _PLAY and not g.pending:
        top = g.top
        if not top.is_wild and top in hand and seat in g.active:
            out += _plays([top], hand)
    uno_open = g.uno_open
    if uno_open >= 0:
        if seat == uno_open:
            out.append(CALL_UNO)
        elif seat in g.active:
            out.append(Catch(uno_open))
    return tuple(out)


def _matching(g: Game, hand: list[Card]) -> Iterable[Card]:
    """The distinct cards of ``hand`` that may be played on the discard pile now.

    Their order is the order of the set of matching cards (cards hash as their codes, so
    it is the same in every process), sorted when the hand holds two cards or the table
    plays jump-in or no-bluffing: the orders the engine has always offered, which every
    recorded game and seeded simulation depends on.
    """
    ok = _MATCH[g.colour, g.top.rank].intersection(hand)
    rules = g.rules
    if len(hand) == 2 or rules.jump_in or rules.no_bluffing:
        cards = sorted(ok, key=by_code)
        if rules.no_bluffing and _holds_colour(g, hand):
            cards = [c for c in cards if c.rank is not _WILD4]
        return cards
    return ok


def _plays(cards: Iterable[Card], hand: list[Card]) -> list[Action]:
    """Play actions for ``cards``.  With two cards in hand each play is offered plain
    and with the UNO call attached (forgetting to call is legal, and punishable)."""
    if len(hand) == 2:
        return [p for c in cards for p in (play(c), play(c, True))]
    return [play(c) for c in cards]


def _holds_colour(g: Game, hand: list[Card]) -> bool:
    colour = g.colour
    return any(c.colour is colour for c in hand)


def _stackable(g: Game, hand: list[Card]) -> list[Card]:
    """Cards of ``hand`` that may be stacked on the pending penalty (no bluffing applies
    to a stacked Wild Draw Four as to any other)."""
    ok = [c for c in _unique(hand) if _stacks(g, c)]
    if g.rules.no_bluffing and _holds_colour(g, hand):
        ok = [c for c in ok if c.rank is not _WILD4]
    return ok


def _stacks(g: Game, card: Card) -> bool:
    """Whether ``card`` may be stacked on the pending draw penalty."""
    mode = g.rules.stacking
    if mode is Stacking.OFF:
        return False
    top = g.top.rank
    if mode is Stacking.OFFICIAL:
        return card.rank is top and (top is _DRAW2 or top is _WILD4)
    if card.rank is _WILD4:
        return True
    return card.rank is _DRAW2 and (top is _DRAW2 or card.colour is g.colour)


def _unique(hand: list[Card]) -> list[Card]:
    """Distinct cards of a hand in first-held order (duplicates give the same action)."""
    return list(dict.fromkeys(hand)) if len(hand) > 1 else hand


def refuse(g: Game, seat: int, action: Action) -> NoReturn:
    """Raise the most specific error for an action that is not legal now."""
    if not 0 <= seat < g.n:
        raise NoSuchSeatError(f"there is no seat {seat} at this {g.n}-seat table")
    if g.phase is _MATCH_OVER:
        raise WrongPhaseError("the match is over")
    if isinstance(action, Deal):
        if g.phase is not _ROUND_OVER:
            raise WrongPhaseError("the round is still being played")
        raise NotYourTurnError(f"seat {g.dealer} deals the next round")
    if g.phase is _ROUND_OVER:
        raise WrongPhaseError(f"the round is over; seat {g.dealer} deals next")
    if isinstance(action, (ChooseTarget, Catch)) and not 0 <= action.seat < g.n:
        raise NoSuchSeatError(f"there is no seat {action.seat}")
    if isinstance(action, CallUno):
        raise WrongPhaseError("UNO can only be called right after going down to one card")
    if isinstance(action, Catch):
        raise BadChoiceError(f"seat {action.seat} cannot be caught now")
    if isinstance(action, (Play, Discard)) and action.card not in g.hands[seat]:
        raise CardNotInHandError(f"seat {seat} does not hold {action.card}")
    if seat != g.actor:
        if isinstance(action, Play) and g.rules.jump_in:
            raise UnplayableCardError(
                f"{action.card} is not identical to the top card {g.top}; no jump-in"
            )
        raise NotYourTurnError(f"it is seat {g.actor}'s decision, not seat {seat}'s")
    expected = _PHASE_ACTIONS[g.phase]
    if not isinstance(action, expected):
        raise WrongPhaseError(f"now is the time to {_PHASE_WORDS[g.phase]}")
    if isinstance(action, Play):
        if g.phase is _DRAWN and action.card is not g.drawn:
            raise UnplayableCardError(f"only the card just drawn ({g.drawn}) may be played")
        if action.card.rank is _WILD4 and g.rules.no_bluffing and _holds_colour(g, g.hands[seat]):
            raise UnplayableCardError(
                f"no bluffing: Wild Draw Four only without a {g.colour.name.lower()} card"
            )
        if g.pending:
            raise UnplayableCardError(f"{action.card} cannot be stacked on the draw penalty")
        raise UnplayableCardError(f"{action.card} does not match {g.top} ({g.colour.name.lower()})")
    if isinstance(action, Keep) and g.rules.forced_play:
        raise WrongPhaseError("forced play: a playable drawn card must be played")
    if isinstance(action, Challenge):
        raise WrongPhaseError("challenges are off at this table")
    raise BadChoiceError(f"{action} is not one of the choices now")


def _build_match() -> dict[tuple[Colour, Rank], frozenset[Card]]:
    """For each (colour in play, top rank): the cards that may be played on it."""
    table = {}
    for colour in Colour:
        for rank in Rank:
            table[colour, rank] = frozenset(
                c
                for c in ALL_CARDS
                if c.is_wild or c.colour is colour or (c.rank is rank and not rank.is_wild)
            )
    return table


_MATCH = _build_match()
_PHASE_ACTIONS: dict[Phase, type | tuple[type, ...]] = {
    _PLAY: (Play, Draw),
    _DRAWN: (Play, Keep),
    _COLOUR: ChooseColour,
    _TARGET: ChooseTarget,
    _DISCARD: Discard,
    _CHALLENGE: (Challenge, Accept, Play),
}
_PHASE_WORDS = {
    _PLAY: "play a card or draw",
    _DRAWN: "play the card just drawn or keep it",
    _COLOUR: "name a colour",
    _TARGET: "choose a player",
    _DISCARD: "discard a card",
    _CHALLENGE: "challenge or accept the Wild Draw Four",
}
