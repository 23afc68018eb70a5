"""Many SSH sessions at once against the SSH shell (``unotui.ssh``), and the local ceiling.

1. The server runs in its own process (``python -m unotui.ssh``, limits raised for one
   address), serving ``--entry`` (default: the demo, a solo game at the table), with
   ``--sessions-per-process`` sessions to a worker process (default: ``unotui serve``'s;
   1: a process per session).
2. First frame over SSH, unloaded: ``--runs`` sessions one after another, each timed
   from the TCP connect to the first output that contains ``--marker`` (a text only the
   finished first screen shows; for the demo "Players, ", the title of the
   players' panel, which no dialog covers).
3. The ceiling, in the same run: the same entry started locally on a pty
   (``python -m unotui.ssh --local``: a fresh interpreter, as ``unotui play`` starts),
   timed from the spawn to the marker; ``--runs`` runs.  ``first_frame_ratio`` = median
   SSH / median local.
4. Load: ``--sessions`` asyncssh clients connect at once, each with a 100x30 pty;
   ``reached_lobby`` counts those that saw the marker (within ``--timeout``).  Then the
   memory: PSS (``/proc/PID/smaps_rollup``) of the server, the forkserver and every
   session's process (a worker, or a session's own), summed and divided by the sessions.
   Then key-to-screen latency: each session, at a random moment within ``--spread``
   seconds and after its output has been quiet for a second, sends the next of ``--keys``
   (the demo: Right, Left: the selection moves along the hand) and times the first
   output after it,
   ``--keys-per-session`` times; p95 over all.  Server CPU: the server process's user +
   system time over the load phase (the sessions' own CPU is printed apart).

The clients run in this process (asyncssh), on the same two cores as the server.  The last
line is exactly ``sessions=N reached_lobby=N pss_mib_per_session=X first_frame_ratio=R
key_p95_ms=N``.  Run: ``python bench/ssh_load.py`` (100 sessions), ``--sessions 2 --runs 1``
for a smoke run.

Measured on the shared 2-core machine, 100 sessions, 8 per worker (the default):
the lobby (``--lobby``): all 100 reached the lobby in 26.3 s, 5.67 MiB PSS per session
(server 39.6, forkserver 17.6, 13 workers of 40 MiB), first frame 239 ms over SSH vs 989
ms local (ratio 0.24), key p95 7.8 s (``t``, the theme, re-renders the whole screen: 300
of them within 3 s, right after 100 start-ups; the sessions used 79 s of CPU in the 47 s
load phase).  4 per worker: 7.59 MiB per session; 16 per worker: 4.50 MiB.  A process
per session (``--sessions-per-process 1``), same day: 95 of 100 reached within 120 s,
19.05 MiB per session (a session's process 18.5 MiB), key p95 5.1 s (its keys came after
the 120 s wait for the 5 that never arrived, not right after the start-ups).  The demo
table: all 100 in 16.8 s, 5.21 MiB per session (server 31.5, forkserver 16.7, 13 workers
of 37 MiB), ratio 0.50, key p95 23 ms.  Key latency with 40 lobby sessions (``--lobby
--sessions 40 --runs 1``), several runs each: p95 1.2-2.7 s with 8 per worker, 0.9-2.5 s
with 4, 0.7-1.1 s with a process per session: a worker's sessions share one core.
Earlier, a process per session: the demo 19.2 MiB per session, a one-line Textual app
12.4 MiB: the ~13 MiB of pages a fork dirties is why sessions share workers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncssh

from unotui.lobby.options import SESSIONS_PER_PROCESS

ROOT = Path(__file__).resolve().parent.parent
SIZE = (100, 30)


def _pss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _parents() -> dict[int, int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    return parents


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        for child in children.get(pid, []):
            found.append(child)
            todo.append(child)
    return found


def start_server(
    entry: str, preload: list[str], sessions: int, data_dir: Path, per_process: int = 1,
    app_entry: str | None = None,
) -> tuple[subprocess.Popen[str], int]:
    preloads = [arg for module in preload for arg in ("--preload", module)]
    command = [
        sys.executable, "-m", "unotui.ssh", "--port", "0", "--data-dir", str(data_dir), "--entry", entry,
        *preloads, "--max-sessions", str(sessions + 20), "--per-ip", str(sessions + 20),
        "--rate-per-ip", "1000", "--rate-burst", str(sessions + 20),
        "--sessions-per-process", str(per_process), *(("--app-entry", app_entry) if app_entry else ()),
    ]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert server.stdout is not None
    line = server.stdout.readline()
    if not line.startswith("listening "):
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return server, int(line.split()[1].rsplit(":", 1)[1])


class Session:
    """One SSH client with a pty, reading everything the server sends."""

    def __init__(self, port: int, marker: bytes) -> None:
        self.port = port
        self.marker = marker
        self.first_frame: float | None = None
        self.failure = ""
        self.latencies: list[float] = []
        self._conn: Any = None
        self._proc: Any = None
        self._last_output = 0.0
        self._waiter: asyncio.Future[float] | None = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self, timeout: float) -> None:
        start = time.perf_counter()
        key = asyncssh.generate_private_key("ssh-ed25519")
        self._conn = await asyncssh.connect(
            "127.0.0.1", self.port, username="bench", known_hosts=None, client_keys=[key],
            agent_path=None, encoding=None,
        )
        self._proc = await self._conn.create_process(term_type="xterm-256color", term_size=SIZE)
        seen = b""
        deadline = start + timeout
        received = 0
        while self.marker not in seen:
            left = deadline - time.perf_counter()
            try:
                chunk = await asyncio.wait_for(self._proc.stdout.read(65536), max(left, 0.001))
            except TimeoutError:
                self.failure = f"no marker in {timeout:.0f} s ({received} bytes)"
                return
            if not chunk:
                self.failure = f"closed after {received} bytes: {seen[-200:]!r}"
                return
            received += len(chunk)
            seen = seen[-len(self.marker) :] + chunk
        self.first_frame = time.perf_counter() - start
        self._last_output = time.perf_counter()
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            chunk = await self._proc.stdout.read(65536)
            if not chunk:
                return
            now = time.perf_counter()
            self._last_output = now
            if self._waiter is not None and not self._waiter.done():
                self._waiter.set_result(now)

    async def press(self, keys: list[bytes], rounds: int, spread: float) -> None:
        for number in range(rounds):
            key = keys[number % len(keys)]
            await asyncio.sleep(random.uniform(0, spread))
            deadline = time.perf_counter() + 5
            while time.perf_counter() - self._last_output < 1.0 and time.perf_counter() < deadline:
                await asyncio.sleep(0.1)
            self._waiter = asyncio.get_running_loop().create_future()
            sent = time.perf_counter()
            self._proc.stdin.write(key)
            with contextlib.suppress(TimeoutError):
                self.latencies.append(await asyncio.wait_for(self._waiter, 10) - sent)

    async def close(self) -> None:
        await hang_up(self._conn, self._reader)


async def hang_up(conn: Any, reader: asyncio.Task[None] | None) -> None:
    """End an SSH client's session: its reading task, then the connection (5 s at most)."""
    if reader is not None:
        reader.cancel()
    if conn is not None:
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.wait_closed(), 5)


def stop_server(server: subprocess.Popen[str]) -> None:
    """Stop a server this bench started: SIGTERM (its orderly shutdown), then a kill if it
    has not exited within 30 s."""
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def start_lobby(sessions: int, data_dir: Path, per_process: int,
                raise_limits: bool = True) -> tuple[subprocess.Popen[str], int, int]:
    """``unotui serve`` (the real lobby), with the per-address limits raised for one
    address unless told (``raise_limits=False``: the defaults an attacker meets); returns
    (process, SSH port, TCP port)."""
    n = str(sessions + 20)
    raised = ["--max-sessions", n, "--ssh-per-ip", n, "--ssh-rate-per-ip", "1000", "--ssh-rate-burst", n]
    command = [
        sys.executable, "-m", "unotui", "serve", "--bind", "127.0.0.1", "--ssh-port", "0", "--port", "0",
        "--data-dir", str(data_dir), *(raised if raise_limits else []),
        "--sessions-per-process", str(per_process),
    ]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert server.stdout is not None
    ssh_port = tcp_port = 0
    while not tcp_port:
        line = server.stdout.readline()
        if not line:
            raise SystemExit("unotui serve did not start")
        if "SSH lobby on port" in line:
            ssh_port = int(line.split("port ")[1].split(":")[0])
        if "TCP lobby on port" in line:
            tcp_port = int(line.split("port ")[1].split(":")[0])
    threading.Thread(target=lambda: server.stdout and server.stdout.read(), daemon=True).start()  # drain
    return server, ssh_port, tcp_port


def local_first_frame(entry: str, marker: bytes, timeout: float = 30, extra: Sequence[str] = ()) -> float:
    """Seconds from spawning the entry on a fresh pty (a new interpreter) to the marker."""
    import fcntl
    import struct
    import termios
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    env.pop("COLORTERM", None)
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "unotui.ssh", "--local", "--entry", entry,
         *(arg for pair in extra for arg in ("--extra", pair))],
        stdin=slave, stdout=slave, stderr=slave, start_new_session=True, cwd=ROOT, env=env,
    )
    os.close(slave)
    seen = b""
    elapsed = float("nan")
    try:
        deadline = start + timeout
        while time.perf_counter() < deadline:
            import select

            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    seen = seen[-len(marker) :] + os.read(master, 65536)
                except OSError:
                    break
                if marker in seen:
                    elapsed = time.perf_counter() - start
                    break
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        os.close(master)
    return elapsed


async def sequential_ssh(port: int, marker: bytes, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        session = Session(port, marker)
        await session.open(30)
        if session.first_frame is not None:
            times.append(session.first_frame)
        else:
            print(f"an unloaded session failed: {session.failure}")
        await session.close()
        await asyncio.sleep(0.3)
    return times


def percentile(values: Sequence[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def load(server_pid: int, port: int, args: argparse.Namespace) -> dict[str, Any]:
    marker = args.marker.encode()
    sessions = [Session(port, marker) for _ in range(args.sessions)]
    cpu_before = _cpu_seconds(server_pid)
    started = time.perf_counter()
    opened = await asyncio.gather(*(s.open(args.timeout) for s in sessions), return_exceptions=True)
    for session, outcome in zip(sessions, opened, strict=True):
        if isinstance(outcome, BaseException):
            session.failure = f"{type(outcome).__name__}: {outcome}"
    reached = [s for s in sessions if s.first_frame is not None]
    all_in = time.perf_counter() - started
    await asyncio.sleep(2)  # let the apps settle (the demo freezes its objects after a frame)
    pids = [server_pid, *_descendants(server_pid)]
    pss = {pid: _pss_kib(pid) for pid in pids}
    parents = _parents()
    keys = [k.encode().decode("unicode_escape").encode("latin-1") for k in args.keys.split(",")]
    await asyncio.gather(*(s.press(keys, args.keys_per_session, args.spread) for s in reached))
    elapsed = time.perf_counter() - started
    server_cpu = _cpu_seconds(server_pid) - cpu_before
    session_cpu = sum(_cpu_seconds(pid) for pid in _descendants(server_pid))
    await asyncio.gather(*(s.close() for s in sessions))
    return {
        "failures": [s.failure for s in sessions if s.failure],
        "reached": len(reached),
        "first": [s.first_frame for s in reached if s.first_frame is not None],
        "all_in": all_in,
        "pss": pss,
        "parents": {pid: parents.get(pid, 0) for pid in pids},
        "latencies": [x for s in reached for x in s.latencies],
        "server_cpu": server_cpu,
        "session_cpu": session_cpu,
        "elapsed": elapsed,
    }


def report(n: int, server_pid: int, local: list[float], ssh: list[float], result: dict[str, Any]) -> None:
    """Print the figures; the last line is the summary."""
    for failure in result["failures"][:5]:
        print(f"a session failed: {failure}")
    pss: dict[int, int] = result["pss"]
    parents: dict[int, int] = result["parents"]
    total_mib = sum(pss.values()) / 1024
    server_mib = pss.get(server_pid, 0) / 1024
    forkservers = [pid for pid in pss if parents.get(pid) == server_pid]  # the server's only child
    forkserver_mib = sum(pss[pid] for pid in forkservers) / 1024
    children = sorted(v for pid, v in pss.items() if pid != server_pid and pid not in forkservers)
    ratio = statistics.median(ssh) / statistics.median(local) if ssh and local else float("nan")
    first: list[float] = result["first"]
    latencies: list[float] = result["latencies"]
    p95 = percentile(latencies, 0.95) * 1000
    ms = 1000
    if local:
        print(f"first frame, local start (a fresh interpreter on a pty): median "
              f"{statistics.median(local) * ms:.0f} ms over {len(local)} runs")
    if ssh:
        print(f"first frame over SSH, one session at a time (connect, auth, fork, frame): median "
              f"{statistics.median(ssh) * ms:.0f} ms over {len(ssh)} runs; ratio {ratio:.2f} (target <= 1.5)")
    if first:
        print(f"first frame with {n} connecting at once: p50 {percentile(first, 0.5) * ms:.0f} ms, "
              f"p95 {percentile(first, 0.95) * ms:.0f} ms; {result['reached']} in {result['all_in']:.1f} s")
    per = f"{n / len(children):.1f} sessions" if children else "no session"
    print(f"memory: {total_mib:.1f} MiB PSS in {len(pss)} processes = {total_mib / n:.2f} MiB per session "
          f"(target <= 15): server {server_mib:.1f} MiB, forkserver {forkserver_mib:.1f} MiB, "
          f"{len(children)} session processes ({per} each) {sum(children) / 1024:.1f} MiB, "
          f"median {percentile(children, 0.5) / 1024:.1f} MiB, max {max(children, default=0) / 1024:.1f} MiB")
    print(f"key to screen: p50 {percentile(latencies, 0.5) * ms:.0f} ms, p95 {p95:.0f} ms over "
          f"{len(latencies)} keys")
    elapsed = result["elapsed"]
    print(f"CPU over the load phase ({elapsed:.1f} s): server process {result['server_cpu']:.1f} s "
          f"({100 * result['server_cpu'] / elapsed:.0f}% of a core), sessions' processes "
          f"{result['session_cpu']:.1f} s")
    print(f"sessions={n} reached_lobby={result['reached']} pss_mib_per_session={total_mib / n:.2f} "
          f"first_frame_ratio={ratio:.2f} key_p95_ms={p95:.0f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--entry", default="unotui.ssh.demo:run")
    parser.add_argument("--preload", action="append", default=None, help="(default: unotui.ui.preload)")
    parser.add_argument("--marker", default="Players, ", help="text only the first screen shows")
    parser.add_argument(
        "--keys", default="\\x1b[C,\\x1b[D",
        help="keys that change the screen, comma-separated, taken in turn (Python escapes; default "
        "Right, Left: the selection moves along the hand)",
    )
    parser.add_argument("--spread", type=float, default=3.0, help="seconds over which players' keys spread")
    parser.add_argument("--keys-per-session", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5, help="first-frame runs, over SSH and local")
    parser.add_argument("--timeout", type=float, default=120, help="seconds for every session's first frame")
    parser.add_argument("--lobby", action="store_true",
                        help="measure the real lobby (unotui serve): marker 'online', key 't' unless given")
    parser.add_argument("--sessions-per-process", type=int, default=SESSIONS_PER_PROCESS, metavar="K",
                        help=f"sessions per worker process (default {SESSIONS_PER_PROCESS}, as unotui serve; "
                             "1: a process per session)")
    parser.add_argument("--app-entry", help="the worker's entry (default: the demo's, or the lobby's)")
    args = parser.parse_args()
    preload = args.preload or ["unotui.ui.preload"]
    if args.lobby:
        args.entry = "unotui.lobby.session:run"
        args.marker = "online" if args.marker == "Players, " else args.marker
        args.keys = "t" if args.keys == "\\x1b[C,\\x1b[D" else args.keys
    marker = args.marker.encode()
    with tempfile.TemporaryDirectory() as tmp:
        if args.lobby:
            server, port, tcp = start_lobby(args.sessions, Path(tmp), args.sessions_per_process)
            extra = ("host=127.0.0.1", f"port={tcp}")
        else:
            server, port = start_server(args.entry, preload, args.sessions, Path(tmp),
                                        args.sessions_per_process, args.app_entry)
            extra = ()
        try:
            # The first run of each kind only warms the caches.
            runs = (local_first_frame(args.entry, marker, extra=extra) for _ in range(args.runs + 1))
            local = [t for t in runs if t == t][1:]
            ssh = asyncio.run(sequential_ssh(port, marker, args.runs + 1))[1:]
            result = asyncio.run(load(server.pid, port, args))
        finally:
            stop_server(server)
    report(args.sessions, server.pid, local, ssh, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
