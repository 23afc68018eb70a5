"""The door after hello: one address cannot fill the host, a dropped seat always gets back
in, and guessing codes or passwords is slowed to a crawl, while the match at the other
table runs to its end (the host's default limits, through real loopback sockets)."""

from __future__ import annotations

import pytest

from tests.net.lan_support import FAST, hello_frame, until
from unotui.lobby.serve import inner_limits
from unotui.net.config import RoomConfig
from unotui.net.guard import Backoff, BackoffLimits
from unotui.net.host import HostLimits
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



async def test_the_ssh_sessions_own_host_does_not_cap_127_0_0_1() -> None:
    """``unotui serve`` connects every SSH session to a second host over loopback: the
    per-address cap would throttle them all as one address."""
    async with arena(limits=inner_limits(max_sessions=20)) as a:
        await a.start_legit()
        sessions = []
        for _ in range(40):  # a lobby and a table connection for each of 20 sessions
            peer, got = await _answer(a.port, "127.0.0.1", spectate=True)
            assert isinstance(got, m.Welcome), got
            sessions.append(peer)
        for peer in sessions:
            peer.close()
        await a.legit_intact()

async def test_a_door_full_of_idle_connections_still_lets_a_dropped_player_resume() -> None:
    limits = HostLimits(max_connections=24, **OPEN_DOOR)  # type: ignore[arg-type]
    async with arena(limits=limits) as a:
        await a.start_legit()
        # One attacker's idle spectators, from a few addresses, until the door is full.
        idle, codes = [], []
        while "too_many_connections" not in codes:
            peer, got = await _answer(a.port, f"127.0.12.{1 + len(codes) // 4}", spectate=True)
            idle.append(peer)
            codes.append(got.code if isinstance(got, m.Error) else "welcome")
            assert len(codes) < 30
        # Ann's line went dead without a goodbye (the host still holds her old connection
        # until its heartbeat times out): her program connects again with her token ...
        ann = a.legit[0]
        back, got = await _answer(a.port, "127.0.0.1", table="legit", name="Ann", token=ann.game.token)
        assert isinstance(got, m.Welcome) and got.seat == ann.game.seat, got
        assert a.game_room.book.seats[0].connected and back.welcome is None
        # ... while newcomers are still refused, even with a token that resumes nothing.
        peer, got = await _answer(a.port, "127.0.12.99", spectate=True, token="x" * 43)
        assert isinstance(got, m.Error) and got.code == "too_many_connections", got
        assert [c.code for c in ann.closed] == ["replaced"]  # her old connection made way
        for p in [*idle, back, peer]:
            p.close()
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


def test_the_back_off_doubles_to_its_cap_and_is_forgotten_after_a_quiet_while() -> None:
    guesses = Backoff(BackoffLimits(free=2, first=1.0, cap=5.0, forget=100.0))
    waits = []
    t = 0.0
    for _ in range(7):
        t += guesses.wait("a", t)  # each guess as soon as it is allowed
        guesses.failed("a", t)
        waits.append(guesses.wait("a", t))
    assert waits == [0.0, 0.0, 1.0, 2.0, 4.0, 5.0, 5.0]
    assert guesses.wait("b", t) == 0.0  # another guesser is not held back
    assert guesses.wait("a", t + 4.0) == 1.0
    assert guesses.wait("a", t + 99.0) == 0.0
    guesses.failed("a", t + 99.0)  # not quiet long enough: still counted
    assert guesses.wait("a", t + 99.0) == 5.0
    guesses.failed("a", t + 300.0)  # a quiet while: starts afresh
    assert guesses.wait("a", t + 300.0) == 0.0
    off = Backoff(BackoffLimits(free=0))
    for _ in range(100):
        off.failed("a", 0.0)
    assert off.wait("a", 0.0) == 0.0
