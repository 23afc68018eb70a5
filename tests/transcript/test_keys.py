"""Format ``/3``: a transcript made of round keys (what a seat of a hosted match gets:
every round's key, never the match secret) replays the match exactly."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from tests.seeds import rng_secret
from unotui.bots import make_bot
from unotui.cli import main
from unotui.engine import Game, Rules
from unotui.engine.shuffle import round_key
from unotui.table import Pacing, Referee
from unotui.transcript import Transcript, TranscriptError, final_state, replay, transcript_of


def _played(seed: int = 5) -> Game:
    rules = Rules.preset("giant").with_(target_score=200, shuffle_hands=1)
    # a secret, as a host's: a fixed one, so that the match (of 4 rounds) is the same every
    # run (a fresh one each run once dealt a match of one round, whose keys less the last
    # are none at all: the refusal then came from the reading of 'keys', not from replay)
    game = Game(["Ann", "Bob", "Cy"], rules, secret=rng_secret(seed))
    bots = {s: make_bot("medium", Random(seed + s)) for s in range(3)}
    Referee(game, bots=bots, humans=(), pacing=Pacing.instant()).tick(0.0)
    assert game.over
    return game


def _keyed(game: Game) -> Transcript:
    keys = tuple(round_key(game.shuffler.secret, r).hex() for r in range(game.round_no + 1))
    plain = transcript_of(game)
    return Transcript(plain.players, plain.rules, None, 0, None, plain.actions, None, 3, keys)


def test_round_keys_replay_the_match_without_its_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _played()
    keyed = _keyed(game)
    data = keyed.to_mapping()
    assert data["format"] == "unotui-transcript/3" and "secret" not in data and "seed" not in data
    assert len(data["keys"]) == game.round_no + 1
    path = tmp_path / "seat.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == final_state(game)
    again = replay(Transcript.loads(path.read_text()))
    assert again.log == game.log and again.scores == game.scores
    assert transcript_of(again) == keyed  # written back as it was read


def test_a_missing_or_wrong_key_is_refused() -> None:
    game = _played()
    keyed = _keyed(game)
    short = Transcript.from_mapping({**keyed.to_mapping(), "keys": list(keyed.keys or ())[:-1]})
    with pytest.raises(TranscriptError, match="key of round"):
        replay(short)
    for bad in ([], ["ab"] * 3, "00" * 32):
        with pytest.raises(TranscriptError, match="'keys'"):
            Transcript.from_mapping({**keyed.to_mapping(), "keys": bad})
    with pytest.raises(TranscriptError, match="needs format"):
        Transcript.from_mapping({**keyed.to_mapping(), "format": "unotui-transcript/2"})
    with pytest.raises(TranscriptError, match="one of"):
        Transcript.from_mapping({**keyed.to_mapping(), "seed": 3})


def test_replay_shows_every_moment_to_a_watcher() -> None:
    game = _played()
    seen: list[int] = []
    replay(transcript_of(game), watch=lambda g: seen.append(len(g.history)))
    assert seen == list(range(len(game.history) + 1))
