"""Credentials the lobby gives its own SSH sessions, so that a key is an identity.

The SSH front door knows which public key a player logged in with, but the player's
program reaches the tables over the same TCP protocol as any ``unotui join`` peer.  The
lobby therefore signs the key's fingerprint with a secret only the serving process holds
(HMAC-SHA256) and hands the result to the session's program; the program passes it in
``hello.identity``.  A TCP client cannot forge one, so a seat held "for this key" goes
back only to that key, and results are recorded against it.  The secret lives in memory:
after a restart the SSH layer issues fresh credentials to every new session anyway.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Container

__all__ = ["Credentials", "table_code"]

# Code letters people can read aloud and type: no 0/O, 1/I/L.
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_FINGERPRINT = re.compile(r"[A-Za-z0-9+/=:_-]{8,120}")


def table_code(taken: Container[str], length: int = 5) -> str:
    """A fresh table code (5 characters: 31^5, about 28 million) not in ``taken``."""
    while True:
        code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(length))
        if code not in taken:
            return code


class Credentials:
    """Issue and check identity credentials (``FINGERPRINT.MAC``)."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret or secrets.token_bytes(32)

    def _mac(self, fingerprint: str) -> str:
        return hmac.new(self._secret, fingerprint.encode(), hashlib.sha256).hexdigest()[:40]

    def issue(self, fingerprint: str) -> str:
        """The credential for ``fingerprint`` (an SSH key's ``SHA256:...`` fingerprint)."""
        if not _FINGERPRINT.fullmatch(fingerprint):
            raise ValueError(f"not a key fingerprint: {fingerprint!r}")
        return f"{fingerprint}.{self._mac(fingerprint)}"

    def verify(self, credential: str | None) -> str | None:
        """The fingerprint inside ``credential`` if this lobby issued it, else ``None``."""
        if not credential or "." not in credential:
            return None
        fingerprint, _, mac = credential.rpartition(".")
        if not _FINGERPRINT.fullmatch(fingerprint):
            return None
        return fingerprint if hmac.compare_digest(mac, self._mac(fingerprint)) else None
