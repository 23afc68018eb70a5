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
import codecs
import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.ssh_load import SIZE, _cpu_seconds, _descendants, _pss_kib, percentile, start_lobby  # noqa: E402

SEATS = 4
MS = 1000
RIGHT, LEFT, ENTER, TAB, UP, CTRL_S, CTRL_Q = b"\x1b[C", b"\x1b[D", b"\r", b"\t", b"\x1b[A", b"\x13", b"\x11"

# ----- the screen ------------------------------------------------------------------------------

#: one escape sequence, complete (CSI, OSC, or a two-character escape)
_ESCAPE = re.compile(r"\x1b(?:\[([0-9;?<>=]*)[ -/]*([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)|[^\[\]])")
_TOKEN = re.compile(_ESCAPE.pattern + r"|([^\x1b\r\n]+)|(\n)|(\r)")


class Terminal:
    """The few parts of a VT100 a Textual app uses: cursor moves (CUP), text, newlines and
    screen clears; colours and modes are skipped.  Enough to read a screen's text as
    ``tmux capture-pane`` would, at a cost this process can afford for a hundred screens."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows = [" " * width] * height
        self.x = self.y = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._held = ""

    def feed(self, data: bytes) -> None:
        text = self._held + self._decoder.decode(data)
        self._held = ""
        cut = text.rfind("\x1b")
        if cut >= 0 and not _ESCAPE.match(text, cut):  # a sequence split between chunks
            text, self._held = text[:cut], text[cut:]
        rows, width = self.rows, self.width
        for match in _TOKEN.finditer(text):
            run = match.group(3)
            if run is not None:
                if 0 <= self.y < self.height and self.x < width:
                    row = rows[self.y]
                    rows[self.y] = (row[: self.x] + run + row[self.x + len(run) :])[:width]
                self.x += len(run)
            elif match.group(2) is not None:
                self._csi(match.group(1), match.group(2))
            elif match.group(4) is not None:
                self.y = min(self.y + 1, self.height - 1)
            elif match.group(5) is not None:
                self.x = 0

    def _csi(self, params: str, final: str) -> None:
        if final == "H":
            parts = [int(p) if p.isdigit() else 1 for p in params.split(";")] if params else [1, 1]
            self.y, self.x = parts[0] - 1, (parts[1] if len(parts) > 1 else 1) - 1
        elif final == "J" and params in ("2", "3"):
            self.rows = [" " * self.width] * self.height
        elif final == "K":
            row = self.rows[self.y] if 0 <= self.y < self.height else ""
            if row:
                self.rows[self.y] = row[: self.x] + " " * (self.width - self.x)

    def text(self) -> str:
        return "\n".join(self.rows)


def plain(data: bytes) -> str:
    """Output without its escape sequences (a failure's last words)."""
    return _ESCAPE.sub("", data.decode("utf-8", "replace"))


_TOP = re.compile(r"Top: (\S+)")
_INFO = re.compile(r"(\d+) cards?, (\d+) playable \(\*\)\. Selected: .*?\((\S+)\)( - playable)?")
_BOX = re.compile(r"[┌┏][^┐┓]*[┐┓]")
_DREW = re.compile(r"You drew (\S+?):")
_CODE = re.compile(r"table code ([A-Z0-9]+):")


@dataclass
class Probe:
    """One card played: when its key went, and which other seats have shown it since."""

    card: str
    sent: float
    waiting: set[int]
    by: int  # the player's own seat: its screen shows the card too, or the play never happened
    seen: dict[int, float] = field(default_factory=dict)
    played: bool = False


class Bench:
    """What every player reports to: the window, the probes, the counts."""

    def __init__(self) -> None:
        self.measuring = False
        self.collecting = False  # sightings counted: the window and a few seconds after
        self.hold = False  # the idle window: nobody decides
        self.actions = 0
        self.untimed = 0
        self.lost = 0
        self.refused = 0  # plays the player's own screen never showed (refused, or overtaken)
        self.per_seat: list[float] = []
        self.all_seats: list[float] = []
        self.probes: dict[int, list[Probe]] = {}
        self.errors: list[str] = []

    def played(self, player: Player, card: str, sent: float) -> None:
        if not self.measuring:
            return
        others = {p.index for p in player.table if p is not player}
        if card == player.top:  # the same text on top already: no change to see
            self.untimed += 1
            return
        self.probes.setdefault(player.table_no, []).append(Probe(card, sent, others, player.index))

    def shown(self, player: Player, now: float) -> None:
        probes = self.probes.get(player.table_no)
        if not probes or not self.collecting:
            return
        for probe in list(probes):
            if now - probe.sent > 10:
                probes.remove(probe)
                if probe.played:
                    self.lost += 1
                else:
                    self.refused += 1
            elif player.index == probe.by and player.top == probe.card:
                probe.played = True
            elif player.index in probe.waiting and player.top == probe.card:
                probe.waiting.discard(player.index)
                probe.seen[player.index] = now - probe.sent
                self.per_seat.append(now - probe.sent)
                if not probe.waiting:
                    self.all_seats.append(max(probe.seen.values()))
                    probes.remove(probe)
                    if os.environ.get("LOBBY_PLAY_DEBUG"):
                        slowest = max(probe.seen, key=probe.seen.__getitem__)
                        times = sorted(round(v * MS) for v in probe.seen.values())
                        print(f"probe {probe.card} table {player.table_no} {times} slowest p{slowest:03d}",
                              file=sys.stderr)


class Player:
    """One seat: a terminal fed by a transport (SSH or a local pty), and the keys a person
    would press from what it shows."""

    def __init__(self, index: int, name: str, bench: Bench, rng: random.Random, think: tuple[float, float],
                 size: tuple[int, int]) -> None:
        self.index = index
        self.name = name
        self.bench = bench
        self.rng = rng
        self.think = think
        self.screen = Terminal(*size)
        self.changed = asyncio.Event()
        self.top = ""
        self._top_row = -1
        self.table: list[Player] = []
        self.table_no = -1
        self.write: Callable[[bytes], None] = lambda _data: None
        self.closed = False
        self.over = False
        self.acted = 0  # game actions in the window
        self.tail = b""  # the last output, raw: what a failure shows

    # ----- what it sees ---------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        self.tail = (self.tail + data)[-16384:]
        self.screen.feed(data)
        now = time.perf_counter()
        rows = self.screen.rows
        top = ""
        if 0 <= self._top_row < len(rows) and (match := _TOP.search(rows[self._top_row])):
            top = match.group(1)
        else:
            for number, row in enumerate(rows):
                if "Top: " in row and (match := _TOP.search(row)):
                    top, self._top_row = match.group(1), number
                    break
        if top and top != self.top:
            self.top = top
            self.bench.shown(self, now)
        self.changed.set()

    def has(self, text: str) -> bool:
        return any(text in row for row in self.screen.rows)

    async def until(self, test: Callable[[], Any], timeout: float, what: str) -> Any:
        deadline = time.perf_counter() + timeout
        while not (found := test()):
            left = deadline - time.perf_counter()
            if left <= 0 or self.closed:
                why = "the session closed" if self.closed else f"no {what} in {timeout:.0f} s"
                raise TimeoutError(f"{self.name}: {why}; screen:\n{self.screen.text()}\nlast output, "
                                   f"text only:\n{plain(self.tail)[-3000:]}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
        return found

    def status(self) -> str:
        return self.screen.rows[0]

    def in_round(self) -> bool:
        return self.status().startswith(" Round ")

    def in_lobby(self) -> bool:
        return self.has("online")

    def hand(self) -> tuple[int, int, list[bool], str, bool] | None:
        """(cards, selected position, playable flags of the cards shown, selected card's
        text, whether it is playable), read from the hand's top frame and info line."""
        rows = self.screen.rows
        for number in range(len(rows) - 1, 0, -1):
            info = _INFO.search(rows[number])
            if info is None:
                continue
            top = number - 1
            while top > 0 and not any(c in rows[top] for c in "┌┏"):
                top -= 1
            boxes = _BOX.findall(rows[top])
            selected = next((i for i, box in enumerate(boxes) if box[0] == "┏"), -1)
            if selected < 0:
                return None
            flags = ["*" in box for box in boxes]
            return int(info.group(1)), selected, flags, info.group(3), bool(info.group(4))
        return None

    # ----- what it does ---------------------------------------------------------------

    def press(self, keys: bytes, action: bool = True) -> None:
        self.write(keys)
        if action and self.bench.measuring:
            self.bench.actions += 1
            self.acted += 1

    async def pause(self) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))

    async def play(self) -> None:
        """Play until the match is over or the bench closes the session."""
        while not self.closed:
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 2)
            state = self.state()
            if state is None or self.bench.hold:
                continue
            await self.pause()
            if self.bench.hold or self.state() != state:  # the moment passed (the table acted, a dialog)
                continue
            before = self.status()

            def moved(before: str = before) -> bool:
                return self.status() != before or self.state() is None

            await self.decide(state)
            with contextlib.suppress(TimeoutError):
                await self.until(moved, 5, "change")

    def state(self) -> str | None:
        """What the screen asks of this player now, if anything."""
        if self.has("Enter: next round."):
            return "summary"
        status = self.status()
        if "won the match" in status:
            self.over = True
            return None
        for key in ("Name a colour", "challenge (x) or accept", "You drew", "Your turn"):
            if key in status:
                return key
        return None

    async def decide(self, state: str) -> None:
        if state == "summary":
            self.press(b" ", action=False)
        elif state == "Name a colour":
            self.press(self.rng.choice(b"rygb").to_bytes(1, "big"))
        elif state == "challenge (x) or accept":
            self.press(b"a")
        elif state == "You drew":
            if "can't be played" in self.status():
                self.press(b"k")
            else:
                drew = _DREW.search(self.status())
                sent = time.perf_counter()
                self.press(ENTER)
                if drew:
                    self.bench.played(self, drew.group(1), sent)
        else:
            await self.turn()

    async def turn(self) -> None:
        hand = self.hand()
        if hand is None:
            return
        count, selected, playable, _card, _ok = hand
        choices = [i for i, ok in enumerate(playable) if ok]
        if not choices:
            self.press(b"d")
            return
        target = self.rng.choice(choices)
        moves = target - selected
        if moves:
            self.press((RIGHT if moves > 0 else LEFT) * abs(moves), action=False)
            try:
                hand = await self.until(
                    lambda: (h := self.hand()) is not None and h[4] and h[1] == target and h, 3, "selection")
            except TimeoutError:
                return
            count, selected, playable, _card, _ok = hand
        card = hand[3]
        sent = time.perf_counter()
        self.press(b"u" if count == 2 else ENTER)
        self.bench.played(self, card, sent)


# ----- the transports ----------------------------------------------------------------------------


class SshSeat:
    """A player's asyncssh client with a pty."""

    def __init__(self, player: Player, port: int) -> None:
        self.player = player
        self.port = port
        self._conn: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self, size: tuple[int, int]) -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        self._conn = await asyncssh.connect(
            "127.0.0.1", self.port, username=self.player.name, known_hosts=None, client_keys=[key],
            agent_path=None, encoding=None,
        )
        proc = await self._conn.create_process(term_type="xterm-256color", term_size=size)
        self.player.write = proc.stdin.write
        self._reader = asyncio.ensure_future(self._read(proc))

    async def _read(self, proc: Any) -> None:
        while True:
            chunk = await proc.stdout.read(65536)
            if not chunk:
                self.player.closed = True
                return
            self.player.feed(chunk)

    async def close(self) -> None:
        self.player.closed = True
        if self._reader is not None:
            self._reader.cancel()
        if self._conn is not None:
            self._conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._conn.wait_closed(), 5)


#: what the profiled seat's process runs: the lobby app on its pty (as ``python -m unotui.ssh
#: --local``), with each widget's ``render_lines`` and each screen update of the compositor
#: timed (per widget class and id) and, unless UNOTUI_BENCH_CPROFILE is empty, under cProfile
_PROFILED = r"""
import collections, cProfile, os, runpy, sys, time
from textual._compositor import Compositor
from textual.widget import Widget

spent = collections.defaultdict(lambda: [0, 0.0, 0])
def timed(name, original):
    def run(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return original(self, *args, **kwargs)
        finally:
            key = name(self)
            entry = spent[key]
            entry[0] += 1
            entry[1] += time.perf_counter() - start
    return run
Widget.render_lines = timed(lambda w: type(w).__name__ + ("#" + w.id if w.id else ""), Widget.render_lines)
Compositor.render_update = timed(lambda c: "screen update (all of it)", Compositor.render_update)
out = os.environ["UNOTUI_BENCH_PROFILE"]
profile = cProfile.Profile() if os.environ.get("UNOTUI_BENCH_CPROFILE") else None
sys.argv = ["unotui.ssh", *sys.argv[1:]]
if profile is not None:
    profile.enable()
try:
    runpy.run_module("unotui.ssh", run_name="__main__")
except SystemExit:
    pass
finally:
    if profile is not None:
        profile.disable()
        profile.dump_stats(out)
    with open(out + ".widgets", "w") as file:
        for key, (calls, seconds, _) in sorted(spent.items(), key=lambda kv: -kv[1][1]):
            file.write(f"{key}\t{calls}\t{seconds * 1000:.1f}\n")
"""


class LocalSeat:
    """A player's session as a local process on a pty (``--profile``): the lobby app,
    its widgets' rendering timed and, with ``cprofile``, all of it under cProfile."""

    def __init__(self, player: Player, tcp_port: int, profile: Path, cprofile: bool) -> None:
        self.player = player
        self.tcp_port = tcp_port
        self.profile = profile
        self.cprofile = cprofile
        self.child: subprocess.Popen[bytes] | None = None
        self._master = -1

    async def open(self, size: tuple[int, int]) -> None:
        import fcntl
        import struct
        import termios
        import tty

        master, slave = os.openpty()
        tty.setraw(slave)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "USER": self.player.name, "UNOTUI_BENCH_PROFILE": str(self.profile),
               "UNOTUI_BENCH_CPROFILE": "1" if self.cprofile else ""}
        env.pop("COLORTERM", None)
        self.child = subprocess.Popen(
            [sys.executable, "-c", _PROFILED, "--local",
             "--entry", "unotui.lobby.session:run", "--extra", "host=127.0.0.1",
             "--extra", f"port={self.tcp_port}"],
            stdin=slave, stdout=slave, stderr=slave, start_new_session=True, cwd=ROOT, env=env,
        )
        os.close(slave)
        self._master = master

        def write(data: bytes) -> None:
            os.write(master, data)

        self.player.write = write
        asyncio.get_running_loop().add_reader(master, self._read)

    def _read(self) -> None:
        try:
            chunk = os.read(self._master, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            asyncio.get_running_loop().remove_reader(self._master)
            self.player.closed = True
            return
        self.player.feed(chunk)

    async def close(self) -> None:
        """Quit as a player does (Ctrl+Q, then y), so that the profile is written."""
        child = self.child
        if child is None:
            return
        self.player.write(CTRL_Q)
        await asyncio.sleep(1)
        self.player.write(b"y")
        for _ in range(100):
            if child.poll() is not None:
                break
            await asyncio.sleep(0.1)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGINT)
            await asyncio.sleep(2)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        with contextlib.suppress(OSError, ValueError):
            asyncio.get_running_loop().remove_reader(self._master)
        os.close(self._master)
        self.player.closed = True


# ----- seating ---------------------------------------------------------------------------------


async def create_table(player: Player, timeout: float) -> str:
    """The creator's keys: a new table with no computer players; returns its code."""
    player.press(b"n", action=False)
    await player.until(lambda: player.has("A new table"), timeout, "new-table form")
    player.press(TAB + TAB, action=False)
    await asyncio.sleep(0.3)
    player.press(ENTER, action=False)
    await player.until(lambda: player.has("  9  "), timeout, "computer players list")
    player.press(UP + UP + ENTER, action=False)
    await player.until(lambda: re.search(r"Computer players\s+\S\s+0\s", player.screen.text()), timeout,
                       "0 computer players")
    player.press(CTRL_S, action=False)
    found = await player.until(lambda: _CODE.search(player.screen.text()), timeout, "table code")
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
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
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
