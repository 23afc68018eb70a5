"""The demo entry: a solo game against computer players, straight at the table.

``SshServer("unotui.ssh.demo:run", ...)`` serves it; the real public lobby passes its own
entry.  It starts at the table rather than the main menu: the menu can host a LAN game,
which would listen on the *server's* network.  Settings are the defaults and are never
saved (the server's settings file is not the player's).
"""

from __future__ import annotations

import gc

from .spec import SessionSpec

__all__ = ["PRELOAD", "run"]

#: what the forkserver should import for this entry (``SshServer(preload=PRELOAD)``)
PRELOAD: tuple[str, ...] = ("unotui.ui.preload",)


def run(spec: SessionSpec) -> int:
    """Play solo as the SSH user name (cleaned); the app's exit status."""
    gc.disable()  # as `unotui play`: the app freezes and re-enables it after the first frame
    from ..client.config import Config
    from ..client.options import GameOptions
    from ..client.text import clean_name
    from ..ui.app import UnoApp

    config = Config()
    options = GameOptions(name=clean_name(spec.user, "You"))
    app = UnoApp(config, options, save_settings=False)
    code = app.run()
    return code if isinstance(code, int) else (app.return_code or 0)
