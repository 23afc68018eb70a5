"""What the lobby remembers, behind one small interface.

The lobby's screens and server read and write their shared state (tables, who is online
and where, per-identity stats and ratings, bans, the message of the day, an events log)
only through :class:`LobbyStore`.  Today it is one SQLite file
(:class:`~unotui.lobby.sqlite_store.SqliteStore`); a later multi-machine lobby can put the
same interface in front of a shared server without touching the screens.  So the
interface speaks only plain values (the dataclasses below), never rows, cursors or
connections.

An *identity* is an SSH public-key fingerprint (``SHA256:...``), known by the name it
first came with.  Guests, who connect without a key, have none: they get no stats and no
rating.  Presence is keyed by whatever
per-connection string the lobby chooses (the fingerprint, or ``guest:N``).

The store does not clean text (the lobby does, before storing) but never interprets it
either: every value is a bound parameter, and a hostile name comes back byte for byte.  It
does bound it: any text longer than :data:`MAX_TEXT` characters is refused with
``ValueError``, so a bug upstream cannot fill the disk one name at a time.

Contract: one store object is used from one thread (the lobby's event loop thread).  Its
calls are short and synchronous.  Several processes may open the same file at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from ..private import DataDirError
from ..table.states import TableStatus

__all__ = [
    "MAX_TEXT",
    "Ban",
    "Event",
    "KeptMatch",
    "LobbyStore",
    "MatchRecord",
    "Placing",
    "PlayerStats",
    "Retention",
    "StoreError",
    "TableRow",
    "check_text",
]

MAX_TEXT = 2000
"""The longest text (names, codes, reasons, the message of the day, events) the store
accepts, in characters.  Cleaned names are 16 at most; this only stops runaway input."""

class StoreError(DataDirError):
    """The store's file cannot be used (not a database, or written by a newer unotui)."""


def check_text(what: str, value: str) -> str:
    """``value`` if it is text of at most :data:`MAX_TEXT` characters.

    Raises:
        ValueError: naming ``what``, for non-text or text that is too long.
    """
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, not {type(value).__name__}")
    if len(value) > MAX_TEXT:
        raise ValueError(f"{what} is {len(value)} characters; the store keeps at most {MAX_TEXT}")
    return value


@dataclass(frozen=True)
class TableRow:
    """One table as the lobby lists it.  ``rules`` is a short summary for the list
    (``"classic, to 500"``); ``created`` is a Unix time."""

    code: str
    name: str
    seats: int
    humans: int
    bots: int
    rules: str
    status: str
    private: bool
    turn_timer: float | None
    created: float

    def __post_init__(self) -> None:
        for what in ("code", "name", "rules"):
            check_text(what, getattr(self, what))
        if self.status not in tuple(TableStatus):
            raise ValueError(f"status {self.status!r} is not one of {', '.join(TableStatus)}")
        if not 0 <= self.humans + self.bots <= self.seats or min(self.humans, self.bots) < 0:
            raise ValueError(f"{self.humans} humans and {self.bots} bots do not fit {self.seats} seats")


@dataclass(frozen=True)
class Placing:
    """One seat's result in a finished match.

    ``rank`` is where it finished (1 won; equal ranks tie); ``points`` what it scored.
    ``identity`` is the player's key fingerprint, ``None`` for a guest or a bot;
    ``bot_level`` is set for a computer player (see :mod:`unotui.lobby.ratings`).
    """

    name: str
    rank: int
    points: int = 0
    identity: str | None = None
    bot_level: str | None = None

    def __post_init__(self) -> None:
        check_text("name", self.name)
        if self.identity is not None:
            check_text("identity", self.identity)
        if self.bot_level is not None:
            check_text("bot level", self.bot_level)
            if self.identity is not None:
                raise ValueError("a placing is a bot or an identified player, not both")
        if self.rank < 1:
            raise ValueError(f"rank {self.rank} must be 1 or more")


@dataclass(frozen=True)
class PlayerStats:
    """An identified player's record.  ``rating`` is the ordinal ``mu - 3 * sigma`` that
    the leaderboard sorts on and shows."""

    identity: str
    name: str
    games: int
    wins: int
    points: int
    mu: float
    sigma: float
    rating: float


@dataclass(frozen=True)
class Ban:
    """A banned key: why, by whom, and when (Unix time)."""

    fingerprint: str
    reason: str
    by: str
    when: float


@dataclass(frozen=True)
class Event:
    """One line of the events log (joins, results, kicks...)."""

    id: int
    when: float
    kind: str
    text: str


@dataclass(frozen=True)
class MatchRecord:
    """A recorded match: the table it was played at, when it ended, and its placings."""

    id: int
    table: str
    finished: float
    placings: tuple[Placing, ...] = field(default=())


@dataclass(frozen=True)
class Retention:
    """How many finished matches the lobby keeps (``unotui serve --keep-*``): the newest
    ``per_key`` of each key's, none older than ``days``, ``total`` in the whole store.
    ``per_key`` or ``total`` 0 keeps nothing."""

    per_key: int = 20
    days: float = 90.0
    total: int = 5000

    @property
    def off(self) -> bool:
        """Nothing is kept."""
        return self.per_key <= 0 or self.total <= 0 or self.days <= 0


@dataclass(frozen=True)
class KeptMatch:
    """One kept match as its player's list shows it: ``seat`` is that player's seat,
    ``names`` and ``scores`` every seat's (by seat), ``winner`` a seat, ``finished`` a
    Unix time."""

    id: int
    finished: float
    names: tuple[str, ...]
    seat: int
    scores: tuple[int, ...]
    winner: int
    rounds: int


@runtime_checkable
class LobbyStore(Protocol):
    """Everything the lobby keeps.  Writes are atomic; reads see every write that
    returned, from this object or from another process on the same store."""

    # ----- tables ---------------------------------------------------------------------------

    def put_table(self, row: TableRow) -> None:
        """Add the table, or replace the row with the same code."""

    def drop_table(self, code: str) -> None:
        """Forget a table (no error if it is not there)."""

    def tables(self, include_private: bool = False) -> list[TableRow]:
        """The tables, waiting ones first, then oldest first."""

    # ----- presence -------------------------------------------------------------------------

    def set_presence(self, identity: str, name: str, where: str) -> None:
        """``identity`` (a per-connection key) is ``name``, in ``where``: ``"lobby"`` or a
        table code.  Replaces that identity's previous presence."""

    def clear_presence(self, identity: str) -> None:
        """``identity`` left (no error if it was not there)."""

    def online(self) -> list[tuple[str, str]]:
        """``(name, where)`` of everyone present, by name (case-folded)."""

    def clear_all_presence(self) -> int:
        """Forget everyone's presence (on start-up after a crash); returns how many."""

    # ----- identities, stats and ratings ---------------------------------------------------

    def remember_name(self, identity: str, name: str) -> str:
        """The name ``identity`` is known by: the first it came with (``name``, if the key
        is new), whatever name it gives later.  A key is one person, so the lobby, its
        tables and the leaderboard call it one name: ``ssh carol@HOST`` with alice's key
        is alice, never a second player.  Returns that name."""

    def record_result(
        self, table: str, placings: Sequence[Placing], match_key: str | None = None
    ) -> list[PlayerStats]:
        """A match at ``table`` ended: count a game (and a win for rank 1) and the points
        of every identified player, rate the match, and return their stats afterwards.
        A known key keeps its name (:meth:`remember_name`), whatever its seat was called.

        ``match_key`` names the match once and for all: a second result with a key
        already recorded changes nothing (a lobby that crashed just after recording
        resumes the finished match from its journal and records it again).

        Raises:
            ValueError: fewer than two placings.
        """

    def stats(self, identity: str) -> PlayerStats | None:
        """An identity's record (``games`` may be 0), or ``None`` if it was never seen."""

    def leaderboard(self, limit: int = 20) -> list[PlayerStats]:
        """The best ``limit`` players with at least one game, by rating."""

    def recent_matches(self, limit: int = 10) -> list[MatchRecord]:
        """The last ``limit`` recorded matches, newest first."""

    # ----- kept matches (transcripts) ------------------------------------------------------

    def keep_match(self, transcript: str, summary: KeptMatch, seats: dict[str, int],
                   retention: Retention, match_key: str | None = None) -> int | None:
        """Keep a finished match's ``transcript`` (JSON text) for the keys in ``seats``
        (key -> its seat; ``summary``'s ``id`` and ``seat`` are ignored), then prune what
        ``retention`` no longer allows, oldest first, a bounded amount of work per call.
        Returns the match's id, ``None`` if nothing was kept (no key, retention off, the
        same ``match_key`` kept already).

        Raises:
            ValueError: a transcript larger than the store keeps.
        """

    def kept_matches(self, identity: str, limit: int) -> list[KeptMatch]:
        """``identity``'s kept matches, newest first, at most ``limit``; a damaged row is
        skipped (and logged), never an error."""

    def kept_transcript(self, identity: str, match_id: int) -> tuple[str, int] | None:
        """The transcript of match ``match_id`` and ``identity``'s seat at it, or
        ``None``: no such match, or ``identity`` was not seated at it (the same answer)."""

    # ----- moderation -----------------------------------------------------------------------

    def ban(self, fingerprint: str, reason: str, by: str) -> None:
        """Refuse this key from now on (banning again replaces the reason)."""

    def unban(self, fingerprint: str) -> bool:
        """Lift a ban; ``False`` if the key was not banned."""

    def banned(self, fingerprint: str) -> str | None:
        """The reason ``fingerprint`` is banned, or ``None``."""

    def bans(self) -> list[Ban]:
        """Every ban, oldest first."""

    def set_motd(self, text: str) -> None:
        """The message of the day (``""`` for none)."""

    def motd(self) -> str:
        """The message of the day, ``""`` if none was set."""

    # ----- events log -----------------------------------------------------------------------

    def log_event(self, kind: str, text: str) -> None:
        """Append one line to the events log (which keeps only its newest lines: a lobby
        that runs for months must not grow without bound)."""

    def recent_events(self, limit: int = 50) -> list[Event]:
        """The last ``limit`` events, oldest first (as a log reads)."""

    def close(self) -> None:
        """Release the store; no call may follow."""
