"""The client's end of a lobby connection: the list of tables, create, quick match, chat.

The lobby screen talks to this, never to a socket.  What the lobby sends is checked by
the protocol's strict parser (a lobby host is as untrusted as any host) and handed to
one listener as plain values: :class:`~unotui.protocol.messages.LobbyState`,
:class:`~unotui.protocol.messages.Created`, :class:`~unotui.protocol.messages.ChatLine`,
:class:`~unotui.protocol.messages.Refused`, or :class:`LobbyClosed` when the connection
ends.  Sitting at a table is a separate connection (a
:class:`~unotui.net.remote.RemoteGame` with the table's code).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import __version__
from ..engine import Rules
from ..protocol import messages as m
from ..protocol.events import ConnectionClosed
from ..protocol.peer_session import PeerSession
from ..protocol.session import PROTOCOL_VERSION
from ..protocol.text import CHAT_MAX, clean
from .controller import JoinError
from .link import Link, session_of
from .remote import dial, hang_up

__all__ = ["LobbyClient", "LobbyClosed"]


@dataclass(frozen=True)
class LobbyClosed:
    """The lobby connection ended; ``reason`` is a sentence for the player."""

    code: str
    reason: str


LobbyUpdate = m.LobbyState | m.Created | m.ChatLine | m.Refused | LobbyClosed


class LobbyClient:
    """One connection to a lobby (``hello.lobby``)."""

    def __init__(
        self, host: str, port: int, *, name: str, identity: str | None = None, connect_timeout: float = 5.0
    ) -> None:
        self.host, self.port, self.name, self.identity = host, port, name, identity
        self.connect_timeout = connect_timeout
        self.state: m.LobbyState | None = None
        self._listener: Callable[[LobbyUpdate], None] | None = None
        self._link: Link | None = None
        self._welcomed: asyncio.Future[None] | None = None

    def listen(self, listener: Callable[[LobbyUpdate], None] | None) -> None:
        """Where updates go (``None``: nowhere)."""
        self._listener = listener

    async def start(self) -> None:
        """Connect and wait for the welcome.  Raises :class:`JoinError` with a sentence."""
        loop = asyncio.get_running_loop()
        hello = m.Hello(PROTOCOL_VERSION, PROTOCOL_VERSION, self.name, client=f"unotui/{__version__}",
                        lobby=True, identity=self.identity)
        self._welcomed = loop.create_future()
        await dial(self.host, self.port, PeerSession(hello, loop.time()), self._made, self._welcomed,
                   self.connect_timeout)

    def _made(self, session: PeerSession) -> Link:
        self._link = Link(session, self._events, self._lost)
        return self._link

    # ----- requests ---------------------------------------------------------------------------

    def create(self, name: str, seats: int, bots: int, rules: Rules, level: str,
               turn_timer: float | None, private: bool) -> None:
        """Ask for a new table; its code comes back as :class:`~unotui.protocol.messages.Created`."""
        timer = None if turn_timer is None else round(turn_timer * 1000)
        self._out(m.Create(name[:32] or "Table", seats, min(bots, seats - 1), rules, level, timer, private))

    def quick(self) -> None:
        """Ask for a seat at once."""
        self._out(m.Quick())

    def chat(self, text: str) -> None:
        """A line to everyone in the lobby."""
        if text.strip():
            self._out(m.Chat(text[:CHAT_MAX]))

    async def close(self) -> None:
        """Say goodbye and close."""
        self._listener = None
        link, self._link = self._link, None
        if link is not None:
            hang_up(link)

    # ----- the connection ---------------------------------------------------------------------

    def _out(self, message: m.Message) -> None:
        link = self._link
        if link is None or link.session.closed:
            self._emit(m.Refused(None, "offline", "Not connected to the lobby."))
            return
        session_of(link, PeerSession).send(message)
        link.flush()

    def _emit(self, update: LobbyUpdate) -> None:
        if self._listener is not None:
            self._listener(update)

    def _events(self, link: Link, events: list[Any]) -> None:
        if link is not self._link:
            return
        for event in events:
            if isinstance(event, m.Welcome):
                if self._welcomed is not None and not self._welcomed.done():
                    self._welcomed.set_result(None)
            elif isinstance(event, m.LobbyState):
                self.state = event
                self._emit(event)
            elif isinstance(event, m.Created | m.ChatLine | m.Refused):
                self._emit(event)
            elif isinstance(event, ConnectionClosed):
                message = clean(event.message)  # the host's words: a hostile host's too
                if self._welcomed is not None and not self._welcomed.done():
                    self._welcomed.set_exception(JoinError(message, event.code))
                self._emit(LobbyClosed(event.code, message))

    def _lost(self, link: Link) -> None:
        if link is self._link:
            self._link = None
            if self._welcomed is not None and not self._welcomed.done():
                self._welcomed.set_exception(JoinError("the lobby closed the connection", "eof"))
            self._emit(LobbyClosed("eof", "The connection to the lobby was lost."))
