"""A game played in this process: the engine, the computer players and their pacing.

:class:`LocalGame` implements :class:`~unotui.client.controller.Controller`.  It owns the
:class:`~unotui.engine.Game`; all changes to it happen on the event loop, one at a time.
A computer player is handed only a frozen :class:`~unotui.engine.SeatView` and decides in
a worker thread (``asyncio.to_thread``), so a slow bot never stalls the screen.

Pacing, so that a person can follow:

* ``delay``: seconds a computer player waits before acting (0 in tests).
* ``catch_grace``: seconds after someone goes down to one card without calling UNO before
  any computer player may catch them (never less than 0.75 in play; 0 in tests).  The
  person may call UNO, or catch a computer player, meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from random import Random

from ..bots import Bot
from ..engine import (
    DEAL,
    Action,
    Card,
    Game,
    IllegalActionError,
    Rules,
    SeatView,
    seat_view,
)
from .controller import Answered, Closed, Controller, Refused, ViewChanged
from .players import catch_delay, make_bot, react

__all__ = ["MIN_CATCH_GRACE", "LocalGame"]

#: the shortest grace period a person gets before a computer player catches them
MIN_CATCH_GRACE = 0.75


class LocalGame(Controller):
    """One person (``seat``) against computer players, in this process.

    Args:
        names: every seat's name (the person's included).
        rules: the table's rules.
        seat: the person's seat.
        level: bot level for :func:`~unotui.client.players.make_bot`.
        bots: explicit computer players by seat (tests); others come from ``level``.
        seed: makes the whole game (deal and bots) repeatable.
        delay: seconds a computer player waits before acting.
        catch_grace: seconds before a computer player catches a missed UNO call.
        dealer / deck: passed to the engine (tests arrange situations with them).
    """

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
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> None:
        super().__init__()
        self.seat = seat
        self.delay = max(0.0, delay)
        self.catch_grace = max(0.0, catch_grace)
        base = Random(seed) if seed is not None else Random()
        self.game = Game(list(names), rules, rng=Random(base.getrandbits(64)), dealer=dealer, deck=deck)
        given = bots or {}
        self.bots: dict[int, Bot] = {
            s: given.get(s) or make_bot(level, Random(base.getrandbits(64)))
            for s in range(self.game.n)
            if s != seat
        }
        self._view = seat_view(self.game, seat)
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._ready = False
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._window: tuple[int, int] = (-1, -1)  # (seat that forgot UNO, version then)
        self._plan: tuple[float, int, Action] | None = None  # a bot's answer to that window
        self.bot_errors: list[str] = []

    # ----- Controller -----------------------------------------------------------------------

    @property
    def view(self) -> SeatView:
        return self._view

    async def start(self) -> None:
        self._changed()
        if self._task is None:
            self._task = asyncio.create_task(self._drive(), name="unotui-bots")

    def send(self, action: Action) -> int:
        seq = self._next_seq()
        if self._closed:
            return seq
        try:
            self.game.apply(self.seat, action)
        except IllegalActionError as exc:
            self._emit(Refused(str(action), exc.code, str(exc), seq))
            return seq
        self._changed()
        self._emit(Answered(seq))
        return seq

    def next_round(self) -> None:
        game = self.game
        if game.phase != "round_over":
            return
        if game.dealer == self.seat:
            self.send(DEAL)
        else:
            self._ready = True
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
        """Wait until no computer player has anything left to do now."""
        while True:
            await self._idle.wait()
            await asyncio.sleep(0)
            if self._idle.is_set() and not self._wake.is_set():
                return

    # ----- the computer players' loop ----------------------------------------------------------

    def _changed(self) -> None:
        if self.game.uno_open != self._window[0]:
            self._window, self._plan = (-1, -1), None  # the window closed (or another opened)
        self._view = seat_view(self.game, self.seat)
        self._emit(ViewChanged(self._view))
        self._poke()

    def _poke(self) -> None:
        self._idle.clear()
        self._wake.set()

    def _next_step(self) -> tuple[float, int, Action | None] | None:
        """What a computer player does next: (wait, seat, action or None to choose)."""
        g = self.game
        if g.over:
            return None
        offender = g.uno_open
        if offender >= 0:
            plan = self._catch_plan(offender)
            if plan is not None:
                return plan
        if g.phase == "round_over":
            if self._ready and g.dealer in self.bots:
                return (self.delay, g.dealer, DEAL)
            return None
        if g.actor in self.bots:
            return (self.delay, g.actor, None)
        return None

    def _catch_plan(self, offender: int) -> tuple[float, int, Action] | None:
        """Ask the bots once per missed UNO call what they do about it (never sooner than
        ``catch_grace``): the quickest catch wins; the offender may call late."""
        g = self.game
        if self._window[0] != offender:
            self._window = (offender, g.version)
            options: list[tuple[float, int, int, Action]] = []
            for seat, bot in self.bots.items():
                if seat not in g.active:
                    continue
                action = react(bot, seat_view(g, seat, g.round_log_start))
                if action is None or action not in g.legal_actions(seat):
                    continue
                wait = max(self.catch_grace, catch_delay(bot))
                if seat == g.actor:
                    wait = max(wait, self.delay)
                options.append((wait, (seat - offender) % g.n, seat, action))
            options.sort(key=lambda o: (o[0], o[1]))
            self._plan = (options[0][0], options[0][2], options[0][3]) if options else None
        return self._plan

    async def _pause(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)

    async def _drive(self) -> None:
        try:
            await self._run_bots()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # never leave the person waiting on a dead game
            self.bot_errors.append(f"driver: {exc!r}")
            self._emit(Closed(f"the game stopped: {exc}"))

    async def _run_bots(self) -> None:
        while not self._closed:
            step = self._next_step()
            if step is None:
                self._wake.clear()
                self._idle.set()
                await self._wake.wait()
                continue
            self._wake.clear()
            wait, seat, action = step
            version = self.game.version
            await self._pause(wait)
            if self._closed or self.game.version != version or self._next_step() != step:
                continue  # something happened meanwhile: think again
            if action is None:
                # Bots read at most this round's log: a view of the whole match's log
                # would grow with every round.
                view = seat_view(self.game, seat, self.game.round_log_start)
                try:
                    action = await asyncio.to_thread(self.bots[seat].choose, view)
                except Exception as exc:  # a broken bot must not stop the game
                    self.bot_errors.append(f"{seat}: {exc!r}")
                    action = view.legal[0]
                if self._closed or self.game.version != version:
                    continue
            if action == DEAL:
                self._ready = False
            try:
                self.game.apply(seat, action)
            except IllegalActionError as exc:
                self.bot_errors.append(f"{seat}: {action} refused: {exc}")
                self.game.apply(seat, self.game.legal_actions(seat)[0])
            self._changed()
