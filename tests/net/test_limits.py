"""The host's door and per-connection limits, through real loopback sockets.

The sans-I/O sessions are tested with a fake clock in tests/protocol; here we check that
the asyncio shell wires them up: the limits bite on a real socket, the offender gets its
error frame and is closed, and a game at the same host goes on unharmed.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from random import Random

import pytest

from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.host import Host, HostLimits
from unotui.net.remote import RemoteGame
from unotui.net.room import Room
from unotui.protocol import messages as m
from unotui.protocol.codec import encode
from unotui.protocol.framing import frame
from unotui.protocol.session import HostSession, Timing

from .lan_support import FAST, Player, frames_until_closed, hello_frame, hosted, raw, until

pytestmark = pytest.mark.timeout(30)


async def test_an_oversized_frame_gets_too_large_and_is_closed_before_its_body() -> None:
    async with hosted(RoomConfig(seats=2, **FAST)) as (_host, _room, port):
        reader, writer = await raw(port)
        writer.write((10_000_000).to_bytes(4, "big") + b"x" * 10)  # claims 10 MB, sends 10 bytes
        got = await frames_until_closed(reader)
        assert isinstance(got[-1], m.Error) and got[-1].code == "too_large"
        writer.close()


async def test_garbage_gets_bad_frame_and_the_game_at_the_host_goes_on() -> None:
    config = RoomConfig(seats=2, autostart=True, rules=Rules.preset("classic"), **FAST)
    async with hosted(config) as (_host, room, port):
        players = [Player(RemoteGame("127.0.0.1", port, name=n), Random(k)) for k, n in enumerate("AB")]
        for p in players:
            await p.game.start()
        reader, writer = await raw(port)
        writer.write(frame(b"\xc1\xc1\xc1", 4096))  # 0xc1 is never valid msgpack
        got = await frames_until_closed(reader)
        assert isinstance(got[-1], m.Error) and got[-1].code == "bad_frame"
        # the game goes on: another 50 moves (a whole round of this random policy runs to
        # thousands of moves, 8 s and more on a loaded machine)
        await until(lambda: room.game is not None, 10)
        assert room.game is not None
        played = len(room.game.history)
        await until(lambda: room.game is not None and len(room.game.history) >= played + 50, 20)
        assert not any(p.closed for p in players)
        for p in players:
            await p.game.close()


async def test_anything_before_hello_is_refused() -> None:
    async with hosted(RoomConfig(seats=2, **FAST)) as (_host, _room, port):
        reader, writer = await raw(port)
        writer.write(frame(encode(m.Ready()), 4096))
        got = await frames_until_closed(reader)
        assert [type(x) for x in got] == [m.Error]
        writer.close()


async def test_silence_after_connecting_times_out() -> None:
    room_config = RoomConfig(seats=2, **FAST)
    room_holder: dict[str, Room] = {}

    async def run() -> None:
        room_holder[""] = Room("", room_config, on_event=lambda _t: None)
        timing = Timing(hello=0.2)
        host = Host(room_holder, session_factory=lambda now: HostSession(now, timing=timing))
        port = (await host.listen("127.0.0.1", 0))[0][1]
        try:
            reader, writer = await raw(port)
            got = await frames_until_closed(reader, timeout=3)
            assert isinstance(got[-1], m.Error) and got[-1].code == "timeout"
            writer.close()
        finally:
            await host.close()

    await run()


async def test_a_frame_that_never_completes_times_out() -> None:
    rooms = {"": Room("", RoomConfig(seats=2, **FAST), on_event=lambda _t: None)}
    host = Host(rooms, session_factory=lambda now: HostSession(now, timing=Timing(frame=0.2)))
    port = (await host.listen("127.0.0.1", 0))[0][1]
    try:
        reader, writer = await raw(port)
        writer.write(hello_frame()[:6])  # the length and two bytes of the body, then nothing
        got = await frames_until_closed(reader, timeout=3)
        assert isinstance(got[-1], m.Error) and got[-1].code == "timeout"
        writer.close()
    finally:
        await host.close()


async def test_connection_caps_refuse_with_a_reason() -> None:
    limits = HostLimits(
        max_connections=50, unauthenticated_per_ip=2, new_per_ip_per_s=0.01, new_per_ip_burst=50
    )
    async with hosted(RoomConfig(seats=2, **FAST), limits=limits) as (host, _room, port):
        kept = [await raw(port) for _ in range(2)]  # two connections that never say hello
        reader, writer = await raw(port)
        got = await frames_until_closed(reader)
        assert isinstance(got[-1], m.Error) and got[-1].code == "too_many_unauthenticated"
        writer.close()
        assert host.refused["too_many_unauthenticated"] == 1
        for _r, w in kept:
            w.close()


async def test_new_connections_per_address_are_rate_limited() -> None:
    limits = HostLimits(unauthenticated_per_ip=100, new_per_ip_per_s=0.01, new_per_ip_burst=3)
    async with hosted(RoomConfig(seats=2, **FAST), limits=limits) as (_host, _room, port):
        conns = [await raw(port) for _ in range(3)]
        reader, writer = await raw(port)
        got = await frames_until_closed(reader)
        assert isinstance(got[-1], m.Error) and got[-1].code == "too_many_new_connections"
        for _r, w in [*conns, (reader, writer)]:
            w.close()


async def test_total_connections_are_capped() -> None:
    limits = HostLimits(max_connections=3, unauthenticated_per_ip=100, new_per_ip_burst=100)
    async with hosted(RoomConfig(seats=2, **FAST), limits=limits) as (_host, _room, port):
        conns = [await raw(port) for _ in range(3)]
        reader, writer = await raw(port)
        got = await frames_until_closed(reader)
        assert isinstance(got[-1], m.Error) and got[-1].code == "too_many_connections"
        for _r, w in [*conns, (reader, writer)]:
            w.close()


async def test_a_peer_that_never_reads_is_dropped_and_its_seat_held() -> None:
    config = RoomConfig(seats=2, autostart=True, rules=Rules.preset("classic"), **FAST)
    async with hosted(config) as (_host, room, port):
        fast = Player(RemoteGame("127.0.0.1", port, name="Reader"), Random(1))
        await fast.game.start()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window fills fast
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        _reader, writer = await asyncio.open_connection(sock=sock)
        writer.transport.pause_reading()  # the stuck peer never reads again
        writer.write(hello_frame("Stuck"))
        await until(lambda: room.status == "playing")
        link = next(link for link, seat in room.members.items() if seat == 1)
        link.max_buffer = 2048  # a small buffer so the test needs only a few updates
        # Flood the stuck seat with chat it never reads until the host gives up on it.
        for _ in range(50_000):
            if link not in room.members:
                break
            room.receive(next(iter(room.members)), m.Chat("x" * 200))
            room.flush()
            await asyncio.sleep(0)
        await until(lambda: link not in room.members)
        assert link.closed_by_us == "slow_reader"
        assert room.book.seats[1].kind == "human" and not room.book.seats[1].connected  # held
        with contextlib.suppress(Exception):
            writer.close()
        await fast.game.close()
