"""The players of ``bench/lobby_play.py``: a terminal emulator that reads what a session's
screen shows, the seat that presses the keys a person would from it (over SSH, or on a
local pty for the profile), and the bench they report their plays and sightings to.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from bench.ssh_load import hang_up

ROOT = Path(__file__).resolve().parent.parent  # where a local seat's program runs


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
TABLE_CODE = re.compile(r"table code ([A-Z0-9]+):")


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
        await hang_up(self._conn, self._reader)


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
