"""Admission control for game reviews: the CPU they take on the lobby's machine is bounded.

A review replays a match and asks the hard bot about every decision in it: seconds to
minutes of a CPU.  An SSH session's program runs on the server, so without a bound any
guest could keep every core busy and the tables' moves would lag.  The lobby is the one
place that knows every session's key and address, so it is the one that grants slots:

* ``slots`` at once in the whole server (``unotui serve --review-slots``; 0: none),
* at most ``per_key`` per key and ``per_address`` per address,
* a slot is held until its connection says ``review_done``, closes, or ``hold`` seconds
  pass (a client that never says done cannot keep it);
* no queue: a refusal is a sentence the player reads ("busy, try again in a minute"),
  which costs nothing to hold, unlike a waiting connection.

Pure bookkeeping (no event loop): the lobby passes the clock.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ReviewSlots", "SlotHolder"]

OFF = "Game review is off on this server (its operator set --review-slots 0)."
BUSY = "The server is busy reviewing other matches: try again in a minute."
MINE = "You already have a review running (in another terminal?): finish it first."
ADDRESS = "Your address already has {n} reviews running: finish one first."


@dataclass(frozen=True)
class SlotHolder:
    """Who holds (or asks for) a slot: the lobby connection, its key, its address."""

    link_id: int
    identity: str | None
    origin: str


class ReviewSlots:
    """The server's review slots.

    Args:
        slots: at once, server-wide (0 turns reviews off).
        per_key / per_address: at once per key, per address.
        hold: seconds a granted slot lasts at most (the review's CPU limit and then some).
    """

    def __init__(self, slots: int, *, per_key: int = 1, per_address: int = 2, hold: float = 600.0) -> None:
        self.slots, self.per_key, self.per_address, self.hold = slots, per_key, per_address, hold
        self._held: dict[int, tuple[SlotHolder, float]] = {}  # link id -> (holder, granted at)

    def ask(self, holder: SlotHolder, now: float) -> str:
        """Grant ``holder`` a slot (""), or the sentence saying why not.  A connection
        that holds one already keeps it (asking again is granted)."""
        if self.slots <= 0:
            return OFF
        self._expire(now)
        if holder.link_id in self._held:
            self._held[holder.link_id] = (holder, now)
            return ""
        held = [h for h, _ in self._held.values()]
        if holder.identity is not None and sum(h.identity == holder.identity for h in held) >= self.per_key:
            return MINE
        if holder.origin and sum(h.origin == holder.origin for h in held) >= self.per_address:
            return ADDRESS.format(n=self.per_address)
        if len(held) >= self.slots:
            return BUSY
        self._held[holder.link_id] = (holder, now)
        return ""

    def done(self, link_id: int) -> bool:
        """The connection's review is over, or the connection closed; whether it held one."""
        return self._held.pop(link_id, None) is not None

    def busy(self, now: float) -> int:
        """Slots held now."""
        self._expire(now)
        return len(self._held)

    def _expire(self, now: float) -> None:
        for link_id, (_holder, since) in list(self._held.items()):
            if now - since >= self.hold:
                del self._held[link_id]
