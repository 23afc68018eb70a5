"""What a session's entry function is told about its SSH session, and the words it may run.

Everything here is plain data: a :class:`SessionSpec` is pickled into the child process
that runs the entry, so it holds only strings, ints and tuples.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

__all__ = [
    "DEFAULT_COMMANDS", "DEFAULT_TERM", "ENV_NAMES", "ENV_VALUE_MAX", "CommandError", "SessionSpec",
    "colour_env", "parse_command", "safe_term",
]

#: the exec words a server accepts unless told otherwise (``ssh -t host join CODE``)
DEFAULT_COMMANDS: frozenset[str] = frozenset({"join", "spectate"})

#: the ``env`` requests a session keeps (the rest are refused before asyncssh stores them)
ENV_NAMES: frozenset[bytes] = frozenset({b"COLORTERM"})
#: the longest value of a kept ``env`` request, in bytes
ENV_VALUE_MAX = 64
#: what a session's ``TERM`` is when the client sends none, or one that is not a terminal's name
DEFAULT_TERM = "xterm-256color"
_TERM = re.compile(r"[A-Za-z0-9._+-]{1,32}")

_ARGUMENT = re.compile(r"[A-Za-z0-9]{1,12}")
_WORD = re.compile(r"[a-z][a-z0-9-]{0,15}")


@dataclass(frozen=True)
class SessionSpec:
    """One SSH session, as its entry function (``function(spec) -> int``) sees it.

    Attributes:
        user: the SSH user name exactly as the client sent it (not sanitized: it is
            someone's free text; clean it before showing it).
        fingerprint: ``SHA256:...`` of the public key the client authenticated with;
            None for a guest who came in without a key.
        term: the client's ``TERM`` (``xterm-256color``...).
        size: the terminal's (columns, rows) when the session started.
        command: the words of an allowed exec request (``("join", "AB12")``); empty
            for a plain ``ssh host``.
        peer: the client's address (``"203.0.113.7"``).
        extra: opaque values the server's owner passes to every child (see
            ``SshServer(extra_for=...)``), e.g. a lobby's address and credential.
    """

    user: str
    fingerprint: str | None
    term: str
    size: tuple[int, int]
    command: tuple[str, ...] = ()
    peer: str = ""
    extra: dict[str, str] = field(default_factory=dict)


class CommandError(ValueError):
    """An exec request that is not on the server's allow-list (the message is for the client)."""


def parse_command(text: str, allowed: Collection[str]) -> tuple[str, ...]:
    """The words of an exec request, checked against the allow-list; nothing is executed.

    A command is one allowed word and at most one argument of 1-12 letters or digits.

    Raises:
        CommandError: anything else, with a one-line reason fit for the client.
    """
    words = text.split()
    if not words:
        raise CommandError("empty command")
    word, args = words[0], words[1:]
    if word not in allowed or not _WORD.fullmatch(word):
        known = ", ".join(sorted(allowed)) or "none"
        raise CommandError(f"unknown command (commands here: {known})")
    if len(args) > 1 or (args and not _ARGUMENT.fullmatch(args[0])):
        raise CommandError(f"{word} takes at most one code of 1-12 letters or digits")
    return (word, *args)


def safe_term(term: str) -> str:
    """The client's ``TERM`` if it is a terminal's name (``[A-Za-z0-9._+-]``, at most 32
    characters), else :data:`DEFAULT_TERM`: it reaches the app's environment, terminfo
    look-ups and the log, where a newline in it once forged a line."""
    return term if _TERM.fullmatch(term) else DEFAULT_TERM


# Terminals known to draw 24-bit colour whose TERM says so (OpenSSH forwards only TERM).
_TRUECOLOR_TERMS = ("xterm-kitty", "alacritty", "wezterm", "foot", "xterm-ghostty", "contour")


def colour_env(term: str, client_colorterm: str | None = None) -> dict[str, str]:
    """``COLORTERM`` for a child: ``truecolor`` only when the client says it draws 24-bit colour.

    Only ``TERM`` reaches the server by default, so 24-bit colour is announced when ``TERM``
    names it (``*-direct``, ``*truecolor``, a terminal known for it) or when the client sent
    ``COLORTERM=truecolor|24bit`` itself (``ssh -o SetEnv=COLORTERM=truecolor``).  Otherwise
    Textual picks from ``TERM`` (``*-256color``: 256 colours), which every terminal shows.
    """
    if client_colorterm in ("truecolor", "24bit"):
        return {"COLORTERM": "truecolor"}
    lowered = term.lower()
    if lowered.endswith("-direct") or "truecolor" in lowered or lowered.startswith(_TRUECOLOR_TERMS):
        return {"COLORTERM": "truecolor"}
    return {}
