"""End to end: ``unotui review FILE`` in a real terminal (tmux, 80x24) opens the review
screen; keys step through the match, jump to a mistake and show the summary; Escape
quits with status 0.  The same command into a pipe prints the text review."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.review.helpers import match
from unotui.review.run import Settings, review_file

from .tmux_support import tmux as _tmux
from .tmux_support import wait_for

pytestmark = [pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"), pytest.mark.timeout(120)]


def test_review_file_in_tmux_steps_jumps_and_quits(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    text = json.dumps(match(5).to_mapping())
    path.write_text(text, encoding="utf-8")
    result, _ = review_file(path, text, Settings(16, 0))  # (cached: the screen reads it at once)
    first = next(d for d in result["decisions"] if d["seat"] == 0)
    costly = next(d for d in result["decisions"] if d["seat"] == 0 and d["mark"] in ("inaccuracy", "mistake",
                                                                                       "blunder"))
    session = f"unotui-review-{uuid.uuid4().hex[:8]}"
    status = tmp_path / "status"
    exe = Path(sys.executable).with_name("unotui")
    command = f"{exe} review {path} --playouts 16 --jobs 1; echo $? > {status}; sleep 5"
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "COLUMNS", "LINES")}
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command],
                   check=True, env=env)
    try:
        screen = wait_for(session, "Options (chance of winning the round)", timeout=30)
        assert "Review: Player 1" in screen and "decision 1/" in screen
        assert f"Played {first['chosen']}" in screen
        _tmux("send-keys", "-t", session, "Right")
        wait_for(session, "decision 2/")
        _tmux("send-keys", "-t", session, "m")
        screen = wait_for(session, f"{costly['mark']} (-{costly['cost']:.1f}")
        words = {"draw": "Drew a card", "keep": "Kept the drawn card"}
        said = words.get(costly["chosen"], f"Played {costly['chosen']}")
        assert said in screen and "Preferred:" in screen
        _tmux("send-keys", "-t", session, "t")
        screen = wait_for(session, "Costliest moments")
        assert "points of chance given away" in screen
        _tmux("send-keys", "-t", session, "Escape")  # (summary -> decision)
        wait_for(session, "Options (chance")
        _tmux("send-keys", "-t", session, "Escape")
        for _ in range(100):
            if status.exists() and status.read_text().strip():
                break
            subprocess.run(["sleep", "0.1"], check=True)
        assert status.read_text().strip() == "0"
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def test_into_a_pipe_it_prints_the_text_and_loads_no_textual(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(match(5).to_mapping()), encoding="utf-8")
    code = ("import sys; sys.argv = ['unotui', 'review', sys.argv[1], '--playouts', '8', '--jobs', '1'];"
            "from unotui.cli import main; rc = main(sys.argv[1:]);"
            "print('TEXTUAL' if 'textual' in sys.modules else 'PLAIN', file=sys.stderr); sys.exit(rc)")
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stderr
    assert "decisions;" in run.stdout and "Player 1:" in run.stdout
    assert run.stderr.strip().endswith("PLAIN")
    text = subprocess.run([sys.executable, "-m", "unotui", "review", str(path), "--playouts", "8", "--text"],
                          capture_output=True, text=True, timeout=120)
    assert text.returncode == 0 and text.stdout.splitlines()[0] == run.stdout.splitlines()[0]


def test_seat_picks_the_seat_shown_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    text = json.dumps(match(5).to_mapping())
    path.write_text(text, encoding="utf-8")
    review_file(path, text, Settings(16, 0))
    exe = Path(sys.executable).with_name("unotui")
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "COLUMNS", "LINES")}
    for seat, needle in (("1", "Review: Player 2"), ("7", "--seat must be 0-1")):
        session = f"unotui-review-{uuid.uuid4().hex[:8]}"
        status = tmp_path / f"status{seat}"
        command = f"{exe} review {path} --playouts 16 --seat {seat}; echo $? > {status}; sleep 5"
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command],
                       check=True, env=env)
        try:
            wait_for(session, needle, timeout=30)
            if seat == "1":
                _tmux("send-keys", "-t", session, "Escape")
            for _ in range(100):
                if status.exists() and status.read_text().strip():
                    break
                subprocess.run(["sleep", "0.1"], check=True)
            assert status.read_text().strip() == ("0" if seat == "1" else "2")
        finally:
            subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
