"""One hosted table with no I/O and no clock of its own: the table core.

Everything a table decides lives here, once: who may come in (passwords, resume tokens
and their rotation, lobby keys), who sits where, the referee's lifecycle, what each
member is sent and what must be journaled.  Every call carries the time (``admit``,
``gone``, ``receive``, ``tick`` ... ``now``) and is answered with :class:`Effects`: the
records to store, the members with new messages, lines for the host's log.

The messages go into each member's :class:`Outbox` (a connection's protocol session;
solo play's in-process seat) rather than into a list for the caller to copy: the outbox
is where the member's view sync lives (the last view it was sent, the log it has), so a
view becomes a snapshot or delta there, and the other messages queue behind it in order.
The referee's :class:`~unotui.table.Outcome` becomes the seats' messages in one place,
:meth:`TableCore._apply` (the match's record: :mod:`~unotui.net.handover`); the asyncio
adapter around it is :mod:`unotui.net.room`.
"""

from __future__ import annotations

import logging
import secrets
from collections import deque
from collections.abc import Callable, Hashable, Mapping
from dataclasses import replace
from random import Random
from typing import Generic, TypeVar

from ..bots import BOT_NAMES, Bot, make_bot
from ..engine import Action, Game, Phase, seat_view
from ..protocol import messages as m
from ..protocol.events import HelloReceived
from ..protocol.text import CHAT_RECENT
from ..table import Decision, Outcome, Pacing, PresenceChange, PresenceState, Referee, SeatKind, TableStatus
from .audience import Audience
from .config import RoomConfig, config_from_dict, config_to_dict
from .effects import (
    ActionsApplied,
    Effects,
    MatchStarted,
    Outbox,
    Record,
    SeatsSaved,
    TableClosed,
    TableOpened,
    action_rows,
    saved_seats,
    table_state,
)
from .password import password_matches
from .saved import SavedTable
from .seats import KEY_SEAT_IN_USE, KEY_TAKEN_OVER, RESUMED_ELSEWHERE, SeatBook, SeatEntry

__all__ = ["TableCore"]


log = logging.getLogger("unotui.host")

K = TypeVar("K", bound=Hashable)

SERVER_ERROR = "This table failed and was closed; pick another one."


class TableCore(Generic[K]):
    """One table's seats, members, referee and journal records.  See the module docstring.

    Args:
        code: the table's identifier on its host (``""`` for a LAN host's only table).
        config: the table's set-up.

    A new table's first effects (drained by whoever drives it) store its set-up.
    """

    def __init__(self, code: str, config: RoomConfig, *, book: SeatBook | None = None) -> None:
        self.code = code
        self.config = config
        self.book = book or SeatBook(config.seats)
        self.audience: Audience[K] = Audience()
        self.members = self.audience.members  # member -> seat (None: watching)
        self.game: Game | None = None
        self.referee: Referee | None = None
        self.status = TableStatus.WAITING
        self._journaled = 0  # game.history entries already recorded
        self.recording = True  # whether anything stores the records (solo play: no)
        self._records: list[Record] = []
        self._events: list[str] = []  # lines for the host's log
        self._changed = False
        #: the last lines said here, for whoever comes in next (in memory only: a table
        #: rebuilt from its journal starts with none)
        self.recent_chat: deque[m.ChatLine] = deque(maxlen=CHAT_RECENT)
        if book is None:
            self._records.append(TableOpened(config_to_dict(config)))

    @classmethod
    def restore(cls, saved: SavedTable, now: float) -> TableCore[K]:
        """The table ``saved`` describes, its match replayed, every person away with the
        seat held (each resumes with their token or key); a retried intent applied before
        the crash is answered and not applied twice.  Raises ``UnoError`` or ``ValueError``
        if the journal does not replay."""
        config = config_from_dict(saved.config)
        book = SeatBook(config.seats)
        if saved.seats:
            book.seats = [SeatEntry(s.name, s.kind, s.token, False, now if s.kind == SeatKind.HUMAN else None,
                                    s.owner, s.level, identity=s.identity) for s in saved.seats]
        if saved.secret is None:  # still a waiting room: people come back to it by token
            for seat in book.humans():
                if not book.seats[seat].owner:
                    book.leave(seat)
            return cls(saved.code, config, book=book)
        game = Game(book.names, config.rules, secret=saved.secret)
        for _seq, seat, text in saved.actions:
            game.apply(seat, Action.parse(text))
        core = cls.playing(saved.code, config, book, game)
        referee = core.referee
        assert referee is not None
        for seat in book.humans():  # (every seat's answers first, then the drops)
            referee.restore_answers(seat, [seq for seq, s, _text in saved.actions if s == seat and seq >= 0])
        for seat in book.humans():
            core._apply(referee.drop(seat, now), now)
        core._apply(referee.tick(now), now)
        return core

    @classmethod
    def playing(cls, code: str, config: RoomConfig, book: SeatBook, game: Game, *,
                bots: Mapping[int, Bot] | None = None, rng: Random | None = None,
                inline_bots: bool = True, pacing: Pacing | None = None,
                clock: Callable[[], int] | None = None) -> TableCore[K]:
        """A table whose match is already set up: ``game`` at ``book``'s seats (a journal's
        replay; solo play's seeded game, whose computer players decide elsewhere when not
        ``inline_bots``; the simulator's, at ``pacing`` with no waits, each decision timed
        by ``clock``).  ``bots``, ``rng`` and ``pacing`` default to ones from ``config``."""
        core: TableCore[K] = cls(code, config, book=book)
        core._referee(game, bots, rng, inline_bots, pacing, clock)
        core.status = TableStatus.OVER if game.phase == Phase.MATCH_OVER else TableStatus.PLAYING
        return core

    def drain(self) -> Effects[K]:
        """What the calls since the last drain mean outside (every public call drains)."""
        dirty = self.audience.dirty
        out = Effects(tuple(self._records), frozenset(dirty), tuple(self._events), self._changed)
        self._records.clear()
        dirty.clear()
        self._events.clear()
        self._changed = False
        return out

    def next_deadline(self) -> float | None:
        """When :meth:`tick` must next be called (``None``: nothing is due)."""
        return self.referee.next_deadline() if self.referee is not None else None

    # ----- membership -------------------------------------------------------------------------

    def reserve_owner(self, name: str) -> str:
        """Seat the host's own player now (seat 1); returns the token its client resumes
        with.  Only that seat may start the match."""
        taken = self.book.take(name, owner=True)
        assert taken is not None
        seat, token = taken
        self.book.seats[seat].connected = False
        return token

    def admit(self, member: K, outbox: Outbox, event: HelloReceived, identity: str | None,
              now: float) -> Effects[K]:
        """A member said hello to this table: resume, watch, take a seat, or refuse.

        ``identity`` is a lobby player's verified key: it takes back the seat held for
        that key as a token would (refused ``seat_in_use`` while another connection is at
        it), and a new seat remembers it.  A failure in here (the
        match that a join starts included) closes the table with a reason rather than
        escaping into the host's protocol callback, where it would drop the joiner
        without a word and leave the seat to trap the next one."""
        try:
            self._admit(member, outbox, event, identity, now)
        except Exception as exc:  # any bug: say so, close the table, log it
            self._fail(exc, member, outbox)
        return self.drain()

    def _admit(self, member: K, outbox: Outbox, event: HelloReceived, identity: str | None,
               now: float) -> None:
        hello = event.hello
        self.audience.dirty.add(member)
        held = self.book.find_identity(identity) if identity and not hello.spectate else None
        by_token = self.book.find_token(hello.token) if hello.token else None
        # A seat's token (the host's own seat's included) or a key's held seat proves an
        # admission already made: only a newcomer is asked for the password.
        locked = self.config.password_hash
        newcomer = by_token is None and held is None
        if locked and newcomer and not password_matches(locked, hello.password or ""):
            outbox.reject("password", "Wrong or missing password for this table.")
            return
        if hello.token or held is not None:
            seat = by_token if hello.token else held
            if seat is None:
                outbox.reject("bad_token", "That seat token is not valid here (it may be old).")
                return
            in_use = not hello.token and self.audience.seated(seat)  # the key's other terminal
            if in_use and not hello.take_over:
                outbox.reject("seat_in_use", KEY_SEAT_IN_USE)
                return
            self._replace_old(seat, KEY_TAKEN_OVER if in_use else RESUMED_ELSEWHERE)
            entry = self.book.seats[seat]
            first = entry.owner and not entry.connected and entry.away_since is None
            entry.connected, entry.away_since = True, None
            self._seat(member, outbox, seat, self.book.rotate(seat), now)
            if self.referee is not None:
                self._apply(self.referee.resume(seat, now), now)  # whose outcome says "back"
            elif not first:
                self._presence(seat, PresenceState.BACK)
            if not first:
                self._events.append(f"{entry.name} is back at seat {seat + 1}")
            self._broadcast_table()
            return
        if hello.spectate:
            self._seat(member, outbox, None, None, now, watcher=hello.name)
            self._broadcast_table()
            return
        if self.status != TableStatus.WAITING:
            outbox.reject("table_full", "The match has started; join with --spectate to watch.")
            return
        owner = self.config.first_is_owner and not any(e.owner for e in self.book.seats)
        taken = self.book.take(hello.name, owner=owner, identity=identity)
        if taken is None:
            outbox.reject("table_full", "Every seat at this table is taken; join with --spectate to watch.")
            return
        seat, token = taken
        self._seat(member, outbox, seat, token, now)
        self._events.append(f"{self.book.seats[seat].name} joined seat {seat + 1}")
        self._presence(seat, PresenceState.JOINED)
        self._broadcast_table()
        if self.config.autostart and len(self.book.open_seats()) <= self.config.bots:
            self._start(now)

    def gone(self, member: K, now: float, *, said_bye: bool = False) -> Effects[K]:
        """A member's connection closed (any reason; ``said_bye``: the client said ``bye``).

        In the waiting room a person's seat opens again (``left``).  Once the match has
        begun the seat is held for its person (token or key) either way, as the referee
        holds a dropped one, and a computer player takes it when the hold runs out; what
        differs is what the others hear: ``away`` for a lost connection, ``left`` for a
        deliberate leave (nobody should wait for a player who said goodbye)."""
        if member not in self.audience:
            return self.drain()
        seat = self.audience.remove(member)
        if seat is None:
            self._broadcast_table()
            return self.drain()
        if self.audience.seated(seat):
            return self.drain()  # a newer connection already holds the seat (resume raced the drop)
        entry = self.book.seats[seat]
        if self.status == TableStatus.WAITING and (not entry.owner or self.config.first_is_owner):
            self._events.append(f"{entry.name} left")
            self._presence(seat, PresenceState.LEFT)
            self.book.leave(seat)
            humans = self.book.humans()
            if self.config.first_is_owner and humans and not any(e.owner for e in self.book.seats):
                self.book.seats[humans[0]].owner = True  # the next person seated may start
            self._broadcast_table()
            return self.drain()
        entry.connected, entry.away_since = False, now
        self._events.append(f"{entry.name} {'left' if said_bye else 'dropped'} (seat held)")
        state = PresenceState.LEFT if said_bye else PresenceState.AWAY
        if self.referee is not None:
            outcome = self.referee.drop(seat, now)  # whose outcome says "away"
            if said_bye:
                outcome = outcome._replace(presence=tuple(
                    PresenceChange(s, state if s == seat and was is PresenceState.AWAY else was)
                    for s, was in outcome.presence))
            self._apply(outcome, now)
        else:
            self._presence(seat, state)
        self._broadcast_table()
        return self.drain()

    def join(self, member: K, outbox: Outbox, seat: int, now: float) -> Effects[K]:
        """``seat``'s person sits down in this process (solo play): nothing to prove."""
        self._seat(member, outbox, seat, None, now)
        return self.drain()

    def _replace_old(self, seat: int, why: str) -> None:
        audience = self.audience
        for member in audience.holding(seat):
            audience.outbox[member].close("replaced", why)
            audience.remove(member)
            audience.dirty.add(member)

    def _seat(self, member: K, outbox: Outbox, seat: int | None, token: str | None, now: float,
              watcher: str = "") -> None:
        """Admit ``member`` to ``seat`` (or to watch, as ``watcher``: the name its chat
        lines carry), with the view, the recent chat and the clocks running now (a
        spectator, or someone back mid-turn, sees the time left at once, not from the next
        turn on)."""
        outbox.accept(
            seat=seat,
            token=token,
            table=self.code,
            table_name=self.config.name,
            seats=self.config.seats,
            rules=self.config.rules,
            name=self.book.seats[seat].name if seat is not None else None,
        )
        self.audience.add(member, outbox, seat, watcher)
        if self.game is not None:
            outbox.send_view(seat_view(self.game, seat, self.game.round_log_start))
            if self.game.over:  # arriving after the end: the match's record at once
                from .handover import send_record  # (a match's end: solo play's start never loads it)

                send_record([outbox], self.game)
        for line in self.recent_chat:  # what was said before this member came in
            outbox.send(replace(line, earlier=True))
        if self.referee is not None:
            self.audience.send_running(member, self.referee.deadlines(), now)

    # ----- what members say -------------------------------------------------------------------

    def receive(self, member: K, message: m.Intent | m.Ready | m.Chat | m.Start, now: float) -> Effects[K]:
        """A message from a member, for the member's own seat (never another)."""
        if isinstance(message, m.Intent):
            self._intent(member, message.seq, message.action, now)
        elif isinstance(message, m.Ready):
            seat = self.members.get(member)
            if seat is not None and self.referee is not None:
                self._apply(self.referee.ready(seat, now), now)
        elif isinstance(message, m.Chat):
            self._chat(member, message.text)
        elif isinstance(message, m.Start):
            self._request_start(member, now)
        return self.drain()

    def _intent(self, member: K, seq: int, action: Action, now: float) -> None:
        if member not in self.audience:
            return
        seat = self.members[member]
        if seat is None:  # the session refuses a spectator's intents itself; defensive
            self.audience.send(member, m.Refused(seq, "spectator", "Spectators watch; they cannot play."))
        elif self.referee is None:
            self.audience.send(member, m.Refused(seq, "not_started", "The match has not started yet."))
        else:
            self._apply(self.referee.receive(seat, action, seq, now), now)

    def _chat(self, member: K, text: str) -> None:
        """A chat line (already cleaned by the session) to everyone at the table."""
        if member not in self.audience or not text:
            return
        seat = self.members[member]
        name = self.book.seats[seat].name if seat is not None else self.audience.watchers[member]
        line = m.ChatLine(seat, name or "spectator", text)
        self.recent_chat.append(line)
        self.audience.send_all(line)

    def _request_start(self, member: K, now: float) -> None:
        """The host's own seat asks to start now; anyone else is refused."""
        seat = self.members.get(member)
        if seat is None or not self.book.seats[seat].owner:
            self.audience.send(member, m.Refused(None, "not_owner", "Only the host can start the match."))
            return
        self._start(now)

    def tick(self, now: float) -> Effects[K]:
        """Act on the referee's deadlines that have passed."""
        if self.referee is not None:
            self._apply(self.referee.tick(now), now)
        return self.drain()

    def decided(self, decision: Decision, action: Action | None, now: float) -> Effects[K]:
        """A computer player's decision made elsewhere (``inline_bots=False``)."""
        if self.referee is not None:
            self._apply(self.referee.decided(decision, action, now), now)
        return self.drain()

    # ----- the match --------------------------------------------------------------------------

    def start(self, now: float) -> Effects[K]:
        """Begin the match: computer players take the open seats.  A match that cannot
        begin (rules that do not fit the seats, a bug) closes the table (see :meth:`_fail`)."""
        self._start(now)
        return self.drain()

    def _start(self, now: float) -> None:
        if self.status != TableStatus.WAITING:
            return
        try:
            self._begin(now)
        except Exception as exc:  # any bug: say so, close the table, log it
            self._fail(exc)

    def _begin(self, now: float) -> None:
        self.book.fill_with_bots(list(BOT_NAMES), self.config.level)
        game = Game(self.book.names, self.config.rules)  # dealt from a secrets-made key
        self._save_seats()
        self._records.append(MatchStarted(game.shuffler.secret))
        referee = self._referee(game)
        self.status = TableStatus.PLAYING
        self._events.append("match started: " + ", ".join(self.book.names))
        self._broadcast_table()
        self._send_views()
        for seat in self.book.humans():
            if not self.book.seats[seat].connected:
                self._apply(referee.drop(seat, now), now)
        self._apply(referee.tick(now), now)

    def _referee(self, game: Game, bots: Mapping[int, Bot] | None = None, rng: Random | None = None,
                 inline_bots: bool = True, pacing: Pacing | None = None,
                 clock: Callable[[], int] | None = None) -> Referee:
        """The referee of ``game`` at this table's pace unless given (its computer players
        made anew unless given)."""
        config = self.config
        rng = rng if rng is not None else secrets.SystemRandom()  # the computer players' and the referee's
        if bots is None:
            bots = {s: make_bot(config.level, rng) for s in self.book.bots()}
        if pacing is None:
            pacing = Pacing(bot_delay=config.bot_delay, catch_grace=config.catch_grace,
                            auto_keep=config.auto_keep, turn_timer=config.turn_timer, hold=config.hold)
        self.game = game
        self._journaled = len(game.history)
        self.referee = Referee(game, bots=bots, humans=self.book.humans(), pacing=pacing, rng=rng,
                               inline_bots=inline_bots, clock=clock)
        return self.referee

    def _fail(self, exc: BaseException, member: K | None = None, outbox: Outbox | None = None) -> None:
        """The table broke: log why, tell everyone at it (and ``member``, who may not be
        seated yet) with ``server_error``, and close it for good (status ``over``, journal
        forgotten, so neither a lobby's quick match nor a restart brings it back)."""
        log.error("table %r failed: %r", self.code, exc, exc_info=exc)
        self._events.append(f"table closed after an error: {exc!r}"[:300])
        if member is not None and outbox is not None and member not in self.audience and not outbox.closed:
            outbox.close("server_error", SERVER_ERROR)  # (a member not seated yet)
            self.audience.dirty.add(member)
        self.status = TableStatus.OVER
        self._close("server_error", SERVER_ERROR, forget=True)
        self._changed = True

    def close(self, code: str, reason: str, *, forget: bool = False) -> Effects[K]:
        """The table is going away: tell everyone why, then close.  Its journal is kept
        (a restarted host resumes it) unless ``forget`` or its match is over."""
        self._close(code, reason, forget=forget)
        return self.drain()

    def _close(self, code: str, reason: str, *, forget: bool) -> None:
        if forget or self.status == TableStatus.OVER:
            self._records.append(TableClosed())
        self.audience.close_all(code, reason)

    # ----- the referee's outcomes: the one translation into the seats' messages --------------------

    def _apply(self, outcome: Outcome, now: float) -> None:
        self._record_actions(outcome)
        for seat, seq in outcome.replayed:  # retried intents applied before: the same answer
            self.audience.send_seat(seat, m.Accepted(seq))
        for seat, seq, code, message in outcome.refusals:
            self.audience.send_seat(seat, m.Refused(seq if seq >= 0 else None, code, message))
        if outcome.changed:
            self._send_views()
        for seq, seat, _action in outcome.accepted:
            if seq >= 0:
                self.audience.send_seat(seat, m.Accepted(seq))
        self.audience.send_clocks(outcome.timeouts, None, now)  # "time's up", then what it led to
        for seat, state in outcome.presence:
            self._presence(seat, state)
        self.audience.send_clocks((), outcome.deadlines, now)
        game = self.game
        if game is not None and game.phase == Phase.MATCH_OVER and self.status == TableStatus.PLAYING:
            self.status = TableStatus.OVER
            self._events.append(f"match over: {game.names[game.winner]} won")
            self._broadcast_table()
            from .handover import send_record

            send_record(list(self.audience.outbox.values()), game)  # (after the last view)

    def _record_actions(self, outcome: Outcome) -> None:
        """What the game applied since the last outcome, to store before anyone hears of it."""
        game = self.game
        if game is not None and len(game.history) != self._journaled:
            if self.recording:
                new = game.history[self._journaled:]
                self._records.append(ActionsApplied(action_rows(new, outcome.accepted)))
            self._journaled = len(game.history)

    def _save_seats(self) -> None:
        if self.recording:
            self._records.append(SeatsSaved(saved_seats(self.book)))

    def _send_views(self) -> None:  # (every member up to date: Audience.send_views)
        if self.game is not None:
            self.audience.send_views(self.game)

    # ----- sending ----------------------------------------------------------------------------

    def _presence(self, seat: int, state: PresenceState) -> None:
        self.audience.send_presence(m.Presence(seat, state, self.book.seats[seat].name or "?"))

    def _broadcast_table(self) -> None:
        """Send the seats' state (the waiting room; who is away) to everyone (after the
        seats are stored: a rotated token is on disk before its owner hears it)."""
        self._save_seats()
        seats = self.members.values()
        self.audience.send_each(lambda seat: table_state(self.book, self.config, self.status, seats, seat))
        self._changed = True
