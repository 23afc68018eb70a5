"""decisions(): every turn decision of a match, each with only what its seat knew."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from unotui.engine import CallUno, Catch, Deal, seat_view
from unotui.review import decisions
from unotui.transcript import Transcript, TranscriptError, replay

from .helpers import match

GOLDEN = Path(__file__).resolve().parents[1] / "transcript" / "transcripts"


def _load(name: str) -> Transcript:
    return Transcript.loads((GOLDEN / name).read_text(encoding="utf-8"))


def test_a_golden_match_gives_each_turn_decision_with_the_seats_view() -> None:
    found = list(decisions(_load("19-standard-match-won.json")))
    assert [(d.step, d.seat, str(d.action), d.phase) for d in found] == [
        (0, 1, "R1!", "play"), (1, 0, "draw", "play"), (2, 0, "keep", "drawn"), (3, 1, "W+4", "play"),
    ]
    first = found[0]
    assert first.round == 1
    assert [c.text for c in first.view.hand] == ["R1", "W+4"]  # its own hand ...
    assert first.view.counts == (2, 2) and first.view.seat == 1  # ... and only counts of the other
    assert first.legal == first.view.legal and first.action in first.legal


def test_a_challenge_is_a_decision_of_its_own() -> None:
    found = list(decisions(_load("11-12-bluff-caught.json")))
    assert "challenge" in {d.phase for d in found}
    challenge = next(d for d in found if d.phase == "challenge")
    assert str(challenge.action) == "challenge"


def _replayable(path: Path) -> bool:
    return "error_step" not in json.loads(path.read_text(encoding="utf-8")).get("expect", {})


REPLAYABLE = [p for p in sorted(GOLDEN.glob("*.json")) if _replayable(p)]


@pytest.mark.parametrize("path", REPLAYABLE, ids=lambda p: p.stem)
def test_every_golden_transcript_replays_into_decisions_that_match_the_game(path: Path) -> None:
    """Every action the deciding seat took on its turn is a decision, and nothing else is
    (the transcripts that end in an illegal step are for the replay's own tests)."""
    transcript = Transcript.loads(path.read_text(encoding="utf-8"))
    history = replay(transcript).history
    found = {d.step: d for d in decisions(transcript)}
    game = transcript.new_game()
    for step, (seat, action) in enumerate(history):
        turn = game.actor == seat and not isinstance(action, (Deal, CallUno, Catch))
        assert (step in found) == turn, (step, seat, action)
        if turn:
            d = found[step]
            assert d.seat == seat and d.action is action and action in d.legal
            assert d.view == seat_view(game, seat, game.round_log_start)
            assert d.round == game.round_no
        game.apply(seat, action)


def test_a_played_match_has_decisions_in_every_round() -> None:
    transcript = match(3)
    found = list(decisions(transcript))
    rounds = replay(transcript).round_no
    assert rounds >= 2
    assert {d.round for d in found} == set(range(1, rounds + 1))
    assert [d.step for d in found] == sorted(d.step for d in found)


def test_an_illegal_step_is_an_error_before_anything_is_yielded() -> None:
    data = _load("19-standard-match-won.json").to_mapping()
    data["actions"][1] = [0, "G2"]  # not playable on R1
    with pytest.raises(TranscriptError, match="step 1"):
        next(decisions(Transcript.from_mapping(data)))
