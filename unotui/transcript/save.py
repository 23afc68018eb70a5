"""Saving a played match as a transcript file (``s`` on the match summary, ``unotui play
--save FILE``), which ``unotui replay FILE`` reads back.

Only a game held in this process can be saved: a solo game (the whole game is here).  A
seat at a LAN or lobby table cannot: the transcript replays every shuffle from the match
secret (or a seed), which only the host holds; a seat is shown each round's key once
the round is over, and a round key does not give the secret back (it is an HMAC of it;
``unotui.engine.shuffle``).  :data:`SEAT_CANNOT_SAVE` says so in one sentence.

A transcript holds the match secret, so every file is written 0600 (and the default
directory made 0700) through :mod:`unotui.private`: nobody else on the machine reads the
deck order of a game left unfinished.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from ..engine import Game, Phase
from ..private import private_dir, write_private
from .core import transcript_of

__all__ = ["SEAT_CANNOT_SAVE", "default_name", "dumps", "progress", "save", "save_in"]

#: why ``s`` cannot save at a table this process does not host (shown as it is)
SEAT_CANNOT_SAVE = (
    "This match cannot be saved here: its host holds the game. A transcript replays the "
    "shuffles from the match secret, which only the host has; a seat sees each round's key "
    "after the round, and the secret cannot be worked out from those."
)


def dumps(game: Game) -> str:
    """``game``'s transcript as JSON text: the setup first, then one action a line (a
    file a person can read and a diff can follow)."""
    data = transcript_of(game).to_mapping()
    actions = data.pop("actions")
    head = json.dumps(data, indent=1, ensure_ascii=False)
    steps = ",\n".join(f"  {json.dumps(step, ensure_ascii=False)}" for step in actions)
    body = f'"actions": [\n{steps}\n ]' if actions else '"actions": []'
    return f"{head[:-2]},\n {body}\n}}\n"


def progress(game: Game) -> str:
    """What a saved file holds, in words: the finished match, or how far it got."""
    if game.phase is Phase.MATCH_OVER:
        return "the finished match"
    return f"the match so far (unfinished, round {game.round_no})"


def save(game: Game, path: Path) -> Path:
    """Write ``game``'s transcript to ``path`` (mode 0600, atomically); returns ``path``.

    The directory must exist: a path the player typed is theirs, and its directory is
    neither made nor changed here.

    Raises:
        OSError: the file cannot be written (its ``strerror`` says why).
    """
    write_private(path, dumps(game).encode("utf-8"))
    return path


def default_name(when: datetime) -> str:
    """The file name of a match saved at ``when``: ``2026-12-02-1530.json``."""
    return when.strftime("%Y-%m-%d-%H%M") + ".json"


def save_in(game: Game, directory: Path, when: datetime) -> Path:
    """Write ``game``'s transcript into ``directory`` (made 0700) under the name of
    ``when``, never over an earlier file (a second match saved in the same minute gets
    ``-2``, and so on); returns the file's path.

    Raises:
        DataDirError: the directory cannot be made private.
        OSError: the file cannot be written.
    """
    private_dir(directory)
    name = default_name(when)
    path = directory / name
    stem = name.removesuffix(".json")
    number = 1
    while path.exists():
        number += 1
        path = directory / f"{stem}-{number}.json"
    return save(game, path)
