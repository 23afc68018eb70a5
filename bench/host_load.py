"""Many peers at many tables on one host process, against a bare echo server.

1. A host process (``unotui.net.host.Host``) serves ``peers / seats`` tables; every seat
   is a remote peer (no computer players at the host), the table starts when full.
2. This process runs every peer on one event loop: on its turn each sends a random legal
   action at once (the "bots deciding instantly"); between rounds it says ready.  During
   the warm-up every frame the host sends goes through the real strict parser
   (``decode_host``); while measuring, the peers decode frames as the echo peers do (one
   ``msgpack.unpackb``, then read the fields they act on), so that both phases put the
   same client work beside the server: the thousand peers stand for a thousand
   machines, and their parsing is not the host's cost.  ``--strict-peers`` keeps the
   strict parser all along (the peers' process then costs about as much as the host).
3. Measured over ``--seconds`` after a warm-up: actions per second (intents the host
   accepted), the latency from a peer's intent to the update answering it (p50/p99),
   bytes the host sent per action, and the host's memory (PSS).
4. The ceiling, in the same run: the same peers against ``bench/echo_server.py``, a bare
   length-prefixed msgpack server that fans each frame out to the sender's table (as
   the host broadcasts an update), with the next seat answering, frames of the host's
   average size.  ``ratio`` = host actions/s over echo actions/s.

``--floor`` is a diagnostic, not the product: the host runs as it is except that each
update is one small hand-packed delta per seat (actor, phase, dealer and the seat's legal
actions: no views, no diffs, no log).  Its ratio is the most that any faster way of
bringing seats up to date could give on this machine, since everything else the host does
per action (sockets, the protocol session, the referee, the engine) is still paid.

Two processes on two cores: the server side and the peers.  The last line is exactly
``peers=N host_actions_per_s=N echo_actions_per_s=N ratio=R p99_ms=N``.
Run: ``python bench/host_load.py`` (1000 peers, 30 s windows after 5 s warm-ups, about
80 s in all), ``--peers 40 --seconds 1`` for a smoke run (the warm-up is a sixth of the
window unless ``--warmup`` says otherwise).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unotui.engine import DEAL, Catch, Phase, Rules  # noqa: E402
from unotui.protocol import messages as m  # noqa: E402
from unotui.protocol.codec import decode_host, encode  # noqa: E402
from unotui.protocol.framing import FrameDecoder, frame  # noqa: E402

_LEN = struct.Struct(">I")
#: how long a peer whose intent was refused waits before it looks again
RETRY_S = 0.01


# ----- the host process ------------------------------------------------------------------------


def floor_room() -> Callable[..., Any]:
    """A :class:`Room` whose updates cost next to nothing (``--floor``, see the docstring;
    ``bench/host_path.py --floor`` uses it too): its table core sends a small hand-packed
    delta instead of views."""
    from unotui.net.core import TableCore
    from unotui.net.room import Room
    from unotui.protocol.framing import pack_body
    from unotui.protocol.values import action_out

    class FloorCore(TableCore[Any]):
        def _send_views(self) -> None:
            game = self.game
            if game is None:
                return
            public = {"actor": game.actor, "phase": game.phase.value, "dealer": game.dealer}
            for member, seat in self.members.items():
                legal = [action_out(a) for a in game.legal_actions(seat)] if seat is not None else []
                body = pack_body({"t": "delta", "log_at": 0, "log": [], "set": {**public, "legal": legal}})
                self.audience.outbox[member]._out += _LEN.pack(len(body)) + body  # type: ignore[attr-defined]
            self.audience.dirty.update(self.members)

    def floor(code: str, config: Any, **kwargs: Any) -> Room:
        return Room(code, config, core=FloorCore(code, config), **kwargs)

    return floor


async def _serve_host(tables: int, seats: int, floor: bool = False) -> None:
    from unotui.net.config import RoomConfig
    from unotui.net.host import Host, HostLimits
    from unotui.net.room import Room
    from unotui.protocol.session import HostSession, Rates

    room_class = floor_room() if floor else Room

    rules = Rules.preset("classic").with_(target_score=100_000)
    config = RoomConfig(
        seats=seats, autostart=True, rules=rules, bot_delay=0.0, catch_grace=0.0, auto_keep=0.0
    )
    rooms = {f"t{k}": room_class(f"t{k}", config, on_event=lambda _t: None) for k in range(tables)}
    rates = Rates(per_s=1000, burst=1000)
    limits = HostLimits(
        max_connections=tables * seats + 64,
        unauthenticated_per_ip=tables * seats + 64,
        new_per_ip_per_s=1e6,
        new_per_ip_burst=tables * seats + 64,
        per_ip=tables * seats + 64,  # every player comes from 127.0.0.1
    )
    host = Host(rooms, limits=limits, session_factory=lambda now: HostSession(now, rates=rates))
    bound = await host.listen("127.0.0.1", 0)
    print(f"port={bound[0][1]}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await host.close()


def _pss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


# ----- peers -----------------------------------------------------------------------------------


class Stats:
    """What the peers saw in the measuring window."""

    def __init__(self) -> None:
        self.measuring = False
        self.actions = 0
        self.latencies: list[float] = []
        self.bytes_in = 0
        self.frames_in = 0
        self.errors: list[str] = []


class Peer(asyncio.Protocol):
    """One seat at a hosted table, played by a random legal policy with no delay."""

    def __init__(
        self, stats: Stats, table: str, seed: int, strict: bool = False, floor: bool = False
    ) -> None:
        self.stats = stats
        self.strict = strict
        self.floor = floor  # the --floor host's updates are not views: plain decoding all along
        self.table = table
        self.rng = random.Random(seed)
        self.frames = FrameDecoder(256 * 1024)
        self.transport: asyncio.Transport | None = None
        self.welcomed = asyncio.get_running_loop().create_future()
        self.seat: int | None = None
        self.state: dict[str, Any] = {}
        self.seq = 0
        self.sent_at: dict[int, float] = {}
        self.waiting = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        hello = m.Hello(1, 1, f"p{self.table}", table=self.table, client="bench")
        transport.write(frame(encode(hello), 4096))

    def data_received(self, data: bytes) -> None:
        stats = self.stats
        if stats.measuring:
            stats.bytes_in += len(data)
        try:
            for body in self.frames.feed(data):
                if stats.measuring:
                    stats.frames_in += 1
                if (stats.measuring or self.floor) and not self.strict:
                    wire = msgpack.unpackb(body, raw=False, strict_map_key=True)
                    if wire["t"] != "welcome":
                        self.handle_plain(wire)
                        continue
                self.handle(decode_host(body))
        except Exception as exc:  # a bench must report, not hang
            stats.errors.append(repr(exc))
            if self.transport is not None:
                self.transport.close()

    def handle_plain(self, wire: dict[str, Any]) -> None:
        """A frame as plain msgpack (the measuring window, unless ``--strict-peers``)."""
        kind = wire["t"]
        if kind == "delta":
            changes = wire["set"]
            for key in ("legal", "actor", "phase", "dealer"):
                if key in changes:
                    self.state[key] = changes[key]
            self.act()
        elif kind == "accepted":
            self.handle(m.Accepted(wire["seq"]))
        elif kind == "refused":
            self.handle(m.Refused(wire["seq"], wire["code"], wire["message"]))
        elif kind == "snapshot":
            view = wire["view"]
            self.state = {f: view[f] for f in ("legal", "actor", "phase", "dealer")}
            self.act()
        elif kind in ("error", "closed"):
            self.stats.errors.append(f"{wire['code']}: {wire['message']}")

    def handle(self, msg: Any) -> None:
        if isinstance(msg, m.Welcome):
            self.seat = msg.seat
            self.welcomed.set_result(None)
        elif isinstance(msg, m.Snapshot):
            v = msg.view
            self.state = {f: getattr(v, f) for f in ("legal", "actor", "phase", "dealer")}
            self.act()
        elif isinstance(msg, m.Delta):
            for key in ("legal", "actor", "phase", "dealer"):
                if key in msg.changes:
                    self.state[key] = msg.changes[key]
            self.act()
        elif isinstance(msg, m.Accepted):
            at = self.sent_at.pop(msg.seq, None)
            self.waiting = False
            if at is not None and self.stats.measuring:
                self.stats.actions += 1
                self.stats.latencies.append(time.perf_counter() - at)
            self.act()
        elif isinstance(msg, m.Refused):
            self.sent_at.pop(msg.seq or -1, None)
            self.waiting = False
            # A person tries again: a dealer refused "not_ready" (the others' "ready" was
            # still on its way) hears nothing more, and its table would stall for good.
            asyncio.get_running_loop().call_later(RETRY_S, self.act)
        elif isinstance(msg, m.Error | m.Closed):
            self.stats.errors.append(f"{msg.code}: {msg.message}")

    def act(self) -> None:
        if self.waiting or self.transport is None:
            return
        st = self.state
        phase, legal = st.get("phase"), st.get("legal") or ()
        if phase == Phase.ROUND_OVER:
            if DEAL in legal or "deal" in legal:
                self.send(self._seq(), DEAL)
            elif not st.get("ready_sent"):
                st["ready_sent"] = True
                self.transport.write(frame(encode(m.Ready()), 4096))
            return
        st.pop("ready_sent", None)
        if st.get("actor") != self.seat:
            return
        options = [a for a in legal if not isinstance(a, Catch) and not str(a).startswith("catch")]
        if options:
            self.send(self._seq(), self.rng.choice(options))

    def _seq(self) -> int:
        self.seq += 1
        return self.seq

    def send(self, seq: int, action: Any) -> None:
        """An intent: ``action`` is an engine action, or its text form (plain decoding)."""
        assert self.transport is not None
        self.waiting = True
        self.sent_at[seq] = time.perf_counter()
        if isinstance(action, str):  # what encode(Intent) packs for it, byte for byte
            body = msgpack.packb({"t": "intent", "seq": seq, "action": action})
            self.transport.write(_LEN.pack(len(body)) + body)
        else:
            self.transport.write(frame(encode(m.Intent(seq, action)), 4096))


class EchoPeer(asyncio.Protocol):
    """One seat against the echo server: answers the frame that makes it next."""

    def __init__(self, stats: Stats, table: str, seat: int, seats: int) -> None:
        self.stats, self.table, self.seat, self.seats = stats, table, seat, seats
        self.buf = bytearray()
        self.transport: asyncio.Transport | None = None
        self.sent_at: dict[int, float] = {}

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        body = msgpack.packb({"t": "hello", "table": self.table, "seat": self.seat})
        transport.write(_LEN.pack(len(body)) + body)

    def kick(self) -> None:
        self.send(1)

    def send(self, seq: int) -> None:
        assert self.transport is not None
        body = msgpack.packb({"t": "intent", "seq": seq, "action": "R5"})
        self.sent_at[seq] = time.perf_counter()
        self.transport.write(_LEN.pack(len(body)) + body)

    def data_received(self, data: bytes) -> None:
        stats = self.stats
        self.buf += data
        while len(self.buf) >= 4:
            (size,) = _LEN.unpack_from(self.buf)
            if len(self.buf) < 4 + size:
                return
            msg = msgpack.unpackb(bytes(self.buf[4 : 4 + size]), raw=False, strict_map_key=True)
            del self.buf[: 4 + size]
            seq = msg["seq"]
            at = self.sent_at.pop(seq, None)
            if at is not None and stats.measuring:
                stats.actions += 1
                stats.latencies.append(time.perf_counter() - at)
            if seq % self.seats == self.seat:  # the next seat's turn is ours
                self.send(seq + 1)


# ----- running ---------------------------------------------------------------------------------


def _start(args: list[str]) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("port="):
        proc.kill()
        raise SystemExit(f"server did not start: {line!r}")
    return proc, int(line.split("=")[1])


def _stop(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


async def _connect_all(factories: list[Any], port: int) -> list[Any]:
    loop = asyncio.get_running_loop()
    peers = []
    for start in range(0, len(factories), 100):  # in batches: the listen backlog is finite
        batch = factories[start : start + 100]
        made = await asyncio.gather(*(loop.create_connection(f, "127.0.0.1", port) for f in batch))
        peers += [p for _t, p in made]
    return peers


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) the process ``pid`` has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


async def _measure(stats: Stats, warmup: float, seconds: float, server: int) -> tuple[float, float, float]:
    """Wait out the warm-up, then measure: (seconds, server CPU %, peers' CPU %)."""
    await asyncio.sleep(warmup)
    stats.measuring = True
    t0, s0, c0 = time.perf_counter(), _cpu_s(server), time.process_time()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    server_pct = (_cpu_s(server) - s0) / elapsed * 100
    return elapsed, server_pct, (time.process_time() - c0) / elapsed * 100


async def run_host_phase(
    peers: int, seats: int, warmup: float, seconds: float, strict: bool = False, floor: bool = False
) -> dict[str, float]:
    tables = peers // seats
    server = os.environ.get("HOST_LOAD_SERVER", str(Path(__file__)))
    proc, port = _start([server, "--serve-host", str(tables), str(seats), *(["--floor"] if floor else [])])
    try:
        stats = Stats()
        factories = [
            (lambda t=t, s=s: Peer(stats, f"t{t}", t * 97 + s, strict, floor))
            for t in range(tables)
            for s in range(seats)
        ]
        conns = await _connect_all(factories, port)
        await asyncio.wait_for(asyncio.gather(*(p.welcomed for p in conns)), 60)
        elapsed, server_cpu, peers_cpu = await _measure(stats, warmup, seconds, proc.pid)
        pss = _pss_mib(proc.pid)
        for p in conns:
            if p.transport is not None:
                p.transport.close()
    finally:
        _stop(proc)
    if stats.errors:
        print(f"host phase errors: {len(stats.errors)}, first: {stats.errors[0]}", file=sys.stderr)
    lat = sorted(stats.latencies) or [float("nan")]
    return {
        "actions_per_s": stats.actions / elapsed,
        "p50_ms": statistics.median(lat) * 1000,
        "p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
        "bytes_per_action": stats.bytes_in / max(1, stats.actions),
        "frame_bytes": stats.bytes_in / max(1, stats.frames_in),
        "host_pss_mib": pss,
        "actions": stats.actions,
        "server_cpu": server_cpu,
        "peers_cpu": peers_cpu,
        "server_us_per_action": server_cpu / 100 * elapsed / max(1, stats.actions) * 1e6,
    }


async def run_echo_phase(
    peers: int, seats: int, warmup: float, seconds: float, frame_bytes: int
) -> dict[str, float]:
    tables = peers // seats
    echo = str(Path(__file__).with_name("echo_server.py"))
    proc, port = _start([echo, "--reply-size", str(max(0, frame_bytes - 20))])
    try:
        stats = Stats()
        factories = [
            (lambda t=t, s=s: EchoPeer(stats, f"t{t}", s, seats)) for t in range(tables) for s in range(seats)
        ]
        conns = await _connect_all(factories, port)
        await asyncio.sleep(0.5)  # every hello has arrived
        for p in conns:
            if p.seat == 0:
                p.kick()
        elapsed, server_cpu, peers_cpu = await _measure(stats, warmup, seconds, proc.pid)
        for p in conns:
            if p.transport is not None:
                p.transport.close()
    finally:
        _stop(proc)
    lat = sorted(stats.latencies) or [float("nan")]
    return {
        "actions_per_s": stats.actions / elapsed,
        "p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
        "server_cpu": server_cpu,
        "peers_cpu": peers_cpu,
        "server_us_per_action": server_cpu / 100 * elapsed / max(1, stats.actions) * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peers", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--warmup", type=float, default=None, help="seconds before measuring (default: a sixth of --seconds)"
    )
    parser.add_argument(
        "--strict-peers", action="store_true", help="peers parse every frame strictly while measuring too"
    )
    parser.add_argument(
        "--floor", action="store_true", help="diagnostic: updates without views (see the docstring)"
    )
    parser.add_argument(
        "--serve-host", nargs=2, type=int, metavar=("TABLES", "SEATS"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.serve_host:
        tables, seats = args.serve_host
        asyncio.run(_serve_host(tables, seats, floor=args.floor))
        return
    gc.freeze()
    if args.warmup is None:
        args.warmup = args.seconds / 6
    peers = args.peers - args.peers % args.seats
    if args.floor and args.strict_peers:
        parser.error("--floor sends no views for a strict parser to read")
    host = asyncio.run(
        run_host_phase(peers, args.seats, args.warmup, args.seconds, args.strict_peers, args.floor)
    )
    echo = asyncio.run(
        run_echo_phase(peers, args.seats, args.warmup, args.seconds, round(host["frame_bytes"]))
    )
    ratio = host["actions_per_s"] / echo["actions_per_s"] if echo["actions_per_s"] else float("nan")
    print(f"tables={peers // args.seats} seats={args.seats} window_s={args.seconds:g} cpus={os.cpu_count()}")
    print(
        f"host: {host['actions_per_s']:.0f} actions/s, "
        f"p50 {host['p50_ms']:.1f} ms, p99 {host['p99_ms']:.1f} ms, "
        f"{host['bytes_per_action']:.0f} bytes/action ({host['frame_bytes']:.0f} per frame), "
        f"host PSS {host['host_pss_mib']:.1f} MiB, "
        f"CPU host {host['server_cpu']:.0f}% peers {host['peers_cpu']:.0f}%, "
        f"host CPU {host['server_us_per_action']:.0f} us/action"
        + (" (strict peers)" if args.strict_peers else "")
        + (" (FLOOR: updates without views, a diagnostic)" if args.floor else "")
    )
    print(
        f"echo: {echo['actions_per_s']:.0f} actions/s, p99 {echo['p99_ms']:.1f} ms, "
        f"CPU echo {echo['server_cpu']:.0f}% peers {echo['peers_cpu']:.0f}%, "
        f"echo CPU {echo['server_us_per_action']:.0f} us/action"
    )
    print(
        f"peers={peers} host_actions_per_s={host['actions_per_s']:.0f} "
        f"echo_actions_per_s={echo['actions_per_s']:.0f} ratio={ratio:.2f} p99_ms={host['p99_ms']:.0f}"
    )


if __name__ == "__main__":
    main()
