"""Connections that abuse time and volume: slowloris, floods, half-open and silent peers,
peers that never read.  Each gets its defined outcome while the match at the other table
runs to its end (tests/net/test_limits.py has the single-connection versions)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import socket

import pytest

from tests.net.lan_support import FAST, hello_frame, until
from unotui.net.config import RoomConfig
from unotui.net.host import HostLimits
from unotui.protocol import messages as m

from .arena import TIMING, RawPeer, arena, size

pytestmark = pytest.mark.timeout(60)

DOOR = {"timeout", "too_many_connections", "too_many_unauthenticated", "too_many_new_connections"}


async def _drip(port: int, source: str, every: float) -> str:
    """Connect and send a hello one byte at a time; the code the host ends it with."""
    try:
        peer = await RawPeer.connect(port, source)
    except (OSError, TimeoutError):
        return "refused_by_kernel"
    hello = hello_frame("Slow", table="target")

    async def drip() -> None:
        with contextlib.suppress(OSError, ConnectionError):
            for byte in hello:
                peer.write(bytes([byte]))
                await peer.writer.drain()
                await asyncio.sleep(every)

    task = asyncio.create_task(drip())
    try:
        return await peer.error(timeout=10)
    finally:
        task.cancel()
        peer.close()


@pytest.mark.parametrize("count", [size(300, 300)])
async def test_slowloris_connections_time_out_or_are_refused_at_the_door(count: int) -> None:
    async with arena() as a:
        await a.start_legit()
        # Ten connections from one address (four get in: the per-address cap), then four
        # from each of count/4 addresses, past the host's 256 connections in all.
        sources = ["127.0.6.250"] * 10 + [f"127.0.6.{1 + k // 4}" for k in range(count)]
        codes = await asyncio.gather(*(_drip(a.port, s, 0.05) for s in sources))
        assert set(codes) <= DOOR, set(codes) - DOOR
        assert codes[:10].count("too_many_unauthenticated") == 6
        if count + 4 + 2 > 256:
            assert codes.count("too_many_connections") == count + 4 + 2 - 256
        assert codes.count("timeout") == min(count + 4, 254)  # a frame must complete within 0.5 s here
        assert not a.host._waiting and not a.host._unauth  # nothing left half-open at the door
        await a.legit_intact()


async def test_floods_a_message_flood_is_closed_a_chat_flood_only_refused() -> None:
    async with arena() as a:
        await a.start_legit()
        flooder = await RawPeer.seated(a.port, "Flood", source="127.0.7.1")
        flooder.write(b"".join(_ping(n) for n in range(100)))
        assert await flooder.error() == "rate_limited"
        chatter = await RawPeer.seated(a.port, "Chatty", source="127.0.7.2")
        for n in range(8):
            chatter.send(m.Chat(f"line {n}"))
        await chatter.wait(lambda x: isinstance(x, m.Refused))
        chatter.send(m.Ping(7))
        await chatter.wait(lambda x: isinstance(x, m.Pong) and x.n == 7)
        lines = [x for x in chatter.heard if isinstance(x, m.ChatLine)]
        refused = [x for x in chatter.heard if isinstance(x, m.Refused)]
        assert len(lines) == 5 and {r.code for r in refused} == {"rate_limited"} and len(refused) == 3
        assert all(r.seq is None for r in refused)
        # A connection flood from one address: past the burst, the door says so.
        codes = []
        for _ in range(8):
            peer = await RawPeer.connect(a.port, "127.0.7.3")
            peer.write(hello_frame("Again", table="target", spectate=True))
            got = await peer.wait(lambda x: isinstance(x, m.Welcome | m.Error))
            codes.append(got.code if isinstance(got, m.Error) else "welcome")
            peer.close()
        assert codes[:5] == ["welcome"] * 5 and "too_many_new_connections" in codes[5:]
        chatter.close()
        await a.legit_intact()


def _ping(n: int) -> bytes:
    from unotui.protocol.codec import encode
    from unotui.protocol.framing import frame

    return frame(encode(m.Ping(n)), 4096)


async def test_half_open_and_silent_peers_lose_the_connection_but_keep_the_seat() -> None:
    target = RoomConfig(name="Target", seats=3, bots=1, autostart=True, **FAST)
    async with arena(target) as a:
        await a.start_legit()
        room = a.rooms["target"]
        half = await RawPeer.seated(a.port, "Half", source="127.0.8.1")
        silent = await RawPeer.seated(a.port, "Silent", source="127.0.8.2")
        await until(lambda: room.status == "playing")
        # Half-open: the peer closes its sending side and keeps reading.
        half.writer.write_eof()
        await until(lambda: not room.book.seats[0].connected)
        assert room.book.seats[0].kind == "human"  # held for a resume
        # Silent: the peer neither sends nor reads (gone without a FIN): after three
        # heartbeats of silence (1 s each here) the host times it out.
        silent.answer_pings = False
        silent.writer.transport.pause_reading()
        loop = asyncio.get_running_loop()
        began = loop.time()
        await until(lambda: not room.book.seats[1].connected, 6)
        assert 2.5 <= loop.time() - began <= 5
        assert room.book.seats[1].kind == "human"
        silent.writer.transport.resume_reading()
        assert await silent.error() == "timeout"
        assert any(isinstance(x, m.Ping) for x in silent.heard)  # it was asked first
        half.close()
        silent.close()
        await a.legit_intact()


async def test_a_spectator_that_never_reads_is_dropped_and_the_match_goes_on() -> None:
    # The stuck spectator answers no heartbeat either: with the arena's 1 s heartbeats it
    # would be timed out after 3 s, a race with filling its buffer that a loaded machine
    # loses.  Here heartbeats never come due, so only its buffer can end it.
    timing = dataclasses.replace(TIMING, heartbeat=600.0)  # the protocol's longest
    async with arena(limits=HostLimits(), timing=timing) as a:
        await a.start_legit(pace=0.01)
        room = a.game_room
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind(("127.0.9.1", 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", a.port))
        _reader, writer = await asyncio.open_connection(sock=sock)
        writer.transport.pause_reading()  # never reads again
        writer.write(hello_frame("Stuck", table="legit", spectate=True))
        await until(lambda: None in room.members.values())
        link = next(link for link, seat in room.members.items() if seat is None)
        link.max_buffer = 4096
        assert link.transport is not None  # the kernel holds little for it: the buffer fills
        link.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        talker = next(link for link, seat in room.members.items() if seat is not None)
        while link in room.members:  # until the host drops it (the module's timeout is the net)
            for _ in range(50):  # what the spectator is sent, besides the match
                room.receive(talker, m.Chat("x" * 280))
            room.flush()
            await asyncio.sleep(0.001)
        assert link.closed_by_us == "slow_reader"
        writer.close()
        await a.legit_intact()
