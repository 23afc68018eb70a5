"""Saving a played match as a transcript file (``s`` on the match summary, ``unotui play
--save FILE``), which ``unotui replay FILE`` reads back.

A solo game is held in this process: its transcript replays every shuffle from the match
secret.  A seat at a LAN or lobby table never has the secret (only the host does; a
round key does not give it back, it is an HMAC of it: ``unotui.engine.shuffle``), so it
saves the host's record instead, sent once the match is over (protocol version 2,
``unotui.net.handover``): every round's key and every action, ``unotui-transcript/3``.
Until that arrives :data:`RECORD_ON_ITS_WAY` says so; a host that speaks only version 1
sends none (:data:`HOST_SENDS_NO_RECORD`).

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
from .core import Transcript, transcript_of

__all__ = [
    "HOST_SENDS_NO_RECORD", "RECORD_ON_ITS_WAY", "default_name", "dumps", "progress", "save", "save_in",
]

#: ``s`` or ``r`` at a networked summary before the host's record arrived (shown as it is)
RECORD_ON_ITS_WAY = "The match record is on its way: s and r work once it arrives."
#: ``s`` at a table whose host speaks protocol version 1 (it sends no record)
HOST_SENDS_NO_RECORD = (
    "This host sends no record of the match (it speaks protocol version 1), so it cannot be "
    "saved here: a seat never has the match secret that replays the shuffles."
)


def dumps(game: Game | Transcript) -> str:
    """The transcript (of ``game``) as JSON text: the setup first, then one action a line
    (a file a person can read and a diff can follow)."""
    data = (game if isinstance(game, Transcript) else transcript_of(game)).to_mapping()
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


def save(game: Game | Transcript, path: Path) -> Path:
    """Write the transcript (of ``game``) to ``path`` (mode 0600, atomically); returns ``path``.

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


def save_in(game: Game | Transcript, directory: Path, when: datetime) -> Path:
    """Write the transcript (of ``game``) into ``directory`` (made 0700) under the name of
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
