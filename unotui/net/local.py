"""A game played in this process: the same table core as a hosted table, with no sockets.

:class:`LocalGame` implements :class:`~unotui.net.controller.Controller`.  It seats
the person at a :class:`~unotui.net.core.TableCore` (the one a LAN host, the lobby and
the tests drive) whose computer players are seeded here, and is the thin asyncio edge
around it: one task waits until the core's next deadline (or a wake-up when the person
acts), calls ``tick`` with the :class:`Clock`'s time, and delivers what the core sent
the person's seat.  The seat's outbox keeps views as views (no bytes are needed in one
process).  All changes to the game happen on the event loop, one at a time.

Computer players decide on a frozen :class:`~unotui.engine.SeatView` in a worker thread
(``asyncio.to_thread``): the hard level takes about 10 ms a decision, which the loop could
afford, but a decision off the loop also lets the person act while a bot thinks (jump in,
catch).  The referee then drops the bot's answer, made for a state that no longer exists.

Pacing, so that a person can follow: ``delay`` (seconds a computer player waits before
acting; 0 in tests) and ``catch_grace`` (seconds after someone goes down to one card
without calling UNO before anyone may catch them, the person included; never less than
:data:`~unotui.table.MIN_CATCH_GRACE` in play).

The game waits for the person: while they read something over the table (a dialog, the
help, the command palette) the app calls :meth:`LocalGame.pause`, and the table's clock
(:class:`PausingClock`) stops.  Every deadline the referee set moves on by the pause, as
if it had not happened, so no timing rule changes (issue 19: a lap of turns, a Draw Two
among them, went by unseen behind the palette).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING, Protocol

from ..bots import Bot, make_bot
from ..engine import DEAL, Action, Card, Game, Phase, Rules, SeatView, seat_view
from ..protocol import messages as m
from ..protocol.events import ViewUpdated
from ..table import AUTO_KEEP, SeatKind
from .config import RoomConfig
from .controller import Controller, MatchRecord
from .core import TableCore
from .room_info import SeatMark
from .seats import SeatBook, SeatEntry

if TYPE_CHECKING:  # (solo play writes no bytes: the wire's packing is never loaded)
    from ..protocol.shared import SharedDeltas

__all__ = ["Clock", "LocalGame", "LoopClock", "PausingClock"]


class Clock(Protocol):
    """The time a local game runs on: the event loop's (:class:`LoopClock`), or a test's."""

    def time(self) -> float:
        """Now, in seconds (any origin)."""

    async def wait(self, wake: asyncio.Event, until: float | None) -> None:
        """Return once ``wake`` is set or the time reaches ``until`` (``None``: no limit)."""


class LoopClock:
    """The event loop's clock (``loop.time()``): what a real solo game runs on."""

    def time(self) -> float:
        return asyncio.get_running_loop().time()

    async def wait(self, wake: asyncio.Event, until: float | None) -> None:
        timeout = None if until is None else max(0.0, until - self.time())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout)


class PausingClock:
    """The table's time in solo play: ``clock``'s, stopped while the game is paused.

    Time that passes during a pause is taken out of the table's time: after it, ``time()``
    goes on from where it stopped, so every deadline on it (a computer player's pause, the
    catch grace, the auto-keep) moves on by the pause.  The pause is here, once, over any
    :class:`Clock` (the loop's, or a test's fake one), not in each of them.
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._stopped_at: float | None = None
        self._behind = 0.0  # how far the table's time is behind the clock's

    @property
    def paused(self) -> bool:
        """Whether the table's time stands still."""
        return self._stopped_at is not None

    def time(self) -> float:
        stopped = self._stopped_at
        return stopped if stopped is not None else self.clock.time() - self._behind

    def pause(self) -> None:
        """Stop the table's time (again while paused: nothing)."""
        if self._stopped_at is None:
            self._stopped_at = self.time()

    def resume(self) -> None:
        """Let the table's time run on from where it stopped."""
        stopped, self._stopped_at = self._stopped_at, None
        if stopped is not None:
            self._behind = self.clock.time() - stopped

    async def wait(self, wake: asyncio.Event, until: float | None) -> None:
        """Wait for ``wake`` or the table's time ``until``: while paused, for ``wake`` alone
        (a resume sets it)."""
        if self._stopped_at is not None or until is None:
            await self.clock.wait(wake, None)
            return
        behind = self._behind
        at = until + behind
        while at - behind < until:  # rounding: by the clock's ``at`` the table's time is ``until``
            at = math.nextafter(at, math.inf)  # (else the driver would wake, find nothing due, spin)
        await self.clock.wait(wake, at)


class _Seat:
    """The person's outbox at the core: what the seat is sent, in order, views as views."""

    closed = False
    log_from = 0
    version = 0  # (no wire: the match's record is the game itself, LocalGame.record)

    def __init__(self) -> None:
        self.sent: list[m.Message | SeatView] = []

    def accept(self, *, seat: int | None, token: str | None, table: str, table_name: str, seats: int,
               rules: Rules, name: str | None = None) -> None:
        pass  # nobody to welcome: the person is in this process

    def reject(self, code: str, message: str) -> None:  # pragma: no cover - nobody knocks
        self.close(code, message)

    def send(self, message: m.Message) -> None:
        self.sent.append(message)

    def send_view(self, view: SeatView, shared: SharedDeltas | None = None) -> bool:
        self.sent.append(view)
        return True

    def close(self, code: str, message: str) -> None:
        self.closed = True
        self.sent.append(m.Closed(code, message))


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
        clock: the time the game runs on (default: the event loop's); the table's own
            time is :attr:`table_clock`, this clock less the pauses.
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
        clock: Clock | None = None,
    ) -> None:
        super().__init__()
        self.seat = seat
        self.delay = max(0.0, delay)
        self.catch_grace = max(0.0, catch_grace)
        self.clock: Clock = clock or LoopClock()
        self.table_clock = PausingClock(self.clock)
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
        config = RoomConfig(
            seats=self.game.n, rules=rules, level=level, bot_delay=self.delay, catch_grace=self.catch_grace,
            auto_keep=AUTO_KEEP if auto_keep is None else max(0.0, auto_keep), turn_timer=turn_timer,
        )
        book = SeatBook(self.game.n, [
            SeatEntry(name, SeatKind.HUMAN, connected=True) if s == seat
            else SeatEntry(name, SeatKind.BOT, level=level)
            for s, name in enumerate(self.game.names)
        ])
        self.core: TableCore[_Seat] = TableCore.playing(
            "", config, book, self.game, bots=self.bots, rng=Random(base.getrandbits(64)), inline_bots=False
        )
        self.core.recording = False  # nothing is journaled in solo play
        referee = self.core.referee
        assert referee is not None
        self.referee = referee
        self.bot_errors: list[str] = referee.bot_errors
        self._outbox = _Seat()
        self._view = seat_view(self.game, seat, self.game.round_log_start)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    # ----- Controller -----------------------------------------------------------------------

    @property
    def view(self) -> SeatView:
        return self._view

    @property
    def record(self) -> MatchRecord | None:
        """The finished match's transcript and the person's seat (what the summary's
        ``s`` saves and ``r`` reviews); ``None`` until the match is over (the whole game
        is here)."""
        if not self.game.over:
            return None
        from ..transcript import transcript_of

        return MatchRecord(transcript_of(self.game), self.seat)

    @property
    def marks(self) -> tuple[SeatMark, ...]:
        """Every seat but the person's is a computer player's."""
        return tuple(SeatMark.PERSON if s == self.seat else SeatMark.BOT for s in range(self.game.n))

    async def start(self) -> None:
        if self._task is None:
            self.core.join(self._outbox, self._outbox, self.seat, self.table_clock.time())
            self._deliver()
            self._poke()
            self._task = asyncio.create_task(self._drive(), name="unotui-bots")

    def send(self, action: Action) -> int:
        seq = self._next_seq()
        if self._closed:
            return seq
        self.core.receive(self._outbox, m.Intent(seq, action), self.table_clock.time())
        self._deliver()
        self._poke()
        return seq

    def next_round(self) -> None:
        game = self.game
        if game.phase != Phase.ROUND_OVER:
            return
        if game.dealer == self.seat:  # the dealer deals: that is its "ready"
            self.send(DEAL)
        else:
            self.core.receive(self._outbox, m.Ready(), self.table_clock.time())
            self._deliver()
            self._poke()

    def pause(self, paused: bool) -> bool:
        """The person reads something over the table (``True``) or is back (``False``): the
        table's clock stops and runs on, so computer players wait for them."""
        if paused:
            self.table_clock.pause()
        else:
            self.table_clock.resume()
        self._poke()
        return True

    async def close(self) -> None:
        self._closed = True
        self._listener = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # ----- the core's clock ---------------------------------------------------------------------

    def _deliver(self) -> None:
        """Hand the listener what the core sent the person's seat, in order: the very
        messages a remote seat is sent (views as views)."""
        sent, self._outbox.sent = self._outbox.sent, []
        for item in sent:
            if isinstance(item, SeatView):
                self._view = item
                self._emit(ViewUpdated(item))
            elif isinstance(item, m.Accepted | m.Refused | m.Closed | m.Presence | m.Deadline | m.ChatLine):
                self._emit(item)

    def _poke(self) -> None:
        self._wake.set()

    async def _drive(self) -> None:
        try:
            await self._run()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # never leave the person waiting on a dead game
            self.bot_errors.append(f"driver: {exc!r}")
            self._emit(m.Closed("closed", f"the game stopped: {exc}"))

    async def _run(self) -> None:
        core, referee, clock = self.core, self.referee, self.table_clock
        while not self._closed:
            self._wake.clear()
            if clock.paused:  # nothing moves until the person is back at the table
                await clock.wait(self._wake, None)
                continue
            core.tick(clock.time())
            self._deliver()
            decision = referee.due_decision(clock.time())
            if decision is not None:
                try:
                    action: Action | None = await asyncio.to_thread(decision.bot.choose, decision.view)
                except Exception as exc:  # a broken bot must not stop the game
                    self.bot_errors.append(f"{decision.seat}: {exc!r}")
                    action = None
                while clock.paused and not self._closed:  # decided before the pause: applied after it
                    self._wake.clear()
                    await clock.wait(self._wake, None)
                if not self._closed:
                    core.decided(decision, action, clock.time())
                    self._deliver()
                continue
            due = core.next_deadline()
            if due is not None and due <= clock.time():
                await asyncio.sleep(0)
                continue
            await clock.wait(self._wake, due)
