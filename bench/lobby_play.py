"""Capacity at human pace: N real SSH players at N/4 tables of the real ``unotui serve``.

What it does, as players would:

1. ``unotui serve`` runs in its own process on 127.0.0.1 with its own data directory
   (``bench.ssh_load.start_lobby``: the per-address limits raised for the one address
   every client comes from).
2. ``--players`` asyncssh clients connect, each with its own key, its own name and a pty
   of ``--size``, and wait for the lobby.
3. They sit down through the lobby's keys, four to a table: the table's creator presses
   ``n``, sets "Computer players" to 0 (Tab, Tab, Enter, Up, Up, Enter), creates the
   table (Ctrl+S) and reads its code off the waiting room ("table code K7QMX: ..."); the
   three others press ``c`` and type the code, one after another (each once the one
   before is in the waiting room).  The full table starts by itself.  At most four
   tables are being filled at once: the lobby lets one address keep four waiting.
4. Each player plays from what its screen shows (a small terminal emulator here reads
   the bytes the session sends into rows of text; nothing else is read): the status line
   says whose turn it is and what is asked; the hand's top frame marks playable cards
   with ``*`` and the selected one with a heavy frame.  A decision is made 1-3 s
   (``--think``, seeded) after it shows: a random playable card (Left/Right to it, then
   Enter, or ``u`` with two cards: play and call UNO), else ``d``; after a draw Enter
   plays the drawn card or ``k`` keeps it; a colour is a random letter; a Wild Draw Four
   on you is accepted (``a``); the round summary is closed with Space.
5. The measurement window (``--seconds``) begins when every table is seated.  For each
   card played in it: from the key (Enter or ``u``) to the moment the new top card
   ("Top: R5") shows on each of the three other seats' screens; a play's figure is the
   last of the three (every screen has it).  A play whose card equals the top already
   shown (R5 on R5) cannot be seen to change and is not timed.  CPU per action: the
   server process's and the sessions' processes' (``--sessions-per-process`` sessions
   per worker) user + system time in the window over the game actions sent in it (plays,
   draws, keeps, colours, accepts; the arrow keys that select a card are part of the
   cost of its play).  Memory: PSS (``/proc/PID/smaps_rollup``) of the server and all
   its processes, over the players.
6. ``--find``: runs with ``--start``, ``--start + --step``, ... players (each its own
   server) until the p95 reaches ``--target-ms`` (250); the figure is the largest N
   below it.
7. ``--profile FILE``: one seat of the first table is instead a local session on a pty
   (the lobby app in a process of its own, as ``python -m unotui.ssh --local`` runs it,
   joined over the TCP port as a guest) played the same way, with each widget's
   ``render_lines`` and each screen update of Textual's compositor timed (written to
   ``FILE.widgets`` and printed: renders, ms in all, ms each); ``--cprofile`` runs it
   under cProfile too (``FILE``).  It quits with Ctrl+Q, y at the end.

The clients run in this process, on the same two cores as the server, and the machine is
shared: each figure is printed beside the load average.  The last line is exactly
``players=N tables=N action_to_screens_p95_ms=N cpu_ms_per_action=X pss_mib_per_session=X``.
Run: ``python bench/lobby_play.py --players 40`` (one run), ``--find`` (the capacity),
``--players 4 --seconds 10`` for a smoke run.

Measured on the shared 2-core machine (docs/hosting.md, "How many players one machine
carries", has every run): with 8 sessions per worker (the default) 8 players (2 tables)
kept the p95 under 250 ms (198 ms; p50 73 ms; load average 2.0-2.9) and 16 did not
(394 ms); loaded by other work (load 10-25) only 4 did, once of twice.  With a process
per session (``--sessions-per-process 1``) 28 players did (201 ms at load 16) and 36 did
not (295 ms).  CPU per action 117-165 ms, of which the server 7-9 ms: the sessions' screens
are the cost, a quarter to a third of it the turn clock's redraw each second (3.4-4.7 ms
of CPU a second per seated session with nobody acting).  PSS 12-19 MiB per session with
workers at 8-20 players, 28-32 MiB with a process each.  100 players could not be seated
at load 30-51 (a join timed out after 15 tables).  A profiled seat (``--profile``): 12.4
ms per screen update at 100x30, nearly the whole screen redrawn per action (the pile 2.9
ms, the screen's background 2.5 ms, the log 1.9 ms and its scroll bar 1.1 ms, ...).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.lobby_seats import (  # noqa: E402
    CTRL_S,
    ENTER,
    MS,
    SEATS,
    TAB,
    TABLE_CODE,
    UP,
    Bench,
    LocalSeat,
    Player,
    SshSeat,
)
from bench.ssh_load import (  # noqa: E402
    SIZE,
    _cpu_seconds,
    _descendants,
    _pss_kib,
    percentile,
    start_lobby,
    stop_server,
)

# ----- seating ---------------------------------------------------------------------------------


async def create_table(player: Player, timeout: float) -> str:
    """The creator's keys: a new table with no computer players; returns its code."""
    player.press(b"n", action=False)
    await player.until(lambda: player.has("A new table"), timeout, "new-table form")
    player.press(TAB + TAB, action=False)
    await asyncio.sleep(0.3)
    player.press(ENTER, action=False)
    await player.until(lambda: player.has("Dismiss menu"), timeout, "computer players list")  # (open)
    player.press(UP + UP + ENTER, action=False)
    await player.until(lambda: re.search(r"Computer players\s+0\s", player.screen.text()), timeout,
                       "0 computer players")
    player.press(CTRL_S, action=False)
    found = await player.until(lambda: TABLE_CODE.search(player.screen.text()), timeout, "table code")
    return str(found.group(1))


async def join_table(player: Player, code: str, timeout: float) -> None:
    player.press(b"c", action=False)
    await player.until(lambda: player.has("Join a table by its code"), timeout, "code box")
    player.press(code.encode() + ENTER, action=False)
    await player.until(lambda: player.has("(you)") or player.in_round(), timeout, "the waiting room")


async def seat(table: list[Player], timeout: float, gate: asyncio.Semaphore) -> None:
    """Four players at a new table.  They come one after another, each once the one before
    is in the waiting room: a player whose app is still opening the table when the last
    seat fills (and the match starts) can lose its session (see docs/hosting.md)."""
    async with gate:  # the lobby lets one address keep a few tables waiting
        code = await create_table(table[0], timeout)
        for player in table[1:]:
            await join_table(player, code, timeout)
        await asyncio.gather(*(p.until(p.in_round, timeout, "round 1") for p in table))


# ----- one run ---------------------------------------------------------------------------------


@dataclass
class Result:
    players: int
    tables: int
    p50_ms: float
    p95_ms: float
    seat_p95_ms: float
    plays_timed: int
    untimed: int
    lost: int
    refused: int
    actions: int
    server_cpu: float
    session_cpu: float
    client_cpu: float
    seconds: float
    pss_mib: float
    load: str
    idle: int = 0  # players who sent no action in the window
    idle_ms: float = float("nan")  # a session's CPU ms per second with nobody acting
    unseated: int = 0  # tables that could not be seated

    @property
    def cpu_ms_per_action(self) -> float:
        return (self.server_cpu + self.session_cpu) * MS / self.actions if self.actions else float("nan")

    def summary(self) -> str:
        return (f"players={self.players} tables={self.tables} action_to_screens_p95_ms={self.p95_ms:.0f} "
                f"cpu_ms_per_action={self.cpu_ms_per_action:.1f} pss_mib_per_session={self.pss_mib:.2f}")

    def report(self) -> None:
        per = f"{self.actions / self.seconds:.1f}" if self.seconds else "0"
        print(f"{self.players} players at {self.tables} tables, {self.seconds:.0f} s window, "
              f"load {self.load}")
        print(f"  key to new top card on every other seat: p50 {self.p50_ms:.0f} ms, "
              f"p95 {self.p95_ms:.0f} ms over {self.plays_timed} plays "
              f"(per seat p95 {self.seat_p95_ms:.0f} ms; "
              f"{self.untimed} plays on the same card untimed, {self.lost} unseen in 10 s or by the end, "
              f"{self.refused} never on the player's own screen: refused or overtaken)")
        print(f"  {self.actions} actions ({per}/s): server {self.server_cpu:.1f} s CPU, sessions "
              f"{self.session_cpu:.1f} s, = {self.cpu_ms_per_action:.1f} ms per action "
              f"(server {self.server_cpu * MS / max(self.actions, 1):.1f}, sessions "
              f"{self.session_cpu * MS / max(self.actions, 1):.1f}); the clients (this process) "
              f"{self.client_cpu:.1f} s")
        print(f"  memory: {self.pss_mib:.2f} MiB PSS per player (server and all its processes)")
        print(f"  players who sent no action in the window: {self.idle}")
        idle_cpu = self.idle_ms * self.players * self.seconds / MS
        idle_share = idle_cpu / self.session_cpu if self.session_cpu else 0
        print(f"  at the table with nobody acting (the turn clock's line redrawn each second): "
              f"{self.idle_ms:.1f} ms CPU per session per second, {100 * idle_share:.0f}% of the sessions' "
              "CPU in the window")


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


async def _run(server_pid: int, ssh_port: int, tcp_port: int, args: argparse.Namespace) -> Result:
    n = args.players
    bench = Bench()
    size = tuple(int(x) for x in args.size.split("x"))
    assert len(size) == 2
    think = (args.think_min, args.think_max)
    players = [Player(i, f"p{i:03d}", bench, random.Random(args.seed * 1000 + i), think, (size[0], size[1]))
               for i in range(n)]
    seats: list[SshSeat | LocalSeat] = [SshSeat(p, ssh_port) for p in players]
    if args.profile:
        seats[1] = LocalSeat(players[1], tcp_port, Path(args.profile), args.cprofile)
    opened = await asyncio.gather(*(s.open((size[0], size[1])) for s in seats), return_exceptions=True)
    failed = [f"{type(o).__name__}: {o}" for o in opened if isinstance(o, BaseException)]
    if failed:
        raise SystemExit(f"{len(failed)} sessions did not open: {failed[0]}")
    await asyncio.gather(*(p.until(p.in_lobby, args.timeout, "lobby") for p in players))
    tables = [players[i : i + SEATS] for i in range(0, n - n % SEATS, SEATS)]
    for number, table in enumerate(tables):
        for p in table:
            p.table, p.table_no = table, number
    gate = asyncio.Semaphore(4)
    games: list[asyncio.Task[None]] = []

    failed_tables: list[str] = []
    seated: list[list[Player]] = []

    async def seat_and_play(table: list[Player]) -> None:
        try:
            await seat(table, args.timeout, gate)
        except TimeoutError as exc:  # measured without it, and said (the run then fails --find)
            failed_tables.append(str(exc))
            return
        seated.append(table)
        games.extend(asyncio.ensure_future(p.play()) for p in table)

    started = time.perf_counter()
    await asyncio.gather(*(seat_and_play(t) for t in tables))
    for why in failed_tables[:2]:
        print(f"  a table could not be seated: {why.splitlines()[0]}; its screen's last words: "
              f"{' '.join(why.split())[-400:]}")
    tables = sorted(seated, key=lambda t: t[0].table_no)
    print(f"  seated {len(tables) * SEATS} of {n} players at {len(tables)} tables in "
          f"{time.perf_counter() - started:.1f} s (load {_load()}); {len(failed_tables)} tables failed",
          flush=True)
    pids = [server_pid, *_descendants(server_pid)]
    idle_ms = float("nan")
    if args.idle_seconds > 0:  # what sitting at a table costs with nobody acting: its clock
        bench.hold = True
        await asyncio.sleep(1.5 * args.think_max)  # decisions under way are made
        idle_from = {pid: _cpu_seconds(pid) for pid in pids}
        await asyncio.sleep(args.idle_seconds)
        idle = sum(_cpu_seconds(pid) - idle_from[pid] for pid in pids[1:])
        idle_ms = idle * MS / args.idle_seconds / max(len(tables) * SEATS, 1)
        bench.hold = False
    before = {pid: _cpu_seconds(pid) for pid in pids}
    client_before = time.process_time()
    window = time.perf_counter()
    bench.measuring = bench.collecting = True
    await asyncio.sleep(args.seconds)
    bench.measuring = False
    elapsed = time.perf_counter() - window
    server_cpu = _cpu_seconds(server_pid) - before[server_pid]
    session_cpu = sum(_cpu_seconds(pid) - before[pid] for pid in pids[1:])
    client_cpu = time.process_time() - client_before
    pss = sum(_pss_kib(pid) for pid in [server_pid, *_descendants(server_pid)]) / 1024
    load = _load()
    await asyncio.sleep(3)  # the plays of the window's last moments reach the screens
    bench.collecting = False
    for probe in (p for probes in bench.probes.values() for p in probes):
        if probe.played:
            bench.lost += 1
        else:
            bench.refused += 1
    for game in games:
        game.cancel()
    await asyncio.gather(*(s.close() for s in seats), return_exceptions=True)
    return Result(
        players=len(tables) * SEATS, tables=len(tables),
        p50_ms=percentile(bench.all_seats, 0.5) * MS, p95_ms=percentile(bench.all_seats, 0.95) * MS,
        seat_p95_ms=percentile(bench.per_seat, 0.95) * MS, plays_timed=len(bench.all_seats),
        untimed=bench.untimed, lost=bench.lost, refused=bench.refused, actions=bench.actions,
        server_cpu=server_cpu,
        session_cpu=session_cpu, client_cpu=client_cpu, seconds=elapsed, pss_mib=pss / max(n, 1), load=load,
        idle=sum(1 for t in tables for p in t if not p.acted), idle_ms=idle_ms, unseated=len(failed_tables),
    )


def one_run(args: argparse.Namespace) -> Result:
    """One server, ``args.players`` players."""
    with tempfile.TemporaryDirectory(prefix="lobby-play-") as tmp:
        server, ssh_port, tcp_port = start_lobby(args.players, Path(tmp), args.sessions_per_process)
        try:
            result = asyncio.run(asyncio.wait_for(_run(server.pid, ssh_port, tcp_port, args),
                                                  args.timeout * 4 + args.seconds + 60))
        finally:
            stop_server(server)
    result.report()
    if args.profile:
        show_profile(Path(args.profile), args.seconds)
    return result


def show_profile(path: Path, seconds: float) -> None:
    """The profiled seat: its widgets' rendering per class (ms per render and in all), then
    cProfile's top entries if it ran."""
    widgets = Path(f"{path}.widgets")
    if not widgets.exists():
        print(f"no profile at {widgets}")
        return
    print(f"the profiled seat's rendering over its whole run (the window was {seconds:.0f} s):")
    for line in widgets.read_text().splitlines()[:16]:
        name, calls, ms = line.split("\t")
        print(f"  {name:<48} {int(calls):>6} renders {float(ms):>9.1f} ms "
              f"({float(ms) / max(int(calls), 1):.2f} ms each)")
    if path.exists():
        import pstats

        stats = pstats.Stats(str(path))
        stats.sort_stats("cumulative").print_stats(r"unotui/ui|_compositor|_styles_cache", 30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40, help="players (a multiple of 4; default 40)")
    parser.add_argument("--find", action="store_true", help="step the players up to the largest N whose p95 "
                        "stays under --target-ms")
    parser.add_argument("--start", type=int, default=20, help="--find: the first N (default 20)")
    parser.add_argument("--step", type=int, default=20, help="--find: N grows by (default 20)")
    parser.add_argument("--max", type=int, default=160, help="--find: the last N tried (default 160)")
    parser.add_argument("--target-ms", type=float, default=250.0)
    parser.add_argument("--seconds", type=float, default=60.0, help="the measurement window (default 60)")
    parser.add_argument("--idle-seconds", type=float, default=5.0,
                        help="before the window, seconds in which nobody acts (0: none), to measure idle CPU")
    parser.add_argument("--think-min", type=float, default=1.0, help="seconds before a decision, at least")
    parser.add_argument("--think-max", type=float, default=3.0, help="... at most")
    parser.add_argument("--size", default=f"{SIZE[0]}x{SIZE[1]}",
                        help="each pty, COLSxROWS (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds for a step of seating")
    parser.add_argument("--sessions-per-process", type=int, default=8, metavar="K")
    parser.add_argument("--profile", metavar="FILE", help="one seat is a local session whose widgets' "
                        "rendering is timed (FILE.widgets) and, with --cprofile, profiled (FILE)")
    parser.add_argument("--cprofile", action="store_true", help="--profile under cProfile too (slower)")
    args = parser.parse_args()
    if args.players < SEATS or args.players % SEATS:
        parser.error("--players must be a multiple of 4")
    if not args.find:
        print(one_run(args).summary())
        return 0
    best: Result | None = None
    first: Result | None = None
    n = args.start
    while n <= args.max:
        args.players = n
        result = one_run(args)
        first = first or result
        print(result.summary(), flush=True)
        if not result.p95_ms < args.target_ms or result.lost or result.unseated:
            print(f"  p95 {result.p95_ms:.0f} ms at {n} players: not under {args.target_ms:.0f} ms "
                  f"(or plays not seen), the search stops")
            break
        best = result
        n += args.step
    if best is None:
        print(f"no N from {args.start} kept the p95 under {args.target_ms:.0f} ms; the first run's figures:")
    print((best or first or Result(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "")).summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
