"""The SSH shell's errors.

``SshError`` is the base; ``EntryError``: the configured entry cannot run (a bad
``module:function``, a module that does not import); ``HostKeyError``: the host key file
cannot be read or written.
"""

from __future__ import annotations

from ..private import DataDirError

__all__ = ["EntryError", "HostKeyError", "SshError"]


class SshError(Exception):
    """Something the server's owner must fix before the SSH shell can serve."""


class EntryError(SshError):
    """The entry ``module:function`` cannot be run in a session."""


class HostKeyError(SshError, DataDirError):
    """The host key file cannot be read or written."""
