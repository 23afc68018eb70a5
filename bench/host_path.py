"""What the host's Python costs per action, from the bytes of an intent to the bytes of
every seat's update, with no sockets and no peers.

``bench/host_load.py`` measures the host over loopback, where the kernel's share and two
processes sharing two cores make the figures move from run to run.  This drives the
same code in one process: a :class:`~unotui.net.host.Host` with ``--tables`` tables of 4
seats, every seat a connection whose transport only counts the bytes written.  Each
step, every table's actor sends a legal action (chosen from the host's own game, so the
peers cost nothing) as an ``intent`` frame into its connection; at the end of a round
every seat says ``ready``.  Reports CPU microseconds per accepted action
(``process_time``, best of ``--rounds``).  The last line is exactly
``actions=N host_us_per_action=X``.
``--floor``: every update replaced by one small hand-packed delta (the diagnostic of
``bench/host_load.py --floor``), so the figure is what the host's Python costs per action
without views and deltas.
Usage: ``python bench/host_path.py [--tables 50] [--steps 400] [--rounds 3] [--floor]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unotui.engine import DEAL, ENDED_PHASES, Catch, Rules  # noqa: E402
from unotui.net.config import RoomConfig  # noqa: E402
from unotui.net.host import Host, HostLimits  # noqa: E402
from unotui.net.room import Room  # noqa: E402
from unotui.protocol import messages as m  # noqa: E402
from unotui.protocol.codec import encode  # noqa: E402
from unotui.protocol.framing import frame  # noqa: E402
from unotui.protocol.session import HostSession, Rates  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from host_load import floor_room  # noqa: E402


class Sink(asyncio.Transport):
    """A transport that takes every write and keeps only the count."""

    def __init__(self) -> None:
        super().__init__()
        self.written = 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += len(data)

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 40000) if name == "peername" else default

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


async def run(tables: int, steps: int, seed: int, floor: bool = False) -> tuple[float, int, int]:
    """(CPU seconds, accepted actions, bytes written) for ``steps`` moves at every table."""
    rules = Rules.preset("classic").with_(target_score=100_000)
    config = RoomConfig(seats=4, autostart=True, rules=rules, bot_delay=0.0, catch_grace=0.0, auto_keep=0.0)
    room_class = floor_room() if floor else Room
    rooms = {f"t{k}": room_class(f"t{k}", config, on_event=lambda _t: None) for k in range(tables)}
    rates = Rates(per_s=1e6, burst=1_000_000)
    n = tables * 4
    limits = HostLimits(max_connections=n + 8, unauthenticated_per_ip=n + 8,
                        new_per_ip_per_s=1e9, new_per_ip_burst=n + 8, per_ip=n + 8,
                        resume_reserve=0)  # no seat here resumes: the whole door is for newcomers
    host = Host(rooms, limits=limits, session_factory=lambda now: HostSession(now, rates=rates))
    sinks: list[Sink] = []
    links: dict[str, list[Any]] = {}
    for k in range(tables):
        for _seat in range(4):
            link = host._new_link()
            sink = Sink()
            link.connection_made(sink)
            link.data_received(frame(encode(m.Hello(1, 1, f"p{len(sinks)}", table=f"t{k}")), 4096))
            sinks.append(sink)
            links.setdefault(f"t{k}", []).append(link)
    rnd = random.Random(seed)
    seq = 0
    accepted = 0
    cpu = 0.0
    ready = frame(encode(m.Ready()), 4096)
    for _ in range(steps):
        for code, room in rooms.items():
            game = room.game
            assert game is not None, "the tables start when full"
            by_seat = {room.members[link]: link for link in links[code]}
            if game.phase in ENDED_PHASES:
                if DEAL in game.legal_actions(game.dealer):
                    action: Any = DEAL
                    seat = game.dealer
                else:
                    for link in links[code]:
                        link.data_received(ready)
                    continue
            else:
                seat = game.actor
                options = [a for a in game.legal_actions(seat) if not isinstance(a, Catch)]
                action = rnd.choice(options)
            seq += 1
            data = frame(encode(m.Intent(seq, action)), 4096)
            before = game.version
            t0 = time.process_time()
            by_seat[seat].data_received(data)
            cpu += time.process_time() - t0
            accepted += game.version != before
    await host.close()
    return cpu, accepted, sum(s.written for s in sinks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--floor", action="store_true", help="diagnostic: updates without views")
    args = parser.parse_args()
    results = [asyncio.run(run(args.tables, args.steps, args.seed, args.floor)) for _ in range(args.rounds)]
    best = min(r[0] / max(1, r[1]) for r in results)
    print(f"bytes per action {results[0][2] / max(1, results[0][1]):.0f}")
    print(f"actions={results[0][1]} host_us_per_action={best * 1e6:.1f}")


if __name__ == "__main__":
    main()
