"""The referee: every timing rule of a table, without a clock, a socket or an event loop.

A :class:`Referee` wraps one :class:`~unotui.engine.Game`.  The engine says what is legal;
the referee says *when*: how long a computer player waits, when a catch stops being too
early, when a person's turn timer runs out, when the next round is dealt, how long a
dropped seat is held.  It is sans-I/O in the sense of h11 and websockets' protocol
objects: the driver passes the time in (``now``, seconds on any monotonic clock) and
carries the answer (an :class:`~unotui.table.outcome.Outcome`) to the seats.  So the same
rules run under ``LocalGame`` (asyncio, real time), a network host, the simulator (no
waiting at all) and the tests (a fake clock).

Driving it::

    outcome = referee.receive(seat, action, seq, now)   # a person's intent
    outcome = referee.tick(now)                         # whatever is due by now
    when = referee.next_deadline()                      # call tick again then

Each call applies what it may, in order, and returns what happened; a host journals
``outcome.accepted`` before it sends anything.  Nothing happens between calls.

A decision is made on the state at the moment it is applied, so a decision for a state
that has changed is never applied; with ``inline_bots=False`` (decisions made in a
worker thread by the driver) :meth:`Referee.decided` drops stale answers.  When each
thing is due is the schedule's to say (:mod:`unotui.table.schedule`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from random import Random

from ..bots import Bot, react
from ..engine import (
    ENDED_PHASES,
    Action,
    CallUno,
    Catch,
    Deal,
    Game,
    IllegalActionError,
    NoSuchSeatError,
    Phase,
)
from .outcome import (
    AWAY,
    BOT_SEAT,
    NOT_READY,
    SEAT_LOST,
    TOO_EARLY,
    Accepted,
    Deadlines,
    Outcome,
    Pacing,
    PresenceChange,
    Refusal,
)
from .schedule import (
    KEEP_DUE,
    NO_DEADLINES,
    REACT,
    TIMEOUT,
    TURN,
    UNREADY,
    Decision,
    RefereeState,
    deadlines,
    next_due,
    pauses,
)
from .seats import TIMEOUTS_TO_BOT, HumanSeat, bot_view, readers, standin
from .states import PresenceState

__all__ = ["Referee"]

class Referee:
    """One table's timing rules around one game.  See the module docstring.

    It holds the game, the people's seats and a :class:`~unotui.table.RefereeState`;
    on every call it asks the schedule (:func:`~unotui.table.next_due`) what is
    due and applies it, recording in the state the moments that set later deadlines.

    Args:
        game: the match; the referee is the only one that applies actions to it.
        bots: the computer players by seat.
        humans: the seats people hold (every other seat must be in ``bots``).
        pacing: the table's timing rules.
        rng: seeds the computer players that stand in for absent people.
        inline_bots: make computer players' turn decisions inside :meth:`tick` (the
            default).  With False, :meth:`tick` stops at a due decision and the driver
            takes it with :meth:`due_decision` and answers with :meth:`decided`.
        clock: a nanosecond clock (``time.perf_counter_ns``); when given, each computer
            player's turn decision made in :meth:`tick` is timed into ``decision_ns``.
            The referee has no clock of its own (it is time-free); the simulator and a
            host that watches how long its bots think pass one in.

    Attributes:
        bot_errors: what went wrong with computer players (exceptions, illegal answers);
            the referee carries on with the engine's ``timeout_action`` instead.
        decision_ns: per seat, the duration of each timed decision (with ``clock``).
    """

    __slots__ = (
        "_acc", "_humans", "_pres", "_ref", "_reported", "_rng", "_state", "_timeouts",
        "bot_errors", "clock", "decision_ns", "game", "inline_bots", "pacing",
    )

    def __init__(
        self,
        game: Game,
        *,
        bots: Mapping[int, Bot],
        humans: Iterable[int],
        pacing: Pacing,
        rng: Random | None = None,
        inline_bots: bool = True,
        clock: Callable[[], int] | None = None,
    ) -> None:
        n = game.n
        self.game = game
        self.pacing = pacing
        self.inline_bots = inline_bots
        self.bot_errors: list[str] = []
        self.clock = clock
        self.decision_ns: list[list[int]] = [[] for _ in range(n)]
        self._rng = rng
        self._humans: dict[int, HumanSeat] = {s: HumanSeat(s) for s in humans}
        if sorted([*self._humans, *bots]) != list(range(n)):
            raise ValueError(
                f"each of the {n} seats needs one person or one bot "
                f"(people: {sorted(self._humans)}, bots: {sorted(bots)})"
            )
        self._state = RefereeState(
            pacing,
            brains=[bots.get(s) for s in range(n)],
            think=[pacing.bot_delay] * n,
            catch=[pacing.catch_grace] * n,
            jump_in=game.rules.jump_in,
            win_seat=game.uno_open,
        )
        for s in bots:
            self._learn(s)
        self._reported = NO_DEADLINES
        self._acc: list[Accepted] = []
        self._ref: list[Refusal] = []
        self._pres: list[PresenceChange] = []
        self._timeouts: list[int] = []  # seats whose turn timer ran out (the table acted)

    # ----- the driver's side ---------------------------------------------------------------

    def receive(self, seat: int, action: Action, seq: int, now: float) -> Outcome:
        """A person's intent: ``seat`` (authenticated by the host) asks to take ``action``.

        Applied at once if the rules and the table's timing allow it, else refused with a
        code: the engine's, or one of the referee's (``too_early``, ``not_ready``,
        ``bot_seat``, ``away``, ``stale_seq``, ``bad_seq``).  The same ``(seat, seq)``
        again gets the first answer again and is not applied twice.
        """
        self._start(now)
        g = self.game
        if not 0 <= seat < g.n:
            self._ref.append(Refusal(seat, seq, NoSuchSeatError.code, f"there is no seat {seat}"))
            return self._finish(now)
        h = self._humans.get(seat)
        if h is None or h.lost:
            self._ref.append(Refusal(seat, seq, BOT_SEAT, f"a computer player holds seat {seat}"))
            return self._finish(now)
        replay = h.check_seq(seq)
        if replay is not None:
            if replay.refusal is not None:
                self._ref.append(replay.refusal)
                return self._finish(now)
            out = self._finish(now)  # applied before: the outcome says so again
            again = ((seat, seq),)
            return out._replace(replayed=again)
        if not h.connected:
            away = Refusal(seat, seq, AWAY, f"seat {seat} is away: resume first")
            self._ref.append(away)
            h.remember(seq, away)
            return self._finish(now)
        if h.standin is not None:
            self._set_brain(h, None, now)  # the owner acts again: the seat is theirs
            self._pres.append(PresenceChange(seat, PresenceState.BACK))
        refusal = self._judge(seat, action, seq, now)
        if refusal is None:
            actor, phase = g.actor, g.phase
            try:
                g.apply(seat, action)
            except IllegalActionError as exc:
                refusal = Refusal(seat, seq, exc.code, str(exc))
            else:
                h.timeouts = 0
                self._acc.append(Accepted(seq, seat, action))
                self._after(seat, actor, phase, now)
        if refusal is not None:
            self._ref.append(refusal)
        h.remember(seq, refusal)
        return self._finish(now)

    def restore_answers(self, seat: int, seqs: list[int]) -> None:
        """After a restart from a journal: ``seat``'s intents ``seqs`` were applied before,
        so a retry of one is answered as accepted and not applied again."""
        h = self._humans.get(seat)
        if h is not None:
            for seq in sorted(seqs):
                h.remember(seq, None)

    def ready(self, seat: int, now: float) -> Outcome:
        """``seat``'s person has read the round's result (ignored while a round is played)."""
        self._start(now)
        h = self._humans.get(seat)
        if h is not None and h.connected and not h.lost:
            if h.standin is not None:
                self._set_brain(h, None, now)
                self._pres.append(PresenceChange(seat, PresenceState.BACK))
            if self.game.phase == Phase.ROUND_OVER:
                h.ready = True
        return self._finish(now)

    def drop(self, seat: int, now: float) -> Outcome:
        """``seat``'s connection went away: hold the seat for ``pacing.hold`` seconds."""
        self._start(now)
        h = self._humans.get(seat)
        if h is not None and h.connected and not h.lost:
            h.connected = False
            h.away_since = now
            self._state.away.append(h)
            self._pres.append(PresenceChange(seat, PresenceState.AWAY))
        return self._finish(now)

    def resume(self, seat: int, now: float) -> Outcome:
        """``seat``'s person is back within the hold: the seat is theirs again."""
        self._start(now)
        h = self._humans.get(seat)
        if h is None:
            code = BOT_SEAT if 0 <= seat < self.game.n else NoSuchSeatError.code
            self._ref.append(Refusal(seat, -1, code, f"seat {seat} is not a person's seat"))
        elif h.lost:
            message = f"seat {seat} was held {self.pacing.hold:g} s; a computer player has it now"
            self._ref.append(Refusal(seat, -1, SEAT_LOST, message))
        elif not h.connected or h.standin is not None:
            if not h.connected:
                self._state.away.remove(h)
            h.connected, h.away_since, h.timeouts = True, None, 0
            self._set_brain(h, None, now)
            self._pres.append(PresenceChange(seat, PresenceState.BACK))
        return self._finish(now)

    def tick(self, now: float) -> Outcome:
        """Apply everything that is due by ``now``, in deadline order."""
        self._start(now)
        self._run(now)
        return self._finish(now)

    def next_deadline(self) -> float | None:
        """When :meth:`tick` must next be called (``None``: only after some other call).

        Before the first call of any method the clocks have not started: ``None``.
        """
        if not self._state.started:
            return None
        due = next_due(self.game, self._state)
        if due is None or due[0] == math.inf:
            return None
        return due[0]

    def deadlines(self) -> Deadlines:
        """The public clocks now: turn timer, end of the catch grace, held seats."""
        return deadlines(self.game, self._state)

    # ----- deciding elsewhere (inline_bots=False) ---------------------------------------------

    def due_decision(self, now: float) -> Decision | None:
        """The computer player's turn decision due by ``now``, if the next due item is one.

        The driver calls ``decision.bot.choose(decision.view)`` wherever it likes (a worker
        thread) and hands the answer to :meth:`decided`.
        """
        self._start(now)
        due = next_due(self.game, self._state)
        if due is None or due[0] > now or due[1] != TURN:
            return None
        seat = due[3]
        bot = self._state.brains[seat]
        assert bot is not None
        return Decision(seat, bot, bot_view(self.game, seat, self._state.brains[seat]), self.game.version)

    def decided(self, decision: Decision, action: Action | None, now: float) -> Outcome:
        """Apply ``action`` for ``decision`` if the game is still in the state it was for.

        ``None`` means the computer player failed (the driver logs why): the engine's
        ``timeout_action`` is played instead.  A stale answer is dropped; the next
        :meth:`tick` asks again.
        """
        self._start(now)
        if self.game.version == decision.version and self._state.brains[decision.seat] is decision.bot:
            self._apply_bot(decision.seat, action, now)
        return self._finish(now)

    # ----- applying what is due ---------------------------------------------------------------

    def _start(self, now: float) -> None:
        """Start the clocks at the first call: the first decision became due now (and a
        round that had ended before the referee existed ended now, for its clocks)."""
        state = self._state
        if not state.started:
            state.started = True
            state.since = state.win_opened = state.ended_at = now
            self._check_ready(now)

    def _run(self, now: float) -> None:
        """Apply what is due by ``now``, one item at a time, each asked of the schedule on
        the state the one before left."""
        game, state = self.game, self._state
        while (due := next_due(game, state)) is not None and due[0] <= now:
            _, kind, _, seat = due
            if kind == TURN:
                if not self.inline_bots:
                    return  # the driver decides (due_decision, decided)
                self._bot_turn(seat, now)
            elif kind == REACT:
                self._react(seat, now)
            elif kind == KEEP_DUE:
                keep = game.timeout_action()  # keep (play, when the rules force it)
                if keep is not None:
                    self._apply_own(seat, keep[1], now)
            elif kind == TIMEOUT:
                self._timeout(now)
            elif kind == UNREADY:
                for h in self._humans.values():
                    h.ready = True  # the turn timer also bounds reading the result
                self._check_ready(now)
            else:
                self._expire_hold(self._humans[seat], now)

    def _bot_turn(self, seat: int, now: float) -> None:
        """A computer player's turn, decided here on what it may see (timed with ``clock``)."""
        bot = self._state.brains[seat]
        assert bot is not None
        view = bot_view(self.game, seat, self._state.brains[seat])
        clock = self.clock
        t0 = clock() if clock is not None else 0
        try:
            action: Action | None = bot.choose(view)
        except Exception as exc:  # a broken bot must not stop the table
            self.bot_errors.append(f"{seat}: {exc!r}")
            action = None
        else:
            if clock is not None:
                self.decision_ns[seat].append(clock() - t0)
        self._apply_bot(seat, action, now)

    def _judge(self, seat: int, action: Action, seq: int, now: float) -> Refusal | None:
        """The table's own objections to a person's intent (the engine judges the rest)."""
        g = self.game
        if type(action) is Catch and g.uno_open >= 0 and action.seat == g.uno_open:
            allowed = self._state.win_opened + self.pacing.catch_grace
            if now < allowed:  # (at the very moment it opens, a catch is in time)
                # Rounded up to a tenth, never down: "opens in 0.0 s" would be a refusal
                # that says the catch was in time (the play-test saw "wait 0.0 s more").
                tenths = max(1, math.ceil((allowed - now) * 10 - 1e-6))
                name = g.names[action.seat]
                return Refusal(
                    seat, seq, TOO_EARLY,
                    f"Too early: catching opens in {tenths / 10:.1f} s; {name} may still call UNO",
                )
        if (type(action) is Deal and g.phase == Phase.ROUND_OVER and g.dealer == seat
                and self._state.ready_at is None):
            waiting = [g.names[h.seat] for h in readers(g, self._humans.values()) if not h.ready]
            return Refusal(seat, seq, NOT_READY, f"wait: {', '.join(waiting)} still reading the results")
        return None

    def _apply_bot(self, seat: int, action: Action | None, now: float) -> None:
        """Apply a computer player's turn decision; if it fails, the least it could do."""
        if action is not None:
            try:
                self._apply_own(seat, action, now)
                return
            except IllegalActionError as exc:
                self.bot_errors.append(f"{seat}: {action} refused: {exc}")
        fallback = self.game.timeout_action()
        if fallback is not None and fallback[0] == seat:
            self._apply_own(seat, fallback[1], now)

    def _apply_own(self, seat: int, action: Action, now: float) -> None:
        """Apply an action of the referee's own (seq -1): a computer player's, an auto-keep,
        a timeout.  Raises the engine's ``IllegalActionError`` with the game unchanged."""
        g = self.game
        actor, phase = g.actor, g.phase
        g.apply(seat, action)
        # The record built as the tuple it is: NamedTuple's __new__ is Python code, 0.4 µs
        # of the 10 µs a simulated move costs.
        self._acc.append(tuple.__new__(Accepted, (-1, seat, action)))
        self._after(seat, actor, phase, now)

    def _react(self, seat: int, now: float) -> None:
        """Ask a computer player once what it does out of turn in this state."""
        g = self.game
        state = self._state
        if state.asked_version != g.version:
            state.asked_version = g.version
            state.asked.clear()
        state.asked.add(seat)
        bot = state.brains[seat]
        assert bot is not None
        try:
            action = react(bot, bot_view(self.game, seat, self._state.brains[seat]))
        except Exception as exc:  # a broken bot must not stop the table
            self.bot_errors.append(f"{seat}: {exc!r}")
            return
        if action is None or (seat == g.actor and type(action) not in (Catch, CallUno)):
            return  # the actor's own plays wait for its turn
        try:
            self._apply_own(seat, action, now)
        except IllegalActionError as exc:
            self.bot_errors.append(f"{seat}: {action} refused: {exc}")

    def _timeout(self, now: float) -> None:
        """A person's turn timer ran out: the least they could do; three in a row and a
        computer player stands in until they act again."""
        due = self.game.timeout_action()
        if due is None:  # pragma: no cover - nothing is awaited at match end
            return
        seat, action = due
        self._apply_own(seat, action, now)
        self._timeouts.append(seat)
        h = self._humans[seat]
        h.timeouts += 1
        if h.timeouts >= TIMEOUTS_TO_BOT and h.standin is None:
            self._set_brain(h, standin(self._rng), now)
            self._pres.append(PresenceChange(seat, PresenceState.BOT))

    def _expire_hold(self, h: HumanSeat, now: float) -> None:
        """The hold of a dropped seat ran out: a computer player has it for good."""
        h.lost = True
        self._state.away.remove(h)
        if h.standin is None:
            self._set_brain(h, standin(self._rng), now)
        # said even when a stand-in already played (after timeouts): now it is for good
        self._pres.append(PresenceChange(h.seat, PresenceState.BOT))
        self._check_ready(now)

    def _after(self, seat: int, actor: int, phase: Phase, now: float) -> None:
        """Record the moments ``seat``'s applied action set (``actor``/``phase`` from before):
        a new decision became due, a catch window opened or closed, the round ended."""
        g = self.game
        state = self._state
        if seat == actor or g.actor != actor or g.phase != phase:
            state.since = now  # a new decision is due: its clock starts now
        if g.uno_open != state.win_seat:
            state.win_seat = g.uno_open
            state.win_opened = now
        if g.phase != phase and g.phase in ENDED_PHASES:
            self._round_ended(now)

    def _round_ended(self, now: float) -> None:
        """The round (or match) just ended: everyone has a result to read."""
        state = self._state
        state.ended_at = now
        state.ready_at = None
        for h in self._humans.values():
            h.ready = False
        self._check_ready(now)

    # ----- seats ------------------------------------------------------------------------------

    def _check_ready(self, now: float) -> None:
        """Record when the last person needed has read the round's result."""
        state = self._state
        if self.game.phase != Phase.ROUND_OVER or state.ready_at is not None:
            return
        if all(h.ready for h in readers(self.game, self._humans.values())):
            state.ready_at = now

    def _set_brain(self, h: HumanSeat, bot: Bot | None, now: float) -> None:
        """Give the seat to ``bot`` (a stand-in) or back to its person (``None``)."""
        h.standin = bot
        h.timeouts = 0
        self._state.brains[h.seat] = bot
        self._learn(h.seat)
        if self.game.actor == h.seat:
            self._state.since = now  # whoever decides now gets the whole decision time
        self._check_ready(now)

    def _learn(self, seat: int) -> None:
        """Record the pauses of whoever decides for ``seat`` now (the schedule reads them)."""
        state = self._state
        state.think[seat], state.catch[seat] = pauses(state.brains[seat], self.pacing)

    def _finish(self, now: float) -> Outcome:
        """Collect what this call did into an :class:`Outcome`."""
        self._check_ready(now)
        deadlines = self.deadlines()
        changed_deadlines = None
        if deadlines != self._reported:
            self._reported = changed_deadlines = deadlines
        out = Outcome(
            tuple(self._acc), tuple(self._ref), bool(self._acc), tuple(self._pres), changed_deadlines,
            timeouts=tuple(self._timeouts),
        )
        self._timeouts.clear()
        self._acc.clear()
        self._ref.clear()
        self._pres.clear()
        return out

