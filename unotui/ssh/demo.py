"""The demo entry: a solo game against computer players, straight at the table.

``SshServer("unotui.ssh.demo:run", ...)`` serves it (``app_entry="unotui.ssh.demo:make_app"``
with several sessions per process); the real public lobby passes its own entries.  It
starts at the table rather than the main menu: the menu can host a LAN game,
which would listen on the *server's* network.  Settings are the defaults and are never
saved (the server's settings file is not the player's).
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any

from .spec import SessionSpec

if TYPE_CHECKING:
    from .terminal import SessionTerminal

__all__ = ["PRELOAD", "make_app", "run"]

#: what the forkserver should import for this entry (``SshServer(preload=PRELOAD)``)
PRELOAD: tuple[str, ...] = ("unotui.ui.preload",)


def _app(spec: SessionSpec, terminal: SessionTerminal | None = None) -> Any:
    from ..protocol.text import clean_name
    from ..ui.app import UnoApp
    from ..ui.settings import Config, GameOptions

    config = Config()
    options = GameOptions(name=clean_name(spec.user, "You"))
    return UnoApp(config, options, save_settings=False, terminal=terminal)


def run(spec: SessionSpec) -> int:
    """Play solo as the SSH user name (cleaned); the app's exit status."""
    gc.disable()  # as `unotui play`: the app freezes and re-enables it after the first frame
    app = _app(spec)
    code = app.run()
    return code if isinstance(code, int) else (app.return_code or 0)


def make_app(spec: SessionSpec, terminal: SessionTerminal) -> Any:
    """The same game in a worker's thread, bound to the session's terminal (the
    collector stays on: it is the worker's, shared with other sessions)."""
    return _app(spec, terminal)
