"""Back-off after failed guesses: table codes and passwords, per address (or key).

A wrong table code is answered ``no_such_table`` and a wrong password ``password``, so
each attempt tells a right guess from a wrong one; at the speed a connection allows that
is every four-digit PIN in about half an hour.  :class:`Backoff` counts the failures of
each guesser (an address, or a verified lobby identity) and, past a few free ones, makes
it wait before its next attempt: a delay that doubles with each further failure, up to a
cap, forgotten after a quiet period.  Successes reset nothing: a guesser could otherwise
interleave joins of a table of its own.

It reads no clock: the host passes the loop's time, so tests drive it with any numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GUESS_CODES", "Backoff", "BackoffLimits"]

#: the refusals that answer a guess (a wrong table code, a wrong password)
GUESS_CODES = frozenset({"no_such_table", "password"})

#: guessers remembered at most; past it the quiet ones are forgotten first
_MAX_KEYS = 16384


@dataclass(frozen=True)
class BackoffLimits:
    """How guessing is slowed.

    Attributes:
        free: failures allowed before any waiting (0 turns the back-off off).
        first: the wait after the first failure past ``free``, in seconds; each further
            failure doubles it ...
        cap: ... up to this.
        forget: a guesser with no failure for this long starts afresh.
    """

    free: int = 5
    first: float = 1.0
    cap: float = 60.0
    forget: float = 600.0


class _Record:
    __slots__ = ("failures", "last", "until")

    def __init__(self) -> None:
        self.failures = 0
        self.last = 0.0
        self.until = 0.0


class Backoff:
    """Failures per guesser and how long each must wait (see the module docstring)."""

    def __init__(self, limits: BackoffLimits | None = None) -> None:
        self.limits = limits or BackoffLimits()
        self._records: dict[str, _Record] = {}

    def wait(self, key: str, now: float) -> float:
        """Seconds ``key`` must still wait before its next attempt (0: it may try now)."""
        record = self._fresh(key, now)
        return 0.0 if record is None else max(0.0, record.until - now)

    def failed(self, key: str, now: float) -> None:
        """``key``'s attempt failed (a wrong code or password)."""
        limits = self.limits
        if limits.free <= 0:
            return
        record = self._fresh(key, now)
        if record is None:
            if len(self._records) >= _MAX_KEYS:
                self._prune(now)
            record = self._records[key] = _Record()
        record.failures += 1
        record.last = now
        over = record.failures - limits.free
        if over > 0:
            record.until = now + min(limits.cap, limits.first * 2.0 ** min(over - 1, 32))

    def _fresh(self, key: str, now: float) -> _Record | None:
        record = self._records.get(key)
        if record is not None and now - record.last >= self.limits.forget and now >= record.until:
            del self._records[key]
            return None
        return record

    def _prune(self, now: float) -> None:
        """Forget the quiet guessers; if every one is busy, the half that failed longest ago."""
        forget = self.limits.forget
        records = {k: r for k, r in self._records.items() if now - r.last < forget or now < r.until}
        if len(records) >= _MAX_KEYS:
            newest = sorted(records.items(), key=lambda item: item[1].last)[len(records) // 2:]
            records = dict(newest)
        self._records = records
