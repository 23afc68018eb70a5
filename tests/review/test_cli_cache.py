"""``unotui review FILE --json`` through the command line, and the cache beside the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from unotui.review.run import CACHE_SUFFIX, Settings, review_file
from unotui.transcript import Transcript

from .helpers import match

GOLDEN = Path(__file__).resolve().parents[1] / "transcript" / "transcripts"


def _cli(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unotui", "review", *args], capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "match.json"
    path.write_text(json.dumps(match(5).to_mapping()), encoding="utf-8")
    return path


def test_json_through_the_cli_lists_every_decision_with_its_options(saved: Path, tmp_path: Path) -> None:
    two = tmp_path / "two.json"
    two.write_text(saved.read_text(encoding="utf-8"), encoding="utf-8")
    run = _cli(str(two), "--json", "--jobs", "2", "--playouts", "16")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    transcript = Transcript.loads(two.read_text(encoding="utf-8"))
    from unotui.review import decisions

    assert [d["step"] for d in result["decisions"]] == [d.step for d in decisions(transcript)]
    assert result["settings"] == {"playouts": 16, "seed": 0}
    analysed = [d for d in result["decisions"] if d["options"]]
    assert analysed and all(0 <= o["chance"] <= 1 for d in analysed for o in d["options"])
    assert all(d["chosen"] in {o["option"] for o in d["options"]} for d in analysed)
    assert {d["mark"] for d in result["decisions"]} <= {"good", "inaccuracy", "mistake", "blunder", "forced",
                                                        "not analysed"}
    assert [s["seat"] for s in result["summary"]] == [0, 1]
    assert Path(str(two) + CACHE_SUFFIX).exists()
    # One process gives the same review: each decision's random source is its own.
    one = tmp_path / "one.json"
    one.write_text(saved.read_text(encoding="utf-8"), encoding="utf-8")
    single = _cli(str(one), "--json", "--jobs", "1", "--playouts", "16")
    assert json.loads(single.stdout) == result


def test_the_text_form_names_the_seats(saved: Path, tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(saved.read_text(encoding="utf-8"), encoding="utf-8")
    run = _cli(str(path), "--playouts", "8", "--jobs", "1")
    assert run.returncode == 0, run.stderr
    assert "Player 1:" in run.stdout and "points of chance given away" in run.stdout


def test_bad_input_gets_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    data = json.loads((GOLDEN / "19-standard-match-won.json").read_text(encoding="utf-8"))
    data["actions"][1] = [0, "G2"]
    bad.write_text(json.dumps(data), encoding="utf-8")
    run = _cli(str(bad), "--json")
    assert run.returncode == 1 and "step 1" in run.stderr and not run.stdout
    assert not Path(str(bad) + CACHE_SUFFIX).exists()
    missing = _cli(str(tmp_path / "none.json"))
    assert missing.returncode == 1 and "cannot read" in missing.stderr
    assert _cli(str(bad), "--jobs", "0").returncode == 2


def test_a_second_run_reads_the_cache(saved: Path, tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    text = saved.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    settings = Settings(playouts=8)
    first, cached = review_file(path, text, settings)
    assert not cached
    again, cached = review_file(path, text, settings)
    assert cached and again == first
    # It is the file that answers: what is stored under the key is what comes back.
    cache = Path(str(path) + CACHE_SUFFIX)
    stored = json.loads(cache.read_text(encoding="utf-8"))
    stored["review"]["players"] = ["from", "cache"]
    cache.write_text(json.dumps(stored), encoding="utf-8")
    assert review_file(path, text, settings)[0]["players"] == ["from", "cache"]
    # Other settings or another transcript are analysed afresh (and replace the cache).
    other, cached = review_file(path, text, Settings(playouts=8, seed=1))
    assert not cached and other["settings"]["seed"] == 1
    changed = json.dumps(match(6).to_mapping())
    assert not review_file(path, changed, Settings(playouts=8, seed=1))[1]
    # A damaged cache is ignored and rewritten.
    cache.write_text("{not json", encoding="utf-8")
    assert not review_file(path, changed, Settings(playouts=8, seed=1))[1]
    assert review_file(path, changed, Settings(playouts=8, seed=1))[1]
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
