"""When things are due at a table: the referee's state and its scheduling.

:class:`Schedule` holds the state of a :class:`~unotui.table.Referee` (as slots) and
answers one question, "what must happen next, and when" (:meth:`Schedule.next_deadline`,
:meth:`Schedule.deadlines`).  It never changes the game; :mod:`unotui.table.referee`
applies what is due.  Kept apart so each half reads on its own.

Every deadline is computed from moments recorded when something happened (the actor's
decision became due, a catch window opened, the round ended, a seat dropped), never from
"now": so a deadline is set once and nothing unrelated moves it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from random import Random

from ..bots import Bot
from ..engine import KEEP, Action, Game, Phase, SeatView, seat_view
from .outcome import Accepted, Deadlines, Pacing, PresenceChange, Refusal
from .seats import HumanSeat

__all__ = [
    "HOLD",
    "KEEP_DUE",
    "NO_DEADLINES",
    "REACT",
    "TIMEOUT",
    "TURN",
    "UNREADY",
    "Item",
    "Schedule",
    "only_keep",
    "seconds_of",
]

# Kinds of scheduled item; at equal deadlines the lower kind goes first.
REACT, TURN, KEEP_DUE, TIMEOUT, UNREADY, HOLD = range(6)
# (deadline, kind, order among equals, seat)
Item = tuple[float, int, int, int]

NO_DEADLINES = Deadlines()


class Schedule:
    """The referee's state and what is due when (see the module docstring)."""

    __slots__ = (
        "_acc",
        "_asked",
        "_asked_version",
        "_away",
        "_bots",
        "_brains",
        "_cands",
        "_cands_key",
        "_catch",
        "_ended_at",
        "_ended_round",
        "_humans",
        "_jump_in",
        "_pres",
        "_ready_at",
        "_ref",
        "_reported",
        "_rng",
        "_since",
        "_stamp",
        "_started",
        "_think",
        "_uses_log",
        "_win_opened",
        "_win_seat",
        "bot_errors",
        "clock",
        "decision_ns",
        "game",
        "inline_bots",
        "pacing",
    )

    game: Game
    pacing: Pacing
    inline_bots: bool
    bot_errors: list[str]
    clock: Callable[[], int] | None
    decision_ns: list[list[int]]
    _rng: Random | None
    _humans: dict[int, HumanSeat]
    _bots: dict[int, Bot]
    _brains: list[Bot | None]  # who decides for each seat: a bot, or None while a person does
    _think: list[float]  # each seat's pause before a decision ...
    _catch: list[float]  # ... and before a catch
    _uses_log: list[bool]
    _jump_in: bool
    _started: bool
    _since: float  # when the actor's current decision became due
    _win_seat: int  # the seat that can be caught now, and since when
    _win_opened: float
    _ended_at: float  # when the round ended
    _ended_round: tuple[int, str]  # (round, phase) that _round_ended last saw
    _ready_at: float | None  # when every person needed had read the result
    _asked: set[int]  # bots asked to react in this state
    _asked_version: int
    _stamp: int  # bumps when who decides for a seat changes
    _cands: list[Item]  # reaction candidates of (version, stamp)
    _cands_key: tuple[int, int]
    _away: list[HumanSeat]
    _reported: Deadlines
    _acc: list[Accepted]
    _ref: list[Refusal]
    _pres: list[PresenceChange]

    def next_deadline(self) -> float | None:
        """When :meth:`tick` must next be called (``None``: only after some other call).

        Before the first call of any method the clocks have not started: ``None``.
        """
        if not self._started:
            return None
        item = self._next_item()
        if item is None or item[0] == math.inf:
            return None
        return item[0]

    def deadlines(self) -> Deadlines:
        """The public clocks now: turn timer, end of the catch grace, held seats."""
        g = self.game
        pacing = self.pacing
        timer = pacing.turn_timer
        if timer is None and g.uno_open < 0 and not self._away:
            return NO_DEADLINES
        turn = None
        actor = g.actor
        if timer is not None and actor >= 0 and self._brains[actor] is None and g.phase != Phase.MATCH_OVER:
            if g.phase == Phase.DRAWN:
                turn = (actor, self._drawn_item(actor)[0])  # the card is kept then
            elif g.phase != Phase.ROUND_OVER:
                turn = (actor, self._since + timer)
            elif self._ready_at is not None:
                turn = (actor, self._ready_at + timer)
        catch = (g.uno_open, self._win_opened + pacing.catch_grace) if g.uno_open >= 0 else None
        holds = tuple((h.seat, (h.away_since or 0.0) + pacing.hold) for h in self._away)
        return Deadlines(turn, catch, holds)

    def _next_item(self) -> Item | None:
        """The earliest thing the referee must do, with its deadline."""
        g = self.game
        phase = g.phase
        best: Item | None = None
        if self._away:
            hold = self.pacing.hold
            for h in self._away:
                hold_item = ((h.away_since or 0.0) + hold, HOLD, 0, h.seat)
                if best is None or hold_item < best:
                    best = hold_item
        if phase == Phase.MATCH_OVER:
            return best
        actor = g.actor
        pacing = self.pacing
        last_react = -math.inf
        offender = g.uno_open
        may_jump = self._jump_in and phase == Phase.PLAY and not g.pending
        if phase != Phase.ROUND_OVER and (offender >= 0 or may_jump):
            for react_item in self._reactions():
                if react_item[3] not in self._asked:
                    if best is None or react_item < best:
                        best = react_item
                    if react_item[0] > last_react:
                        last_react = react_item[0]
        brain = self._brains[actor]
        item: Item | None
        if phase == Phase.ROUND_OVER:
            item = self._deal_item(actor, brain is None)
        elif phase == Phase.DRAWN and brain is None:
            item = self._drawn_item(actor)
        elif brain is not None:
            think = self._think[actor]
            when = self._since + think
            if offender >= 0:
                opened = self._win_opened
                when = max(when, opened + pacing.catch_grace + think, opened + self._catch[actor], last_react)
            elif last_react > when:
                when = last_react
            # A computer player's drawn card is kept at the moment it would have decided:
            # when only keeping is left, the table keeps it for it (the bot is not asked).
            keep = phase == Phase.DRAWN and only_keep(g.legal_actions(actor))
            item = (when, KEEP_DUE if keep else TURN, 0, actor)
        elif pacing.turn_timer is not None:
            item = (self._since + pacing.turn_timer, TIMEOUT, 0, actor)
        else:
            return best
        if item is not None and (best is None or item < best):
            best = item
        return best

    def _reactions(self) -> list[Item]:
        """The computer players that may act out of turn now, with their deadlines (cached
        for the state: they depend on nothing else)."""
        g = self.game
        version = g.version
        if self._asked_version != version:
            self._asked_version = version
            self._asked.clear()
        key = (version, self._stamp)
        if self._cands_key == key:
            return self._cands
        n, actor, offender = g.n, g.actor, g.uno_open
        order = [*range(actor + 1, n), *range(actor)]
        if offender >= 0:
            if offender != actor:
                order.remove(offender)
                order.insert(0, offender)
            order.append(actor)  # the actor may catch (or call) too, before its turn
        grace = self.pacing.catch_grace
        cands: list[Item] = []
        for rank, seat in enumerate(order):
            if self._brains[seat] is None or not g.legal_actions(seat):
                continue
            if offender >= 0:
                when = self._win_opened + max(grace, self._catch[seat])
            else:
                when = self._since + self._think[seat]
            cands.append((when, REACT, rank, seat))
        self._cands, self._cands_key = cands, key
        return cands

    def _drawn_item(self, seat: int) -> Item:
        """A person's decision after a draw: the same deadline whether or not the card can
        be played, so that its timing tells the others nothing (rules.md: they learn only
        whether the card is then played).  With a turn timer shorter than ``auto_keep``,
        the timer's timeout (counted as one) ends it instead, again in both cases."""
        timer = self.pacing.turn_timer
        if timer is not None and timer <= self.pacing.auto_keep:
            return (self._since + timer, TIMEOUT, 0, seat)
        return (self._since + self.pacing.auto_keep, KEEP_DUE, 0, seat)

    def _deal_item(self, dealer: int, person: bool) -> Item | None:
        """Between rounds: the dealer's deal once everyone needed is ready."""
        pacing = self.pacing
        ready_at = self._ready_at
        if ready_at is None:
            if pacing.turn_timer is None:
                return None
            return (self._ended_at + pacing.turn_timer, UNREADY, 0, -1)
        if person:
            if pacing.turn_timer is None:
                return None
            return (ready_at + pacing.turn_timer, TIMEOUT, 0, dealer)
        if pacing.between_rounds is None:
            return None
        when = max(ready_at + self._think[dealer], self._ended_at + pacing.between_rounds)
        return (when, TURN, 0, dealer)

    def _needed(self) -> list[HumanSeat]:
        """People whose readiness the next deal waits for (connected, in control, not the
        dealer: a person who deals says so by dealing)."""
        dealer = self.game.dealer if self.game.phase == Phase.ROUND_OVER else -1
        return [h for h in self._humans.values() if h.in_control and h.seat != dealer]

    def _check_ready(self, now: float) -> None:
        ended = self.game.phase == Phase.ROUND_OVER
        if ended and self._ready_at is None and all(h.ready for h in self._needed()):
            self._ready_at = now

    def _learn(self, seat: int) -> None:
        """Cache the delays of whoever decides for ``seat`` (read on every scheduling)."""
        bot = self._brains[seat]
        pacing = self.pacing
        think, catch = pacing.bot_delay, pacing.catch_grace
        if bot is not None and pacing.bot_delays:
            think = max(think, seconds_of(bot, "think_delay"))
            catch = max(catch, seconds_of(bot, "catch_delay"))
        self._think[seat], self._catch[seat] = think, catch
        self._uses_log[seat] = bool(getattr(bot, "uses_log", True))

    def _view(self, seat: int) -> SeatView:
        """What a computer player sees: this round's log at most (none if it reads none)."""
        g = self.game
        return seat_view(g, seat, g.round_log_start if self._uses_log[seat] else len(g.log))


def only_keep(legal: Iterable[Action]) -> bool:
    """Whether keeping the drawn card is the only choice."""
    it = iter(legal)
    first = next(it, None)
    return first == KEEP and next(it, None) is None


def seconds_of(bot: object, name: str) -> float:
    value = getattr(bot, name, 0.0)
    return float(value) if isinstance(value, (int, float)) else 0.0
