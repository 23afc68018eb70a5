"""Clocks for driving a :class:`~unotui.net.local.LocalGame` in tests.

:class:`FakeClock` moves only when the test says so (``advance``): a grace period or a
bot's pause is a number, not a wait.  :class:`WatchedClock` is the event loop's clock and
tells when the game is parked (every computer player and the referee done with what is
due now).  Both answer :meth:`idle`: the real condition a test waits on.
"""

from __future__ import annotations

import asyncio

from unotui.net.local import LoopClock

__all__ = ["FakeClock", "WatchedClock", "idle"]


class WatchedClock(LoopClock):
    """The loop's clock, knowing when the game's driver waits with nothing due."""

    def __init__(self) -> None:
        self._wake: asyncio.Event | None = None

    async def wait(self, wake: asyncio.Event, until: float | None) -> None:
        self._wake = wake
        try:
            await super().wait(wake, until)
        finally:
            self._wake = None

    @property
    def parked(self) -> bool:
        """Whether the driver waits and nothing has woken it yet."""
        return self._wake is not None and not self._wake.is_set()


class FakeClock:
    """Time that passes only by :meth:`advance`."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._wake: asyncio.Event | None = None
        self._bell = asyncio.Event()

    def time(self) -> float:
        return self.now

    async def wait(self, wake: asyncio.Event, until: float | None) -> None:
        self._wake = wake
        try:
            while not wake.is_set() and (until is None or self.now < until):
                self._bell = bell = asyncio.Event()
                woken = asyncio.ensure_future(wake.wait())
                rung = asyncio.ensure_future(bell.wait())
                await asyncio.wait((woken, rung), return_when=asyncio.FIRST_COMPLETED)
                woken.cancel()
                rung.cancel()
        finally:
            self._wake = None

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass: whatever falls due is done at the next :func:`idle`."""
        self.now += seconds
        self._bell.set()

    @property
    def parked(self) -> bool:
        """Whether the driver waits and neither the person nor the clock has woken it."""
        return self._wake is not None and not self._wake.is_set() and not self._bell.is_set()


async def idle(clock: object) -> None:
    """Wait until the game has done everything due by the clock's now (a later deadline,
    a catch after the grace or a bot's pause, may still be pending): a condition, polled
    on the loop (a computer player may be thinking in a worker thread meanwhile)."""
    assert isinstance(clock, FakeClock | WatchedClock)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 30.0
    spins = 0
    while loop.time() < give_up:
        if clock.parked:
            await asyncio.sleep(0)
            if clock.parked:
                return
        spins += 1
        await asyncio.sleep(0 if spins < 200 else 0.001)
    raise AssertionError("the game never settled")
