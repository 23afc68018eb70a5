"""Credentials the lobby gives its own SSH sessions, so that a key is an identity.

The SSH front door knows which public key a player logged in with, but the player's
program reaches the tables over the same TCP protocol as any ``unotui join`` peer.  The
lobby therefore signs the key's fingerprint with a secret only the serving process holds
(HMAC-SHA256) and hands the result to the session's program; the program passes it in
``hello.identity``.  A TCP client cannot forge one, so a seat held "for this key" goes
back only to that key, and results are recorded against it.  The secret lives in memory:
after a restart the SSH layer issues fresh credentials to every new session anyway.

A credential may also carry the address the SSH client connected from
(``FINGERPRINT.ADDRESS.MAC``), signed with the rest: the session's program reaches the
lobby over loopback, and without it the lobby's per-address limits (and the host's
back-off after wrong table codes) would count every SSH player as ``127.0.0.1``.  An SSH
guest (no key) gets one too, with :data:`GUEST` where the fingerprint goes: it vouches for
the address only, and :meth:`Credentials.verify` finds no key in it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Container

__all__ = ["GUEST", "Credentials", "table_code"]

# Code letters people can read aloud and type: no 0/O, 1/I/L.
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_FINGERPRINT = re.compile(r"[A-Za-z0-9+/=:_-]{8,120}")
_ADDRESS = re.compile(r"[0-9A-Fa-f:.]{2,45}")  # IPv4 or IPv6 text (within hello.identity's alphabet)
#: the fingerprint slot of an SSH guest's credential (a real one starts ``SHA256:``)
GUEST = "ssh-guest"


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

    def issue(self, fingerprint: str, origin: str = "") -> str:
        """The credential for ``fingerprint`` (an SSH key's ``SHA256:...`` fingerprint, or
        :data:`GUEST`), vouching for the client's address ``origin`` too if it is one."""
        if not _FINGERPRINT.fullmatch(fingerprint):
            raise ValueError(f"not a key fingerprint: {fingerprint!r}")
        subject = f"{fingerprint}.{origin}" if _ADDRESS.fullmatch(origin) else fingerprint
        return f"{subject}.{self._mac(subject)}"

    def _subject(self, credential: str | None) -> tuple[str, str] | None:
        """(fingerprint, origin) inside ``credential`` if this lobby issued it."""
        if not credential or "." not in credential:
            return None
        subject, _, mac = credential.rpartition(".")
        fingerprint, _, origin = subject.partition(".")
        if not _FINGERPRINT.fullmatch(fingerprint) or (origin and not _ADDRESS.fullmatch(origin)):
            return None
        return (fingerprint, origin) if hmac.compare_digest(mac, self._mac(subject)) else None

    def verify(self, credential: str | None) -> str | None:
        """The fingerprint inside ``credential`` if this lobby issued it, else ``None``."""
        found = self._subject(credential)
        return found[0] if found and found[0] != GUEST else None

    def origin(self, credential: str | None) -> str:
        """The client address this lobby vouched for in ``credential`` ("" if none)."""
        found = self._subject(credential)
        return found[1] if found else ""
