"""The benchmarks still run and print their summary line (tiny sizes; how fast is not
asserted: speed is measured by the benchmarks themselves, not by tests; that each figure
is a number, where the run measures it, is)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def last_line(*args: str, timeout: float = 120) -> str:
    run = subprocess.run([sys.executable, *args], capture_output=True, text=True, check=True, timeout=timeout)
    return run.stdout.strip().splitlines()[-1]


def test_engine_bench_summary_line() -> None:
    """The engine's own figure is always measured; the ratio is one only beside rlcard
    (the ``bench`` extra), and without it the line says so with ``rlcard_moves_per_s=0``."""
    line = last_line(str(BENCH / "engine.py"), "--seconds", "0.3", "--rounds", "1")
    if importlib.util.find_spec("rlcard") is not None:
        theirs = r"rlcard_moves_per_s=[1-9]\d* ratio=\d+\.\d+"
    else:
        theirs = r"rlcard_moves_per_s=0 ratio=nan"
    assert re.fullmatch(r"engine_moves_per_s=[1-9]\d* " + theirs, line), line


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by .ci/run")
def test_tui_bench_summary_line() -> None:
    """With ``--phases`` it also times each phase of both programs' start: every phase is a
    figure for each, and the phases up to the frame add up to no more than launch to frame
    (each is a median of its own, so of one run here they add up exactly)."""
    run = subprocess.run(
        [sys.executable, str(BENCH / "tui.py"), "--runs", "1", "--moves", "20", "--phases"],
        capture_output=True, text=True, check=True, timeout=180,
    )
    lines = run.stdout.strip().splitlines()
    assert re.fullmatch(r"first_frame_ratio=\d+\.\d+ rerender_ms=\d+\.\d+", lines[-1]), lines[-1]
    phases = {}
    for line in lines:
        found = re.fullmatch(r"  (\S.*?) +(\d+\.\d) +(\d+\.\d)", line)
        if found:
            phases[found[1]] = (float(found[2]), float(found[3]))
    assert len(phases) == 6, lines
    total = phases.pop("launch to first frame")
    for who in (0, 1):
        assert 0 < sum(ms[who] for ms in phases.values()) <= total[who] + 0.5, phases


def _has_history() -> bool:
    root = BENCH.parent
    return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True).returncode == 0


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by .ci/run")
@pytest.mark.skipif(not _has_history(), reason="--reference reads a commit from the checkout's git history")
def test_tui_bench_against_a_reference_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--reference REV`` runs the package as it was at REV (here HEAD), not the installed
    one: the program it starts imports unotui from the extracted copy, and both starts get
    a time and a ratio to the bare app."""
    monkeypatch.syspath_prepend(str(BENCH))  # (as when it runs as a script: its helpers beside it)
    spec = importlib.util.spec_from_file_location("bench_tui", BENCH / "tui.py")
    assert spec is not None and spec.loader is not None
    tui = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tui)
    with tui.reference_tree("HEAD") as tree:
        shown = subprocess.run(["git", "-C", str(BENCH.parent), "show", "HEAD:unotui/cli.py"],
                               capture_output=True, text=True, check=True).stdout
        assert (tree / "unotui" / "cli.py").read_text() == shown
        assert list((tree / "unotui" / "__pycache__").glob("cli.*.pyc"))
        probe = tui._play_from(tree).split("from unotui.cli")[0] + "import unotui; print(unotui.__file__)"
        where = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
        assert Path(where.stdout.strip()).is_relative_to(tree), where.stdout
    run = subprocess.run(
        [sys.executable, str(BENCH / "tui.py"), "--runs", "1", "--moves", "20", "--reference", "HEAD"],
        capture_output=True, text=True, check=True, timeout=180,
    )
    found = re.findall(r"to 'Draw pile', (today|at HEAD): min +\d+\.\d ms, median +\d+\.\d ms; "
                       r"to the bare app's: fastest \d+\.\d\d, medians \d+\.\d\d", run.stdout)
    assert found == ["today", "at HEAD"], run.stdout


def test_codec_bench_summary_line() -> None:
    line = last_line(str(BENCH / "codec.py"), "--events", "300", "--steps", "5", "--rounds", "1")
    assert re.fullmatch(r"delta_bytes=\d+ full_bytes=\d+ delta_us=\d+\.\d full_us=\d+\.\d", line), line


def test_ssh_load_bench_summary_line() -> None:
    line = last_line(
        str(BENCH / "ssh_load.py"), "--sessions", "2", "--runs", "1", "--keys-per-session", "1",
        "--spread", "0.5",
    )
    summary = (
        r"sessions=2 reached_lobby=2 pss_mib_per_session=\d+\.\d+ first_frame_ratio=\d+\.\d+ key_p95_ms=\d+"
    )
    assert re.fullmatch(summary, line), line



def test_lobby_play_bench_summary_line() -> None:
    """Four SSH players sit down at one table through the lobby's keys and play from their
    screens: the run measured real plays (a p95 that is a number, not nan) and real actions."""
    run = subprocess.run(
        [sys.executable, str(BENCH / "lobby_play.py"), "--players", "4", "--seconds", "4",
         "--idle-seconds", "1", "--think-min", "0.1", "--think-max", "0.3", "--timeout", "60"],
        capture_output=True, text=True, check=True, timeout=240,
    )
    lines = run.stdout.strip().splitlines()
    assert re.fullmatch(
        r"players=4 tables=1 action_to_screens_p95_ms=\d+ cpu_ms_per_action=\d+\.\d"
        r" pss_mib_per_session=\d+\.\d\d",
        lines[-1],
    ), run.stdout[-3000:]
    actions = next(line for line in lines if " actions (" in line)
    assert int(actions.split()[0]) >= 4, actions
    timed = re.search(r"over (\d+) plays", run.stdout)
    assert timed is not None and int(timed.group(1)) >= 1, run.stdout[-3000:]

@pytest.mark.parametrize("mode", [(), ("--floor",)], ids=["host", "floor"])
def test_host_load_bench_summary_line(mode: tuple[str, ...]) -> None:
    line = last_line(str(BENCH / "host_load.py"), "--peers", "40", "--seconds", "1", *mode)
    assert re.fullmatch(
        r"peers=\d+ host_actions_per_s=[1-9]\d* echo_actions_per_s=[1-9]\d* ratio=\d+\.\d+ p99_ms=\d+",
        line,
    ), line


def test_peer_decode_bench_summary_line() -> None:
    line = last_line(str(BENCH / "peer_decode.py"), "--peers", "8", "--seconds", "0.5", "--rounds", "1")
    assert re.fullmatch(r"frames=\d+ decode_us=\d+\.\d\d apply_us=\d+\.\d\d", line), line


def test_host_views_bench_summary_line() -> None:
    line = last_line(str(BENCH / "host_views.py"), "--actions", "50", "--rounds", "1")
    assert re.fullmatch(r"actions=50 views_us=\d+\.\d send_us=\d+\.\d total_us=\d+\.\d", line), line


@pytest.mark.parametrize("mode", [(), ("--floor",)], ids=["host", "floor"])
def test_host_path_bench_summary_line(mode: tuple[str, ...]) -> None:
    line = last_line(str(BENCH / "host_path.py"), "--tables", "2", "--steps", "40", "--rounds", "1", *mode)
    assert re.fullmatch(r"actions=[1-9]\d* host_us_per_action=\d+\.\d", line), line


def test_chaos_bench_summary_line() -> None:
    tiny = ("--quick", "--games", "1", "--scale", "0.1", "--target-score", "1", "--hand-size", "3")
    line = last_line(str(BENCH / "chaos.py"), *tiny, timeout=240)
    # even the tiny run kills and restarts a host once: its recovery is a real figure
    assert re.fullmatch(
        r"faults=\d+ games_completed=1 actions_lost=0 leaks=0 host_crashes=0 recovery_s=\d+\.\d+"
        r" ssh_key_p95_ms_under_attack=\d+ ssh_key_p95_ms_quiet=\d+ server_peak_mib=\d+", line
    ), line


def test_review_strength_bench_summary_line() -> None:
    """The analysis's preferred move against hard: a rate inside its Wilson interval."""
    line = last_line(str(BENCH / "review.py"), "--strength", "--quick", "--jobs", "1")
    found = re.fullmatch(
        r"strength_rate=(\d+\.\d\d) lower=(\d+\.\d\d) upper=(\d+\.\d\d) hands=4 playouts=8 seconds=\d+", line
    )
    assert found is not None, line
    rate, lo, hi = (float(x) for x in found.groups())
    assert lo <= rate <= hi


def test_bots_learning_bench_summary_line() -> None:
    """Every pairing of the learning figures is measured: win rates and failed challenges."""
    line = last_line(str(BENCH / "bots.py"), "--learning", "--matches", "2", "--jobs", "1", timeout=240)
    number = r"\d+\.\d+"
    pairs = ("hard_vs_honest", "hard_nolearn_vs_honest", "hard_vs_hard_nolearn")
    figures = " ".join(f"{p}_win={number} {p}_failed={number} {p}_lost={number}" for p in pairs)
    assert re.fullmatch(f"LEARNING matches=2 {figures}", line), line
