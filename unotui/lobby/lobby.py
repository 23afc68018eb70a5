"""The lobby: many tables on one host, the list people choose from, and the results.

A lobby connection (``hello.lobby``) is welcomed as a seatless spectator and then gets
:class:`~unotui.protocol.messages.LobbyState` messages: the public tables, who is online,
the leaderboard, and a table where a seat is held for the player's key.  It may ``create``
a table, ask for a ``quick`` seat, or chat with everyone in the lobby.  Sitting down is a
second connection to the table's code, exactly as ``unotui join HOST --table CODE`` does,
so SSH players and TCP peers sit at the same tables through the same door.

The lobby owns the tables' lifetimes (created on request, closed when their match is over
and everyone left, or when nobody is left to come back) and reports each table's row,
presence and match results to its :class:`~unotui.lobby.store.LobbyStore`, so that a
lobby on several machines could share them later.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..engine import Rules, RulesError
from ..engine.shuffle import match_name
from ..net.config import RoomConfig
from ..net.journal import Journal
from ..net.link import Link, session_of
from ..net.recovery import restore_rooms
from ..net.room import Room
from ..net.seats import unique_name
from ..protocol import messages as m
from ..protocol.events import HelloReceived
from ..protocol.session import HostSession
from ..protocol.text import CHAT_RECENT, clean, name_key
from ..table import AUTO_KEEP, SeatKind, TableStatus
from .identity import Credentials, table_code
from .kept import KeptDesk
from .limits import ChatGate, Creator, table_refusal
from .options import ServeOptions
from .results import placings
from .review_slots import ReviewSlots
from .store import LobbyStore, Retention, TableRow
from .words import in_use_text, rules_summary

__all__ = ["Lobby", "LobbySettings", "in_use_text", "rules_summary"]

log = logging.getLogger("unotui.lobby")

QUICK_SEATS = 4


@dataclass(frozen=True)
class LobbySettings:
    """How the lobby runs its tables (``unotui serve`` options).

    ``turn_timer`` is every public table's timer (a table cannot be held hostage by
    someone idle); private tables may ask for none, and no timer is shorter than
    ``min_turn_timer`` (a 1 ms timer plays for people).  Tables end ``over_grace`` seconds
    after their match is over, ``empty_grace`` seconds after nobody is left who could
    come back, and ``lonely_grace`` seconds after they began waiting with at most one
    person seated (so nobody holds tables by sitting alone at them).  ``bot_delay``,
    ``catch_grace`` and ``auto_keep`` pace the tables (see
    :class:`~unotui.table.outcome.Pacing`).

    What one person may take (see :mod:`unotui.lobby.limits`): ``tables_per_creator``
    waiting tables per lobby connection or key, ``tables_per_address`` per address;
    tables people create may fill ``max_tables`` but for ``quick_share`` of it (at least
    one), kept for quick match; lobby chat shares ``chat_per_s`` lines a second (burst
    ``chat_burst``) per address and per key, whatever the number of connections.
    Matches are kept within ``retention``, ``review_slots`` reviews run at once (``kept.py``).
    """

    max_tables: int = ServeOptions.max_tables  # (the command line's defaults, stated there)
    turn_timer: float = ServeOptions.turn_timer
    max_turn_timer: float = 120.0
    min_turn_timer: float = 5.0
    tables_per_creator: int = 2
    tables_per_address: int = 4
    quick_share: float = 0.2
    lonely_grace: float = 600.0
    chat_per_s: float = 2.0
    chat_burst: int = 8
    level: str = "medium"
    bot_delay: float = 0.8
    catch_grace: float = 1.0
    auto_keep: float = AUTO_KEEP
    hold: float = 120.0
    over_grace: float = 120.0
    empty_grace: float = 60.0
    reap_every: float = 5.0
    retention: Retention = field(default_factory=Retention)
    review_slots: int = 1


@dataclass
class _Member:
    name: str
    identity: str | None
    key: str  # presence key: this connection's own
    origin: str  # the address the limits count it under


@dataclass
class _Table:
    room: Room
    born: float
    quick: bool = False
    over_at: float | None = None
    empty_since: float | None = None
    recorded: bool = False
    creator: Creator | None = None  # who created it (quick match's and resumed tables: None)
    lonely_since: float | None = None


class Lobby:
    """The tables of one ``unotui serve``, and the people choosing among them.

    Args:
        store: where tables, presence and results are kept.
        rooms: the host's tables by code (shared with every :class:`~unotui.net.host.Host`
            that serves this lobby: the public TCP port and the SSH sessions' own).
        credentials: checks ``hello.identity``.
        settings: limits and timers.
        on_event: a line for the operator's log.
        journal: where tables are journaled; the unfinished ones in it are resumed now.
    """

    def __init__(
        self,
        store: LobbyStore,
        rooms: dict[str, Room],
        *,
        credentials: Credentials | None = None,
        settings: LobbySettings | None = None,
        on_event: Callable[[str], None] | None = None,
        journal: Journal | None = None,
    ) -> None:
        self.store = store
        self.journal = journal
        self.rooms = rooms
        self.credentials = credentials or Credentials()
        self.settings = settings or LobbySettings()
        self.members: dict[Link, _Member] = {}
        self.tables: dict[str, _Table] = {}
        self._on_event = on_event or (lambda text: log.info("%s", text))
        self._visits = 0  # lobby connections so far (their presence keys)
        self._closed = False
        self._chat_gate = ChatGate(self.settings.chat_per_s, self.settings.chat_burst)
        self._recent_chat: deque[m.ChatLine] = deque(maxlen=CHAT_RECENT)  # for who comes in next
        self._refresh_at: asyncio.TimerHandle | None = None
        self._leaders: tuple[m.LeaderRow, ...] = ()
        self.loop = asyncio.get_running_loop()
        self.desk = KeptDesk(store, self.members, self.settings.retention,
                             ReviewSlots(self.settings.review_slots), self.loop.time)
        self._reaper = self.loop.call_later(self.settings.reap_every, self._reap)
        store.clear_all_presence()
        if journal is not None:
            self._resume(journal)
        seen = store.recent_events(1)
        self._seen_event = seen[-1].id if seen else 0  # operator requests after this one
        self._load_leaders()

    # ----- the door ---------------------------------------------------------------------------

    def identity_of(self, hello: m.Hello) -> str | None:
        """The verified key behind ``hello.identity`` (``None``: a guest)."""
        return self.credentials.verify(hello.identity)

    def origin_of(self, hello: m.Hello) -> str:
        """The client address this lobby's SSH door vouched for in ``hello.identity`` (""
        if none): every SSH session reaches the host from 127.0.0.1."""
        return self.credentials.origin(hello.identity)

    def admit(self, link: Link, event: HelloReceived, identity: str | None) -> None:
        """A lobby hello: welcome it and send the lobby."""
        if identity is not None and (why := self.store.banned(identity)) is not None:
            session_of(link, HostSession).reject("banned", f"You are banned from this lobby: {why}"[:512])
            link.flush()
            return
        # A key is one person, known by the name it first came with, whatever name this
        # hello (the SSH user name) gives; its other connections share that name.
        hello = event.hello
        wanted = hello.name if identity is None else self.store.remember_name(identity, hello.name)
        name = unique_name(wanted, {name_key(x.name) for x in self.members.values()
                                    if identity is None or x.identity != identity})
        self._visits += 1  # presence is per connection: one of two terminals leaving
        key = f"guest:{self._visits}" if identity is None else f"{identity}#{self._visits}"  # clears its own
        self.members[link] = _Member(name, identity, key, self._origin(link, event.hello))
        self.store.set_presence(key, name, "lobby")
        session = session_of(link, HostSession)
        session.accept(seat=None, token=None, table="", table_name="lobby", seats=QUICK_SEATS,
                       rules=Rules.preset("classic"))
        self._on_event(f"{name} entered the lobby" + ("" if identity else " (guest)"))
        self._changed()
        self._send_state(link)
        for line in self._recent_chat:  # what was said before this connection came in
            session.send(replace(line, earlier=True))
        held = self._held(identity)
        if held is not None and held[1]:  # said once, at the door (the list keeps no stale line)
            session.send(m.Refused(None, "seat_in_use", in_use_text(held[0])))
        link.flush()

    def _origin(self, link: Link, hello: m.Hello) -> str:
        """The address the lobby's limits count ``link`` under: the one the SSH door
        vouched for in the credential (every SSH session, keyed or guest, has one: its
        program reaches the lobby from loopback), else the peer's."""
        return self.origin_of(hello) or link.peer[0]

    def gone(self, link: Link) -> None:
        """A lobby connection closed."""
        member = self.members.pop(link, None)
        self.desk.gone(link)
        if member is not None and not self._closed:
            self.store.clear_presence(member.key)
            self._changed()

    # ----- requests ---------------------------------------------------------------------------

    def create(self, link: Link, request: m.Create) -> None:
        """Open the table ``request`` describes and tell its creator the code.

        Refused (``bad_message``, with a sentence) when the rules do not fit the seats: a
        table whose match cannot start would take every quick match and drop each joiner;
        refused ``too_many_tables`` past the creator's, the address's or the lobby's share
        (see :func:`~unotui.lobby.limits.table_refusal`)."""
        member = self.members.get(link)
        if member is None:
            return self._refuse(link, "not_in_lobby", "Tables are created from the lobby.")
        try:
            request.rules.validate(request.seats)
        except RulesError as exc:
            return self._refuse(link, "bad_message", f"These rules do not fit this table: {exc}."[:512])
        s = self.settings
        timer = None if request.turn_timer_ms is None else request.turn_timer_ms / 1000
        if not request.private:  # public tables always have a bounded turn timer
            timer = min(timer or s.turn_timer, s.max_turn_timer)
        if timer is not None:
            timer = max(timer, s.min_turn_timer)
        creator = Creator(id(link), member.identity, member.origin)
        waiting = [t.creator for t in self.tables.values()
                   if t.creator and t.room.status == TableStatus.WAITING]
        created = sum(1 for t in self.tables.values() if not t.quick)
        why = table_refusal(creator, waiting, created, per_creator=s.tables_per_creator,
                            per_origin=s.tables_per_address,
                            room_for_created=s.max_tables - self._quick_room())
        if why:
            return self._refuse(link, "too_many_tables", why)
        name = clean(request.name)[:32] or f"{member.name}'s table"
        config = RoomConfig(name=name, seats=request.seats, bots=request.bots, rules=request.rules,
                            level=request.level, turn_timer=timer, private=request.private)
        code = self._open(config, creator=creator)
        if not code:
            return self._refuse(link, "too_many_tables", "The lobby is full of tables; join one instead.")
        self._on_event(f"{member.name} created table {code} ({name})")
        session_of(link, HostSession).send(m.Created(code))
        link.flush()

    def _quick_room(self) -> int:  # tables kept for quick match: it always finds a seat
        return max(1, round(self.settings.max_tables * self.settings.quick_share))

    def quick(self, link: Link) -> None:
        """A seat at once: the waiting public table with room for people that is closest
        to starting (a table waiting for nine more people is a poor quick match), or a new
        one, which may take the tables kept for quick match."""
        if link not in self.members:
            return self._refuse(link, "not_in_lobby", "Quick match is in the lobby.")
        open_for_people = {
            code: len(t.room.book.open_seats()) - t.room.config.bots for code, t in self.tables.items()
            if t.room.status == TableStatus.WAITING and not t.room.config.private
        }
        code = min((c for c, n in open_for_people.items() if n > 0), key=open_for_people.__getitem__,
                   default="")
        if not code:
            config = RoomConfig(name=f"Quick match ({self.members[link].name})", seats=QUICK_SEATS,
                                bots=QUICK_SEATS - 1, rules=Rules.preset("classic"),
                                level=self.settings.level, turn_timer=self.settings.turn_timer)
            code = self._open(config, quick=True)
            if not code:
                return self._refuse(link, "too_many_tables", "The lobby is full of tables; try again soon.")
        session_of(link, HostSession).send(m.Created(code))
        link.flush()

    def chat(self, link: Link, text: str) -> None:
        """A chat line to everyone in the lobby (already cleaned and limited per connection
        by the session; here limited per address and per key, which many connections share)."""
        member = self.members.get(link)
        if member is None or not text:
            return
        keys = (f"address {member.origin}" if member.origin else "",
                f"key {member.identity}" if member.identity else "")
        if not self._chat_gate.allow(keys, self.loop.time()):
            return self._refuse(link, "rate_limited", "Too many chat lines from your address; wait a moment.")
        line = m.ChatLine(None, member.name, text)
        self._recent_chat.append(line)
        for other in self.members:
            session_of(other, HostSession).send(line)
            other.flush()

    def _refuse(self, link: Link, code: str, message: str) -> None:
        session_of(link, HostSession).send(m.Refused(None, code, message))
        link.flush()

    # ----- tables -----------------------------------------------------------------------------

    def _resume(self, journal: Journal) -> None:
        """Tables a killed lobby left: back, with their seats held for their people."""
        for code, room in restore_rooms(journal, on_event=self._on_event,
                                        on_change=lambda _room: self._changed()).items():
            self.rooms[code] = room
            # A finished match is recorded (again): if the lobby died before recording it,
            # now it is; if after, the store knows the match's name and counts it once.
            self.tables[code] = table = _Table(room, time.time())
            if room.status == TableStatus.OVER:
                self._record(table)
            self._on_event(f"[{code}] resumed from the journal ({len(room.game.history) if room.game else 0}"
                           " actions replayed)")

    def _open(self, config: RoomConfig, quick: bool = False, creator: Creator | None = None) -> str:
        if len(self.rooms) >= self.settings.max_tables:
            return ""
        config = replace(config, autostart=True, first_is_owner=True, hold=self.settings.hold,
                         bot_delay=self.settings.bot_delay, catch_grace=self.settings.catch_grace,
                         auto_keep=self.settings.auto_keep)
        code = table_code(self.rooms)
        room = Room(code, config, on_event=lambda text: self._on_event(f"[{code}] {text}"),
                    on_change=lambda _room: self._changed(), journal=self.journal)
        self.rooms[code] = room
        self.tables[code] = _Table(room, time.time(), quick, creator=creator)
        self._changed()
        return code

    def close_table(self, code: str, reason: str = "The table was closed.") -> None:
        """End a table (its match over, empty, or by the operator) and drop it."""
        table = self.tables.get(code)
        if table is not None and table.room.status == TableStatus.OVER:
            self._record(table)  # a result is never dropped with its table
        table = self.tables.pop(code, None)
        room = self.rooms.pop(code, None)
        if room is not None:  # (match_over only for a finished match: protocol/SPEC.md, Errors)
            over = room.status == TableStatus.OVER
            room.close("match_over" if over else "host_left", reason, forget=True)
        if table is not None:
            self.store.drop_table(code)
            self._changed()

    def _record(self, table: _Table) -> None:
        """A match ended: results to the store, for stats and the leaderboard."""
        room, game = table.room, table.room.game
        if game is None or table.recorded or game.winner < 0:
            return
        table.recorded = True
        ranked = placings(game, room.book, self.settings.level)
        # Named by the match's secret, which the journal keeps: a lobby that crashed between
        # recording and closing the journal resumes this match, and records it again, once.
        key = f"{room.code}:{match_name(game.shuffler.secret)}"
        self.store.record_result(room.code, ranked, key)
        self.desk.keep(room, key)  # its transcript, for its keyed players (a store of its own)
        room.forget()  # recorded: a restart must not resume (and count) it again
        names = ", ".join(f"{p.rank}. {p.name}" for p in ranked)
        self.store.log_event("result", f"{room.code}: {names}")
        self._on_event(f"[{room.code}] result: {names}")
        self._load_leaders()

    def _police(self) -> None:
        """Carry out the operator's kicks and bans (written to the store by ``unotui serve
        --kick/--ban``): close every connection of that key."""
        for event in self.store.recent_events(50):
            if event.id <= self._seen_event:
                continue
            self._seen_event = event.id
            if event.kind in ("kick", "ban"):
                self.kick(event.text, "banned" if event.kind == "ban" else "kicked")

    def kick(self, identity: str, code: str = "kicked") -> int:
        """Close the lobby and table connections of ``identity``; returns how many."""
        banned = code == "banned"
        reason = "You are banned from this lobby." if banned else "The lobby's operator removed you."
        closed = 0
        for link, member in list(self.members.items()):
            if member.identity == identity:
                session_of(link, HostSession).close(code, reason)
                link.flush()
                closed += 1
        for table in self.tables.values():
            room = table.room
            for link, seat in list(room.members.items()):
                if seat is not None and room.book.seats[seat].identity == identity:
                    session_of(link, HostSession).close(code, reason)
                    link.flush()
                    closed += 1
        if closed:
            self._on_event(f"{code}: {identity} ({closed} connections)")
        return closed

    def _reap(self) -> None:
        """Close tables whose match is over, that nobody can come back to, or that have
        waited too long with one person at most (a table held, not played)."""
        self._police()
        now, s = self.loop.time(), self.settings
        for code, table in list(self.tables.items()):
            room = table.room
            people = any(seat is not None for seat in room.members.values())
            waiting_for = [e for e in room.book.seats if e.kind == SeatKind.HUMAN]
            lonely = room.status == TableStatus.WAITING and len(waiting_for) <= 1
            table.lonely_since = (table.lonely_since or now) if lonely else None
            if lonely and now - (table.lonely_since or now) >= s.lonely_grace:
                minutes = max(1, round(s.lonely_grace / 60))
                self.close_table(code, f"Nobody joined this table in {minutes} min; create it again "
                                       "when your friends are ready.")
            elif room.status == TableStatus.OVER:
                table.over_at = table.over_at or now
                if not room.members or now - table.over_at >= s.over_grace:
                    self.close_table(code, "The match is over: back to the lobby.")
            elif not people and (room.status == TableStatus.WAITING or not waiting_for or all(
                    e.away_since is not None and now - e.away_since >= s.hold for e in waiting_for)):
                table.empty_since = table.empty_since or now
                if now - table.empty_since >= s.empty_grace:
                    self.close_table(code, "Everyone left this table.")
            else:
                table.empty_since = None
        self._reaper = self.loop.call_later(s.reap_every, self._reap)

    # ----- what people see --------------------------------------------------------------------

    def _changed(self) -> None:
        """Something in the list changed: refresh everyone soon (once for many changes)."""
        if self._refresh_at is None:
            self._refresh_at = self.loop.call_later(0.1, self._refresh)

    def _refresh(self) -> None:
        self._refresh_at = None
        for table in self.tables.values():
            if table.room.status == TableStatus.OVER:
                self._record(table)
            self.store.put_table(self._row(table))
        for link in list(self.members):
            self._send_state(link)
            link.flush()

    def _row(self, table: _Table) -> TableRow:
        room = table.room
        humans = sum(1 for e in room.book.seats if e.kind == SeatKind.HUMAN)
        return TableRow(code=room.code, name=room.config.name, seats=room.config.seats, humans=humans,
                        bots=room.config.bots, rules=rules_summary(room.config.rules), status=room.status,
                        private=room.config.private, turn_timer=room.config.turn_timer, created=table.born)

    def no_code(self) -> str:
        """What a ``hello`` for a table but with no code is told (``unotui join HOST`` at
        a lobby, without ``--table``): how to name one, and the public tables waiting for
        players now (at most five), so that the next try can name one."""
        waiting = [self._row(t) for t in self.tables.values()
                   if not t.room.config.private and t.room.status == TableStatus.WAITING][:5]
        listed = "; ".join(f"{r.code} ({clean(r.name, 40)}, {r.humans} of {r.seats} seats taken)"
                           for r in waiting)
        where = f"Tables waiting for players: {listed}." if waiting else "No table waits for players now."
        return ("This host is a lobby: name a table with --table CODE (unotui join HOST --table CODE), "
                "or open one over SSH. " + where)

    def online(self) -> int:
        """People in the lobby or at its tables (each connection counted once)."""
        return len(self.members) + sum(1 for t in self.tables.values() for _link in t.room.members)

    def _send_state(self, link: Link) -> None:
        member = self.members[link]
        rows = sorted((t for t in self.tables.values() if not t.room.config.private),
                      key=lambda t: (t.room.status != TableStatus.WAITING, t.born))
        tables = tuple(m.LobbyTable(r.code, r.name, r.seats, r.humans, r.bots, r.status, r.rules,
                                    None if r.turn_timer is None else round(r.turn_timer * 1000))
                       for r in (self._row(t) for t in rows[:200]))
        held = self._held(member.identity)
        seat_at = held[0] if held is not None and not held[1] else None
        session_of(link, HostSession).send(
            m.LobbyState(member.name, self.store.motd()[:512], self.online(), tables, self._leaders, seat_at))

    def _held(self, identity: str | None) -> tuple[str, bool] | None:
        """The table where a seat is held for ``identity``'s key, and whether a connection
        (the key's other terminal) is at it now.  Such a seat is not the lobby's to send
        anyone back to: ``seat_at`` names it only once nobody is at it."""
        if identity is None:
            return None
        for code, table in self.tables.items():
            room, seat = table.room, table.room.book.find_identity(identity)
            if seat is not None and room.status != TableStatus.OVER:
                return code, seat in room.members.values()
        return None

    def _load_leaders(self) -> None:
        board = self.store.leaderboard(20)
        self._leaders = tuple(m.LeaderRow(p.name, p.games, p.wins, round(p.rating * 10)) for p in board)

    def close(self) -> None:
        """Stop the timers (the hosts close the connections); the store is left alone after."""
        self._closed = True
        self._reaper.cancel()
        if self._refresh_at is not None:
            self._refresh_at.cancel()
