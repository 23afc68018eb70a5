"""When things are due at a table: the referee's state as a plain value, and the schedule.

:class:`RefereeState` is what a :class:`~unotui.table.Referee` knows beyond the game: who
decides for each seat and the moments things happened.  The schedule is a pure function
of it and the game: :func:`next_due` answers "what must happen next, and when", and
:func:`deadlines` the public clocks.  Neither changes anything; the referee applies what is
due and records the moments.  So the rules of timing can be read (and tested) apart from
the code that acts on them.

Every deadline is computed from moments recorded when something happened (the actor's
decision became due, a catch window opened, the round ended, a seat dropped), never from
"now": so a deadline is set once and nothing unrelated moves it.

How the deadlines are set:

* A computer player's turn: ``bot_delay`` after the decision became due (the seat's
  previous action, or the move that made it the actor).  While a seat that forgot UNO can
  be caught, the next player, if a computer player, waits until everyone had the chance:
  the grace, every computer player's chance to react, and its own catch delay.
* Out of turn (UNO calls, catches, jump-ins): each computer player is asked once for each
  state in which it has something to do, at ``window opened + max(catch_grace, its
  catch_delay)`` (and at least a person's reaction after the grace: :func:`pauses`) while
  a catch window is open (``bot_delay`` after the play for jump-ins).
  At equal times: the seat that forgot UNO first, then the seats after the actor in seat
  order, the actor last, and out-of-turn actions before the actor's own turn.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from ..bots import Bot
from ..engine import KEEP, Action, Game, Phase, SeatView
from .outcome import CATCH_REACTION, MIN_CATCH_GRACE, Deadlines, Pacing
from .seats import HumanSeat

__all__ = [
    "HOLD",
    "KEEP_DUE",
    "NO_DEADLINES",
    "REACT",
    "TIMEOUT",
    "TURN",
    "UNREADY",
    "Decision",
    "Due",
    "RefereeState",
    "deadlines",
    "next_due",
    "only_keep",
    "pauses",
]

# Kinds of due item; at equal deadlines the lower kind goes first.
REACT, TURN, KEEP_DUE, TIMEOUT, UNREADY, HOLD = range(6)

NO_DEADLINES = Deadlines()

# The phases the schedule tells apart, compared by identity: next_due runs before every
# move, and each ``Phase.X`` lookup costs about 0.1 µs on Python 3.11.
_PLAY, _DRAWN, _ROUND_OVER, _MATCH_OVER = Phase.PLAY, Phase.DRAWN, Phase.ROUND_OVER, Phase.MATCH_OVER


Due = tuple[float, int, int, int]
"""One thing the referee must do: ``(when, kind, rank, seat)``.  Items compare as tuples:
the earliest first, then by kind, then by rank (the order among equals).  A plain tuple,
not a named one: one is made for every move, and a named tuple costs 0.4 µs more."""


class Decision(NamedTuple):
    """A computer player's turn decision that is due, for a driver that decides elsewhere.

    Attributes:
        seat: the seat deciding.
        bot: the computer player (call ``bot.choose(view)``).
        view: what the seat may see, at ``version``.
        version: the game's version the decision is for; an answer for an older
            version is stale and :meth:`Referee.decided` drops it.
    """

    seat: int
    bot: Bot
    view: SeatView
    version: int


@dataclass(slots=True, eq=False)
class RefereeState:
    """What the referee knows beyond the game (the schedule reads it, the referee writes it).

    Attributes:
        pacing: the table's timing rules.
        brains: who decides for each seat: a bot, or ``None`` while a person does.
        think: each seat's pause before a decision ...
        catch: ... and before a catch (both of whoever decides for it now).
        jump_in: the rules allow jump-ins.
        started: the clocks have started (at the first call of any kind).
        since: when the actor's current decision became due.
        win_seat: the seat that can be caught now (-1: none) ...
        win_opened: ... and since when.
        ended_at: when the round ended.
        ready_at: when every person needed had read the result (``None``: not yet).
        asked: the computer players asked to react in the state ``asked_version``.
        asked_version: the game's version ``asked`` is for.
        away: the dropped seats, in the order they dropped.
    """

    pacing: Pacing
    brains: list[Bot | None]
    think: list[float]
    catch: list[float]
    jump_in: bool
    win_seat: int
    started: bool = False
    since: float = 0.0
    win_opened: float = 0.0
    ended_at: float = 0.0
    ready_at: float | None = None
    asked: set[int] = field(default_factory=set)
    asked_version: int = -1
    away: list[HumanSeat] = field(default_factory=list)


def next_due(game: Game, state: RefereeState) -> Due | None:
    """The earliest thing the referee must do, with its deadline (``None``: nothing until
    some other call)."""
    phase = game.phase
    best: Due | None = None
    if state.away:
        hold = state.pacing.hold
        best = min(((h.away_since or 0.0) + hold, HOLD, 0, h.seat) for h in state.away)
    if phase is _MATCH_OVER:
        return best
    actor = game.actor
    pacing = state.pacing
    last_react = -math.inf
    offender = game.uno_open
    if phase is not _ROUND_OVER and (
        offender >= 0 or (state.jump_in and phase is _PLAY and not game.pending)
    ):
        for react in _reactions(game, state):
            if best is None or react < best:
                best = react
            if react[0] > last_react:
                last_react = react[0]
    brain = state.brains[actor]
    item: Due | None
    if phase is _ROUND_OVER:
        item = _deal_item(game, state, brain is None)
    elif phase is _DRAWN and brain is None:
        item = _drawn_item(state, actor)
    elif brain is not None:
        think = state.think[actor]
        when = state.since + think
        if offender >= 0:
            opened = state.win_opened
            when = max(when, opened + pacing.catch_grace + think, opened + state.catch[actor], last_react)
        elif last_react > when:
            when = last_react
        # A computer player's drawn card is kept at the moment it would have decided:
        # when only keeping is left, the table keeps it for it (the bot is not asked).
        keep = phase is _DRAWN and only_keep(game.legal_actions(actor))
        item = (when, KEEP_DUE if keep else TURN, 0, actor)
    elif pacing.turn_timer is not None:
        item = (state.since + pacing.turn_timer, TIMEOUT, 0, actor)
    else:
        return best
    if item is not None and (best is None or item < best):
        best = item
    return best


def deadlines(game: Game, state: RefereeState) -> Deadlines:
    """The public clocks now: turn timer, end of the catch grace, held seats."""
    pacing = state.pacing
    timer = pacing.turn_timer
    if timer is None and game.uno_open < 0 and not state.away:
        return NO_DEADLINES
    turn = None
    actor = game.actor
    if timer is not None and actor >= 0 and state.brains[actor] is None and game.phase is not _MATCH_OVER:
        if game.phase is _DRAWN:
            turn = (actor, _drawn_item(state, actor)[0])  # the card is kept then
        elif game.phase is not _ROUND_OVER:
            turn = (actor, state.since + timer)
        elif state.ready_at is not None:
            turn = (actor, state.ready_at + timer)
    catch = (game.uno_open, state.win_opened + pacing.catch_grace) if game.uno_open >= 0 else None
    holds = tuple((h.seat, (h.away_since or 0.0) + pacing.hold) for h in state.away)
    return Deadlines(turn, catch, holds)


def only_keep(legal: Iterable[Action]) -> bool:
    """Whether keeping the drawn card is the only choice."""
    it = iter(legal)
    first = next(it, None)
    return first == KEEP and next(it, None) is None


def _reactions(game: Game, state: RefereeState) -> list[Due]:
    """The computer players not yet asked that may act out of turn now, with their
    deadlines (a catch window open, or jump-ins allowed)."""
    n, actor, offender = game.n, game.actor, game.uno_open
    asked = state.asked if state.asked_version == game.version else ()
    order = [*range(actor + 1, n), *range(actor)]
    if offender >= 0:
        if offender != actor:
            order.remove(offender)
            order.insert(0, offender)
        order.append(actor)  # the actor may catch (or call) too, before its turn
    grace = state.pacing.catch_grace
    out: list[Due] = []
    for rank, seat in enumerate(order):
        if state.brains[seat] is None or seat in asked or not game.legal_actions(seat):
            continue
        if offender >= 0:
            when = state.win_opened + max(grace, state.catch[seat])
        else:
            when = state.since + state.think[seat]
        out.append((when, REACT, rank, seat))
    return out


def _drawn_item(state: RefereeState, seat: int) -> Due:
    """A person's decision after a draw: the same deadline whether or not the card can
    be played, so that its timing tells the others nothing (rules.md: they learn only
    whether the card is then played).  With a turn timer shorter than ``auto_keep``,
    the timer's timeout (counted as one) ends it instead, again in both cases."""
    timer = state.pacing.turn_timer
    if timer is not None and timer <= state.pacing.auto_keep:
        return (state.since + timer, TIMEOUT, 0, seat)
    return (state.since + state.pacing.auto_keep, KEEP_DUE, 0, seat)


def _deal_item(game: Game, state: RefereeState, person: bool) -> Due | None:
    """Between rounds: the dealer's deal once everyone needed is ready."""
    pacing = state.pacing
    ready_at = state.ready_at
    if ready_at is None:
        if pacing.turn_timer is None:
            return None
        return (state.ended_at + pacing.turn_timer, UNREADY, 0, -1)
    dealer = game.actor
    if person:
        if pacing.turn_timer is None:
            return None
        return (ready_at + pacing.turn_timer, TIMEOUT, 0, dealer)
    if pacing.between_rounds is None:
        return None
    when = max(ready_at + state.think[dealer], state.ended_at + pacing.between_rounds)
    return (when, TURN, 0, dealer)


def pauses(bot: Bot | None, pacing: Pacing) -> tuple[float, float]:
    """How long ``bot`` (``None``: a person) pauses before a decision and before a catch:
    the table's ``bot_delay`` and ``catch_grace``, or the bot's own longer delays when the
    table honours them (``bot_delays``).

    Both catch pauses count from the same moment, when the chance appears on every screen
    (the play that opened the window, in the view of that moment).  At a real table's
    grace a computer player also waits :data:`~unotui.table.outcome.CATCH_REACTION` after
    catching opens for people, so a person watching for it always has the first catch."""
    grace = pacing.catch_grace
    think, catch = pacing.bot_delay, grace
    if bot is not None and pacing.bot_delays:
        think = max(think, _seconds_of(bot, "think_delay"))
        catch = max(catch, _seconds_of(bot, "catch_delay"))
        if grace >= MIN_CATCH_GRACE:
            catch = max(catch, grace + CATCH_REACTION)
    return think, catch


def _seconds_of(bot: object, name: str) -> float:
    """A bot's own delay ``name`` in seconds (0 when it has none, or not a number)."""
    value = getattr(bot, name, 0.0)
    return float(value) if isinstance(value, (int, float)) else 0.0
