"""What runs in each SSH session's process: the lobby app on the session's pty.

The SSH layer (:mod:`unotui.ssh`) starts this in a process of its own with the pty as its
terminal, and passes what it knows in a :class:`~unotui.ssh.spec.SessionSpec`: the SSH
user name (the nickname, cleaned here), the words of ``ssh HOST join CODE``, and in
``extra`` the lobby's loopback port and the credential for the player's key.  Settings
files are never read: the process belongs to the server's user, not to the player.
"""

from __future__ import annotations

from typing import Any

__all__ = ["run"]


def run(spec: Any) -> int:
    """Run the lobby app for one SSH session; returns its exit status."""
    from ..client.text import clean_name
    from ..ui.lobby_app import LobbyApp

    extra: dict[str, str] = dict(getattr(spec, "extra", {}) or {})
    if "banned" in extra:  # a plain line on the terminal, then the session ends
        from ..protocol.text import clean

        print(f"You are banned from this lobby: {clean(extra['banned'])}\r", flush=True)
        return 1
    name = clean_name(str(getattr(spec, "user", "") or ""), "guest")
    command = tuple(getattr(spec, "command", ()) or ())
    app = LobbyApp(extra.get("host", "127.0.0.1"), int(extra.get("port", "7777")), name,
                   identity=extra.get("identity") or None, command=command,
                   ssh_port=int(extra.get("ssh_port", "2222")))
    app.run()
    return 0
