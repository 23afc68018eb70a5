"""Tokens of both kinds: secret resume tokens, and the token bucket every rate limit uses.

One module, standard library only, at the top of the package (like :mod:`unotui.private`)
so that every layer that needs one may import it: the wire protocol (messages and chat
per connection), the LAN host's door (new connections per address), the lobby (chat per
origin and identity), the SSH front door (new connections per address, the bytes a
client types).  They used to be four hand-written buckets with the same arithmetic.

A bucket has no clock of its own: every call is told the time (the caller's loop time,
or a test's fake clock), so the code that uses one stays sans-I/O and testable.
"""

from __future__ import annotations

import hmac
import secrets

__all__ = ["TokenBucket", "new_token", "same_token"]


def new_token() -> str:
    """A fresh resume token (256 random bits, URL-safe text: 43 characters)."""
    return secrets.token_urlsafe(32)


def same_token(given: str | None, expected: str) -> bool:
    """Whether a presented token is the stored one, compared in constant time (a token's
    prefix must not be guessable from how long a refusal takes)."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst`` (full at ``now``).

    A token is whatever is being limited: a message, a chat line, a new connection, a
    byte typed.  :meth:`take` is for one thing at a time; :meth:`allowed`, :meth:`spend`
    and :meth:`wait_for` for a stream that goes through as far as the bucket allows.
    """

    __slots__ = ("_at", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst = rate, burst
        self._tokens, self._at = float(burst), now

    def allowed(self, now: float) -> int:
        """Whole tokens there are at ``now`` (the bucket refills up to then)."""
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now
        return int(self._tokens)

    def take(self, now: float) -> bool:
        """Take one token if there is one at ``now``."""
        if self.allowed(now) >= 1:
            self._tokens -= 1.0
            return True
        return False

    def spend(self, count: int) -> None:
        """Take ``count`` tokens (at most what :meth:`allowed` said)."""
        self._tokens -= count

    def wait_for(self, count: int) -> float:
        """Seconds from the last :meth:`allowed` until ``count`` tokens (at most a burst)."""
        missing = min(float(count), float(self.burst)) - self._tokens
        return max(0.0, missing / self.rate)

    def full(self, now: float) -> bool:
        """Whether the bucket is full at ``now``: forgetting it changes nothing (a new one
        starts full), which is how a table of buckets per address stays bounded."""
        return self._tokens + (now - self._at) * self.rate >= self.burst
