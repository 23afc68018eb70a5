"""The TCP host: accepts connections, guards the door, and hands each hello to its table.

One :class:`Host` serves one or more :class:`~unotui.net.room.Room` s (a LAN host has one,
the benchmark and the lobby many).  The protocol session of each connection enforces the
per-connection limits (frame sizes, hello and frame timeouts, rate limits, heartbeats);
the host enforces the limits across connections, before a single byte is read:

=============================  =======  =============================================
limit                          default  why
=============================  =======  =============================================
connections in all             256      file descriptors and memory are finite
unauthenticated per address    4        a hello costs nothing to withhold (slowloris)
new connections per address/s  5        reconnect storms and scanners
after hello, per address       32       one address must not fill the door
kept for resumes               16       of the 256: a dropped seat can always come back
failed guesses per address     5        then a wait, doubling to 60 s (codes, passwords)
=============================  =======  =============================================

The first three are checked on arrival, before a byte is read; the others once the hello
says what the connection wants.  Idle spectators and lobby connections cost nothing to
hold, so after its hello a connection counts against its address, and against the
connections in all less the ones kept for resumes: a hello that resumes a seat with its
valid token (or a lobby key that holds a seat) is let in past both, so that a full door
never keeps a player from their seat.  A connection over a limit gets one ``error`` frame
saying which, and is closed.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..protocol import messages as m
from ..protocol.events import ConnectionClosed, HelloReceived
from ..protocol.session import HostSession
from ..tokens import TokenBucket
from .guard import GUESS_CODES, Backoff, BackoffLimits
from .link import Link, session_of
from .room import Room

__all__ = ["Hall", "Host", "HostLimits"]

log = logging.getLogger("unotui.host")


@dataclass(frozen=True)
class HostLimits:
    """Limits across connections (see the module docstring)."""

    max_connections: int = 256
    unauthenticated_per_ip: int = 4
    new_per_ip_per_s: float = 5.0
    new_per_ip_burst: int = 5
    per_ip: int = 32  # after hello, resumes aside
    resume_reserve: int = 16  # of max_connections, only for resumes (at most half of them)
    guesses: BackoffLimits = field(default_factory=BackoffLimits)


class Desk(Protocol):
    """Where a lobby answers its kept-matches and review-slot requests (protocol version 2;
    see :class:`unotui.lobby.kept.KeptDesk`)."""

    def answer(self, link: Link, request: Any) -> None: ...


class Hall(Protocol):
    """What a host with a lobby routes to it (see :class:`unotui.lobby.lobby.Lobby`)."""

    members: Any

    @property
    def desk(self) -> Desk: ...

    def identity_of(self, hello: m.Hello) -> str | None: ...
    def origin_of(self, hello: m.Hello) -> str: ...
    def admit(self, link: Link, event: HelloReceived, identity: str | None) -> None: ...
    def gone(self, link: Link) -> None: ...
    def create(self, link: Link, request: m.Create) -> None: ...
    def quick(self, link: Link) -> None: ...
    def chat(self, link: Link, text: str) -> None: ...
    def no_code(self) -> str: ...


class Host:
    """Serve ``rooms`` over TCP.

    Args:
        rooms: tables by code (``""`` is the table a hello without a code reaches).
        limits: the door's limits.
        session_factory: builds the protocol session of a new connection (tests pass
            one with other limits).
        lobby: the lobby behind ``hello.lobby`` on a host of many tables (``unotui serve``).
    """

    def __init__(
        self,
        rooms: dict[str, Room],
        *,
        limits: HostLimits | None = None,
        session_factory: Callable[[float], HostSession] | None = None,
        lobby: Hall | None = None,
    ) -> None:
        self.rooms = rooms
        self.lobby = lobby
        self.limits = limits or HostLimits()
        self._session_factory = session_factory or (lambda now: HostSession(now=now))
        self.links: set[Link] = set()
        self._room_of: dict[Link, Room] = {}
        self._unauth: dict[str, int] = defaultdict(int)
        self._waiting: set[Link] = set()  # connected, no hello yet
        self._rate: dict[str, TokenBucket] = {}
        self._counted: dict[Link, str] = {}  # admitted past the hello -> its address
        self._per_ip: dict[str, int] = defaultdict(int)
        self.guesses = Backoff(self.limits.guesses)
        self._servers: list[asyncio.Server] = []
        self.refused: dict[str, int] = defaultdict(int)

    # ----- serving ------------------------------------------------------------------------------

    async def listen(self, bind: str = "0.0.0.0", port: int = 7777) -> list[tuple[str, int]]:
        """Start listening; returns the (address, port) pairs actually bound."""
        loop = asyncio.get_running_loop()
        server = await loop.create_server(self._new_link, bind or None, port, backlog=1024)
        self._servers.append(server)
        return [(str(s.getsockname()[0]), int(s.getsockname()[1])) for s in server.sockets]

    async def close(self, code: str = "host_left", reason: str = "The host ended the game.") -> None:
        """Stop accepting, tell every table's players why, and close every connection."""
        for server in self._servers:
            server.close()
        for room in self.rooms.values():
            room.close(code, reason)
        for link in list(self.links):
            link.close()
        for server in self._servers:
            await server.wait_closed()
        self._servers.clear()

    # ----- the door -----------------------------------------------------------------------------

    def _new_link(self) -> Link:
        return _Door(self, self._session_factory(asyncio.get_running_loop().time()))

    def _admit(self, link: Link) -> str:
        """Why ``link`` may not come in ("" if it may), counted on arrival."""
        ip = link.peer[0]
        now = asyncio.get_running_loop().time()
        if len(self.links) >= self.limits.max_connections:
            return "too_many_connections"
        if self._unauth[ip] >= self.limits.unauthenticated_per_ip:
            return "too_many_unauthenticated"
        bucket = self._rate.get(ip)
        if bucket is None:
            limits = self.limits
            bucket = self._rate[ip] = TokenBucket(limits.new_per_ip_per_s, limits.new_per_ip_burst, now)
        if not bucket.take(now):
            return "too_many_new_connections"
        if len(self._rate) > 4096:  # forget quiet addresses (a full bucket is a new one)
            self._rate = {k: b for k, b in self._rate.items() if not b.full(now)}
        return ""

    # ----- events from connections ---------------------------------------------------------------

    def _events(self, link: Link, events: list[Any]) -> None:
        for event in events:
            try:
                self._event(link, event)
            except Exception as exc:  # a bug must not end a connection unexplained
                log.error("connection %r: %s failed: %r", link.peer, type(event).__name__, exc, exc_info=exc)
                session = link.session
                if isinstance(session, HostSession) and not session.closed:
                    session.close("server_error", "The host failed to handle that; please reconnect.")
                link.flush()
        room = self._room_of.get(link)
        if room is not None:
            room.flush()

    def _event(self, link: Link, event: Any) -> None:
        """One event from ``link``: hello to its table or the lobby, requests to their owner."""
        room = self._room_of.get(link)
        if isinstance(event, HelloReceived):
            self._authenticated(link)
            if not link.session.closed:
                # (Closed: something after the hello in the same read broke the protocol;
                # admitting it would seat nobody, and keep the seat.)
                self._hello(link, event)
        elif self.lobby is not None and link in self.lobby.members:
            if isinstance(event, m.Create):
                self.lobby.create(link, event)
            elif isinstance(event, m.Quick):
                self.lobby.quick(link)
            elif isinstance(event, m.Chat):
                self.lobby.chat(link, event.text)
            elif isinstance(event, m.Matches | m.Kept | m.Review | m.ReviewDone):
                self.lobby.desk.answer(link, event)
        elif isinstance(event, m.Create | m.Quick | m.Matches | m.Kept | m.Review):
            what = "Tables are created" if isinstance(event, m.Create | m.Quick) else "That is asked"
            refusal = m.Refused(None, "not_in_lobby", f"{what} from a lobby.")
            session_of(link, HostSession).send(refusal)
            link.flush()
        elif room is None:
            return
        elif isinstance(event, m.Intent | m.Ready | m.Chat | m.Start):
            room.receive(link, event)
        elif isinstance(event, ConnectionClosed) and event.code == "bye":
            room.gone(link, said_bye=True)  # a deliberate leave (the close that follows finds it gone)

    def _hello(self, link: Link, event: HelloReceived) -> None:
        """Route a hello to the lobby or its table, past the limits that need it read."""
        session = session_of(link, HostSession)
        hello, lobby = event.hello, self.lobby
        identity = lobby.identity_of(hello) if lobby is not None else None
        to_lobby = lobby is not None and hello.lobby
        target = None if to_lobby else self.rooms.get(hello.table)
        resume = target is not None and _resumes(target, event, identity)
        ip, now = link.peer[0], asyncio.get_running_loop().time()
        # A key is its own guesser; everyone else is their address: for an SSH session
        # (always 127.0.0.1 here) the one its credential vouches for.
        guesser = identity or (lobby.origin_of(hello) if lobby is not None else "") or ip
        # A guess needs a secret to find: a private table's code, or a password.  A public
        # table is listed in the lobby, so a guesser waiting out its back-off may still join
        # one.
        config = target.config if target is not None else None
        guess = not to_lobby and (config is None or config.private or bool(config.password_hash))
        why = "" if resume else self._over(ip, guesser if guess else "", now)
        if why:
            self.refused[why] += 1
            wait = math.ceil(self.guesses.wait(guesser, now))
            session.reject(why, _REFUSALS[why].format(wait=wait))
            return
        if lobby is not None and to_lobby:
            lobby.admit(link, event, identity)
        elif target is None:
            why = "There is no table with that code here."
            if lobby is not None and not hello.table:  # a lobby's join without a code
                why = lobby.no_code()
            session.reject("no_such_table", why)
        else:
            self._room_of[link] = target
            target.admit(link, event, identity)
        if session.rejected in GUESS_CODES:
            self.guesses.failed(guesser, now)
        elif not session.closed:
            self._counted[link] = ip
            self._per_ip[ip] += 1

    def _over(self, ip: str, guesser: str, now: float) -> str:
        """Why a hello that does not resume a seat may not come in ("" if it may);
        ``guesser``: who it would be a guess by ("" if it guesses nothing)."""
        limits = self.limits
        if self._per_ip.get(ip, 0) >= limits.per_ip:
            return "too_many_from_address"
        reserve = min(limits.resume_reserve, limits.max_connections // 2)  # a small door stays open
        if len(self._counted) >= limits.max_connections - reserve:
            return "too_many_connections"
        if guesser and self.guesses.wait(guesser, now) > 0:
            return "too_many_failures"
        return ""

    def _authenticated(self, link: Link) -> None:
        """``link`` said hello: it no longer counts against its address's unauthenticated cap."""
        if link in self._waiting:
            self._waiting.discard(link)
            ip = link.peer[0]
            self._unauth[ip] -= 1
            if self._unauth[ip] <= 0:
                del self._unauth[ip]

    def _closed(self, link: Link) -> None:
        if link not in self.links:
            return  # refused at the door: never counted
        self.links.discard(link)
        self._authenticated(link)
        ip = self._counted.pop(link, None)
        if ip is not None:
            self._per_ip[ip] -= 1
            if self._per_ip[ip] <= 0:
                del self._per_ip[ip]
        room = self._room_of.pop(link, None)
        if room is not None:
            room.gone(link)
            room.flush()
        if self.lobby is not None:
            self.lobby.gone(link)


#: what a hello over a limit is told (``wait``: seconds until a guesser may try again)
_REFUSALS = {
    "too_many_from_address": "Too many connections from your address; close some and try again.",
    "too_many_connections": "The host is busy; try again in a moment.",
    "too_many_failures": "Too many wrong table codes or passwords from your address; "
                         "try again in {wait} s.",
}



def _resumes(room: Room, event: HelloReceived, identity: str | None) -> bool:
    """Whether the hello takes back a seat of ``room``: a valid token, or the key that holds
    one (the room still checks the password)."""
    hello, book = event.hello, room.book
    if hello.token:
        return book.find_token(hello.token) is not None
    return identity is not None and not hello.spectate and book.find_identity(identity) is not None


class _Door(Link):
    """A :class:`Link` that asks the host whether it may come in before reading anything."""

    def __init__(self, host: Host, session: HostSession) -> None:
        super().__init__(session, host._events, host._closed)
        self._host = host

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        why = self._host._admit(self)
        if why:
            self._host.refused[why] += 1
            session_of(self, HostSession).close(why, "The host is busy; try again in a moment.")
            self.flush()
            return
        self._host.links.add(self)
        self._host._waiting.add(self)
        self._host._unauth[self.peer[0]] += 1
