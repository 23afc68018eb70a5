"""The one seam for randomness: every random outcome of a game comes from here.

A match has a 32-byte secret (from :func:`secrets.token_bytes`; derived from a seed only
for simulations, tests and replays).  Each round has a key derived from it, and every
shuffle of the round draws from a deterministic stream keyed by the round key and a
label saying what is shuffled (``deal``, ``reflip``, ``reshuffle``, ``hands``) and the
how-manieth of its kind in the round it is.  The cards are put in their canonical order
(ascending code) before the shuffle, so the input of every shuffle is public knowledge
and the round key alone decides its output.

At the deal the host publishes a commitment to the round (:func:`commitment`); when the
round ends it reveals the round key, and anyone can recompute every shuffle of the round
(:mod:`unotui.engine.verify` does).  The exact algorithm is specified in
``protocol/SPEC.md`` ("Shuffles") so that a client in another language can reproduce it;
``protocol/vectors/shuffle.json`` holds test vectors.

Generator, precisely:

* ``round_key(r) = HMAC-SHA256(secret, b"round" || u32be(r))`` (round 0: before the
  first deal, the draw for the first dealer);
* the stream ``(label, ordinal)``: the SHAKE-256 output of
  ``HMAC-SHA256(round_key, label_ascii || 0x00 || u32be(ordinal))``, read as big-endian
  unsigned 32-bit words;
* an integer uniform in ``[0, m)``: take the next word ``x``; if
  ``x >= 2**32 - (2**32 mod m)`` discard it and take another; else ``x mod m``;
* Fisher-Yates (Durstenfeld): for ``i`` from ``n-1`` down to 1, ``j`` uniform in
  ``[0, i]``, swap items ``i`` and ``j``.  The result's first item is the top of the pile.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence
from enum import StrEnum
from typing import TypeVar

from .cards import Card, by_code
from .errors import RulesError

__all__ = [
    "SECRET_BYTES",
    "Label",
    "ShuffleSource",
    "commitment",
    "fisher_yates",
    "match_name",
    "round_key",
    "secret_from_seed",
    "shuffled",
    "stream_seed",
    "words",
]

T = TypeVar("T")



class Label(StrEnum):
    """The streams' labels: one per kind of random outcome (ASCII on the wire)."""

    DEAL = "deal"  #: the round's deck, at the deal
    REFLIP = "reflip"  #: the pile, after a Wild Draw Four turned up first went back into it
    RESHUFFLE = "reshuffle"  #: the discard pile (all but its top) as the new draw pile
    HANDS = "hands"  #: every hand, gathered by Wild Shuffle Hands (card or custom effect)
    DEALER = "dealer"  #: round 0: the deck the seats draw from for the first deal

SECRET_BYTES = 32
_TWO32 = 1 << 32
# The rejection limit 2**32 - (2**32 mod m) for every m a shuffle of cards needs.
_LIMITS = [0] + [_TWO32 - _TWO32 % m for m in range(1, 1024)]


def secret_from_seed(seed: int) -> bytes:
    """The match secret a seeded game uses: SHA-256 of the seed's decimal text (ASCII).

    Only for simulations, tests and replays: a real game's secret comes from
    :func:`secrets.token_bytes`.
    """
    return hashlib.sha256(str(int(seed)).encode("ascii")).digest()


def round_key(secret: bytes, round_no: int) -> bytes:
    """``HMAC-SHA256(secret, b"round" || round_no as 4 bytes big-endian)``."""
    return hmac.digest(secret, b"round" + round_no.to_bytes(4, "big"), "sha256")


def match_name(secret: bytes) -> str:
    """A name for the match that is the same after a restart from its journal:
    ``HMAC-SHA256(secret, b"match")`` as 32 hex digits.  A message no round key uses, so
    it tells nothing about any shuffle (the lobby records a result once under it)."""
    return hmac.digest(secret, b"match", "sha256").hex()[:32]


def stream_seed(key: bytes, label: str, ordinal: int) -> bytes:
    """``HMAC-SHA256(round_key, label || 0x00 || u32be(ordinal))``: the seed of one stream."""
    return hmac.digest(key, label.encode("ascii") + b"\x00" + ordinal.to_bytes(4, "big"), "sha256")


def words(key: bytes, label: str, ordinal: int, hint: int = 64) -> Iterator[int]:
    """The endless stream of 32-bit words of ``(label, ordinal)`` under a round key: the
    SHAKE-256 output of its seed, read as big-endian unsigned 32-bit words.

    ``hint`` words are computed in one go (a shuffle of ``n`` items needs ``n - 1`` of
    them, rarely more); past them the output is extended (SHAKE-256's shorter outputs are
    prefixes of its longer ones, so the stream is the same whatever the hint).
    """
    xof = hashlib.shake_256(stream_seed(key, label, ordinal))
    count = max(hint, 8)
    done = 0
    while True:
        block = xof.digest(4 * count)[4 * done :]
        yield from struct.unpack(f">{count - done}I", block)
        done, count = count, 2 * count


def fisher_yates(items: list[T], stream: Iterator[int]) -> list[T]:
    """Shuffle ``items`` in place with words of ``stream`` (Durstenfeld's Fisher-Yates,
    from the last position down, rejection sampling against modulo bias); returns it."""
    nxt = stream.__next__
    limits = _LIMITS
    for i in range(len(items) - 1, 0, -1):
        m = i + 1
        limit = limits[m] if m < 1024 else _TWO32 - _TWO32 % m
        x = nxt()
        while x >= limit:
            x = nxt()
        j = x % m
        items[i], items[j] = items[j], items[i]
    return items


def shuffled(key: bytes, label: str, ordinal: int, cards: Iterable[Card]) -> list[Card]:
    """The cards in canonical order (ascending code), then shuffled by the stream
    ``(label, ordinal)`` of round key ``key``; the first card is the top of the pile."""
    items = sorted(cards, key=by_code)
    n = len(items)
    if 1 < n < len(_LIMITS):
        # The same algorithm as fisher_yates(items, words(...)), on words computed in one
        # go; a rejected word (rare: under n / 2**32 per draw) sends it the general way.
        seed = stream_seed(key, label, ordinal)
        draws = struct.unpack(f">{n - 1}I", hashlib.shake_256(seed).digest(4 * (n - 1)))
        out = items.copy()
        limits = _LIMITS
        for i, x in zip(range(n - 1, 0, -1), draws, strict=True):
            m = i + 1
            if x >= limits[m]:
                break
            j = x % m
            out[i], out[j] = out[j], out[i]
        else:
            return out
    return fisher_yates(items, words(key, label, ordinal, n - 1))


def commitment(key: bytes, order: Sequence[Card]) -> str:
    """The round's commitment: SHA-256 of the round key followed by the deck order as
    text (card texts top first, separated by single spaces, ASCII), in lowercase hex."""
    text = " ".join([c.text for c in order]).encode("ascii")
    return hashlib.sha256(key + text).hexdigest()


class ShuffleSource:
    """A match's source of every random outcome (see the module docstring).

    Args:
        secret: the match secret (32 bytes); by default fresh from
            :func:`secrets.token_bytes`.
        seed: instead of a secret, derive one from this seed (simulations, tests,
            replays: never a real game).
        keys: instead of a secret, the round keys themselves (round number -> 32 bytes):
            what a seat knows of a finished match (its host reveals every round's key,
            never the secret), enough to replay it; any other round's key is an error.

    Attributes:
        secret: the match secret (never sent to anyone during the match); ``b""`` for a
            source made of round keys.
        seed: the seed it was derived from, or ``None``.
        from_secrets: whether the secret came from :mod:`secrets` (the way real games run).
        known_keys: whether the source holds round keys and no secret.
    """

    __slots__ = ("_keys", "from_secrets", "known_keys", "secret", "seed")
    secret: bytes
    _keys: dict[int, bytes]

    def __init__(self, secret: bytes | None = None, *, seed: int | None = None,
                 keys: Mapping[int, bytes] | None = None) -> None:
        if (secret is not None) + (seed is not None) + (keys is not None) > 1:
            raise ValueError("give a secret, a seed or round keys, not two of them")
        self.seed = seed
        self.from_secrets = secret is None and seed is None and keys is None
        self.known_keys = keys is not None
        if keys is not None:
            if any(not isinstance(k, bytes) or len(k) != SECRET_BYTES for k in keys.values()):
                raise ValueError(f"a round key is {SECRET_BYTES} bytes")
            self.secret = b""
            self._keys = dict(keys)
            return
        if seed is not None:
            secret = secret_from_seed(seed)
        elif secret is None:
            secret = secrets.token_bytes(SECRET_BYTES)
        if not isinstance(secret, bytes) or len(secret) != SECRET_BYTES:
            raise ValueError(f"the match secret is {SECRET_BYTES} bytes")
        self.secret = secret
        self._keys = {}

    def round_key(self, round_no: int) -> bytes:
        """The key of round ``round_no`` (0: before the first deal)."""
        key = self._keys.get(round_no)
        if key is None:
            if self.known_keys:
                raise RulesError(f"the key of round {round_no} is not known")
            key = self._keys[round_no] = round_key(self.secret, round_no)
        return key

    def shuffled(self, round_no: int, label: str, ordinal: int, cards: Iterable[Card]) -> list[Card]:
        """:func:`shuffled` under this match's key of ``round_no``."""
        return shuffled(self.round_key(round_no), label, ordinal, cards)

    def __repr__(self) -> str:
        if self.known_keys:
            return f"<ShuffleSource {len(self._keys)} round keys>"
        how = "secrets" if self.from_secrets else f"seed={self.seed}" if self.seed is not None else "given"
        return f"<ShuffleSource {how}>"  # never the secret itself
