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
* with a :class:`~unotui.net.seat_memory.SeatMemory`, the token is also kept on disk, so
  that joining again after this process ended (a closed terminal, a crash) takes the
  seat back while the host holds it, where a new player would be refused;
* everything the host sends is checked and its text sanitised again before it reaches
  the screen: a host can be hostile too;
* once the match is over the host (version 2) sends the match's record, which is held
  against everything this seat saw (:mod:`unotui.net.handover`) before it becomes
  :attr:`record`; a record that does not match is refused, with a sentence (one longer
  than the match could have been as soon as its parts say so, by the session, which then
  holds no more of it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from .. import __version__
from ..engine import DEAL, Action, Phase, Rules, SeatView
from ..protocol import messages as m
from ..protocol.events import ConnectionClosed, Fault, RecordReceived, RecordTooLong, ViewUpdated
from ..protocol.peer_session import PeerSession
from ..protocol.session import OLDEST_VERSION, PROTOCOL_VERSION
from ..protocol.text import CHAT_MAX, clean
from ..table import DeadlineKind, PresenceState
from .addresses import DEFAULT_PORT, unreachable
from .controller import Controller, JoinError, MatchRecord, RecordArrived, RecordRefused
from .handover import MISMATCH, RecordMismatch, Witness, check_record, too_long
from .link import Link, session_of
from .room_info import RoomChanged, RoomInfo, SeatInfo, SeatMark, seat_marks
from .seat_memory import Place, SeatMemory, place_of

__all__ = ["JoinError", "RemoteGame"]

log = logging.getLogger("unotui.join")


async def dial(
    host: str,
    port: int,
    session: PeerSession,
    make: Callable[[PeerSession], Link],
    welcomed: asyncio.Future[None],
    timeout: float,
) -> Link:
    """Connect to a unotui host, and wait until ``welcomed`` is set (by the caller's event
    handler, on the host's welcome): the one way a seat and the lobby client dial a host.

    ``make`` builds the connection's :class:`Link` for ``session`` (and keeps it, so that
    events arriving with the connection are already routed).

    Raises:
        JoinError: ``unreachable`` (refused, no route, timed out) or ``no_welcome`` (it
            answered, but not as a unotui host, within ``timeout``).
    """
    loop = asyncio.get_running_loop()
    try:
        _transport, link = await asyncio.wait_for(
            loop.create_connection(lambda: make(session), host, port), timeout
        )
    except (OSError, TimeoutError) as exc:
        raise JoinError(f"cannot reach {host}:{port}: {unreachable(exc)}", "unreachable") from None
    try:
        await asyncio.wait_for(asyncio.shield(welcomed), timeout)
    except TimeoutError:
        link.abort("no welcome")
        raise JoinError(f"{host}:{port} did not answer as a unotui host", "no_welcome") from None
    return link


def hang_up(link: Link) -> None:
    """Say goodbye (``bye``: the host tells the others this player *left*; a seat in the
    waiting room is freed, one in a match held as for a drop) and close: the one way a
    seat and the lobby client leave a host.  A session that can no longer send just closes."""
    with contextlib.suppress(Exception):
        session_of(link, PeerSession).send(m.Bye())
    link.flush()
    link.close()


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
        identity: a lobby's credential for the player's key, or a guest's for their
            address alone (SSH sessions only).
        keyed: whether ``identity`` names a key (default: whether there is one).
        take_over: take the key's seat from the key's other connection to it (the player
            said yes to that; without it the host refuses ``seat_in_use``).
        reconnect_for: seconds to keep trying to resume after the connection drops.
        memory: where seat tokens are kept between runs (``unotui join`` and the menu).
    """

    remote = True

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
        identity: str | None = None,
        keyed: bool | None = None,
        take_over: bool = False,
        reconnect_for: float = 120.0,
        connect_timeout: float = 5.0,
        memory: SeatMemory | None = None,
    ) -> None:
        super().__init__()
        self.host, self.port = host, port
        self.name = name
        self.password = password
        self.spectate = spectate
        self.owner = owner
        self.table = table
        self.identity = identity
        #: whether ``identity`` is an SSH key's (a lobby's guest credential names none)
        self.keyed = identity is not None if keyed is None else keyed
        self.take_over = take_over
        #: lines the waiting room shows under "Others join with" (a lobby's table code)
        self.hints: tuple[str, ...] = ()
        self.reconnect_for = reconnect_for
        self.connect_timeout = connect_timeout
        # A seat kept on disk: a person's own (never a spectator's, the host's or a key's).
        self.memory = memory if not (spectate or owner or identity) else None
        self.seat: int | None = None
        self.token = ""
        self.room: RoomInfo | None = None
        #: each seat's latest presence since this seat joined (what marks the seats that
        #: the ``table`` message does not: a stand-in after timeouts, a hold run out)
        self._presence: dict[int, PresenceState] = {}
        self._held: set[int] = set()  # the seats whose hold runs (``hold`` deadlines)
        self._view: SeatView | None = None
        self.welcome: m.Welcome | None = None
        #: the seat's name as the host gave it (``Ann 2`` when another Ann sits there):
        #: what the player is called here; until a welcome says, the name asked for
        self.seat_name = name
        self._link: Link | None = None
        #: the latest connection made, even once it is gone: its peer address is the host's
        self._dialled: Link | None = None
        self._welcomed: asyncio.Future[None] | None = None
        self._closing = False
        self._reconnect: asyncio.Task[None] | None = None
        self._witness = Witness()  # what this seat saw, to hold the host's record against
        self._record: MatchRecord | None = None
        self._refused = ""

    # ----- Controller ---------------------------------------------------------------------------

    @property
    def view(self) -> SeatView:
        if self._view is None:
            raise LookupError("no view of the game yet")
        return self._view

    @property
    def can_chat(self) -> bool:
        return True

    @property
    def record(self) -> MatchRecord | None:
        return self._record

    @property
    def record_refused(self) -> str:
        return self._refused

    @property
    def marks(self) -> tuple[SeatMark, ...]:
        return seat_marks(self.room, self._presence, self._held)

    @property
    def leaving(self) -> str:
        if self.keyed:
            return ("The table plays on: your seat is held for a while (connect again with the "
                    "same SSH key to take it back), then a computer player takes it.")
        if self.memory is not None:
            return ("The table plays on: your seat is held for a while (join the same table again "
                    "to take it back), then a computer player takes it.")
        return "The table plays on without you: after a while a computer player takes your seat."

    @property
    def place(self) -> Place | None:
        """Whose seat this is, and where, as the memory keys it: the address the socket
        reached (not as typed), the port, the table, and the name asked for (``None``
        before anything answered)."""
        link = self._dialled
        if link is None or not link.peer[0]:
            return None
        return place_of(link.peer, self.table, self.name)

    async def start(self) -> None:
        """Connect and wait for the host's welcome.

        A table whose match has started refuses a new player; if this user's seat there,
        taken with this name, is remembered (:attr:`memory`), it is taken back instead.
        The lookup waits for the refusal because only a connection says which host the
        address reaches; another name's seat at that table is never looked at.

        Raises:
            JoinError: the host refused (full table, wrong password, version) or cannot be reached.
        """
        memory = self.memory
        try:
            await self._connect(resume=False)
        except JoinError as exc:
            place = self.place
            saved = memory.recall(place) if memory is not None and place is not None else None
            if memory is None or place is None or saved is None or exc.code != "table_full":
                raise
            self.token = saved
            self._closing = False  # (the refusal closed the first attempt)
            try:
                await self._connect(resume=True)
            except JoinError as again:
                if again.code == "bad_token":  # the host no longer holds that seat
                    memory.forget(place)
                    self.token = ""
                    raise exc from None
                raise
            log.info("took back seat %s at %s", self.seat, place)

    def send(self, action: Action) -> int:
        seq = self._next_seq()
        self._out(m.Intent(seq, action))
        return seq

    def next_round(self) -> None:
        view = self._view
        if view is not None and DEAL in view.legal:  # the dealer deals: that is its "ready"
            self.send(DEAL)
        else:
            self._out(m.Ready())

    def chat(self, text: str) -> None:
        self._out(m.Chat(text[:CHAT_MAX]))

    def start_match(self) -> None:
        """Ask the host to start now (only the host's own seat may)."""
        self._out(m.Start())

    async def close(self) -> None:
        self._closing = True
        self._listener = None
        if self._reconnect is not None:
            self._reconnect.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnect
        link, self._link = self._link, None
        if link is not None:
            hang_up(link)

    # ----- the connection -----------------------------------------------------------------------


    def _out(self, msg: m.Message) -> None:
        link = self._link
        if link is None or link.session.closed:
            if isinstance(msg, m.Intent):  # reconnecting: say so rather than lose it silently
                self._later(m.Refused(msg.seq, "offline", "Not connected to the host."))
            return
        try:
            session_of(link, PeerSession).send(msg)
        except Exception as exc:  # e.g. a spectator's intent: answer it like the host would
            if isinstance(msg, m.Intent):
                self._later(m.Refused(msg.seq, getattr(exc, "code", "error"), str(exc)))
            return
        link.flush()

    def _later(self, update: m.Refused) -> None:
        """Answer from the next loop turn, never from inside :meth:`send` (no re-entry)."""
        asyncio.get_running_loop().call_soon(self._emit, update)

    async def _connect(self, *, resume: bool) -> None:
        loop = asyncio.get_running_loop()
        hello = m.Hello(
            min_version=OLDEST_VERSION,
            max_version=PROTOCOL_VERSION,
            name=self.name,
            password=self.password or None,
            token=(self.token if resume else self.owner) or None,
            spectate=self.spectate,
            client=f"unotui/{__version__}",
            table=self.table,
            identity=self.identity,
            take_over=self.take_over and not resume,
        )
        self._welcomed = loop.create_future()
        await dial(self.host, self.port, PeerSession(hello, loop.time()), self._made, self._welcomed,
                   self.connect_timeout)

    def _made(self, session: PeerSession) -> Link:
        self._link = self._dialled = Link(session, self._events, self._lost)
        return self._link

    def _events(self, link: Link, events: list[Any]) -> None:
        if link is not self._link:
            return
        for event in events:
            self._event(event)

    def _event(self, event: Any) -> None:
        if isinstance(event, m.Welcome):
            self.welcome = event
            self.seat, self.token = event.seat, event.token or ""
            self.seat_name = event.name or self.name  # (a host older than welcome.name says nothing)
            place = self.place  # (the token rotates on every resume: keep the latest)
            if self.memory is not None and self.token and place is not None:
                self.memory.remember(place, self.token)
            if self._welcomed is not None and not self._welcomed.done():
                self._welcomed.set_result(None)
        elif isinstance(event, ViewUpdated):
            self._view = event.view
            self._witness.observe(event.view)
            place = self.place
            if self.memory is not None and event.view.phase is Phase.MATCH_OVER and place is not None:
                self.memory.forget(place)  # nothing left to come back to
                self.memory = None
            self._emit(event)  # the view the session rebuilt, as it is
        elif isinstance(event, m.Accepted | m.Refused | m.Presence | m.Deadline | m.ChatLine):
            if isinstance(event, m.Presence) and event.seat is not None:
                self._presence[event.seat] = PresenceState(event.state)
            elif isinstance(event, m.Deadline) and event.kind == DeadlineKind.HOLD:
                if event.seat is None:
                    self._held.clear()
                else:
                    self._held.add(event.seat)
            self._emit(event)  # what the host said, as it said it (checked and cleaned by the session)
        elif isinstance(event, m.TableState):
            self.room = self._room(event)
            self._emit(RoomChanged(self.room))
        elif isinstance(event, RecordReceived):
            self._record_in(event)
        elif isinstance(event, RecordTooLong):  # (refused by the session as it arrived)
            self._refuse(too_long(event.keys, event.steps, event.limit))
        elif isinstance(event, ConnectionClosed):
            over = self._view is not None and self._view.phase is Phase.MATCH_OVER
            if over and event.fault is Fault.REMOTE and event.code in ("bad_message", "bad_action"):
                # (after the end, what the host sends is its record: a malformed one)
                self._refuse(f"{MISMATCH}: it broke the protocol ({clean(event.message)}).")
            self._connection_closed(event)

    def _record_in(self, got: RecordReceived) -> None:
        """The host's record of the match: kept once it matches what this seat saw."""
        if self._record is not None or self._refused:
            return  # (sent again on a connection made after the end: the first is kept)
        rules = self.welcome.rules if self.welcome is not None else Rules()
        try:
            self._record = check_record(got, self._witness, rules, self.seat)
        except RecordMismatch as exc:
            self._refuse(str(exc))
            return
        self._emit(RecordArrived(self._record))

    def _refuse(self, reason: str) -> None:
        if self._record is None and not self._refused:
            self._refused = reason
            log.warning("refused the host's record: %s", reason)
            self._emit(RecordRefused(reason))

    def _room(self, state: m.TableState) -> RoomInfo:
        welcome = self.welcome
        rules = welcome.rules if welcome is not None else Rules()
        return RoomInfo(
            name=welcome.table_name if welcome is not None else "",
            status=state.status,
            seats=tuple(SeatInfo(s.name, s.kind, s.away) for s in state.seats),
            rules=rules,
            you=state.you,
            owner=state.owner,
            bots=state.bots,
            turn_timer=None if state.turn_timer_ms is None else state.turn_timer_ms / 1000,
            spectators=state.spectators,
            autostart=state.autostart,
        )

    def _connection_closed(self, event: ConnectionClosed) -> None:
        """The session ended: by the host's word (``closed``/``error``) or by silence."""
        message = clean(event.message)  # the host's words: a hostile host's too
        if self._welcomed is not None and not self._welcomed.done():
            self._welcomed.set_exception(JoinError(message, event.code))
            self._closing = True
            return
        if event.fault is Fault.REMOTE and event.code in ("eof", "timeout") and self.token:
            return  # the connection died: _lost() tries to resume the seat
        self._closing = True
        self._emit(m.Closed(event.code, message))

    def _lost(self, link: Link) -> None:
        if link is not self._link:
            return
        self._link = None
        for seq in sorted(self._pending):  # they may or may not have been applied: the
            # next snapshot tells; nothing stays in flight
            self._emit(m.Refused(seq, "offline", "The connection dropped before the host answered."))
        if self._welcomed is not None and not self._welcomed.done():
            self._welcomed.set_exception(JoinError("the host closed the connection", "closed"))
            return
        if self._closing:
            return
        if not self.token:  # a spectator (no seat to hold): just tell the player
            self._emit(m.Closed("connection_lost", "Lost the connection to the host."))
            return
        self._reconnect = asyncio.get_running_loop().create_task(self._resume())

    async def _resume(self) -> None:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.reconnect_for
        pause = 0.25
        if self.seat is not None:
            self._emit(m.Presence(self.seat, PresenceState.RECONNECTING, self.name))
        while not self._closing and loop.time() < give_up:
            try:
                await self._connect(resume=True)
                return
            except JoinError as exc:
                if exc.code in ("bad_token", "bad_password", "version", "in_progress"):
                    self._emit(m.Closed(exc.code, f"Could not resume the seat: {exc}"))
                    return
            await asyncio.sleep(pause)
            pause = min(pause * 2, 3.0)
        if not self._closing:
            self._emit(m.Closed("connection_lost", "Lost the connection to the host."))

