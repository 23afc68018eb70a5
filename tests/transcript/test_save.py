"""Saving a game as a transcript file (unotui.transcript.save): the text reads back to
the same game, names never overwrite, and the directory and files are private."""

from __future__ import annotations

import os
import stat
from datetime import datetime
from pathlib import Path
from random import Random

from unotui.bots import make_bot
from unotui.engine import Game, Rules
from unotui.table import Pacing, Referee
from unotui.transcript import Transcript, replay
from unotui.transcript.save import default_name, dumps, progress, save_in

WHEN = datetime(2026, 12, 2, 15, 30, 12)


def _played(target: int = 200) -> Game:
    game = Game(["Ann", "Bob"], Rules.preset("classic").with_(target_score=target), seed=3)
    bots = {s: make_bot("random", Random(s)) for s in range(2)}
    Referee(game, bots=bots, humans=(), pacing=Pacing.instant()).tick(0.0)
    return game


def test_the_text_is_one_action_a_line_and_replays_to_the_same_game() -> None:
    game = _played()
    text = dumps(game)
    lines = text.splitlines()
    assert lines[0] == "{" and lines[-1] == "}"
    assert sum(1 for line in lines if line.startswith("  [")) == len(game.history)
    again = replay(Transcript.loads(text))
    assert again.history == game.history and again.log == game.log
    assert progress(game) == "the finished match"
    assert replay(Transcript.loads(dumps(Game(2, seed=1)))).history == []  # nothing played yet


def test_save_in_makes_a_private_directory_and_never_overwrites(tmp_path: Path) -> None:
    directory = tmp_path / "a" / "matches"
    game = _played()
    first = save_in(game, directory, WHEN)
    second = save_in(game, directory, WHEN)
    third = save_in(game, directory, WHEN)
    assert default_name(WHEN) == "2026-12-02-1530.json"
    assert [p.name for p in (first, second, third)] == [
        "2026-12-02-1530.json", "2026-12-02-1530-2.json", "2026-12-02-1530-3.json"
    ]
    assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    for path in (first, second, third):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        assert Transcript.loads(path.read_text()).actions == Transcript.loads(dumps(game)).actions
