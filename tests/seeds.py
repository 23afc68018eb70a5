"""The match secret that ``Game(..., rng=random.Random(seed))`` used to make.

The engine takes a ``seed`` or a ``secret``; tests written when it also took a seeded
``random.Random`` keep their deals (and the protocol's vectors their bytes) by passing
the secret that object gave: its next 256 bits, big-endian.
"""

from __future__ import annotations

import random

__all__ = ["rng_secret"]


def rng_secret(seed: int) -> bytes:
    """The 32-byte match secret a ``random.Random(seed)`` gave the engine."""
    return random.Random(seed).getrandbits(256).to_bytes(32, "big")
