"""One hosted table on the event loop: the asyncio adapter around its table core.

Everything the table decides (admission, seats, tokens, the referee, what each member is
sent, what must be journaled) is the :class:`~unotui.net.core.TableCore`'s, which has no
I/O and no clock.  The room only moves things across the edge:

* a connection's hello, messages and close -> the core, with the loop's time;
* the core's effects -> first the journal (the accepted actions are on disk *before*
  anyone hears of them), then the host's log and the lobby's list, then one write per
  connection that has something queued (:meth:`flush`);
* the core's next deadline -> one timer on the loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol

from ..engine import Game
from ..protocol import messages as m
from ..protocol.events import HelloReceived
from ..protocol.session import HostSession
from ..table import TableStatus
from .config import RoomConfig
from .core import TableCore
from .effects import (
    ActionsApplied,
    Effects,
    MatchStarted,
    SeatsSaved,
    TableClosed,
    TableOpened,
)
from .link import Link, session_of
from .saved import SavedSeat
from .seats import SeatBook

__all__ = ["Room", "TableJournal"]

log = logging.getLogger("unotui.host")


class TableJournal(Protocol):
    """Where a room stores its table (:class:`~unotui.net.journal.Journal` is one; tests
    keep the rows in memory)."""

    def open_table(self, code: str, config: dict[str, object], created: float) -> None: ...
    def seats(self, code: str, seats: tuple[SavedSeat, ...]) -> None: ...
    def started(self, code: str, secret: bytes) -> None: ...
    def append(self, code: str, actions: tuple[tuple[int, int, str], ...]) -> None: ...
    def close_table(self, code: str) -> None: ...



class Room:
    """One table on a host.  See the module docstring.

    Args:
        code: the table's identifier on its host (``""`` for a LAN host's only table).
        config: the table's set-up.
        on_event: a line for the host's log (joins, starts, results).
        on_change: called after the seats or the status changed (the lobby's list).
        journal: where the table is journaled (seats, secret, accepted actions) so that a
            restarted host can resume it (:mod:`unotui.net.recovery`).
        core: the table's core when it already exists (rebuilt from the journal by
            :meth:`TableCore.restore`); otherwise a new table.
    """

    def __init__(
        self,
        code: str,
        config: RoomConfig,
        *,
        on_event: Callable[[str], None] | None = None,
        on_change: Callable[[Room], None] | None = None,
        journal: TableJournal | None = None,
        core: TableCore[Link] | None = None,
    ) -> None:
        self.core: TableCore[Link] = core if core is not None else TableCore(code, config)
        self.core.recording = journal is not None
        self._on_event = on_event or (lambda text: log.info("%s", text))
        self.on_change = on_change
        self.journal = journal
        self._timer: asyncio.TimerHandle | None = None
        self._dirty: set[Link] = set()  # connections with queued messages, written once per call
        self.loop = asyncio.get_running_loop()
        self._effect(self.core.drain())

    # ----- what the rest of the host reads (the core's state) ---------------------------------

    @property
    def code(self) -> str:
        return self.core.code

    @property
    def config(self) -> RoomConfig:
        return self.core.config

    @property
    def book(self) -> SeatBook:
        return self.core.book

    @property
    def members(self) -> dict[Link, int | None]:
        """Connection -> seat (``None``: watching)."""
        return self.core.members

    @property
    def game(self) -> Game | None:
        return self.core.game

    @property
    def status(self) -> TableStatus:
        return self.core.status

    # ----- the edge: connections in --------------------------------------------------------------

    def reserve_owner(self, name: str) -> str:
        """Seat the host's own player now (see :meth:`TableCore.reserve_owner`)."""
        return self.core.reserve_owner(name)

    def admit(self, link: Link, event: HelloReceived, identity: str | None = None) -> None:
        """A connection said hello to this table (see :meth:`TableCore.admit`)."""
        self._effect(self.core.admit(link, session_of(link, HostSession), event, identity, self.loop.time()))

    def gone(self, link: Link, *, said_bye: bool = False) -> None:
        """A connection closed (any reason; ``said_bye``: its client said ``bye``)."""
        self._effect(self.core.gone(link, self.loop.time(), said_bye=said_bye))

    def receive(self, link: Link, message: m.Intent | m.Ready | m.Chat | m.Start) -> None:
        """A message from a connection: an intent, ready, a chat line, a request to start."""
        self._effect(self.core.receive(link, message, self.loop.time()))

    def start(self) -> None:
        """Begin the match now (see :meth:`TableCore.start`)."""
        self._effect(self.core.start(self.loop.time()))

    def close(self, code: str, reason: str, *, forget: bool = False) -> None:
        """The table is going away: tell everyone why, then close.  Its journal is kept
        (a restarted host resumes it) unless ``forget`` or its match is over."""
        self._effect(self.core.close(code, reason, forget=forget))
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.flush()

    def forget(self) -> None:
        """Stop journaling this table (its result is recorded elsewhere: a restart must not
        resume it), through the same record a closed table stores."""
        self._effect(Effects(records=(TableClosed(),)))

    # ----- the edge: effects out -----------------------------------------------------------------

    def _effect(self, effects: Effects[Link]) -> None:
        journal = self.journal
        if journal is not None:
            code = self.core.code
            for record in effects.records:
                if isinstance(record, ActionsApplied):
                    journal.append(code, record.rows)
                elif isinstance(record, SeatsSaved):
                    journal.seats(code, record.seats)
                elif isinstance(record, MatchStarted):
                    journal.started(code, record.secret)
                elif isinstance(record, TableOpened):
                    journal.open_table(code, record.config, time.time())
                elif isinstance(record, TableClosed):
                    journal.close_table(code)
                    self.journal = journal = None
                    self.core.recording = False
                    break
        for line in effects.events:
            self._on_event(line)
        self._dirty |= effects.dirty
        if effects.changed and self.on_change is not None:
            self.on_change(self)
        self._arm()

    def _tick(self) -> None:
        self._timer = None
        self._effect(self.core.tick(self.loop.time()))
        self.flush()

    def _arm(self) -> None:
        deadline = self.core.next_deadline()
        if self._timer is not None:
            if deadline is not None and self._timer.when() <= deadline:
                return  # it fires early and re-arms: cheaper than a new handle per action
            self._timer.cancel()
            self._timer = None
        if deadline is not None:
            self._timer = self.loop.call_at(deadline, self._tick)

    def flush(self) -> None:
        """Write what every connection has queued: once per event, however many messages
        (one write per peer per action is what keeps a busy host's system calls down)."""
        dirty, self._dirty = self._dirty, set()
        for link in dirty:
            link.flush()
