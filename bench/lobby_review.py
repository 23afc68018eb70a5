"""What a game review running on the lobby's machine costs its busy tables' moves.

1. ``unotui serve`` runs in its own process on 127.0.0.1 (``bench.ssh_load.start_lobby``).
2. ``--tables`` TCP players each create a two-seat table with one computer player through
   the lobby (``LobbyClient.create``) and sit at it (``RemoteGame``); each plays a random
   legal move the moment it is its turn (the computer player answers after the lobby's
   bot delay), so every table is always busy.
3. A move's latency: from the player's intent leaving to the host's ``accepted`` coming
   back (the host's event loop, its table, the sockets): p50 and p95 over a window of
   ``--seconds``, three phases: no review running; a review running as the lobby runs it
   (one process at niceness 10: ``unotui.ui.lobby_review``); and one at niceness 0 (what
   the niceness buys).  The review is the real analysis (``unotui.review.run.review``)
   of a match to 500 between bots, started again whenever it ends, for the whole window.

The clients run in this process, on the same cores as the server and the review: the
machine is shared, so each phase prints the load average beside its figures.  The last
line is exactly ``tables=N p95_ms_idle=X p95_ms_review=X p95_ms_review_nice0=X ratio=X``
(``ratio``: with a review at niceness 10 over without).  Run: ``python
bench/lobby_review.py`` (8 tables, 20 s a phase), ``--tables 2 --seconds 5`` to smoke.

Measured on the shared 2-core machine (other work running: load 6-9), 8 tables, a move's
intent to its ``accepted``: no review p95 12.7 ms (p50 4.7); a review at niceness 10
p95 12.9 ms (p50 4.0): ratio 1.02; at niceness 0 p95 20.3 ms (p50 7.9): 1.6 times.  A
first run (20 s phases, load 9) gave 19.8 / 12.3 / 28.8 ms: the machine's noise is as
large as the niced review's cost, while the un-niced one shows every time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.ssh_load import percentile, start_lobby, stop_server  # noqa: E402
from tests.net.lan_support import Player  # noqa: E402
from tests.review.helpers import played  # noqa: E402
from unotui.engine import Rules  # noqa: E402
from unotui.net.lobby_client import LobbyClient  # noqa: E402
from unotui.net.remote import RemoteGame  # noqa: E402
from unotui.protocol import messages as m  # noqa: E402
from unotui.transcript import transcript_of  # noqa: E402

if TYPE_CHECKING:
    from unotui.net.controller import Update

REVIEWER = """
import os, sys, time
os.nice(int(sys.argv[2]))
from unotui.review.run import Settings, review
from unotui.transcript import Transcript
transcript = Transcript.loads(open(sys.argv[1]).read())
while True:
    review(transcript, Settings(), 1)
"""


class Seat(Player):
    """A table's player (the LAN tests' seeded random player, which never catches) that
    times each of its moves: from sending the intent to the host's answer."""

    def __init__(self, game: RemoteGame, rng: Random) -> None:
        self.sent_at: float | None = None
        self.latencies: list[tuple[float, float]] = []  # (when answered, ms)
        super().__init__(game, rng)

    def on_update(self, update: Update) -> None:
        now = time.perf_counter()
        if isinstance(update, m.Accepted | m.Refused) and self.sent_at is not None:
            self.latencies.append((now, (now - self.sent_at) * 1000))
            self.sent_at = None
        super().on_update(update)

    def act(self) -> None:
        busy = self.game.in_flight
        super().act()
        if not busy and self.game.in_flight:  # it sent a move (a deal included) just now
            self.sent_at = time.perf_counter()


async def started(client: LobbyClient | RemoteGame) -> None:
    """Connect, waiting out the door's limit on new connections from one address."""
    from unotui.net.controller import JoinError

    for _ in range(30):
        try:
            await client.start()
            return
        except JoinError:
            await asyncio.sleep(1.0)
    raise SystemExit("the lobby kept refusing new connections")


async def seat_tables(port: int, tables: int) -> list[Seat]:
    seats = []
    for i in range(tables):
        lobby = LobbyClient("127.0.0.1", port, name=f"p{i}")
        codes: list[str] = []
        lobby.listen(lambda u, codes=codes: codes.append(u.code) if isinstance(u, m.Created) else None)
        await started(lobby)
        lobby.create(f"bench {i}", 2, 1, Rules.preset("classic"), "medium", 30.0, False)
        for _ in range(200):
            if codes:
                break
            await asyncio.sleep(0.05)
        await lobby.close()
        game = RemoteGame("127.0.0.1", port, name=f"p{i}", table=codes[0])
        seat = Seat(game, Random(i))
        await started(game)
        seats.append(seat)
    return seats


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


async def window(seats: list[Seat], seconds: float) -> list[float]:
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    end = time.perf_counter()
    for s in seats:  # a finished match: nothing to time (the table closes); rare in a window
        s.act()
    return [ms for s in seats for when, ms in s.latencies if start <= when <= end]


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        game = played(5, rules=Rules.preset("classic"))  # a match to 500 between bots
        match = Path(tmp) / "match.json"
        match.write_text(json.dumps(transcript_of(game).to_mapping()))
        server, _ssh, port = start_lobby(4, data, 1)
        figures: dict[str, float] = {}
        try:
            seats = await seat_tables(port, args.tables)
            await asyncio.sleep(2)  # every table under way
            for phase, nice in (("idle", None), ("review", 10), ("review_nice0", 0)):
                reviewer = None
                if nice is not None:
                    argv = [sys.executable, "-c", REVIEWER, str(match), str(nice)]
                    reviewer = subprocess.Popen(argv, cwd=ROOT)
                    await asyncio.sleep(1)  # its imports done: the analysis runs
                got = await window(seats, args.seconds)
                if reviewer is not None:
                    reviewer.kill()
                    reviewer.wait()
                figures[phase] = percentile(got, 0.95)
                print(f"{phase:>13}: {len(got)} moves, p50 {percentile(got, 0.5):.1f} ms, "
                      f"p95 {figures[phase]:.1f} ms (load {load_average()})", flush=True)
            for s in seats:
                await s.game.close()
        finally:
            stop_server(server)
    ratio = figures["review"] / figures["idle"] if figures["idle"] else float("nan")
    print(f"tables={args.tables} p95_ms_idle={figures['idle']:.1f} p95_ms_review={figures['review']:.1f} "
          f"p95_ms_review_nice0={figures['review_nice0']:.1f} ratio={ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
