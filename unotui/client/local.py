"""A game played in this process: the engine, the computer players, and the table's referee.

:class:`LocalGame` implements :class:`~unotui.client.controller.Controller`.  It is a thin
asyncio shell around a :class:`~unotui.table.Referee`, which owns every timing rule (bot
pacing, the UNO catch grace, round readiness, who wins a race for an out-of-turn action):
one task waits until the referee's next deadline (or a wake-up when the person acts),
calls ``tick`` with the loop's clock, and turns the outcome into updates.  All changes to
the game happen on the event loop, one at a time.

Computer players decide on a frozen :class:`~unotui.engine.SeatView` in a worker thread
(``asyncio.to_thread``): the hard level takes about 10 ms a decision, which the loop could
afford, but a decision off the loop also lets the person act while a bot thinks (jump in,
catch).  The referee then drops the bot's answer, made for a state that no longer exists.

Pacing, so that a person can follow:

* ``delay``: seconds a computer player waits before acting (0 in tests).
* ``catch_grace``: seconds after someone goes down to one card without calling UNO before
  anyone may catch them, the person included (never less than
  :data:`MIN_CATCH_GRACE` in play; 0 in tests).  The player who forgot may call UNO
  meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from random import Random

from ..bots import Bot, make_bot
from ..engine import DEAL, Action, Card, Game, Phase, Rules, SeatView, seat_view
from ..table import AUTO_KEEP, MIN_CATCH_GRACE, Outcome, Pacing, Referee
from .controller import Answered, Closed, Controller, Refused, ViewChanged

__all__ = ["MIN_CATCH_GRACE", "LocalGame"]


class LocalGame(Controller):
    """One person (``seat``) against computer players, in this process.

    Args:
        names: every seat's name (the person's included).
        rules: the table's rules.
        seat: the person's seat.
        level: bot level for :func:`~unotui.bots.make_bot`.
        bots: explicit computer players by seat (tests); others come from ``level``.
        seed: makes the whole game (deal and bots) repeatable.
        delay: seconds a computer player waits before acting.
        catch_grace: seconds before anyone may catch a missed UNO call.
        auto_keep: seconds the person has after a draw before the card is kept for them,
            playable or not (default :data:`~unotui.table.AUTO_KEEP`).
        turn_timer: seconds the person has for each decision (default: no timer).
        dealer / deck: passed to the engine (tests arrange situations with them).
    """

    #: the person's seat (a local game always has one)
    seat: int

    def __init__(
        self,
        names: Sequence[str],
        rules: Rules,
        *,
        seat: int = 0,
        level: str = "medium",
        bots: dict[int, Bot] | None = None,
        seed: int | None = None,
        delay: float = 0.6,
        catch_grace: float = 1.0,
        auto_keep: float | None = None,
        turn_timer: float | None = None,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> None:
        super().__init__()
        self.seat = seat
        self.delay = max(0.0, delay)
        self.catch_grace = max(0.0, catch_grace)
        base = Random(seed) if seed is not None else Random()
        # The deal never depends on the seed-less Random: without a seed the match secret
        # comes from the secrets module (the engine's default), as in every real game.
        game_seed = base.getrandbits(64) if seed is not None else None
        self.game = Game(list(names), rules, dealer=dealer, deck=deck, seed=game_seed)
        given = bots or {}
        self.bots: dict[int, Bot] = {
            s: given.get(s) or make_bot(level, Random(base.getrandbits(64)))
            for s in range(self.game.n)
            if s != seat
        }
        pacing = Pacing(
            bot_delay=self.delay,
            catch_grace=self.catch_grace,
            auto_keep=AUTO_KEEP if auto_keep is None else max(0.0, auto_keep),
            turn_timer=turn_timer,
        )
        self.referee = Referee(
            self.game,
            bots=self.bots,
            humans=(seat,),
            pacing=pacing,
            rng=Random(base.getrandbits(64)),
            inline_bots=False,
        )
        self.bot_errors: list[str] = self.referee.bot_errors
        self._view = seat_view(self.game, seat)
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    # ----- Controller -----------------------------------------------------------------------

    @property
    def view(self) -> SeatView:
        return self._view

    async def start(self) -> None:
        self._view = seat_view(self.game, self.seat)
        self._emit(ViewChanged(self._view))
        self._poke()
        if self._task is None:
            self._task = asyncio.create_task(self._drive(), name="unotui-bots")

    def send(self, action: Action) -> int:
        seq = self._next_seq()
        if self._closed:
            return seq
        self._deliver(self.referee.receive(self.seat, action, seq, _now()), action, seq)
        self._poke()
        return seq

    def next_round(self) -> None:
        game = self.game
        if game.phase != Phase.ROUND_OVER:
            return
        if game.dealer == self.seat:
            self.send(DEAL)
        else:
            self._deliver(self.referee.ready(self.seat, _now()))
            self._poke()

    async def hint(self) -> Action | None:
        from .players import suggest

        return await asyncio.to_thread(suggest, self._view)

    async def close(self) -> None:
        self._closed = True
        self._listener = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # ----- for tests ------------------------------------------------------------------------

    async def settled(self) -> None:
        """Wait until no computer player (nor the referee) has anything left to do *now*;
        later deadlines (a catch after the grace, a bot's pause) may still be pending."""
        while True:
            await self._idle.wait()
            await asyncio.sleep(0)
            if self._idle.is_set() and not self._wake.is_set():
                return

    # ----- the referee's clock ------------------------------------------------------------------

    def _deliver(self, outcome: Outcome, action: Action | None = None, seq: int = -1) -> None:
        """Turn the referee's answer into updates for the one listener: refusals (echoing
        the intent's number), the new view, then the answer to the intent."""
        for refusal in outcome.refusals:
            if refusal.seat == self.seat:
                text = str(action) if action is not None else ""
                self._emit(Refused(text, refusal.code, refusal.message, refusal.seq))
        if outcome.changed:
            self._view = seat_view(self.game, self.seat)
            self._emit(ViewChanged(self._view))
        if seq >= 0 and any(a.seq == seq and a.seat == self.seat for a in outcome.accepted):
            self._emit(Answered(seq))

    def _poke(self) -> None:
        self._idle.clear()
        self._wake.set()

    async def _drive(self) -> None:
        try:
            await self._run()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # never leave the person waiting on a dead game
            self.bot_errors.append(f"driver: {exc!r}")
            self._emit(Closed(f"the game stopped: {exc}"))

    async def _run(self) -> None:
        referee = self.referee
        while not self._closed:
            self._wake.clear()
            self._deliver(referee.tick(_now()))
            decision = referee.due_decision(_now())
            if decision is not None:
                try:
                    action: Action | None = await asyncio.to_thread(decision.bot.choose, decision.view)
                except Exception as exc:  # a broken bot must not stop the game
                    self.bot_errors.append(f"{decision.seat}: {exc!r}")
                    action = None
                if not self._closed:
                    self._deliver(referee.decided(decision, action, _now()))
                continue
            due = referee.next_deadline()
            wait = None if due is None else due - _now()
            if wait is not None and wait <= 0:
                await asyncio.sleep(0)
                continue
            self._idle.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            self._idle.clear()


def _now() -> float:
    """The referee's clock: the event loop's own (``loop.time()`` is ``time.monotonic()``)."""
    return time.monotonic()
