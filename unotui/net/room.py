"""One hosted table: its seats, its referee, and the connections that watch it.

The room is where the three sans-I/O parts meet the event loop: connections speak the
protocol (:mod:`unotui.protocol`), the referee (:mod:`unotui.table`) decides what
happens and when, and the engine's view builder decides what each seat may see.  The
room only routes:

* an intent arrives on a connection -> the connection's *authenticated* seat (never a
  seat named in the message) -> :meth:`Referee.receive`;
* the referee's outcome -> first ``on_accepted`` (where a journal appends the accepted
  actions *before* anyone hears of them), then refusals to their seat, then a view
  update to every seat and spectator, then presence and deadlines;
* the referee's next deadline -> one timer on the loop.

Before the match starts the room is a waiting room: people take seats in the order they
join and see a :class:`~unotui.client.room.RoomInfo`; the host's own seat starts the
match (or, headless, it starts when enough people have joined) and computer players fill
the open seats.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..bots import Bot
from ..client.players import BOT_NAMES, make_bot
from ..engine import Action, Game, Rules, seat_view
from ..protocol import messages as m
from ..protocol.sync import ViewEncoder
from ..table import Outcome, Pacing, Referee
from .link import Link
from .seats import SeatBook

__all__ = ["Member", "Room", "RoomConfig"]

log = logging.getLogger("unotui.host")


@dataclass(frozen=True)
class RoomConfig:
    """How a hosted table is set up (``unotui host`` options)."""

    name: str = "unotui"
    seats: int = 4
    bots: int = 0
    rules: Rules = field(default_factory=Rules)
    password: str = ""
    level: str = "medium"
    turn_timer: float | None = None
    hold: float = 120.0
    bot_delay: float = 0.8
    catch_grace: float = 1.0
    autostart: bool = False


@dataclass
class Member:
    """A connection that has joined the room (a seat, or ``seat`` ``None`` to watch)."""

    link: Link
    seat: int | None
    encoder: ViewEncoder = field(default_factory=ViewEncoder)


class Room:
    """One table on a host.  See the module docstring.

    Args:
        code: the table's identifier on its host (``""`` for a LAN host's only table).
        config: the table's set-up.
        on_accepted: called with each outcome's accepted actions before anything is sent
            (the journal's hook); an exception there refuses nothing but stops the room.
        on_event: a line for the host's log (joins, starts, results).
    """

    def __init__(
        self,
        code: str,
        config: RoomConfig,
        *,
        on_accepted: Callable[[Sequence[tuple[int, int, Action]]], None] | None = None,
        on_event: Callable[[str], None] | None = None,
    ) -> None:
        self.code = code
        self.config = config
        self.book = SeatBook(config.seats)
        for _ in range(config.bots):
            seat = self.book.open_seats()[-1]
            self.book.seats[seat].kind = "reserved"
        self.members: dict[Link, Member] = {}
        self.game: Game | None = None
        self.referee: Referee | None = None
        self.status = "waiting"
        self.owner_token = secrets.token_urlsafe(32)
        self._on_accepted = on_accepted
        self._on_event = on_event or (lambda text: log.info("%s", text))
        self._timer: asyncio.TimerHandle | None = None
        self.loop = asyncio.get_running_loop()

    # ----- membership -------------------------------------------------------------------------

    def admit(self, link: Link, hello: m.Hello) -> None:
        """A connection said hello to this table: seat it, watch, resume, or refuse."""
        if self.config.password and not hmac.compare_digest(
            self.config.password.encode(), (hello.password or "").encode()
        ):
            self._refuse(link, "bad_password", "Wrong password for this table.")
            return
        now = self.loop.time()
        if hello.token:
            seat = self.book.find_token(hello.token)
            if seat is None:
                self._refuse(link, "bad_token", "That seat token is not valid here (it may be old).")
                return
            self._kick_old(seat)
            token = self.book.rotate(seat)
            entry = self.book.seats[seat]
            entry.connected, entry.away_since = True, None
            member = Member(link, seat)
            self.members[link] = member
            self._welcome(member, token)
            if self.referee is not None:
                self._apply(self.referee.resume(seat, now))
            self._presence(seat, "back")
            self._on_event(f"{entry.name} is back at seat {seat + 1}")
            return
        if hello.spectate:
            member = Member(link, None)
            self.members[link] = member
            self._welcome(member, "")
            self._broadcast_room()
            return
        if self.status != "waiting":
            self._refuse(link, "in_progress", "The match has started; join with --spectate to watch.")
            return
        owner = bool(hello.owner) and hmac.compare_digest(self.owner_token.encode(), hello.owner.encode())
        taken = self.book.take(hello.name, owner=owner)
        if taken is None:
            self._refuse(link, "table_full", "Every seat at this table is taken.")
            return
        seat, token = taken
        member = Member(link, seat)
        self.members[link] = member
        self._welcome(member, token)
        self._on_event(f"{self.book.seats[seat].name} joined seat {seat + 1}")
        self._broadcast_room()
        if self.config.autostart and not self.book.open_seats():
            self.start()

    def gone(self, link: Link) -> None:
        """A connection closed (any reason)."""
        member = self.members.pop(link, None)
        if member is None or member.seat is None:
            if member is not None:
                self._broadcast_room()
            return
        seat = member.seat
        if any(o.seat == seat for o in self.members.values()):
            return  # a newer connection already holds the seat (resume raced the drop)
        entry = self.book.seats[seat]
        if self.status == "waiting":
            self._on_event(f"{entry.name} left")
            self.book.leave(seat)
            self._broadcast_room()
            return
        entry.connected, entry.away_since = False, self.loop.time()
        self._on_event(f"{entry.name} dropped (seat held)")
        if self.referee is not None:
            self._apply(self.referee.drop(seat, self.loop.time()))
        self._presence(seat, "away")

    def _kick_old(self, seat: int) -> None:
        for link, member in list(self.members.items()):
            if member.seat == seat:
                del self.members[link]
                link.session.send(m.Closed("replaced", "This seat was resumed from another connection."))
                link.flush()
                link.close()

    # ----- the match --------------------------------------------------------------------------

    def start(self) -> None:
        """Begin the match: computer players take the open seats."""
        if self.status != "waiting":
            return
        for seat, entry in enumerate(self.book.seats):
            if entry.kind == "reserved":
                self.book.seats[seat].kind = "open"
        self.book.fill_with_bots(list(BOT_NAMES), self.config.level)
        rng = secrets.SystemRandom()
        self.game = Game(self.book.names, self.config.rules, rng=rng)
        bots: dict[int, Bot] = {s: make_bot(self.config.level, rng) for s in self.book.bots()}
        pacing = Pacing(
            bot_delay=self.config.bot_delay,
            catch_grace=self.config.catch_grace,
            turn_timer=self.config.turn_timer,
            hold=self.config.hold,
        )
        self.referee = Referee(self.game, bots=bots, humans=self.book.humans(), pacing=pacing)
        self.status = "playing"
        self._on_event("match started: " + ", ".join(self.book.names))
        self._broadcast_room()
        self._send_views(snapshot=True)
        self._arm()

    def intent(self, link: Link, seq: int, action: Action) -> None:
        """An intent from a connection (applied for its own seat, never another)."""
        member = self.members.get(link)
        if member is None:
            return
        if member.seat is None:
            self._send(link, m.Refused(seq, "spectator", "Spectators watch; they cannot play."))
            return
        if self.referee is None:
            self._send(link, m.Refused(seq, "not_started", "The match has not started yet."))
            return
        self._apply(self.referee.receive(member.seat, action, seq, self.loop.time()))

    def ready(self, link: Link) -> None:
        """The connection's player has read the round summary."""
        member = self.members.get(link)
        if member is not None and member.seat is not None and self.referee is not None:
            self._apply(self.referee.ready(member.seat, self.loop.time()))

    def chat(self, link: Link, text: str) -> None:
        """A chat line (already sanitised by the protocol session) to everyone here."""
        member = self.members.get(link)
        if member is None or not text:
            return
        name = self.book.seats[member.seat].name if member.seat is not None else "spectator"
        for other in list(self.members.values()):
            self._send(other.link, m.ChatLine(member.seat, name, text))

    def request_start(self, link: Link) -> None:
        """The owner's seat asks to start now."""
        member = self.members.get(link)
        if member is None or member.seat is None or not self.book.seats[member.seat].owner:
            self._send(link, m.Refused(-1, "not_owner", "Only the host can start the match."))
            return
        self.start()

    def close(self, code: str, reason: str) -> None:
        """The host is going away: tell everyone why, then close."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for link in list(self.members):
            self._send(link, m.Closed(code, reason))
            link.close()
        self.members.clear()

    # ----- the referee's outcomes ---------------------------------------------------------------

    def _apply(self, outcome: Outcome) -> None:
        if outcome.accepted and self._on_accepted is not None:
            self._on_accepted(outcome.accepted)
        for seat, seq, code, message in outcome.refused:
            for member in self.members.values():
                if member.seat == seat:
                    self._send(member.link, m.Refused(seq, code, message))
        if outcome.changed:
            self._send_views(answered=outcome.accepted)
        for seat, state in outcome.presence:
            self._presence(seat, state)
        if outcome.deadlines is not None:
            for member in self.members.values():
                self._send(member.link, m.DeadlineMsg.from_deadlines(outcome.deadlines, self.loop.time()))
        if self.game is not None and self.game.phase == "match_over" and self.status == "playing":
            self.status = "over"
            self._on_event(f"match over: {self.game.names[self.game.winner]} won")
        self._arm()

    def _send_views(self, *, snapshot: bool = False, answered: Sequence[tuple[int, int, Action]] = ()) -> None:
        game = self.game
        if game is None:
            return
        acks = {seat: seq for seq, seat, _ in answered if seq >= 0}
        for member in list(self.members.values()):
            view = seat_view(game, member.seat, member.encoder.log_next)
            msg = member.encoder.update(view, snapshot=snapshot, ack=acks.get(member.seat, -1) if member.seat is not None else -1)
            self._send(member.link, msg)

    def _tick(self) -> None:
        self._timer = None
        if self.referee is not None:
            self._apply(self.referee.tick(self.loop.time()))

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.referee is None:
            return
        deadline = self.referee.next_deadline()
        if deadline is not None:
            self._timer = self.loop.call_at(deadline, self._tick)

    # ----- sending ----------------------------------------------------------------------------

    def _send(self, link: Link, msg: object) -> None:
        link.session.send(msg)
        link.flush()

    def _welcome(self, member: Member, token: str) -> None:
        self._send(member.link, m.Welcome(seat=member.seat, token=token, table=self.code, name=self.config.name))
        self._send(member.link, self._room_msg(member))
        if self.game is not None:
            member.encoder = ViewEncoder()
            view = seat_view(self.game, member.seat, self.game.round_log_start)
            self._send(member.link, member.encoder.update(view, snapshot=True))

    def _refuse(self, link: Link, code: str, message: str) -> None:
        self._send(link, m.Error(code, message))
        link.close()

    def _presence(self, seat: int, state: str) -> None:
        name = self.book.seats[seat].name
        for member in list(self.members.values()):
            self._send(member.link, m.PresenceMsg(seat, name, state))

    def _room_msg(self, member: Member) -> object:
        return m.RoomMsg.build(self, member.seat)

    def _broadcast_room(self) -> None:
        for member in list(self.members.values()):
            self._send(member.link, self._room_msg(member))
