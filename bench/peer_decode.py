"""What a client's strict parsing costs per frame, on frames a real host sent.

1. Records: runs ``bench/host_load.py``'s host with ``--peers`` peers (random legal
   moves, as in that bench) for ``--seconds`` and keeps every frame body each peer got
   (or loads them from ``--frames FILE``, written by ``--save FILE``).
2. Measures, best of ``--rounds``, CPU microseconds per frame (``process_time``) of
   ``decode_host`` alone (what ``host_load.py``'s peers do) and of ``decode_host`` +
   ``ViewDecoder.apply`` per peer stream (what a ``PeerSession`` does).

The last line is exactly ``frames=N decode_us=X apply_us=X``.
Usage: ``python bench/peer_decode.py [--peers 40] [--seconds 3] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unotui.protocol import messages as m  # noqa: E402
from unotui.protocol.codec import decode_host  # noqa: E402
from unotui.protocol.sync import ViewDecoder  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import host_load  # noqa: E402


class Recorder(host_load.Peer):
    """A bench peer that keeps every body it parsed."""

    def __init__(self, stats: host_load.Stats, table: str, seed: int) -> None:
        super().__init__(stats, table, seed)
        self.bodies: list[bytes] = []
        feed = self.frames.feed

        def keep(data: bytes) -> list[bytes]:
            bodies = feed(data)
            self.bodies += bodies
            return bodies

        self.frames.feed = keep  # type: ignore[method-assign]


async def record(peers: int, seconds: float) -> list[list[bytes]]:
    seats = 4
    tables = peers // seats
    script = str(ROOT / "bench" / "host_load.py")
    proc, port = host_load._start([script, "--serve-host", str(tables), str(seats)])
    try:
        stats = host_load.Stats()
        factories = [
            (lambda t=t, s=s: Recorder(stats, f"t{t}", t * 97 + s))
            for t in range(tables)
            for s in range(seats)
        ]
        conns = await host_load._connect_all(factories, port)
        await asyncio.wait_for(asyncio.gather(*(p.welcomed for p in conns)), 60)
        await asyncio.sleep(seconds)
        for p in conns:
            if p.transport is not None:
                p.transport.close()
    finally:
        host_load._stop(proc)
    if stats.errors:
        raise SystemExit(f"errors while recording: {stats.errors[:3]}")
    return [p.bodies for p in conns]


def decode_only(streams: list[list[bytes]]) -> float:
    t0 = time.process_time()
    for bodies in streams:
        for body in bodies:
            decode_host(body)
    return time.process_time() - t0


def decode_apply(streams: list[list[bytes]]) -> float:
    t0 = time.process_time()
    for bodies in streams:
        views = ViewDecoder()
        for body in bodies:
            msg = decode_host(body)
            if type(msg) is m.Delta or type(msg) is m.Snapshot:
                views.apply(msg)
    return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peers", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--frames", type=Path, help="load recorded frames instead of recording")
    parser.add_argument("--save", type=Path, help="save the recorded frames here")
    args = parser.parse_args()
    if args.frames:
        streams = msgpack.unpackb(args.frames.read_bytes())
    else:
        streams = asyncio.run(record(args.peers, args.seconds))
        if args.save:
            args.save.write_bytes(msgpack.packb(streams, use_bin_type=True))
    n = sum(map(len, streams))
    kinds: dict[str, int] = {}
    for bodies in streams:
        for body in bodies:
            kind = type(decode_host(body)).__name__
            kinds[kind] = kinds.get(kind, 0) + 1
    print(f"frames={n} " + " ".join(f"{k}={v}" for k, v in sorted(kinds.items())))
    best_d = min(decode_only(streams) for _ in range(args.rounds))
    best_a = min(decode_apply(streams) for _ in range(args.rounds))
    print(f"frames={n} decode_us={best_d / n * 1e6:.2f} apply_us={best_a / n * 1e6:.2f}")


if __name__ == "__main__":
    main()
