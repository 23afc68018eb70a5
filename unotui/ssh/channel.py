"""A session channel that keeps only the ``env`` requests the shell uses, each size-capped.

asyncssh's :class:`~asyncssh.SSHServerChannel` stores every ``env`` request of a channel
in a dict, without bound, before any callback of ours runs: three guests sending 100 MiB
of ``env`` each grew the server process (which runs every table) by 600 MiB.  The shell
reads one variable (``COLORTERM``: ``TERM`` comes with the pty request), so
:class:`GuardedChannel` refuses every other name and any value over
:data:`~unotui.ssh.spec.ENV_VALUE_MAX` bytes before it is stored: what a channel keeps is
bounded by ``len(ENV_NAMES) * ENV_VALUE_MAX``.

This overrides a private method of asyncssh (``_process_env_request``, whose stored dict
is ``_env``): ``pyproject.toml`` pins asyncssh to the minor version it was tested with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import asyncssh

from .spec import ENV_NAMES, ENV_VALUE_MAX

__all__ = ["GuardedChannel", "guard"]


class GuardedChannel(asyncssh.SSHServerChannel[bytes]):
    """A server channel whose ``env`` requests are filtered (see the module docstring)."""

    #: called once per refused ``env`` request (set by :func:`guard`)
    on_refused: Callable[[], None]

    def _process_env_request(self, packet: Any) -> bool:
        name = bytes(packet.get_string())
        value = bytes(packet.get_string())
        packet.check_end()
        if name not in ENV_NAMES or len(value) > ENV_VALUE_MAX:
            self.on_refused()
            return False
        self._env[name] = value
        self._str_env = None  # asyncssh caches the decoded view
        return True


def guard(chan: asyncssh.SSHServerChannel[bytes], on_refused: Callable[[], None]) -> GuardedChannel:
    """``chan`` (made by asyncssh for a new session, no request seen yet) as a
    :class:`GuardedChannel`: same object and state, the filtered ``env`` handler."""
    chan.__class__ = GuardedChannel
    guarded: GuardedChannel = chan  # type: ignore[assignment]
    guarded.on_refused = on_refused
    return guarded
