"""The door after hello: one address cannot fill the host, a dropped seat always gets back
in, and guessing codes or passwords is slowed to a crawl, while the match at the other
table runs to its end (the host's default limits, through real loopback sockets)."""

from __future__ import annotations

import asyncio

import pytest

from tests.net.lan_support import FAST, hello_frame, until
from unotui.net.host import HostLimits
from unotui.net.room import RoomConfig
from unotui.protocol import messages as m

from .arena import RawPeer, arena

pytestmark = pytest.mark.timeout(60)

#: the door's own limits out of the way, so that only the limits after hello bite
OPEN_DOOR = {"unauthenticated_per_ip": 1000, "new_per_ip_per_s": 1000.0, "new_per_ip_burst": 1000}


async def _answer(port: int, source: str, **hello: object) -> tuple[RawPeer, object]:
    """A connection from ``source`` that said hello (at the target table unless told),
    and the host's first answer to it (a ``welcome`` or an ``error``)."""
    hello.setdefault("table", "target")
    peer = await RawPeer.connect(port, source)
    peer.write(hello_frame(str(hello.pop("name", "Idle")), **hello))
    return peer, await peer.wait(lambda x: isinstance(x, m.Welcome | m.Error))


async def test_one_address_gets_32_connections_after_hello_and_the_next_is_refused() -> None:
    async with arena(limits=HostLimits(**OPEN_DOOR)) as a:  # type: ignore[arg-type]
        await a.start_legit()
        idle = []
        for _ in range(32):
            peer, got = await _answer(a.port, "127.0.11.1", spectate=True)
            assert isinstance(got, m.Welcome), got
            idle.append(peer)
        lobbyish, got = await _answer(a.port, "127.0.11.1", spectate=True)
        assert isinstance(got, m.Error) and got.code == "too_many_from_address", got
        assert "from your address" in got.message
        other, got = await _answer(a.port, "127.0.11.2", spectate=True)  # another address: welcome
        assert isinstance(got, m.Welcome), got
        idle[0].close()  # one closed: the address has room again
        await until(lambda: a.host._per_ip.get("127.0.11.1") == 31)
        again, got = await _answer(a.port, "127.0.11.1", spectate=True)
        assert isinstance(got, m.Welcome), got
        for peer in [*idle, lobbyish, other, again]:
            peer.close()
        await a.legit_intact()


async def test_a_door_full_of_idle_connections_still_lets_a_dropped_player_resume() -> None:
    limits = HostLimits(max_connections=24, **OPEN_DOOR)  # type: ignore[arg-type]
    async with arena(limits=limits) as a:
        await a.start_legit()
        a.strict = False  # Ann's resumed connection plays as fast as her first one
        # The attacker keeps the door full of idle spectators: whenever a place frees up,
        # one of its connections takes it.
        idle: list[RawPeer] = []
        codes: list[str] = []
        stop = asyncio.Event()

        async def fill() -> None:
            while not stop.is_set():  # (a flag too: wait_for may swallow a cancel on 3.11)
                peer, got = await _answer(a.port, f"127.0.12.{1 + len(codes) % 8}", spectate=True)
                codes.append(got.code if isinstance(got, m.Error) else "welcome")
                if isinstance(got, m.Welcome):
                    idle.append(peer)
                else:
                    peer.close()
                await asyncio.sleep(0)

        flood = asyncio.create_task(fill())
        try:
            await until(lambda: codes.count("too_many_connections") >= 5)
            # Ann's cable is pulled: her program resumes with its token and gets her seat.
            ann = a.legit[0]
            old = ann.game.token
            link = next(link for link, seat in a.game_room.members.items() if seat == ann.game.seat)
            link.abort("test: cable pulled")
            await until(lambda: ann.game.token != old and ann.game._link is not None, 8)
            assert a.game_room.book.seats[0].connected
            # ... while newcomers are still refused, even with a token that resumes nothing.
            peer, got = await _answer(a.port, "127.0.12.99", spectate=True, token="x" * 43)
            assert isinstance(got, m.Error) and got.code == "too_many_connections", got
            peer.close()
        finally:
            stop.set()
            await asyncio.wait([flood], timeout=10)
        assert set(codes) == {"welcome", "too_many_connections"}
        for p in idle:
            p.close()
        # The match plays on to its end (Ann's intent in flight when the cable was pulled
        # was answered "offline", by design: legit_intact would count it) and a newcomer
        # is welcomed once the idle ones are gone.
        await until(lambda: a.game_room.status == "over", 30)
        await a.still_serving()


async def test_guessing_a_password_or_a_table_code_backs_off_and_says_when_to_retry() -> None:
    target = RoomConfig(name="Target", seats=3, password="4821", **FAST)
    async with arena(target, limits=HostLimits(**OPEN_DOOR)) as a:  # type: ignore[arg-type]
        await a.start_legit()
        # Passwords: five wrong ones are answered, then each failure makes the next wait.
        for pin in ("0000", "0001", "0002", "0003", "0004", "0005"):
            peer, got = await _answer(a.port, "127.0.13.1", password=pin)
            assert isinstance(got, m.Error) and got.code == "password", (pin, got)
            peer.close()
        peer, got = await _answer(a.port, "127.0.13.1", password="4821")  # right, but too soon
        assert isinstance(got, m.Error) and got.code == "too_many_failures", got
        assert "try again in 1 s" in got.message
        assert a.rooms["target"].book.humans() == []
        # The guesser may still watch a public table (no secret to find there) ...
        watcher, got = await _answer(a.port, "127.0.13.1", table="legit", spectate=True)
        assert isinstance(got, m.Welcome), got
        # ... and another address is not held back.
        friend, got = await _answer(a.port, "127.0.13.2", password="4821", name="Friend")
        assert isinstance(got, m.Welcome), got
        # Table codes: no_such_table tells a right guess from a wrong one, so it counts too.
        for code in ("1000", "1001", "1002", "1003", "1004", "1005"):
            guess, got = await _answer(a.port, "127.0.13.3", table=code)
            assert isinstance(got, m.Error) and got.code == "no_such_table", (code, got)
            guess.close()
        guess, got = await _answer(a.port, "127.0.13.3", table="target", password="4821")
        assert isinstance(got, m.Error) and got.code == "too_many_failures", got
        for p in (peer, watcher, friend, guess):
            p.close()
        await a.legit_intact()
