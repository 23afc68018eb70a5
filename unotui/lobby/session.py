"""What runs for each SSH session: the lobby's app on the session's pty.

The SSH layer (:mod:`unotui.ssh`) passes what it knows in a
:class:`~unotui.ssh.spec.SessionSpec`: the SSH user name (the nickname, cleaned here), the
words of ``ssh HOST join CODE``, and in ``extra`` the lobby's loopback port, the
credential for the player's key and the name that key is known by (the one it first came
with: a key is one person, whatever user name ``ssh NAME@HOST`` gives).  Settings files
are never read: the process belongs to the server's user, not to the player.

Two entries: :func:`run` in a process of its own with the pty as its terminal (one
session per process), and :func:`make_app` in a thread of a worker process shared with
other sessions (``unotui serve --sessions-per-process K``): it returns the app bound to
the session's terminal, which the worker runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..ui.app import UnoApp
    from ..ui.session_driver import SessionTerminalLike

__all__ = ["greeting", "make_app", "run"]


def _build(spec: Any) -> UnoApp | str:
    """The session's app (the lobby as its home), or the one line a banned key reads instead."""
    from ..protocol.text import clean_name
    from ..ui.lobby_home import lobby_app
    from .lobby import QUICK_SEATS

    extra: dict[str, str] = dict(getattr(spec, "extra", {}) or {})
    if "banned" in extra:
        from ..protocol.text import clean

        return f"You are banned from this lobby: {clean(extra['banned'])}"
    typed = clean_name(str(getattr(spec, "user", "") or ""), "guest")
    keyed = bool(getattr(spec, "fingerprint", None))
    name = clean_name(extra.get("name", ""), typed) if keyed else typed
    command = tuple(getattr(spec, "command", ()) or ())
    return lobby_app(extra.get("host", "127.0.0.1"), int(extra.get("port", "7777")), name,
                     identity=extra.get("identity") or None, keyed=keyed,
                     greeting=greeting(name, typed, keyed),
                     command=command,
                     ssh_port=int(extra.get("ssh_port", "2222")),
                     public_host=extra.get("public_host") or "THIS-HOST",
                     quick_seats=QUICK_SEATS)


def greeting(name: str, typed: str, keyed: bool) -> str:
    """The lobby's first line for a player with a key: the key is the person, so it is
    known by the name it first came with, and a different SSH user name does not make a
    second player (""  for a guest, who is the name they typed)."""
    from ..protocol.text import name_key  # (imported when used: ``unotui --help`` stays light)

    if not keyed:
        return ""
    if name_key(typed) == name_key(name):
        return f"You are {name}: this SSH key is {name}'s. Your results and held seats follow the key."
    return (f"You are {name}: this SSH key is {name}'s (the name it first came with), so the user name "
            f"{typed} is not used. Your results and held seats follow the key.")


def run(spec: Any) -> int:
    """Run the lobby app for one SSH session on this process's terminal; its exit status."""
    from ..ui.session_driver import guard

    app = _build(spec)
    if isinstance(app, str):  # a plain line on the terminal, then the session ends
        print(f"{app}\r", flush=True)
        return 1
    guard(app).run()
    return 0


def make_app(spec: Any, terminal: SessionTerminalLike) -> UnoApp | int:
    """The lobby app for one SSH session in a worker, bound to its terminal (or, for a
    banned key, the line written on the terminal and the status 1)."""
    from ..ui.session_driver import attach

    app = _build(spec)
    if isinstance(app, str):
        terminal.write(f"{app}\r\n")
        return 1
    attach(app, terminal)
    return app
