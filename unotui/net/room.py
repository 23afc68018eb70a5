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
join and see a :class:`~unotui.net.room_info.RoomInfo`; the host's own seat starts the
match (or, headless, it starts when enough people have joined) and computer players fill
the open seats.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..bots import BOT_NAMES, Bot, make_bot
from ..engine import Action, Game, Phase, Rules, seat_view, seat_views
from ..protocol import messages as m
from ..protocol.session import HelloReceived, HostSession
from ..protocol.shared import SharedDeltas
from ..table import AUTO_KEEP, DeadlineKind, Outcome, Pacing, PresenceState, Referee, SeatKind, TableStatus
from .journal import Journal, SavedSeat
from .link import Link
from .password import check_hash, hash_password, password_matches
from .seats import SeatBook

__all__ = ["Room", "RoomConfig"]

log = logging.getLogger("unotui.host")


@dataclass(frozen=True)
class RoomConfig:
    """How a hosted table is set up (``unotui host`` options).

    ``password`` is the clear password as the host typed it: it is hashed at once into
    ``password_hash`` and blanked, so no configuration (nor the journal, which stores
    them) ever holds the clear text (:mod:`unotui.net.password`)."""

    name: str = "unotui"
    seats: int = 4
    bots: int = 0
    rules: Rules = field(default_factory=Rules)
    password: str = field(default="", repr=False)
    level: str = "medium"
    turn_timer: float | None = None
    hold: float = 120.0
    bot_delay: float = 0.8
    catch_grace: float = 1.0
    auto_keep: float = AUTO_KEEP
    autostart: bool = False
    first_is_owner: bool = False  # lobby tables: the first person seated may start early
    private: bool = False  # lobby tables: left out of the list, joined by code
    password_hash: str = ""  # "": no password

    def __post_init__(self) -> None:
        if self.password:
            object.__setattr__(self, "password_hash", hash_password(self.password))
            object.__setattr__(self, "password", "")
        elif self.password_hash:
            check_hash(self.password_hash)


def _session(link: Link) -> HostSession:
    session = link.session
    assert isinstance(session, HostSession)
    return session


class Room:
    """One table on a host.  See the module docstring.

    Args:
        code: the table's identifier on its host (``""`` for a LAN host's only table).
        config: the table's set-up.
        on_accepted: called with each outcome's accepted actions ``(seq, seat, action)``
            before anything is sent (the journal's hook).
        on_event: a line for the host's log (joins, starts, results).
        on_change: called after the seats or the status changed (the lobby's list).
        journal: where the table is journaled (seats, secret, accepted actions) so that a
            restarted host can resume it (:mod:`unotui.net.recovery`).
        restoring: the table comes from the journal (do not journal it as new).
    """

    def __init__(
        self,
        code: str,
        config: RoomConfig,
        *,
        on_accepted: Callable[[Sequence[tuple[int, int, Action]]], None] | None = None,
        on_event: Callable[[str], None] | None = None,
        on_change: Callable[[Room], None] | None = None,
        journal: Journal | None = None,
        restoring: bool = False,
    ) -> None:
        self.code = code
        self.config = config
        self.book = SeatBook(config.seats)
        self.members: dict[Link, int | None] = {}  # connection -> seat (None: watching)
        self.game: Game | None = None
        self.referee: Referee | None = None
        self.status = TableStatus.WAITING
        self._on_accepted = on_accepted
        self._on_event = on_event or (lambda text: log.info("%s", text))
        self.on_change = on_change
        self.journal = journal
        self.journaled = 0  # game.history entries already in the journal
        self._timer: asyncio.TimerHandle | None = None
        self._dirty: set[Link] = set()  # connections with queued messages, written once per call
        self.loop = asyncio.get_running_loop()
        if journal is not None and not restoring:
            from .recovery import config_to_dict

            journal.open_table(code, config_to_dict(config), time.time())

    # ----- membership -------------------------------------------------------------------------

    def reserve_owner(self, name: str) -> str:
        """Seat the host's own player now (seat 1); returns the token its client resumes
        with.  Only that seat may start the match."""
        taken = self.book.take(name, owner=True)
        assert taken is not None
        seat, token = taken
        self.book.seats[seat].connected = False
        return token

    def admit(self, link: Link, event: HelloReceived, identity: str | None = None) -> None:
        """A connection said hello to this table: resume, watch, take a seat, or refuse.

        ``identity`` is a lobby player's verified key: it takes back the seat held for
        that key as a token would, and a new seat remembers it.  A failure in here (the
        match that a join starts included) closes the table with a reason rather than
        escaping into the host's protocol callback, where it would drop the joiner
        without a word and leave the seat to trap the next one."""
        try:
            self._admit(link, event, identity)
        except Exception as exc:  # any bug: say so, close the table, log it
            self.fail(exc, link)

    def _admit(self, link: Link, event: HelloReceived, identity: str | None) -> None:
        hello, session = event.hello, _session(link)
        locked = self.config.password_hash
        if locked and not password_matches(locked, hello.password or ""):
            session.reject("password", "Wrong or missing password for this table.")
            return
        now = self.loop.time()
        held = self.book.find_identity(identity) if identity and not hello.spectate else None
        if hello.token or held is not None:
            seat = self.book.find_token(hello.token) if hello.token else held
            if seat is None:
                session.reject("bad_token", "That seat token is not valid here (it may be old).")
                return
            self._replace_old(seat)
            entry = self.book.seats[seat]
            first = entry.owner and not entry.connected and entry.away_since is None
            entry.connected, entry.away_since = True, None
            self._accept(link, seat, self.book.rotate(seat))
            if self.referee is not None:
                self._apply(self.referee.resume(seat, now))  # whose outcome says "back"
            elif not first:
                self._presence(seat, PresenceState.BACK)
            if not first:
                self._on_event(f"{entry.name} is back at seat {seat + 1}")
            self._broadcast_table()
            return
        if hello.spectate:
            self._accept(link, None, None)
            self._broadcast_table()
            return
        if self.status != TableStatus.WAITING:
            session.reject("table_full", "The match has started; join with --spectate to watch.")
            return
        owner = self.config.first_is_owner and not any(e.owner for e in self.book.seats)
        taken = self.book.take(hello.name, owner=owner, identity=identity)
        if taken is None:
            session.reject("table_full", "Every seat at this table is taken; join with --spectate to watch.")
            return
        seat, token = taken
        self._accept(link, seat, token)
        self._on_event(f"{self.book.seats[seat].name} joined seat {seat + 1}")
        self._presence(seat, PresenceState.JOINED)
        self._broadcast_table()
        if self.config.autostart and len(self.book.open_seats()) <= self.config.bots:
            self.start()

    def gone(self, link: Link) -> None:
        """A connection closed (any reason)."""
        if link not in self.members:
            return
        seat = self.members.pop(link)
        if seat is None:
            self._broadcast_table()
            return
        if seat in self.members.values():
            return  # a newer connection already holds the seat (resume raced the drop)
        entry = self.book.seats[seat]
        if self.status == TableStatus.WAITING and (not entry.owner or self.config.first_is_owner):
            self._on_event(f"{entry.name} left")
            self._presence(seat, PresenceState.LEFT)
            self.book.leave(seat)
            humans = self.book.humans()
            if self.config.first_is_owner and humans and not any(e.owner for e in self.book.seats):
                self.book.seats[humans[0]].owner = True  # the next person seated may start
            self._broadcast_table()
            return
        entry.connected, entry.away_since = False, self.loop.time()
        self._on_event(f"{entry.name} dropped (seat held)")
        if self.referee is not None:
            self._apply(self.referee.drop(seat, self.loop.time()))  # whose outcome says "away"
        else:
            self._presence(seat, PresenceState.AWAY)
        self._broadcast_table()

    def _replace_old(self, seat: int) -> None:
        for link, held in list(self.members.items()):
            if held == seat:
                del self.members[link]
                _session(link).close("replaced", "This seat was resumed from another connection.")
                self._dirty.add(link)

    def _accept(self, link: Link, seat: int | None, token: str | None) -> None:
        session = _session(link)
        session.accept(
            seat=seat,
            token=token,
            table=self.code,
            table_name=self.config.name,
            seats=self.config.seats,
            rules=self.config.rules,
        )
        self.members[link] = seat
        if self.game is not None:
            session.send_view(seat_view(self.game, seat, self.game.round_log_start))
        self._dirty.add(link)

    # ----- the match --------------------------------------------------------------------------

    def start(self) -> None:
        """Begin the match: computer players take the open seats.  A match that cannot
        begin (rules that do not fit the seats, a bug) closes the table (see :meth:`fail`)."""
        if self.status != TableStatus.WAITING:
            return
        try:
            self._begin()
        except Exception as exc:  # any bug: say so, close the table, log it
            self.fail(exc)

    def fail(self, exc: BaseException, link: Link | None = None) -> None:
        """The table broke: log why, tell everyone at it (and ``link``, who may not be
        seated yet) with ``server_error``, and close it for good (status ``over``, journal
        forgotten, so neither a lobby's quick match nor a restart brings it back)."""
        log.error("table %r failed: %r", self.code, exc, exc_info=exc)
        self._on_event(f"table closed after an error: {exc!r}"[:300])
        if link is not None and link not in self.members and not _session(link).closed:
            _session(link).close("server_error", "This table failed and was closed; pick another one.")
            self._dirty.add(link)
        self.status = TableStatus.OVER
        self.close("server_error", "This table failed and was closed; pick another one.", forget=True)
        if self.on_change is not None:
            self.on_change(self)

    def _begin(self) -> None:
        self.book.fill_with_bots(list(BOT_NAMES), self.config.level)
        rng = secrets.SystemRandom()  # the computer players' and the referee's
        self.game = Game(self.book.names, self.config.rules)  # dealt from a secrets-made key
        self.journaled = len(self.game.history)  # the deal a new game makes by itself
        if self.journal is not None:
            self._journal_seats()
            self.journal.started(self.code, self.game.shuffler.secret)
        bots: dict[int, Bot] = {s: make_bot(self.config.level, rng) for s in self.book.bots()}
        pacing = Pacing(
            bot_delay=self.config.bot_delay,
            catch_grace=self.config.catch_grace,
            auto_keep=self.config.auto_keep,
            turn_timer=self.config.turn_timer,
            hold=self.config.hold,
        )
        now = self.loop.time()
        self.referee = Referee(self.game, bots=bots, humans=self.book.humans(), pacing=pacing, rng=rng)
        self.status = TableStatus.PLAYING
        self._on_event("match started: " + ", ".join(self.book.names))
        self._broadcast_table()
        self._send_views()
        for seat in self.book.humans():
            if not self.book.seats[seat].connected:
                self._apply(self.referee.drop(seat, now))
        self._apply(self.referee.tick(now))

    def intent(self, link: Link, seq: int, action: Action) -> None:
        """An intent from a connection, for the connection's own seat (never another)."""
        seat = self.members.get(link)
        session = _session(link)
        if seat is None:  # the session refuses a spectator's intents itself; defensive
            session.send(m.Refused(seq, "spectator", "Spectators watch; they cannot play."))
        elif self.referee is None:
            session.send(m.Refused(seq, "not_started", "The match has not started yet."))
        else:
            outcome = self.referee.receive(seat, action, seq, self.loop.time())
            answered = any(a.seq == seq for a in outcome.accepted) or any(
                r.seq == seq and r.seat == seat for r in outcome.refusals
            )
            if not answered:  # a retry of an intent already applied: the same answer again
                session.send(m.Accepted(seq))
            self._apply(outcome)
            return
        self._dirty.add(link)

    def ready(self, link: Link) -> None:
        """The connection's player has read the round summary."""
        seat = self.members.get(link)
        if seat is not None and self.referee is not None:
            self._apply(self.referee.ready(seat, self.loop.time()))

    def chat(self, link: Link, text: str) -> None:
        """A chat line (already cleaned by the session) to everyone at the table."""
        if link not in self.members or not text:
            return
        seat = self.members[link]
        name = self.book.seats[seat].name if seat is not None else "spectator"
        self._send_all(m.ChatLine(seat, name, text))

    def request_start(self, link: Link) -> None:
        """The host's own seat asks to start now; anyone else is refused."""
        seat = self.members.get(link)
        if seat is None or not self.book.seats[seat].owner:
            _session(link).send(m.Refused(None, "not_owner", "Only the host can start the match."))
            self._dirty.add(link)
            return
        self.start()

    def close(self, code: str, reason: str, *, forget: bool = False) -> None:
        """The table is going away: tell everyone why, then close.  Its journal is kept
        (a restarted host resumes it) unless ``forget`` or its match is over."""
        if self.journal is not None and (forget or self.status == TableStatus.OVER):
            self.journal.close_table(self.code)
            self.journal = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for link in list(self.members):
            _session(link).close(code, reason)
            self._dirty.add(link)
        self.members.clear()
        self.flush()

    # ----- the referee's outcomes ---------------------------------------------------------------

    def _apply(self, outcome: Outcome) -> None:
        if self.journal is not None:
            self._journal_actions(outcome)
        if outcome.accepted and self._on_accepted is not None:
            self._on_accepted(outcome.accepted)
        for seat, seq, code, message in outcome.refusals:
            for link, held in self.members.items():
                if held == seat:
                    _session(link).send(m.Refused(seq if seq >= 0 else None, code, message))
        if outcome.changed:
            self._send_views()
        for seq, seat, _action in outcome.accepted:
            if seq >= 0:
                for link, held in self.members.items():
                    if held == seat:
                        _session(link).send(m.Accepted(seq))
        for seat, state in outcome.presence:
            self._presence(seat, state)
        if outcome.deadlines is not None:
            now = self.loop.time()
            deadlines = outcome.deadlines
            for kind, due in ((DeadlineKind.TURN, deadlines.turn), (DeadlineKind.CATCH, deadlines.catch)):
                if due is None:
                    self._send_all(m.Deadline(kind, None, 0))
                else:
                    self._send_all(m.Deadline(kind, due[0], max(0, round((due[1] - now) * 1000))))
        game = self.game
        if game is not None and game.phase == Phase.MATCH_OVER and self.status == TableStatus.PLAYING:
            self.status = TableStatus.OVER
            self._on_event(f"match over: {game.names[game.winner]} won")
            self._broadcast_table()
        self._arm()

    def _journal_actions(self, outcome: Outcome) -> None:
        """Append what the game applied since the last outcome, before anyone hears of it.

        The game's history is the truth (every action the referee applied, people's,
        computer players' and the table's own); a person's sequence number is attached
        where the outcome accepted that person's intent, so a retry after a restart is
        answered and not applied twice."""
        game, journal = self.game, self.journal
        if game is None or journal is None or len(game.history) == self.journaled:
            return
        seqs = [(a.seat, a.action, a.seq) for a in outcome.accepted if a.seq >= 0]
        rows = []
        for seat, action in game.history[self.journaled:]:
            seq = -1
            for k, (s, act, q) in enumerate(seqs):
                if s == seat and act == action:
                    seq = q
                    del seqs[k]
                    break
            rows.append((seq, seat, str(action)))
        journal.append(self.code, rows)
        self.journaled = len(game.history)

    def _journal_seats(self) -> None:
        if self.journal is not None:
            self.journal.seats(self.code, [
                SavedSeat(e.name, e.kind, e.token, e.owner, e.level, e.identity) for e in self.book.seats
            ])

    def _send_views(self) -> None:
        """Bring every member up to date: the views of one moment, built together (what
        the seats see alike is computed and packed once, see ``seat_views``)."""
        game = self.game
        if game is None:
            return
        start = game.round_log_start
        sessions = [_session(link) for link in self.members]
        viewers = [(s.seat, max(s.log_from, start)) for s in sessions]
        views = seat_views(game, viewers)
        shared = SharedDeltas(views.public)
        for session, view in zip(sessions, views, strict=True):
            session.send_view(view, shared)
        self._dirty.update(self.members)

    def _tick(self) -> None:
        self._timer = None
        if self.referee is not None:
            self._apply(self.referee.tick(self.loop.time()))
        self.flush()

    def _arm(self) -> None:
        deadline = self.referee.next_deadline() if self.referee is not None else None
        if self._timer is not None:
            if deadline is not None and self._timer.when() <= deadline:
                return  # it fires early and re-arms: cheaper than a new handle per action
            self._timer.cancel()
            self._timer = None
        if deadline is not None:
            self._timer = self.loop.call_at(deadline, self._tick)

    # ----- sending ----------------------------------------------------------------------------

    def flush(self) -> None:
        """Write what every connection has queued: once per event, however many messages
        (one write per peer per action is what keeps a busy host's system calls down)."""
        dirty, self._dirty = self._dirty, set()
        for link in dirty:
            link.flush()

    def _send_all(self, message: m.Message) -> None:
        for link in list(self.members):
            session = _session(link)
            if not session.closed:
                session.send(message)
                self._dirty.add(link)

    def _presence(self, seat: int, state: PresenceState) -> None:
        name = self.book.seats[seat].name or "?"
        for link, held in list(self.members.items()):
            if held != seat and not _session(link).closed:
                _session(link).send(m.Presence(seat, state, name))
                self._dirty.add(link)

    def _broadcast_table(self) -> None:
        """Send the seats' state (the waiting room; who is away) to everyone (after the
        journal has the seats: a rotated token is on disk before its owner hears it)."""
        self._journal_seats()
        for link, seat in list(self.members.items()):
            if not _session(link).closed:
                _session(link).send(self.table_state(seat))
                self._dirty.add(link)
        if self.on_change is not None:
            self.on_change(self)

    def table_state(self, viewer: int | None) -> m.TableState:
        """The table as ``viewer`` sees it (the waiting room's content)."""
        seats = tuple(
            m.SeatState(e.name, e.kind, e.kind == SeatKind.HUMAN and not e.connected)
            for e in self.book.seats
        )
        owner = viewer is not None and self.book.seats[viewer].owner
        timer = None if self.config.turn_timer is None else round(self.config.turn_timer * 1000)
        watching = sum(1 for s in self.members.values() if s is None)
        return m.TableState(self.status, seats, viewer, owner, self.config.bots, timer, watching)
