"""The review screen's local job: the real analysis, its cache (0600), and the limits it
puts on its worker processes only."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import stat
import time
from pathlib import Path

import pytest

from tests.review.helpers import match
from unotui.review.run import Settings, review
from unotui.transcript import Transcript
from unotui.ui.review_job import LocalJob, ReviewRefused, local_job

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def text() -> str:
    return json.dumps(match(5).to_mapping())


def _job(cache: Path | None = None, jobs: int = 1, nice: int = 0) -> LocalJob:
    return local_job(cache, jobs, nice, playouts=8)  # (cheap estimates: the same path)


def test_a_local_job_reviews_reports_progress_and_caches_0600(text: str, tmp_path: Path) -> None:
    cache = tmp_path / "m.json.review.json"
    seen: list[tuple[int, int]] = []
    result = _job(cache=cache, jobs=1).run(text, lambda d, t: seen.append((d, t)))
    assert result["format"] == "unotui-review/1"
    assert result == review(Transcript.loads(text), Settings(8, 0))
    assert seen and seen[-1][0] == seen[-1][1] == len(result["decisions"])
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    again: list[tuple[int, int]] = []
    started = time.perf_counter()
    assert _job(cache=cache, jobs=1).run(text, lambda d, t: again.append((d, t))) == result
    assert time.perf_counter() - started < 2 and again == []  # from the cache, no analysis


def test_nice_applies_to_the_workers_not_the_caller(text: str) -> None:
    before = os.getpriority(os.PRIO_PROCESS, 0)
    niceness: list[int] = []

    def progress(done: int, total: int) -> None:
        workers = multiprocessing.active_children()
        niceness.extend(os.getpriority(os.PRIO_PROCESS, p.pid or 0) for p in workers)

    _job(jobs=1, nice=5).run(text, progress)
    assert niceness and all(n == min(19, before + 5) for n in niceness)  # one worker, even at jobs=1
    assert os.getpriority(os.PRIO_PROCESS, 0) == before


def test_a_worker_past_its_cpu_limit_refuses_with_a_sentence(text: str) -> None:
    job = local_job(jobs=1, cpu_seconds=1, playouts=4000)  # far more than a CPU second
    with pytest.raises(ReviewRefused, match=r"stopped before the end \(its limit is 1 s of CPU\)"):
        job.run(text, lambda d, t: None)


def test_a_bad_transcript_is_refused_with_its_reason() -> None:
    with pytest.raises(ReviewRefused, match="cannot be replayed"):
        local_job(jobs=1).run('{"format": "nonsense"}', lambda d, t: None)


def test_a_progress_callback_that_raises_stops_the_analysis(text: str) -> None:
    class Stop(Exception):
        pass

    calls: list[int] = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        raise Stop

    started = time.perf_counter()
    with pytest.raises(Stop):
        local_job(jobs=2, playouts=256).run(text, progress)
    assert calls == [1]
    assert time.perf_counter() - started < 60  # (against a hang: shutdown drops the decisions not started)


def _children(pid: int) -> set[int]:
    """``pid``'s child processes (Linux: /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):  # (a thread gone meanwhile)
            found |= {int(p) for p in (task / "children").read_text().split()}
    return found


def test_the_analysis_workers_die_with_the_process_that_started_them(text: str, tmp_path: Path) -> None:
    """A review's process killed outright (an SSH session's app at hang-up, a stopped
    lobby): its analysis workers end with it instead of analysing on, orphaned."""
    import signal
    import subprocess
    import sys

    path = tmp_path / "m.json"
    path.write_text(text)
    code = ("import sys; from unotui.ui.review_job import local_job; "
            "local_job(jobs=2, nice=1, playouts=100000).run(open(sys.argv[1]).read(), lambda d, t: None)")
    proc = subprocess.Popen([sys.executable, "-c", code, str(path)])
    try:
        workers: set[int] = set()
        end = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < end:  # (spawned workers, past start-up)
            workers = {w for w in _children(proc.pid) if b"spawn_main" in _cmdline(w)}
            time.sleep(0.05)
        assert len(workers) >= 2, workers
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        end = time.monotonic() + 20
        while any(Path(f"/proc/{w}").exists() and "Z" not in _state(w) for w in workers):
            assert time.monotonic() < end, "a worker outlived the process that started it"
            time.sleep(0.05)
    finally:
        proc.kill()


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _state(pid: int) -> str:
    """A process's state letter (``Z``: ended, not yet reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "Z"
