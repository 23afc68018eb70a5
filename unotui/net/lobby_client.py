"""The client's end of a lobby connection: the list of tables, create, quick match, chat.

The lobby screen talks to this, never to a socket.  What the lobby sends is checked by
the protocol's strict parser (a lobby host is as untrusted as any host) and handed to
one listener as plain values: :class:`~unotui.protocol.messages.LobbyState`,
:class:`~unotui.protocol.messages.Created`, :class:`~unotui.protocol.messages.ChatLine`,
:class:`~unotui.protocol.messages.Refused`, or :class:`LobbyClosed` when the connection
ends.  Sitting at a table is a separate connection (a
:class:`~unotui.net.remote.RemoteGame` with the table's code).

Kept matches and review slots (protocol version 2) are awaitables instead:
:meth:`LobbyClient.matches`, :meth:`LobbyClient.kept`, :meth:`LobbyClient.review_slot`.
The lobby answers them in order, so one queue of pending requests matches each answer
to its request; each raises :class:`KeptError` with a sentence when refused, timed out
or cut off.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import __version__
from ..engine import Rules
from ..protocol import messages as m
from ..protocol.events import ConnectionClosed
from ..protocol.peer_session import PeerSession
from ..protocol.session import OLDEST_VERSION, PROTOCOL_VERSION
from ..protocol.text import CHAT_MAX, clean
from ..transcript import Transcript, TranscriptError
from .controller import JoinError
from .link import Link, session_of
from .remote import dial, hang_up

__all__ = ["MAX_KEPT_TEXT", "KeptError", "LobbyClient", "LobbyClosed"]

#: the longest kept transcript a client accepts, in characters (the lobby keeps less)
MAX_KEPT_TEXT = 1_000_000
#: the refusals that answer a pending kept-matches or review request
_ANSWERS = ("no_such_match", "rate_limited")


class KeptError(Exception):
    """A kept-matches or review request failed; the message is a sentence for the player."""


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
        self._pending: deque[tuple[m.Message, asyncio.Future[Any]]] = deque()
        self._text: list[str] = []  # the kept_text chunks of the transcript coming in
        self._parts_seen: list[int] = []  # each part's ``parts``, so far
        self._dropping: int | None = None  # a refused transcript whose later parts are still coming

    def listen(self, listener: Callable[[LobbyUpdate], None] | None) -> None:
        """Where updates go (``None``: nowhere)."""
        self._listener = listener

    async def start(self) -> None:
        """Connect and wait for the welcome.  Raises :class:`JoinError` with a sentence."""
        loop = asyncio.get_running_loop()
        hello = m.Hello(OLDEST_VERSION, PROTOCOL_VERSION, self.name, client=f"unotui/{__version__}",
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

    async def matches(self, timeout: float = 10.0) -> m.KeptList:
        """This key's kept matches (newest first), and the lobby's note."""
        got: m.KeptList = await self._ask(m.Matches(), timeout)
        return got

    async def kept(self, match_id: int, timeout: float = 20.0) -> Transcript:
        """The transcript of kept match ``match_id``, parsed (replaying it is the
        caller's: :func:`unotui.transcript.replay` checks every step)."""
        text: str = await self._ask(m.Kept(match_id), timeout)
        try:
            return Transcript.loads(text)
        except TranscriptError as exc:
            raise KeptError(f"That match's record cannot be read: {exc}") from None

    async def review_slot(self, timeout: float = 10.0) -> m.ReviewSlot:
        """Ask the lobby for a review slot (``granted``, or the ``reason`` why not)."""
        got: m.ReviewSlot = await self._ask(m.Review(), timeout)
        return got

    def review_done(self) -> None:
        """The granted review is over: the lobby frees its slot."""
        if self._link is not None and not self._link.session.closed:
            self._out(m.ReviewDone())

    async def _ask(self, request: m.Message, timeout: float) -> Any:
        if self._link is None or self._link.session.closed:
            raise KeptError("Not connected to the lobby.")
        welcome = session_of(self._link, PeerSession).welcome
        if welcome is not None and welcome.version < 2:  # (the request would close the connection)
            raise KeptError("This lobby is older than recent matches and reviews: it has neither.")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((request, future))
        self._out(request)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            raise KeptError("The lobby did not answer in time; try again.") from None

    def _answer(self, event: Any) -> bool:
        """``event`` answers the oldest pending request: resolve it (True), or it is not
        an answer at all (False).  A hostile host's mismatched answer fails the request."""
        if isinstance(event, m.KeptText) and event.id == self._dropping:
            if event.part >= event.parts - 1:  # (its last part: what follows is an answer again)
                self._dropping = None
            return True
        if not self._pending:
            return False
        request, future = self._pending[0]
        result: Any = None
        failed = ""
        if isinstance(event, m.Refused):
            if event.code not in _ANSWERS:
                return False
            failed = clean(event.message) or "The lobby refused."
        elif (isinstance(event, m.KeptList) and isinstance(request, m.Matches)) or (
                isinstance(event, m.ReviewSlot) and isinstance(request, m.Review)):
            result = event
        elif isinstance(event, m.KeptText) and isinstance(request, m.Kept):
            if event.id != request.id or event.part != len(self._parts_seen):
                failed = "The lobby sent a broken transcript."
                self._dropping = event.id if event.part < event.parts - 1 else None
            else:
                self._parts_seen.append(event.parts)
                self._text.extend(event.chunks)
                if sum(map(len, self._text)) > MAX_KEPT_TEXT or len(set(self._parts_seen)) > 1:
                    failed = "The lobby sent a broken transcript."
                    self._dropping = request.id if event.part < event.parts - 1 else None
                elif event.part < event.parts - 1:
                    return True  # more parts to come
                else:
                    result = "".join(self._text)
        else:
            failed = "The lobby answered something else."
        self._pending.popleft()
        self._text, self._parts_seen = [], []
        if not future.done():
            if failed:
                future.set_exception(KeptError(failed))
            else:
                future.set_result(result)
        return True

    def _fail_pending(self, why: str) -> None:
        while self._pending:
            _request, future = self._pending.popleft()
            if not future.done():
                future.set_exception(KeptError(why))

    async def close(self) -> None:
        """Say goodbye and close."""
        self._listener = None
        self._fail_pending("Not connected to the lobby.")
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
            elif isinstance(event, m.KeptList | m.KeptText | m.ReviewSlot | m.Refused) and (
                    self._answer(event)):
                continue
            elif isinstance(event, m.Created | m.ChatLine | m.Refused):
                self._emit(event)
            elif isinstance(event, ConnectionClosed):
                message = clean(event.message)  # the host's words: a hostile host's too
                if self._welcomed is not None and not self._welcomed.done():
                    self._welcomed.set_exception(JoinError(message, event.code))
                self._fail_pending(message or "The lobby closed the connection.")
                self._emit(LobbyClosed(event.code, message))

    def _lost(self, link: Link) -> None:
        if link is self._link:
            self._link = None
            self._fail_pending("The connection to the lobby was lost.")
            if self._welcomed is not None and not self._welcomed.done():
                self._welcomed.set_exception(JoinError("the lobby closed the connection", "eof"))
            self._emit(LobbyClosed("eof", "The connection to the lobby was lost."))
