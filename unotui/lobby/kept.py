"""The lobby's kept matches and review slots: what :class:`~unotui.lobby.lobby.Lobby`
does at a match's end (keep its transcript for its keyed players) and with the lobby
requests of protocol version 2 (``matches``, ``kept``, ``review``, ``review_done``).

Apart from the lobby (which decides *when*) so that the rules live in one place:

* only players who came with a key have matches kept (a guest's name is anyone's);
* ``kept`` answers a match the asker's key was not seated at exactly as a missing id
  (``no_such_match``): ids are small integers, and the answer must not tell a guesser
  that someone else's match exists;
* requests share token buckets per connection, per key and per address (one person's
  many terminals share one rate), and every answer is bounded (at most ``per_key`` rows,
  a transcript of at most :data:`~unotui.lobby.sqlite_store.MAX_TRANSCRIPT` characters);
* a damaged row costs that one match, with a line in the log, never the lobby.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..net.link import Link, session_of
from ..net.room import Room
from ..protocol import messages as m
from ..protocol.codec import KEPT_CHUNK, KEPT_CHUNKS, MAX_KEPT_PARTS, MAX_KEPT_ROWS
from ..protocol.session import HostSession
from ..table import SeatKind
from ..transcript import transcript_of
from .limits import ChatGate
from .review_slots import ReviewSlots, SlotHolder
from .store import KeptMatch, LobbyStore, Retention

__all__ = ["GUEST_NOTE", "NO_SUCH_MATCH", "OFF_NOTE", "KeptDesk", "parts_of"]

log = logging.getLogger("unotui.lobby")

GUEST_NOTE = ("Matches are kept for players who come with an SSH key; you came as a guest, so "
              "nothing is kept for you.")
OFF_NOTE = "This lobby keeps no matches (its operator set --keep-matches 0)."
NO_SUCH_MATCH = "No such match."
SLOW_DOWN = "Too many requests for your matches; wait a moment."


class _Member(Protocol):
    identity: str | None
    origin: str


def parts_of(text: str) -> list[tuple[str, ...]]:
    """``text`` (ASCII) cut into ``kept_text`` parts: chunks of :data:`KEPT_CHUNK`
    characters, :data:`KEPT_CHUNKS` of them a part (a part fits the host's frame)."""
    chunks = [text[i:i + KEPT_CHUNK] for i in range(0, len(text), KEPT_CHUNK)] or [" "]
    return [tuple(chunks[i:i + KEPT_CHUNKS]) for i in range(0, len(chunks), KEPT_CHUNKS)]


class KeptDesk:
    """Kept matches and review slots for one lobby.

    Args:
        store: where matches are kept.
        members: the lobby's connections (shared with it): who asks.
        retention: the operator's limits; ``slots``: the review slots.
        clock: the event loop's (rates, slot expiry).
        per_s / burst: the requests' rate, shared per connection, key and address.
    """

    def __init__(self, store: LobbyStore, members: Mapping[Link, _Member], retention: Retention,
                 slots: ReviewSlots, clock: Callable[[], float], *, per_s: float = 0.5,
                 burst: int = 8) -> None:
        self.store, self.members, self.retention, self.slots = store, members, retention, slots
        self._clock = clock
        self._gate = ChatGate(per_s, burst)

    # ----- a match ended ----------------------------------------------------------------------

    def keep(self, room: Room, match_key: str) -> int | None:
        """Keep ``room``'s finished match for its keyed players (its id, or ``None``)."""
        game = room.game
        if game is None or game.winner < 0 or self.retention.off:
            return None
        seats: dict[str, int] = {}
        for seat, entry in enumerate(room.book.seats):
            if entry.kind == SeatKind.HUMAN and entry.identity is not None:
                seats.setdefault(entry.identity, seat)
        if not seats:
            return None
        text = json.dumps(transcript_of(game).to_mapping(), separators=(",", ":"))  # ASCII
        names = tuple(e.name for e in room.book.seats)
        summary = KeptMatch(0, 0.0, names, 0, tuple(game.scores), game.winner, game.round_no)
        try:
            return self.store.keep_match(text, summary, seats, self.retention, match_key)
        except ValueError as exc:  # (too long a match: it is not kept, the result still is)
            log.warning("[%s] match not kept: %s", room.code, exc)
            return None

    # ----- requests ---------------------------------------------------------------------------

    def answer(self, link: Link, request: Any) -> None:
        """One lobby request of this desk's (the host routes ``matches``, ``kept``,
        ``review`` and ``review_done`` of lobby connections here)."""
        member = self.members.get(link)
        if member is None:
            return
        if isinstance(request, m.ReviewDone):  # (never limited: it gives back)
            self.slots.done(id(link))
            return
        keys = (f"link {id(link)}", f"key {member.identity}" if member.identity else "",
                f"address {member.origin}" if member.origin else "")
        if not self._gate.allow(keys, self._clock()):
            return self._send(link, m.Refused(None, "rate_limited", SLOW_DOWN))
        if isinstance(request, m.Matches):
            self._send(link, self._list(member.identity))
        elif isinstance(request, m.Kept):
            for message in self._transcript(member.identity, request.id):
                session_of(link, HostSession).send(message)
            link.flush()
        elif isinstance(request, m.Review):
            why = self.slots.ask(SlotHolder(id(link), member.identity, member.origin), self._clock())
            self._send(link, m.ReviewSlot(not why, why))

    def gone(self, link: Link) -> None:
        """A lobby connection closed: its review slot (if any) is free."""
        self.slots.done(id(link))

    def _send(self, link: Link, message: m.Message) -> None:
        session_of(link, HostSession).send(message)
        link.flush()

    def _list(self, identity: str | None) -> m.KeptList:
        if identity is None:
            return m.KeptList((), GUEST_NOTE)
        if self.retention.off:
            return m.KeptList((), OFF_NOTE)
        rows = []
        for k in self.store.kept_matches(identity, min(self.retention.per_key, MAX_KEPT_ROWS)):
            if not all(1 <= len(n) <= 64 for n in k.names) or any(abs(x) > 10**7 for x in k.scores):
                log.warning("kept match %s does not fit the wire, skipped", k.id)
                continue
            rows.append(m.KeptRow(k.id, max(0, int(k.finished)), k.names, k.seat, k.scores, k.winner,
                                  min(k.rounds, 100_000)))
        return m.KeptList(tuple(rows), "")

    def _transcript(self, identity: str | None, match_id: int) -> list[m.Message]:
        """The ``kept_text`` parts of the match, or the one refusal (the same for a match
        that is missing, someone else's, or damaged)."""
        got = None if identity is None else self.store.kept_transcript(identity, match_id)
        parts = parts_of(got[0]) if got is not None and got[0].isascii() else []
        if got is not None and not 0 < len(parts) <= MAX_KEPT_PARTS:
            log.warning("kept match %s is damaged (not ASCII, or too long), not sent", match_id)
            parts = []
        if not parts:
            return [m.Refused(None, "no_such_match", NO_SUCH_MATCH)]
        return [m.KeptText(match_id, i, len(parts), chunks) for i, chunks in enumerate(parts)]
