"""How fast the table appears and re-renders.

1. Launch to first full frame, in a real terminal (tmux, 100x30): ``unotui play`` against
   a bare Textual app showing one line, alternating, median of N runs each.  The shell
   notes the time just before it starts the program; this script polls the terminal
   (``tmux capture-pane``) until a string that only the finished frame shows is on the
   screen (the log's "The first card is" on the table, "hello" in the bare app), notes
   the time, and quits the program with Ctrl+Q.  Both programs are watched the same way, so the polling
   interval (a few ms) weighs on both sides of the ratio.  Nothing in the program itself
   knows it is being measured.  Target: ratio <= 1.3.
2. Re-render of the table after a move, and at a turn-clock tick (headless, 10 players,
   120x40): :mod:`tui_render`.

``--reference REV`` also starts the package as it was at commit ``REV`` (``git archive``
into a temporary folder, byte-compiled, run with today's Python and libraries), taking
turns with today's package and the bare app, each to the frame all of them show (the
pile's "Draw pile": the log's sentence is newer); with ``--instructions`` it counts both.

Run: ``.venv/bin/python bench/tui.py [--runs N] [--moves N] [--instructions] [--reference REV]``.  The last
line is a summary: ``first_frame_ratio=R rerender_ms=M``.

``--instructions`` also counts the instructions each program runs to that first frame,
under ``valgrind --tool=callgrind`` in tmux at 100x30 (one run each: the count is the same
whatever else the machine is doing, where wall time on a shared machine is not).  Each
program is started through a few lines that end it as soon as the terminal driver writes
the frame holding its mark; the program itself is run unchanged.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from tui_render import clock_tick, rerender  # (bench/, beside this script)

BARE = """
from textual.app import App
from textual.widgets import Static

class Bare(App[int]):
    def compose(self):
        yield Static("hello")

Bare().run()
"""

#: what each program shows only once its first full frame is drawn: on the table, the log's
#: opening sentence (the log was the last panel filled: its first frame once had the piles
#: and an empty log, the sentences a frame later)
TABLE_MARK, BARE_MARK = "The first card is", "hello"


def _tmux_env() -> dict[str, str]:
    """The environment a program under test starts in: not inside our tmux, and the
    terminal's size its own (100x30)."""
    return {k: v for k, v in os.environ.items() if k not in ("TMUX", "COLUMNS", "LINES")}


def _time_in_tmux(command: str, mark: str, timeout: float = 60.0) -> float:
    """Seconds from starting ``command`` in a fresh tmux window to ``mark`` on its screen."""
    session = f"bench-{uuid.uuid4().hex[:8]}"
    channel = f"done-{session}"
    env = _tmux_env()
    with tempfile.TemporaryDirectory() as tmp:
        stamp = Path(tmp) / "start"
        shell = f"date +%s.%N > {stamp}; {command}"
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                        f"{shell}; tmux wait-for -S {channel}"], check=True, env=env)
        deadline = time.monotonic() + timeout
        seen = 0.0
        while time.monotonic() < deadline:
            screen = subprocess.run(
                ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True, env=env
            ).stdout
            if mark in screen:
                seen = time.time()
                break
        # Ctrl+Q during a match asks first; a second Ctrl+Q quits (the bare app quits at once).
        for _ in range(2):
            subprocess.run(["tmux", "send-keys", "-t", session, "C-q"], capture_output=True, env=env)
            time.sleep(0.3)
        subprocess.run(["tmux", "wait-for", channel], check=True, env=env, timeout=timeout)
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
        if not seen:
            raise RuntimeError(f"{command!r} never showed {mark!r}")
        return seen - float(stamp.read_text())


@contextlib.contextmanager
def _tmux_server() -> Iterator[None]:
    """One idle session keeps the tmux server up between runs: otherwise killing a run's
    session stops the server, and the next run can race its shutdown."""
    keeper = f"bench-keeper-{uuid.uuid4().hex[:8]}"
    env = _tmux_env()
    subprocess.run(["tmux", "new-session", "-d", "-s", keeper, "sleep 3600"], check=True, env=env)
    try:
        yield
    finally:
        subprocess.run(["tmux", "kill-session", "-t", keeper], capture_output=True, env=env)


def first_frame(runs: int) -> tuple[list[float], list[float]]:
    """Seconds to first frame of each run: (unotui play, bare app)."""
    exe = Path(sys.executable)
    with _tmux_server():
        return _first_frames(runs, exe, exe.with_name("unotui"))


def _compiled() -> None:
    """Byte-compile the package, as ``pip install .`` (the README's play command) does for
    a player: with ``PYTHONDONTWRITEBYTECODE`` set (this machine's shells set it) an
    editable checkout would compile every module's source at each start, which no
    player's installed copy does (Textual's own files are compiled by their install)."""
    import unotui

    compileall.compile_dir(str(Path(unotui.__file__).parent), quiet=1)


def _first_frames(runs: int, exe: Path, unotui: Path) -> tuple[list[float], list[float]]:
    _compiled()
    with tempfile.TemporaryDirectory() as cfg:
        bare_file = Path(cfg) / "bare.py"
        bare_file.write_text(BARE)
        ours = f"UNOTUI_CONFIG_DIR={cfg} {unotui} play --seed 1 --delay 0 --rules classic"
        bare = f"{exe} {bare_file}"
        _time_in_tmux(bare, BARE_MARK)  # warm the file cache
        _time_in_tmux(ours, TABLE_MARK)
        a, b = [], []
        for _ in range(runs):
            a.append(_time_in_tmux(ours, TABLE_MARK))
            b.append(_time_in_tmux(bare, BARE_MARK))
    return a, b


#: run before each program under callgrind: end the process once the frame with the mark
#: is handed to the terminal (the frame the wall-time benchmark waits for)
STOP_AT_MARK = """
import os, sys
import textual.drivers.linux_driver as driver
write = driver.LinuxDriver.write
def stop_at_mark(self, data, mark={mark!r}):
    write(self, data)
    if mark in data:
        os._exit(0)
driver.LinuxDriver.write = stop_at_mark
"""

#: ``unotui play`` as the wall-time benchmark starts it, run from a script
OURS = """
import sys
from unotui.cli import main
sys.exit(main(["play", "--seed", "1", "--delay", "0", "--rules", "classic"]))
"""

OURS_UNDER_CALLGRIND = STOP_AT_MARK.format(mark=TABLE_MARK) + OURS


def _run_in_tmux(command: str, timeout: float) -> None:
    """Run the shell ``command`` in a fresh tmux window of 100x30 until it ends."""
    session = f"bench-run-{uuid.uuid4().hex[:8]}"
    env = _tmux_env()
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                    f"{command}; tmux wait-for -S {session}"], check=True, env=env)
    subprocess.run(["tmux", "wait-for", session], check=True, env=env, timeout=timeout)
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, env=env)


def _instructions_in_tmux(program: str, config_dir: str) -> int:
    """Instructions ``python -c program`` runs (callgrind), in a fresh tmux window."""
    with tempfile.TemporaryDirectory() as tmp:
        script, out, log = Path(tmp) / "program.py", Path(tmp) / "callgrind.out", Path(tmp) / "log"
        script.write_text(program)
        _run_in_tmux(f"UNOTUI_CONFIG_DIR={config_dir} valgrind --tool=callgrind --callgrind-out-file={out} "
                     f"{sys.executable} {script} > {log} 2>&1", timeout=600)
        for line in log.read_text().splitlines():
            if "Collected :" in line:
                return int(line.rsplit(":", 1)[1])
        raise RuntimeError(f"callgrind counted nothing: {log.read_text()[-500:]}")


#: run before each program for ``--phases``: note the wall-clock time at each step of its
#: start (Textual imported by these lines, the program's own imports and set-up done when it
#: calls ``App.run``, each screen's first resume, the frame with the mark handed to the
#: terminal), write them to ``{out}`` and end the process there.  The frame is stamped when
#: Textual's output thread has written it, not when the app queued it: that thread needs
#: the interpreter's lock to write, so work the app does just after a frame delays it.
STAMP_PHASES = """
import os, sys, time
_stamps = [("python", time.time())]
import textual.app as _app, textual.screen as _screen
import textual.drivers._writer_thread as _writer
_stamps.append(("textual", time.time()))
_run, _resume, _init = _app.App.run, _screen.Screen._on_screen_resume, _writer.WriterThread.__init__
def _stamp_run(self, *args, **kwargs):
    _stamps.append(("run", time.time()))
    return _run(self, *args, **kwargs)
def _stamp_resume(self, event):
    _stamps.append(("screen", time.time()))
    return _resume(self, event)
class _StampFrame:
    def __init__(self, file):
        self._file = file
    def write(self, text, mark={mark!r}):
        written = self._file.write(text)
        if mark in text:
            self._file.flush()
            _stamps.append(("frame", time.time()))
            with open({out!r}, "w") as f:
                f.write("\\n".join(f"{{name}} {{at!r}}" for name, at in _stamps))
            os._exit(0)
        return written
    def __getattr__(self, name):
        return getattr(self._file, name)
def _stamp_init(self, file):
    _init(self, _StampFrame(file))
_app.App.run, _screen.Screen._on_screen_resume = _stamp_run, _stamp_resume
_writer.WriterThread.__init__ = _stamp_init
"""

#: the phases ``--phases`` reports: (label, stamp it starts at, stamp it ends at); "start"
#: is the shell's note just before it starts the program, "screen" the last screen resumed
#: before the frame (the table, or the bare app's one screen)
PHASES = (
    ("Python's own start-up", "start", "python"),
    ("importing Textual", "python", "textual"),
    ("the program's imports and set-up", "textual", "run"),
    ("App.run to its screen's resume", "run", "screen"),
    ("its layout, paint and output", "screen", "frame"),
    ("launch to first frame", "start", "frame"),
)


def _phases_in_tmux(program: str, mark: str, config_dir: str) -> dict[str, float]:
    """Wall-clock stamps (seconds) of one start of ``python -c program``, in tmux 100x30."""
    with tempfile.TemporaryDirectory() as tmp:
        script, out, start = Path(tmp) / "program.py", Path(tmp) / "stamps", Path(tmp) / "start"
        script.write_text(STAMP_PHASES.format(mark=mark, out=str(out)) + program)
        _run_in_tmux(f"date +%s.%N > {start}; UNOTUI_CONFIG_DIR={config_dir} {sys.executable} {script} "
                     "> /dev/null 2>&1", timeout=60)
        if not out.exists():
            raise RuntimeError(f"the program never showed {mark!r}")
        stamps = {"start": float(start.read_text())}
        for line in out.read_text().splitlines():
            name, at = line.split()
            stamps[name] = float(at)  # (the last of a name: the screen resumed last)
        return stamps


def first_frame_phases(runs: int) -> list[tuple[str, float, float]]:
    """Median milliseconds of each of :data:`PHASES`: (label, unotui play, bare app)."""
    _compiled()
    runs_of: dict[str, list[dict[str, float]]] = {"ours": [], "bare": []}
    with tempfile.TemporaryDirectory() as cfg:
        for _ in range(runs):
            runs_of["ours"].append(_phases_in_tmux(OURS, TABLE_MARK, cfg))
            runs_of["bare"].append(_phases_in_tmux(BARE, BARE_MARK, cfg))
    def median_ms(who: str, begin: str, end: str) -> float:
        return statistics.median(run[end] - run[begin] for run in runs_of[who]) * 1000

    return [(label, median_ms("ours", a, b), median_ms("bare", a, b)) for label, a, b in PHASES]


def first_frame_instructions() -> tuple[int, int]:
    """Instructions to the first frame: (unotui play, bare app)."""
    _compiled()
    with tempfile.TemporaryDirectory() as cfg:
        bare = STOP_AT_MARK.format(mark=BARE_MARK) + BARE
        return _instructions_in_tmux(OURS_UNDER_CALLGRIND, cfg), _instructions_in_tmux(bare, cfg)


#: what the table has shown on its first frame since this benchmark was written (its log's
#: opening sentence, :data:`TABLE_MARK`, is newer): ``--reference`` waits for it in both
REFERENCE_MARK = "Draw pile"


@contextlib.contextmanager
def reference_tree(rev: str) -> Iterator[Path]:
    """A folder holding the package as it was at commit ``rev`` (``git archive``),
    byte-compiled as today's is: ``--reference`` runs it with today's Python and libraries."""
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(["git", "-C", str(root), "archive", rev, "unotui"],
                             check=True, capture_output=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        compileall.compile_dir(str(Path(tmp) / "unotui"), quiet=1)
        yield Path(tmp)


def _play_from(tree: Path | None) -> str:
    """:data:`OURS`, with the package taken from ``tree`` (a reference) when one is given."""
    return (f"import sys\nsys.path.insert(0, {str(tree)!r})\n" if tree else "") + OURS


def reference_first_frames(runs: int, tree: Path) -> dict[str, list[float]]:
    """Seconds to the frame showing :data:`REFERENCE_MARK` of each run, today's package and
    the reference's taking turns with the bare app (so a busy spell weighs on all three)."""
    _compiled()
    exe = sys.executable
    with tempfile.TemporaryDirectory() as cfg, _tmux_server():
        scripts = {"today": _play_from(None), "reference": _play_from(tree), "bare": BARE}
        commands = {}
        for who, program in scripts.items():
            (Path(cfg) / f"{who}.py").write_text(program)
            mark = BARE_MARK if who == "bare" else REFERENCE_MARK
            commands[who] = (f"cd {cfg} && UNOTUI_CONFIG_DIR={cfg} {exe} {who}.py", mark)
        for command, mark in commands.values():
            _time_in_tmux(command, mark)  # (warms the file cache)
        times: dict[str, list[float]] = {who: [] for who in commands}
        for _ in range(runs):
            for who, (command, mark) in commands.items():
                times[who].append(_time_in_tmux(command, mark))
    return times


def reference_instructions(tree: Path) -> tuple[int, int, int]:
    """Instructions to the frame showing :data:`REFERENCE_MARK`: (today, the reference, the
    bare app to its own mark)."""
    _compiled()
    stop = STOP_AT_MARK.format(mark=REFERENCE_MARK)
    with tempfile.TemporaryDirectory() as cfg:
        return (_instructions_in_tmux(stop + _play_from(None), cfg),
                _instructions_in_tmux(stop + _play_from(tree), cfg),
                _instructions_in_tmux(STOP_AT_MARK.format(mark=BARE_MARK) + BARE, cfg))


def _report_reference(rev: str, runs: int, instructions: bool) -> None:
    """Print ``--reference``'s figures: today's start against the package at ``rev``."""
    with reference_tree(rev) as tree:
        if instructions:
            today_i, then_i, bare_i = reference_instructions(tree)
            print(f"instructions to the frame showing {REFERENCE_MARK!r}: today {today_i / 1e6:,.0f} M "
                  f"({today_i / bare_i:.2f} of the bare app's {bare_i / 1e6:,.0f} M), at {rev} "
                  f"{then_i / 1e6:,.0f} M ({then_i / bare_i:.2f}); today / then {today_i / then_i:.2f}")
        times = reference_first_frames(runs, tree)
    bare = times["bare"]
    for who, label in (("today", "today"), ("reference", f"at {rev}")):
        own = times[who]
        print(f"to {REFERENCE_MARK!r}, {label}: min {min(own) * 1000:6.1f} ms, median "
              f"{statistics.median(own) * 1000:6.1f} ms; to the bare app's: fastest "
              f"{min(own) / min(bare):.2f}, medians {statistics.median(own) / statistics.median(bare):.2f} "
              f"({runs} runs each, taking turns)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--moves", type=int, default=200, help="moves the re-render is timed over (median)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions to the first frame (valgrind callgrind)")
    parser.add_argument("--phases", action="store_true",
                        help="also time each phase of the start-up (Textual's import, the program's, ...)")
    parser.add_argument("--reference", metavar="REV",
                        help="also time the start of the package as it was at commit REV, taking "
                             "turns with today's and the bare app (with --instructions: count both)")
    args = parser.parse_args()
    if args.reference and shutil.which("tmux"):
        _report_reference(args.reference, args.runs, args.instructions and bool(shutil.which("valgrind")))
    if args.instructions:
        if not (shutil.which("valgrind") and shutil.which("tmux")):
            print("--instructions needs valgrind and tmux", file=sys.stderr)
            return 2
        ours_i, bare_i = first_frame_instructions()
        print(f"instructions to the first frame: unotui play {ours_i / 1e6:,.0f} M, bare Textual "
              f"{bare_i / 1e6:,.0f} M, ratio {ours_i / bare_i:.2f} (target <= 1.3)")
    if args.phases:
        print(f"where the time to the first frame goes (median of {args.runs} runs, ms):")
        print(f"  {'':34s} {'unotui play':>11s} {'bare Textual':>12s}")
        for label, ours_ms, bare_ms in first_frame_phases(args.runs):
            print(f"  {label:34s} {ours_ms:11.1f} {bare_ms:12.1f}")
    ratio = float("nan")
    if shutil.which("tmux"):
        ours, bare = first_frame(args.runs)
        for label, times in (("unotui play ", ours), ("bare Textual", bare)):
            print(
                f"first frame, {label}: min {min(times) * 1000:6.1f} ms, "
                f"median {statistics.median(times) * 1000:6.1f} ms ({args.runs} runs, tmux 100x30)"
            )
        median_ratio = statistics.median(ours) / statistics.median(bare)
        ratio = min(ours) / min(bare)
        # On a shared machine other work inflates single runs; the fastest run of each is
        # the best estimate of what the program itself costs, so the summary uses it.
        print(f"ratio of the fastest runs: {ratio:.2f}, of the medians: {median_ratio:.2f} (target <= 1.3)")
    else:
        print("tmux not found: first-frame benchmark skipped")
    ms = asyncio.run(rerender(moves=args.moves))
    print(f"table re-render after a move, 10 players, 120x40: {ms:.2f} ms (median)")
    tick, rendered = asyncio.run(clock_tick())
    print(f"a turn-clock tick at that table: {tick:.2f} ms (median); rendered again: {', '.join(rendered)}")
    print(f"first_frame_ratio={ratio:.2f} rerender_ms={ms:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
