"""A seat at a game on another machine: the :class:`Controller` over the wire protocol.

The table screen cannot tell this from a local game: it sends intents and receives
views.  What differs is hidden here:

* intents take a round trip, so each carries a sequence number; the host's answer
  (applied, or refused with that number) clears :attr:`Controller.in_flight`;
* the view is rebuilt from a snapshot and then deltas (:mod:`unotui.protocol.sync`);
* a dropped connection is retried with the seat's resume token (the host holds the
  seat), and the host rotates the token on each resume; only when the host is gone for
  longer than it holds seats, or says the game is over, does the player see
  :class:`Closed`;
* everything the host sends is checked and its text sanitised again before it reaches
  the screen: a host can be hostile too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from ..engine import Action, SeatView
from ..protocol import messages as m
from ..protocol.session import PeerSession
from ..protocol.sync import ViewDecoder
from ..client.controller import (
    Answered,
    Chat,
    Closed,
    Controller,
    Deadline,
    Presence,
    Refused,
    ViewChanged,
)
from ..client.room import RoomChanged, RoomInfo
from .addresses import DEFAULT_PORT
from .link import Link

__all__ = ["JoinError", "RemoteGame"]

log = logging.getLogger("unotui.join")



class JoinError(Exception):
    """The table could not be joined; the message is a sentence for the player."""

    def __init__(self, message: str, code: str = "error") -> None:
        super().__init__(message)
        self.code = code


class RemoteGame(Controller):
    """A seat (or a spectator's chair) at a table hosted elsewhere.

    Args:
        host, port: where the table is.
        name: the name to ask for (the host may make it unique).
        password: the table's password, if it has one.
        spectate: watch instead of taking a seat.
        owner: the host's own secret (only the hosting process passes it): the seat
            that joins with it may start the match.
        table: the table's code on a host with several tables (``""``: the only one).
        reconnect_for: seconds to keep trying to resume after the connection drops.
    """

    def __init__(
        self,
        host: str,
        port: int = DEFAULT_PORT,
        *,
        name: str = "Player",
        password: str = "",
        spectate: bool = False,
        owner: str = "",
        table: str = "",
        reconnect_for: float = 120.0,
        connect_timeout: float = 5.0,
    ) -> None:
        super().__init__()
        self.host, self.port = host, port
        self.name = name
        self.password = password
        self.spectate = spectate
        self.owner = owner
        self.table = table
        self.reconnect_for = reconnect_for
        self.connect_timeout = connect_timeout
        self.seat: int | None = None
        self.token = ""
        self.room: RoomInfo | None = None
        self._decoder = ViewDecoder()
        self._link: Link | None = None
        self._welcomed: asyncio.Future[None] | None = None
        self._closing = False
        self._reconnect: asyncio.Task[None] | None = None
        self._actions: dict[int, str] = {}

    # ----- Controller ---------------------------------------------------------------------------

    @property
    def view(self) -> SeatView:
        view = self._decoder.view
        if view is None:
            raise LookupError("no view of the game yet")
        return view

    @property
    def can_chat(self) -> bool:
        return True

    async def start(self) -> None:
        """Connect and wait for the host's welcome.

        Raises:
            JoinError: the host refused (full table, wrong password, version) or cannot be reached.
        """
        await self._connect(resume=False)

    def send(self, action: Action) -> int:
        seq = self._next_seq()
        self._actions[seq] = str(action)
        self._out(m.Intent(seq, str(action)))
        return seq

    def next_round(self) -> None:
        self._out(m.Ready())

    def chat(self, text: str) -> None:
        self._out(m.ChatSend(text))

    def start_match(self) -> None:
        """Ask the host to start now (only the host's own seat may)."""
        self._out(m.Start())

    async def hint(self) -> Action | None:
        from ..client.players import suggest

        view = self._decoder.view
        if view is None or view.seat is None:
            return None
        return await asyncio.to_thread(suggest, view)

    async def close(self) -> None:
        self._closing = True
        self._listener = None
        if self._reconnect is not None:
            self._reconnect.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnect
        link, self._link = self._link, None
        if link is not None:
            with contextlib.suppress(Exception):
                link.session.send(m.Bye())
                link.flush()
            link.close()

    # ----- the connection -----------------------------------------------------------------------

    def _out(self, msg: object) -> None:
        link = self._link
        if link is None:
            return  # reconnecting: the intent is lost, the player sees no answer and retries
        link.session.send(msg)
        link.flush()

    async def _connect(self, *, resume: bool) -> None:
        loop = asyncio.get_running_loop()
        session = PeerSession(
            name=self.name,
            password=self.password,
            token=self.token if resume else "",
            spectate=self.spectate,
            owner=self.owner,
            table=self.table,
            now=loop.time(),
        )
        self._welcomed = loop.create_future()
        try:
            _transport, link = await asyncio.wait_for(
                loop.create_connection(lambda: Link(session, self._events, self._lost), self.host, self.port),
                self.connect_timeout,
            )
        except (OSError, TimeoutError) as exc:
            raise JoinError(f"cannot reach {self.host}:{self.port} ({exc.__class__.__name__}: {exc})", "unreachable") from None
        self._link = link
        try:
            await asyncio.wait_for(asyncio.shield(self._welcomed), self.connect_timeout)
        except TimeoutError:
            link.abort("no welcome")
            raise JoinError(f"{self.host}:{self.port} did not answer as a unotui host", "no_welcome") from None

    def _events(self, link: Link, events: list[Any]) -> None:
        if link is not self._link:
            return
        for event in events:
            self._event(event)

    def _event(self, event: Any) -> None:
        if isinstance(event, m.Welcome):
            self.seat, self.token = event.seat, event.token
            self._decoder = ViewDecoder()
            if self._welcomed is not None and not self._welcomed.done():
                self._welcomed.set_result(None)
        elif isinstance(event, m.Error):
            if self._welcomed is not None and not self._welcomed.done():
                self._welcomed.set_exception(JoinError(event.message, event.code))
            else:
                self._emit(Closed(event.message, event.code))
        elif isinstance(event, m.Snapshot | m.Delta):
            view = self._decoder.apply(event)
            self._emit(ViewChanged(view))
            if getattr(event, "ack", -1) >= 0:
                self._emit(Answered(event.ack))
        elif isinstance(event, m.Refused):
            self._emit(Refused(self._actions.pop(event.seq, ""), event.code, event.message, event.seq))
        elif isinstance(event, m.PresenceMsg):
            self._emit(Presence(event.seat, event.name, event.state))
        elif isinstance(event, m.DeadlineMsg):
            self._emit(Deadline(event.kind, event.seat, event.seconds))
        elif isinstance(event, m.ChatLine):
            self._emit(Chat(event.seat, event.name, event.text))
        elif isinstance(event, m.RoomMsg):
            self.room = event.to_info()
            self._emit(RoomChanged(self.room))
        elif isinstance(event, m.Closed):
            self._closing = True
            self._emit(Closed(event.message, event.code))

    def _lost(self, link: Link) -> None:
        if link is not self._link:
            return
        self._link = None
        if self._welcomed is not None and not self._welcomed.done():
            self._welcomed.set_exception(JoinError("the host closed the connection", "closed"))
            return
        if self._closing:
            return
        if not self.token:  # a spectator (no seat to hold): just tell the player
            self._emit(Closed("Lost the connection to the host.", "connection_lost"))
            return
        self._reconnect = asyncio.get_running_loop().create_task(self._resume())

    async def _resume(self) -> None:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.reconnect_for
        pause = 0.25
        if self.seat is not None:
            self._emit(Presence(self.seat, self.name, "reconnecting"))
        while not self._closing and loop.time() < give_up:
            try:
                await self._connect(resume=True)
                return
            except JoinError as exc:
                if exc.code in ("bad_token", "bad_password", "version", "in_progress"):
                    self._emit(Closed(f"Could not resume the seat: {exc}", exc.code))
                    return
            await asyncio.sleep(pause)
            pause = min(pause * 2, 3.0)
        if not self._closing:
            self._emit(Closed("Lost the connection to the host.", "connection_lost"))
