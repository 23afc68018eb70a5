"""The lobby's review job: a game review on the server only with a slot the lobby grants.

An SSH session's program runs on the lobby's machine, so a review it runs takes that
machine's CPU, for a guest as much as for anyone.  :class:`LobbyReviewJob` asks the
lobby for a slot first (``review`` -> ``review_slot``: the lobby knows every key and
address, so its count is the authoritative one; see :mod:`unotui.lobby.review_slots`),
raises :class:`ReviewRefused` with the lobby's sentence when refused, else reviews
with one process, reniced, under a CPU limit, and gives the slot back when done.

It uses the lobby connection the session has open (the lobby's list of recent matches);
with none (at a lobby table's summary) it opens one of its own for the review, whose
closing frees the slot whatever happens.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any

from ..net.lobby_client import KeptError, LobbyClient
from ..protocol.text import clean
from .review_job import ReviewJob, ReviewRefused, local_job

__all__ = ["CPU_SECONDS", "NICE", "LobbyReviewJob"]

#: the analysis's CPU limit on the server, seconds (a 500-point match takes well under)
CPU_SECONDS = 300
#: the analysis's niceness on the server: the tables' moves come first
NICE = 10


class LobbyReviewJob:
    """A :class:`ReviewJob` that holds a lobby review slot while it runs.

    Args:
        loop: the app's event loop (the lobby connection lives there; ``run`` is called
            from a worker thread).
        client: the open lobby connection, if any (read when the review starts).
        connect: makes a lobby connection of the job's own when ``client`` gives none.
        inner: the review itself (default: one process, :data:`NICE`, :data:`CPU_SECONDS`).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, client: Callable[[], LobbyClient | None],
                 connect: Callable[[], LobbyClient], inner: ReviewJob | None = None,
                 timeout: float = 20.0) -> None:
        self.loop, self.client, self.connect = loop, client, connect
        self.inner = inner or local_job(jobs=1, nice=NICE, cpu_seconds=CPU_SECONDS)
        self.timeout = timeout

    def run(self, text: str, progress: Callable[[int, int], None]) -> dict[str, Any]:
        """Ask for a slot, review, give the slot back (see the module docstring)."""
        client, own = self._call(self._slot())
        try:
            return self.inner.run(text, progress)
        finally:
            if own:
                asyncio.run_coroutine_threadsafe(client.close(), self.loop)
            else:
                self.loop.call_soon_threadsafe(client.review_done)

    async def _slot(self) -> tuple[LobbyClient, bool]:
        client, own = self.client(), False
        if client is None:
            client, own = self.connect(), True
            try:
                await client.start()
            except Exception as exc:  # (JoinError: unreachable, refused...)
                raise ReviewRefused(f"Cannot reach the lobby for a review: {exc}") from None
        try:
            slot = await client.review_slot()
            why = "" if slot.granted else clean(slot.reason) or "The lobby refused the review."
        except KeptError as exc:
            why = str(exc)
        if why:
            if own:
                await client.close()
            raise ReviewRefused(why)
        return client, own

    def _call(self, coro: Any) -> tuple[LobbyClient, bool]:
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            got: tuple[LobbyClient, bool] = future.result(self.timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise ReviewRefused("The lobby did not answer in time; try again in a minute.") from None
        return got
