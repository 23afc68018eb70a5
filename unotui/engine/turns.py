"""What each action does: card effects, drawing on one's turn, colours, challenges,
hands changing places, UNO calls and catches, the next deal.

One function per kind of action, each a function of a
:class:`~unotui.engine.game.Game`'s state, which it changes in place; :data:`HANDLERS`
maps an action's type to its function, for :meth:`Game.apply
<unotui.engine.game.Game.apply>`.  Everything here assumes the action was already found
legal.  The moves they are made of are in :mod:`unotui.engine.steps`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .actions import (
    Accept,
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
)
from .cards import Card, Rank, by_code
from .events import EventKind, new_event
from .flow import ADVANCE_1, ASK_COLOUR, HIT, Phase, RunEffect
from .rounds import go_out, start_round
from .rules import Stacking
from .steps import (
    advance,
    await_,
    can_play_drawn,
    draw,
    next_seat,
    pull,
    rotate_hands,
    run,
    shuffle_hands,
    take,
)

if TYPE_CHECKING:
    from .game import Game

__all__ = ["HANDLERS"]

# The enum members this module compares with, as module globals: on Python 3.11 reading
# ``Phase.PLAY`` goes through the enum's class attribute machinery (about 100 ns, a global
# read about 8 ns), and a move makes several such reads: bench/engine.py plays about 7%
# more hands per second this way (best of 9 x 300 hands: 76 ms, not 81), which is what
# keeps it above 80% of what the engine played before its split (about 64 ms).
_COLOUR = Phase.COLOUR
_DRAWN = Phase.DRAWN
_PLAY = Phase.PLAY
_TARGET = Phase.TARGET
_CUSTOM = Rank.CUSTOM
_DRAW2 = Rank.DRAW2
_N0 = Rank.N0
_N7 = Rank.N7
_REVERSE = Rank.REVERSE
_SHUFFLE = Rank.SHUFFLE
_SKIP = Rank.SKIP
_SWAP = Rank.SWAP
_WILD4 = Rank.WILD4

# The event kinds written here, as module globals like the phases and ranks above
# (an enum member's lookup costs more than a global's, on nearly every action).
_E_ACCEPT = EventKind.ACCEPT
_E_CATCH = EventKind.CATCH
_E_CHALLENGE = EventKind.CHALLENGE
_E_COLOUR = EventKind.COLOUR
_E_DISCARD = EventKind.DISCARD
_E_JUMP = EventKind.JUMP
_E_KEEP = EventKind.KEEP
_E_PASS = EventKind.PASS
_E_PLAY = EventKind.PLAY
_E_REVEAL = EventKind.REVEAL
_E_REVERSE = EventKind.REVERSE
_E_SKIP = EventKind.SKIP
_E_SWAP = EventKind.SWAP
_E_UNO = EventKind.UNO


# ----- drawing ------------------------------------------------------------------------


def on_draw(g: Game, seat: int, action: object = None) -> None:
    """Draw on one's turn (rule 10), or take the stacked penalty that is due.

    After a turn draw the drawer is *always* in phase ``drawn``, whether or not the
    hidden card can be played (if it cannot, ``keep`` is the only legal action).  So
    the others learn only whether the drawn card is then played, as at a real table.
    Only when both piles are empty does the turn pass at once (a public ``pass``).
    """
    if g.pending:
        count, g.pending, g.wd4 = g.pending, 0, None
        draw(g, seat, count, "penalty")
        g.log.append(new_event((_E_SKIP, seat, (), -1, 0, "", -1)))
        advance(g, 1)
        return
    got: list[Card] = []
    while True:
        pulled = pull(g)
        if pulled is None:
            break
        got.append(pulled)
        if not g.rules.draw_to_match or can_play_drawn(g, seat, pulled):
            break
    if not got:
        g.log.append(new_event((_E_PASS, seat, (), -1, 0, "", -1)))
        advance(g, 1)
        return
    take(g, seat, got, "turn")
    g.drawn = got[-1]  # under draw-to-match unplayable only if the piles ran out
    g.phase = _DRAWN


def on_keep(g: Game, seat: int, action: object = None) -> None:
    drawn = g.drawn
    assert drawn is not None
    # Public: that seat kept the card.  The card itself only to that seat (``to``).
    g.log.append(new_event((_E_KEEP, seat, (drawn,), -1, 0, "", seat)))
    g.drawn = None
    advance(g, 1)


# ----- playing ------------------------------------------------------------------------


def on_play(g: Game, seat: int, action: Any) -> None:
    card: Card = action.card
    uno: bool = action.uno
    hand = g.hands[seat]
    hand.remove(card)
    if seat != g.actor:
        g.pos = g.active.index(seat)
        g.actor = seat
        if g.face_up_until == seat:  # jumping in is the player's next turn
            g.face_up_until = -1
        g.log.append(new_event((_E_JUMP, seat, (card,), -1, 0, "", -1)))
    else:
        g.log.append(new_event((_E_PLAY, seat, (card,), -1, int(uno), "", -1)))
    g.discard.append(card)
    g.top = card
    if card.colour is not None:
        g.colour = card.colour
    g.drawn = None
    left = len(hand)
    if left == 1:
        g.uno_called[seat] = uno
        if not uno:
            g.uno_open = seat
    rank = card.rank
    if not left:
        go_out(g, seat, card)
        return
    if rank <= 9:
        if g.rules.seven_o:
            if rank is _N7:
                g.todo = [ADVANCE_1]
                await_(g, _TARGET, seat)
                return
            if rank is _N0:
                rotate_hands(g)
        advance(g, 1)
    elif rank is _SKIP:
        g.log.append(new_event((_E_SKIP, next_seat(g), (), -1, 0, "", -1)))
        advance(g, 2)
    elif rank is _REVERSE:
        g.direction = -g.direction
        g.log.append(new_event((_E_REVERSE, -1, (), -1, g.direction, "", -1)))
        if len(g.active) == 2:
            g.log.append(new_event((_E_SKIP, next_seat(g), (), -1, 0, "", -1)))
            advance(g, 2)
        else:
            advance(g, 1)
    elif rank is _DRAW2:
        g.wd4 = None
        if g.rules.stacking is not Stacking.OFF:
            g.pending += 2
            advance(g, 1)
        else:
            victim = next_seat(g)
            draw(g, victim, 2, "penalty")
            g.log.append(new_event((_E_SKIP, victim, (), -1, 0, "", -1)))
            advance(g, 2)
    else:
        _play_wild(g, seat, card, hand)


def _play_wild(g: Game, seat: int, card: Card, hand: list[Card]) -> None:
    """A wild was played (the colour in play is still the one before it)."""
    rank = card.rank
    if rank is _WILD4:
        # The hand as it was, for a challenge (sorted: its order would tell which
        # card arrived when).
        g.wd4 = (seat, g.colour, tuple(sorted(hand, key=by_code)))
        g.todo = [HIT]
    elif rank is _SWAP:
        g.todo = [ASK_COLOUR, ADVANCE_1]
        await_(g, _TARGET, seat)
        return
    elif rank is _SHUFFLE:
        shuffle_hands(g, seat)
        g.todo = [ADVANCE_1]
    elif rank is _CUSTOM:
        effects = g.rules.custom.effects
        g.todo = [*map(RunEffect, range(len(effects))), ADVANCE_1]
    else:
        g.todo = [ADVANCE_1]
    await_(g, _COLOUR, seat)


def on_colour(g: Game, seat: int, action: ChooseColour) -> None:
    g.colour = colour = action.colour
    g.log.append(new_event((_E_COLOUR, seat, (), -1, int(colour), "", -1)))
    todo = g.todo
    if len(todo) == 1 and todo[0] is ADVANCE_1:  # a plain wild: the next player's turn
        todo.clear()
        advance(g, 1)
    else:
        run(g)


def _on_challenge(g: Game, seat: int, challenged: bool) -> None:
    count, g.pending = g.pending, 0
    wd4, g.wd4 = g.wd4, None
    if challenged and wd4 is not None:
        offender, colour, snapshot = wd4
        guilty = any(c.colour is colour for c in snapshot)
        g.log.append(new_event((_E_CHALLENGE, seat, (), offender, int(guilty), "", -1)))
        g.log.append(new_event((_E_REVEAL, offender, snapshot, seat, 0, "", seat)))
        if guilty:
            draw(g, offender, count, "challenge")
            g.phase = _PLAY  # the challenger plays on
            return
        count += 2
    else:
        g.log.append(new_event((_E_ACCEPT, seat, (), -1, 0, "", -1)))
    draw(g, seat, count, "penalty")
    g.log.append(new_event((_E_SKIP, seat, (), -1, 0, "", -1)))
    advance(g, 1)


# ----- hands changing places, UNO, the next deal ----------------------------------------


def on_target(g: Game, seat: int, action: ChooseTarget) -> None:
    target = action.seat
    hands = g.hands
    hands[seat], hands[target] = hands[target], hands[seat]
    g.uno_called[seat] = g.uno_called[target] = False
    if g.uno_open in (seat, target):
        g.uno_open = -1
    g.log.append(new_event((_E_SWAP, seat, (), target, 0, "", -1)))
    run(g)


def on_discard(g: Game, seat: int, action: Discard) -> None:
    card = action.card
    g.hands[seat].remove(card)
    g.discard.insert(0, card)  # under the pile: the top card and colour stay
    g.log.append(new_event((_E_DISCARD, seat, (card,), -1, 0, "", -1)))
    g.discard_left -= 1
    if not g.discard_left:
        run(g)


def on_uno(g: Game, seat: int, action: object = None) -> None:
    g.uno_open = -1
    g.uno_called[seat] = True
    g.log.append(new_event((_E_UNO, seat, (), -1, 0, "", -1)))


def on_catch(g: Game, seat: int, action: Catch) -> None:
    g.uno_open = -1
    g.log.append(new_event((_E_CATCH, seat, (), action.seat, 0, "", -1)))
    draw(g, action.seat, g.rules.uno_penalty, "uno")


def on_deal(g: Game, seat: int, action: object = None) -> None:
    g.dealer = seat
    start_round(g)


#: What each type of action does (``Game.apply`` looks the action's type up here).
HANDLERS: dict[type, Callable[[Game, int, Any], None]] = {
    Play: on_play,
    Draw: on_draw,
    Keep: on_keep,
    ChooseColour: on_colour,
    ChooseTarget: on_target,
    Challenge: lambda g, seat, a: _on_challenge(g, seat, True),
    Accept: lambda g, seat, a: _on_challenge(g, seat, False),
    CallUno: on_uno,
    Catch: on_catch,
    Discard: on_discard,
    Deal: on_deal,
}
