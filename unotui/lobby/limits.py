"""What one person may take of a public lobby: tables, and the others' attention.

The protocol session limits each connection, but a guest can open many connections, and
an SSH player's connections all come from the SSH server's own process on loopback.  So
the lobby also counts per *origin*: the player's real address (the TCP peer's, or for an
SSH player, keyed or guest, the address the SSH server vouched for in the credential)
and per *identity* (the key), besides per connection.

* :func:`table_refusal`: whether a creator may open one more waiting table (a handful
  each, and never the share of tables kept for quick match).
* :class:`ChatGate`: lobby chat lines share a token bucket per origin and per identity.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..tokens import TokenBucket

__all__ = ["ChatGate", "Creator", "table_refusal"]


@dataclass(frozen=True)
class Creator:
    """Who asked for a table: the lobby connection (``link_id``), the verified key
    (``None``: a guest) and the origin address (``""``: none known)."""

    link_id: int
    identity: str | None
    origin: str


def table_refusal(
    creator: Creator,
    waiting: Iterable[Creator],
    created: int,
    *,
    per_creator: int,
    per_origin: int,
    room_for_created: int,
) -> str:
    """Why ``creator`` may not open another table ("" if it may).

    ``waiting`` are the creators of the tables still waiting for players (not started);
    ``created`` counts every table people created (quick match's are not), which may take
    ``room_for_created`` of the lobby's tables: the rest stay free for quick match."""
    waiting = list(waiting)
    mine = sum(1 for c in waiting if c.link_id == creator.link_id
               or (creator.identity is not None and c.identity == creator.identity))
    if mine >= per_creator:
        return (f"You already have {per_creator} tables waiting for players: start one "
                "(or let it close) before you create another.")
    if creator.origin and sum(1 for c in waiting if c.origin == creator.origin) >= per_origin:
        return (f"Your address already has {per_origin} tables waiting for players: start one "
                "before you create another.")
    if created >= room_for_created:
        return "The lobby is full of tables: join one, or use quick match."
    return ""


class ChatGate:
    """Token buckets shared by every connection of one key (an origin, an identity).

    Args:
        per_s / burst: each key's rate and burst, in lines.
    """

    def __init__(self, per_s: float, burst: int) -> None:
        self.per_s, self.burst = per_s, burst
        self._buckets: dict[str, TokenBucket] = {}

    def allow(self, keys: Iterable[str], now: float) -> bool:
        """One line for every key in ``keys`` ("" keys are skipped).  A refused line is
        still charged to the keys before the one that refused it: flooding costs."""
        if len(self._buckets) > 4096:  # forget them all: a fresh bucket is only one burst
            self._buckets.clear()
        return all(self._bucket(k, now).take(now) for k in keys if k)

    def _bucket(self, key: str, now: float) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.per_s, self.burst, now)
        return bucket
