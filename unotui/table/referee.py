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

How the deadlines are set (each is fixed when its decision becomes due and does not
restart when something unrelated happens):

* A computer player's turn: ``bot_delay`` after the decision became due (the seat's
  previous action, or the move that made it the actor).  While a seat that forgot UNO can
  be caught, the next player, if a computer player, waits until everyone had the chance:
  the grace, every computer player's chance to react, and its own catch delay.
* Out of turn (UNO calls, catches, jump-ins): each computer player is asked once for each
  state in which it has something to do, at ``window opened + max(catch_grace, its
  catch_delay)`` while a catch window is open (``bot_delay`` after the play for jump-ins).
  At equal times: the seat that forgot UNO first, then the seats after the actor in seat
  order, the actor last, and out-of-turn actions before the actor's own turn.
* A decision is made on the state at the moment it is applied, so a decision for a state
  that has changed is never applied; with ``inline_bots=False`` (decisions made in a
  worker thread by the driver) :meth:`Referee.decided` drops stale answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from random import Random

from ..bots import Bot, make_bot, react
from ..engine import (
    ENDED_PHASES,
    KEEP,
    Action,
    CallUno,
    Catch,
    Deal,
    Game,
    IllegalActionError,
    NoSuchSeatError,
    Phase,
    SeatView,
    seat_view,
)
from .outcome import (
    AWAY,
    BOT_SEAT,
    NOT_READY,
    SEAT_LOST,
    TOO_EARLY,
    Accepted,
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
    Item,
    Schedule,
)
from .seats import TIMEOUTS_TO_BOT, HumanSeat
from .states import PresenceState

__all__ = ["STANDIN_LEVEL", "Decision", "Referee"]

STANDIN_LEVEL = "medium"
"""The level of the computer player that stands in for a person who is away or timed out."""

@dataclass(frozen=True, slots=True)
class Decision:
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


class Referee(Schedule):
    """One table's timing rules around one game.  See the module docstring.

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

    __slots__ = ()  # the fields are declared (as slots) in Schedule

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
        self._rng = rng  # made when first needed: seeding a Random costs as much as a hand
        self._humans: dict[int, HumanSeat] = {s: HumanSeat(s) for s in humans}
        self._bots = dict(bots)
        if sorted([*self._humans, *self._bots]) != list(range(n)):
            raise ValueError(
                f"each of the {n} seats needs one person or one bot "
                f"(people: {sorted(self._humans)}, bots: {sorted(self._bots)})"
            )
        # Who decides for each seat: a bot, or None while a person does.
        self._brains: list[Bot | None] = [self._bots.get(s) for s in range(n)]
        self._think = [pacing.bot_delay] * n
        self._catch = [pacing.catch_grace] * n
        self._uses_log = [True] * n
        for s in self._bots:
            self._learn(s)
        self._jump_in = game.rules.jump_in
        self._started = False
        self._since = 0.0  # when the actor's current decision became due
        self._win_seat = game.uno_open  # the seat that can be caught now, and since when
        self._win_opened = 0.0
        self._ended_at = 0.0  # when the round ended
        self._ended_round = (-1, "")  # (round, phase) that _round_ended last saw
        self._ready_at: float | None = None  # when every person needed had read the result
        self._asked: set[int] = set()  # bots asked to react in this state
        self._asked_version = -1
        self._stamp = 0  # bumps when who decides for a seat changes
        self._cands: list[Item] = []  # reaction candidates of (version, stamp)
        self._cands_key = (-1, -1)
        self._away: list[HumanSeat] = []
        self._reported = NO_DEADLINES
        self._acc: list[Accepted] = []
        self._ref: list[Refusal] = []
        self._pres: list[PresenceChange] = []

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
            return Outcome(out.accepted, out.refusals, out.changed, out.presence, out.deadlines, again)
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
            self._away.append(h)
            self._stamp += 1
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
                self._away.remove(h)
                self._stamp += 1
            h.connected, h.away_since, h.timeouts = True, None, 0
            self._set_brain(h, None, now)
            self._pres.append(PresenceChange(seat, PresenceState.BACK))
        return self._finish(now)

    def tick(self, now: float) -> Outcome:
        """Apply everything that is due by ``now``, in deadline order."""
        self._start(now)
        self._run(now)
        return self._finish(now)

    # ----- deciding elsewhere (inline_bots=False) ---------------------------------------------

    def due_decision(self, now: float) -> Decision | None:
        """The computer player's turn decision due by ``now``, if the next due item is one.

        The driver calls ``decision.bot.choose(decision.view)`` wherever it likes (a worker
        thread) and hands the answer to :meth:`decided`.
        """
        self._start(now)
        item = self._next_item()
        if item is None or item[0] > now or item[1] != TURN:
            return None
        seat = item[3]
        bot = self._brains[seat]
        assert bot is not None
        return Decision(seat, bot, self._view(seat), self.game.version)

    def decided(self, decision: Decision, action: Action | None, now: float) -> Outcome:
        """Apply ``action`` for ``decision`` if the game is still in the state it was for.

        ``None`` means the computer player failed (the driver logs why): the engine's
        ``timeout_action`` is played instead.  A stale answer is dropped; the next
        :meth:`tick` asks again.
        """
        self._start(now)
        if self.game.version == decision.version and self._brains[decision.seat] is decision.bot:
            self._apply_bot(decision.seat, action, now)
        return self._finish(now)

    # ----- scheduling -------------------------------------------------------------------------

    def _start(self, now: float) -> None:
        """Start the clocks at the first call: the first decision became due now."""
        if not self._started:
            self._started = True
            self._since = self._win_opened = self._ended_at = now
            self._check_ready(now)

    def _run(self, now: float) -> None:
        g = self.game
        brains, think, uses_log = self._brains, self._think, self._uses_log
        acc, record = self._acc, tuple.__new__
        jump_in, inline = self._jump_in, self.inline_bots
        clock, times = self.clock, self.decision_ns
        ended = ENDED_PHASES
        fast = inline and not self._away
        while True:
            phase = g.phase
            actor = g.actor
            bot = brains[actor]
            if (
                fast
                and bot is not None
                and phase not in ended
                and g.uno_open < 0
                and not (jump_in and phase == Phase.PLAY and not g.pending)
            ):
                # The hot path (the simulator's every move): a computer player's turn and
                # nothing else that could be due (no catch window, no jump-in, no dropped
                # seat).  The same as the general path below, inlined for speed.
                if phase == Phase.DRAWN and len(legal := g.legal_actions(actor)) == 1 and legal[0] == KEEP:
                    if self._since + think[actor] > now:  # when it would have decided
                        return
                    action: Action = KEEP
                    g.apply(actor, action)
                else:
                    if self._since + think[actor] > now:
                        return
                    view = seat_view(g, actor, g.round_log_start if uses_log[actor] else len(g.log))
                    try:
                        if clock is None:
                            action = bot.choose(view)
                        else:
                            t0 = clock()
                            action = bot.choose(view)
                            times[actor].append(clock() - t0)
                        g.apply(actor, action)
                    except Exception as exc:  # a broken bot must not stop the table
                        self._bot_failed(actor, exc, now)
                        continue
                acc.append(record(Accepted, (-1, actor, action)))
                self._since = now
                continue  # a catch window or the round's end: _sync does the books next
            self._sync(now)
            item = self._next_item()
            if item is None or item[0] > now:
                return
            kind, seat = item[1], item[3]
            if kind == TURN:
                if not inline:
                    return
                bot = brains[seat]
                assert bot is not None
                view = self._view(seat)
                t0 = clock() if clock is not None else 0
                try:
                    turn: Action | None = bot.choose(view)
                    if clock is not None:
                        times[seat].append(clock() - t0)
                except Exception as exc:  # a broken bot must not stop the table
                    self.bot_errors.append(f"{seat}: {exc!r}")
                    turn = None
                self._apply_bot(seat, turn, now)
            elif kind == REACT:
                self._react(seat, now)
            elif kind == KEEP_DUE:
                due = self.game.timeout_action()  # keep (play, when the rules force it)
                if due is not None:
                    self._apply_own(seat, due[1], now)
            elif kind == TIMEOUT:
                self._timeout(now)
            elif kind == UNREADY:
                for h in self._humans.values():
                    h.ready = True  # the turn timer also bounds reading the result
                self._check_ready(now)
            else:
                self._expire_hold(self._humans[seat], now)
            fast = inline and not self._away

    def _bot_failed(self, seat: int, exc: Exception, now: float) -> None:
        """A computer player's turn raised (in ``choose`` or as an illegal action)."""
        if isinstance(exc, IllegalActionError):
            self.bot_errors.append(f"{seat}: refused: {exc}")
        else:
            self.bot_errors.append(f"{seat}: {exc!r}")
        self._apply_bot(seat, None, now)

    # ----- applying ---------------------------------------------------------------------------

    def _judge(self, seat: int, action: Action, seq: int, now: float) -> Refusal | None:
        """The table's own objections to a person's intent (the engine judges the rest)."""
        g = self.game
        if type(action) is Catch and g.uno_open >= 0 and action.seat == g.uno_open:
            allowed = self._win_opened + self.pacing.catch_grace
            if now < allowed:
                name = g.names[action.seat]
                return Refusal(
                    seat, seq, TOO_EARLY,
                    f"too early: wait {allowed - now:.1f} s more; {name} may still call UNO",
                )
        if (type(action) is Deal and g.phase == Phase.ROUND_OVER and g.dealer == seat
                and self._ready_at is None):
            waiting = [g.names[h.seat] for h in self._needed() if not h.ready]
            return Refusal(seat, seq, NOT_READY, f"wait: {', '.join(waiting)} still reading the results")
        return None

    def _apply_bot(self, seat: int, action: Action | None, now: float) -> None:
        """Apply a computer player's turn decision; if it fails, the least it could do."""
        g = self.game
        actor, phase = g.actor, g.phase
        if action is not None:
            try:
                g.apply(seat, action)
            except IllegalActionError as exc:
                self.bot_errors.append(f"{seat}: {action} refused: {exc}")
                action = None
        if action is None:
            fallback = g.timeout_action()
            if fallback is None or fallback[0] != seat:
                return
            action = fallback[1]
            g.apply(seat, action)
        self._acc.append(Accepted(-1, seat, action))
        self._after(seat, actor, phase, now)

    def _apply_own(self, seat: int, action: Action, now: float) -> None:
        """Apply an action the referee takes itself (auto-keep, timeouts)."""
        g = self.game
        actor, phase = g.actor, g.phase
        g.apply(seat, action)
        self._acc.append(Accepted(-1, seat, action))
        self._after(seat, actor, phase, now)

    def _react(self, seat: int, now: float) -> None:
        """Ask a computer player once what it does out of turn in this state."""
        self._asked.add(seat)
        g = self.game
        bot = self._brains[seat]
        assert bot is not None
        try:
            action = react(bot, self._view(seat))
        except Exception as exc:  # a broken bot must not stop the table
            self.bot_errors.append(f"{seat}: {exc!r}")
            return
        if action is None or (seat == g.actor and type(action) not in (Catch, CallUno)):
            return  # the actor's own plays wait for its turn
        actor, phase = g.actor, g.phase
        try:
            g.apply(seat, action)
        except IllegalActionError as exc:
            self.bot_errors.append(f"{seat}: {action} refused: {exc}")
            return
        self._acc.append(Accepted(-1, seat, action))
        self._after(seat, actor, phase, now)

    def _timeout(self, now: float) -> None:
        """A person's turn timer ran out: the least they could do; three in a row and a
        computer player stands in until they act again."""
        due = self.game.timeout_action()
        if due is None:  # pragma: no cover - nothing is awaited at match end
            return
        seat, action = due
        self._apply_own(seat, action, now)
        h = self._humans[seat]
        h.timeouts += 1
        if h.timeouts >= TIMEOUTS_TO_BOT and h.standin is None:
            self._set_brain(h, self._standin(), now)
            self._pres.append(PresenceChange(seat, PresenceState.BOT))

    def _expire_hold(self, h: HumanSeat, now: float) -> None:
        """The hold of a dropped seat ran out: a computer player has it for good."""
        h.lost = True
        self._away.remove(h)
        self._stamp += 1
        if h.standin is None:
            self._set_brain(h, self._standin(), now)
            self._pres.append(PresenceChange(h.seat, PresenceState.BOT))
        self._check_ready(now)

    def _sync(self, now: float) -> None:
        """Books the hot path of :meth:`_run` leaves to its next, general, iteration: a
        catch window opened, the round ended (it ends its turn-loop either way)."""
        g = self.game
        if g.uno_open != self._win_seat:
            self._win_seat = g.uno_open
            self._win_opened = now
        if g.phase in ENDED_PHASES and self._ended_round != (g.round_no, g.phase):
            self._round_ended(now)

    def _after(self, seat: int, actor: int, phase: Phase, now: float) -> None:
        """Bookkeeping after ``seat``'s action was applied (``actor``/``phase`` from before)."""
        g = self.game
        if seat == actor or g.actor != actor or g.phase != phase:
            self._since = now  # a new decision is due: its clock starts now
        if g.uno_open != self._win_seat:
            self._win_seat = g.uno_open
            self._win_opened = now
        if g.phase != phase and g.phase in ENDED_PHASES:
            self._round_ended(now)

    def _round_ended(self, now: float) -> None:
        """The round (or match) just ended: everyone has a result to read."""
        self._ended_round = (self.game.round_no, self.game.phase)
        self._ended_at = now
        self._ready_at = None
        for h in self._humans.values():
            h.ready = False
        self._check_ready(now)

    # ----- seats ------------------------------------------------------------------------------

    def _set_brain(self, h: HumanSeat, bot: Bot | None, now: float) -> None:
        """Give the seat to ``bot`` (a stand-in) or back to its person (``None``)."""
        h.standin = bot
        h.timeouts = 0
        self._brains[h.seat] = bot
        self._learn(h.seat)
        self._stamp += 1
        if self.game.actor == h.seat:
            self._since = now  # whoever decides now gets the whole decision time
        self._check_ready(now)

    def _standin(self) -> Bot:
        if self._rng is None:
            self._rng = Random()
        return make_bot(STANDIN_LEVEL, Random(self._rng.getrandbits(64)))

    def _finish(self, now: float) -> Outcome:
        """Collect what this call did into an :class:`Outcome`."""
        self._check_ready(now)
        deadlines = self.deadlines()
        changed_deadlines = None
        if deadlines != self._reported:
            self._reported = changed_deadlines = deadlines
        out = Outcome(
            tuple(self._acc), tuple(self._ref), bool(self._acc), tuple(self._pres), changed_deadlines
        )
        self._acc.clear()
        self._ref.clear()
        self._pres.clear()
        return out

