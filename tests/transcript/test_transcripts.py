"""Golden transcripts: every numbered item of the rules checklist, replayed through the
``unotui replay --json`` command a user runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from unotui.cli import main
from unotui.transcript import FORMAT, Transcript, TranscriptError, final_state, replay

HERE = Path(__file__).parent / "transcripts"
FILES = sorted(HERE.glob("*.json"))


def _replay(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any] | None, str]:
    status = main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status == 0 else None), err


def test_every_rules_item_has_a_golden_transcript() -> None:
    covered = set()
    for path in FILES:
        covered.update(json.loads(path.read_text())["covers"])
    assert covered >= set(range(1, 26)), sorted(set(range(1, 26)) - covered)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_transcript(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect = json.loads(path.read_text())["expect"]
    status, state, err = _replay(path, capsys)
    if "error_step" in expect:
        assert status == 1
        assert f"step {expect['error_step']} " in err
        return
    assert status == 0, err
    assert state is not None
    kinds = [e["kind"] for e in state["events"]]
    for key, want in expect.items():
        if key == "counts":
            assert [len(h) for h in state["hands"]] == want
        elif key == "events_include":
            assert set(want) <= set(kinds), kinds
        elif key == "events_exclude":
            assert not set(want) & set(kinds), kinds
        elif key == "top_not":
            assert state["discard_top"] != want
        elif key == "reveal":
            reveal = next(e for e in state["events"] if e["kind"] == "reveal")
            assert reveal["target"] == want["to"] and reveal["cards"] == want["cards"]
        elif key == "challenge_guilty":
            challenge = next(e for e in state["events"] if e["kind"] == "challenge")
            assert bool(challenge.get("value", 0)) is want
        else:
            assert state[key] == want, key


def test_replay_console_script_and_errors(tmp_path: Path) -> None:
    """The installed command: exit 0 with JSON; a bad step names the step, exit 1."""
    good = FILES[0]
    run = subprocess.run(
        [sys.executable, "-m", "unotui", "replay", str(good), "--json"],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    state = json.loads(run.stdout)
    for key in ("hands", "draw_pile", "discard_top", "colour", "turn", "direction", "scores",
                "round_winner", "match_winner", "events"):
        assert key in state
    bad = tmp_path / "bad.json"
    data = json.loads((HERE / "10-draw-then-play-drawn.json").read_text())
    data["actions"].append([0, "R99"])
    bad.write_text(json.dumps(data))
    run = subprocess.run(
        [sys.executable, "-m", "unotui", "replay", str(bad), "--json"],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 1
    assert "step 2" in run.stderr and "R99" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(
    "text, message",
    [
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"players": "x"}', "'players'"),
        ('{"players": 2, "rules": {"stacking": "maybe"}}', "stacking"),
        ('{"players": 2, "actions": [[0]]}', "step 0"),
        ('{"players": 2, "actions": "R5"}', "'actions'"),
        ('{"players": 11}', "2-10 players"),
        ('{"players": 2, "deck": "R5 Z9"}', "not a card"),
        ('{"players": 2, "rules": {"custom_wild": {"effects": ["tell_joke"]}}}', "tell_joke"),
        # A hand per seat, or the deal would silently differ from the one written down.
        ('{"players": 2, "dealer": 0, "rules": {"hand_size": 1}, "hands": ["R1", "R2", "R3"], "first": "R5"}',
         "'hands' lists 3 hands for 2 players"),
        ('{"players": 3, "dealer": 0, "rules": {"hand_size": 1}, "hands": ["R1", "R2"], "first": "R5"}',
         "'hands' lists 2 hands for 3 players"),
        # 'first' and 'draws' mean nothing without 'hands': refused, not ignored.
        ('{"players": 2, "first": "R5"}', "'first' needs 'hands'"),
        ('{"players": 2, "deck": "R1 R2", "draws": "R5"}', "'draws' needs 'hands'"),
        ('{"players": 2, "first": "R5", "draws": ""}', "'first' and 'draws' need 'hands'"),
    ],
)
def test_malformed_transcripts_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "t.json"
    path.write_text(text)
    assert main(["replay", str(path)]) == 1
    assert message in capsys.readouterr().err


def test_replay_colour_is_null_until_a_first_wild_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    """A first-card Wild has no colour until the player left of the dealer names one (the
    engine holds a placeholder meanwhile, which the replay must not print as red)."""
    data = json.loads((HERE / "03-first-card-wild.json").read_text())
    transcript = Transcript.from_mapping({**data, "actions": []})
    assert final_state(replay(transcript))["colour"] is None
    named = final_state(replay(Transcript.from_mapping({**data, "actions": [[1, "colour R"]]})))
    assert named["colour"] == "R"
    # A wild played later keeps the colour in play until its own colour is named.
    data = json.loads((HERE / "09-wild-any-time.json").read_text())
    steps = data["actions"]
    wild = next(i for i, (_, text) in enumerate(steps) if text in ("W", "W+4"))
    state = final_state(replay(Transcript.from_mapping(data), stop=wild + 1))
    assert state["phase"] == "colour" and state["colour"] is not None


@pytest.mark.parametrize("seeded", [True, False], ids=["seed", "secret"])
def test_a_played_game_saved_as_a_transcript_replays_to_the_same_state(
    seeded: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Computer players play a whole match (every round, deals included); its transcript
    (Game.history plus the setup) replays through ``unotui replay`` to the same state."""
    from random import Random

    from unotui.bots import make_bot
    from unotui.engine import Game, Rules
    from unotui.table import Pacing, Referee
    from unotui.transcript import transcript_of

    rules = Rules.preset("giant").with_(target_score=300, swap_hands=1, shuffle_hands=1)
    game = Game(["Ann", "Bob", "Cy"], rules, seed=8) if seeded else Game(3, rules)
    bots = {s: make_bot("medium", Random(s)) for s in range(3)}
    Referee(game, bots=bots, humans=(), pacing=Pacing.instant()).tick(0.0)
    assert game.over  # one round or several: a 150-point target is sometimes won at once
    transcript = transcript_of(game)
    assert (transcript.secret is None) is seeded
    assert transcript.to_mapping()["format"] == "unotui-transcript/2"  # what is saved is the current format
    path = tmp_path / "game.json"
    path.write_text(json.dumps(transcript.to_mapping()))
    status, state, err = _replay(path, capsys)
    assert status == 0, err
    assert state == final_state(game)
    again = replay(Transcript.loads(path.read_text()))
    assert again.history == game.history and again.log == game.log


# ----- format versions ------------------------------------------------------------------

#: real ``unotui-transcript/1`` files, as they were committed before the forced keep
#: (``git show f50b823^:tests/transcripts/NAME.json``): each has a ``/2`` golden twin
V1_FILES = sorted((Path(__file__).parent / "v1").glob("*.json"))


def test_golden_transcripts_are_written_in_the_current_format() -> None:
    assert FORMAT == "unotui-transcript/2"
    for path in FILES:
        assert json.loads(path.read_text())["format"] == FORMAT, path.name


@pytest.mark.parametrize("path", V1_FILES, ids=[p.stem for p in V1_FILES])
def test_a_version_1_file_replays_as_it_was_meant(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``/1`` file has no keep after an unplayable turn draw (the turn ended by itself
    then); read as ``/1`` it gets that keep and ends where its ``/2`` twin ends."""
    old = json.loads(path.read_text())
    assert old["format"] == "unotui-transcript/1"
    twin = Transcript.loads((HERE / path.name).read_text())
    assert len(twin.actions) > len(old["actions"])  # the twin has keeps the old file leaves out
    status, state, err = _replay(path, capsys)
    assert status == 0, err
    assert state == final_state(replay(twin))
    game = replay(Transcript.from_mapping(old))
    assert [(s, str(a)) for s, a in game.history] == list(twin.actions)
    # Read as /2 the same steps mean something else (an unkept draw, or a refused step).
    as_two = Transcript.from_mapping({**old, "format": FORMAT})
    try:
        moved = final_state(replay(as_two))
    except TranscriptError:
        moved = None
    assert moved != state


def test_a_version_1_file_with_its_keeps_written_out_replays_too() -> None:
    """``/1`` files written after the keep came in (before the format was renamed) have
    the keep already: it is not inserted twice."""
    data = json.loads((HERE / "15-go-out-on-draw-two.json").read_text())
    old = Transcript.from_mapping({**data, "format": "unotui-transcript/1"})
    assert replay(old).history == replay(Transcript.from_mapping(data)).history


def test_versions_round_trip_and_steps_count_the_files_steps() -> None:
    path = next(p for p in V1_FILES if p.stem == "10-draw-unplayable-ends-turn")
    old = Transcript.loads(path.read_text())
    assert old.version == 1 and old.to_mapping()["format"] == "unotui-transcript/1"
    assert Transcript.from_mapping(old.to_mapping()) == old
    # --steps N counts the file's steps: the one draw, with its implied keep.
    game = replay(old, stop=1)
    assert [str(a) for _, a in game.history] == ["draw", "keep"]
    current = Transcript.loads((HERE / path.name).read_text())
    assert current.version == 2 and current.to_mapping()["format"] == FORMAT


def test_an_unknown_format_is_refused_naming_the_known_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.json"
    path.write_text('{"format": "unotui-transcript/9", "players": 2}')
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "unotui-transcript/9" in err and "unotui-transcript/1" in err and "unotui-transcript/2" in err
    assert "unotui-transcript/3" in err
