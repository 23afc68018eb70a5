"""A LAN table's password, kept only as a salted scrypt hash.

The journal (``DATA_DIR/journal.sqlite3``) stores each table's configuration, and a host
restarted from it must still check the password; so the configuration carries the hash,
never the clear text: a copied journal gives the password away only to a brute force
that costs 16 MiB and tens of milliseconds per guess.

The hash is ``scrypt$N$r$p$SALT$KEY`` (hex salt and key): the parameters travel with it,
so a hash made with other parameters still verifies.  Parameters read from a file are
bounded (a damaged journal cannot ask for a gigabyte of memory).

Cost: one check is one scrypt (about 70 ms on a small shared machine, measured with
``N=2**14, r=8, p=1``), run on the host's event loop for each ``hello`` that carries a
password to a table that has one.  Nothing is cached: the cost per guess is the point.
A hello with no password is refused without hashing.
"""

from __future__ import annotations

import hashlib
import hmac
import os

__all__ = ["check_hash", "hash_password", "password_matches"]

N, R, P = 2**14, 8, 1
SALT_BYTES = 16
KEY_BYTES = 32
#: the most memory a hash's parameters may ask for (128 * r * N: 16 MiB for ours)
_MEMORY = 32 * 1024 * 1024
_MAXMEM = 2 * _MEMORY  # scrypt's own ceiling, with room for its other buffers


def hash_password(clear: str) -> str:
    """The hash of ``clear`` with a new random salt."""
    salt = os.urandom(SALT_BYTES)
    key = _scrypt(clear, salt, N, R, P)
    return f"scrypt${N}${R}${P}${salt.hex()}${key.hex()}"


def _parse(stored: str) -> tuple[int, int, int, bytes, bytes]:
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        raise ValueError("the password hash is not scrypt$N$r$p$SALT$KEY")
    try:
        n, r, p = (int(x) for x in parts[1:4])
        salt, key = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
    except ValueError:
        raise ValueError("the password hash has a bad number or hex field") from None
    power_of_two = n >= 2 and n & (n - 1) == 0
    if not (power_of_two and r >= 1 and 128 * r * n <= _MEMORY and 1 <= p <= 4
            and len(salt) >= SALT_BYTES and 16 <= len(key) <= 64):
        raise ValueError("the password hash's parameters are out of bounds")
    return n, r, p, salt, key


def check_hash(stored: str) -> str:
    """``stored`` if it is a well-formed hash; raises ``ValueError`` if not."""
    _parse(stored)
    return stored


def password_matches(stored: str, given: str) -> bool:
    """Whether ``given`` is the password ``stored`` is the hash of (in constant time)."""
    if not given:
        return False
    n, r, p, salt, key = _parse(stored)
    return hmac.compare_digest(_scrypt(given, salt, n, r, p, len(key)), key)


def _scrypt(clear: str, salt: bytes, n: int, r: int, p: int, size: int = KEY_BYTES) -> bytes:
    return hashlib.scrypt(clear.encode("utf-8", "surrogatepass"), salt=salt, n=n, r=r, p=p, maxmem=_MAXMEM,
                          dklen=size)
