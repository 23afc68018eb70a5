"""The SSH shell: ``ssh host`` runs one entry function per session, on its own pty, in a
child process forked from a preloaded forkserver, or (``SshLimits(sessions_per_process=K)``)
as an app in a thread of a worker process shared by up to K sessions.  It knows nothing of
the game.

Importing this package is light (no asyncssh, no Textual): an entry module may import
:class:`SessionSpec` from here.  :class:`SshServer` loads asyncssh when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import EntryError, HostKeyError, SshError
from .limits import SshLimits
from .spec import SessionSpec

if TYPE_CHECKING:
    from .server import SshServer

__all__ = ["EntryError", "HostKeyError", "SessionSpec", "SshError", "SshLimits", "SshServer"]


def __getattr__(name: str) -> Any:
    if name == "SshServer":
        from .server import SshServer

        return SshServer
    raise AttributeError(name)
