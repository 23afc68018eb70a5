"""A host of several tables where a legitimate match runs while another table is attacked.

The hostile tests share one shape: :func:`arena` starts a :class:`~unotui.net.host.Host`
with a ``legit`` table (two remote seats played by seeded random players and one computer
player) and a ``target`` table for the attackers; the test starts the legitimate match,
runs its attack, then :meth:`Arena.legit_intact` asserts that the match reached its end
with every action the players saw accepted in the host's record of accepted actions, that
none of them was refused for a protocol reason or closed, and that the host still
welcomes a newcomer.

Attackers connect with :func:`tests.net.lan_support.raw`, from their own loopback
addresses (127.0.0.0/8), so the host's per-address limits treat them as the strangers
they are while the legitimate players connect from 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from random import Random

import msgpack

from tests.net.lan_support import FAST, FAST_RATES, Player, has_view, hello_frame, raw, until
from unotui.engine import Action, Rules
from unotui.net.config import RoomConfig
from unotui.net.host import Host, HostLimits
from unotui.net.journal import SavedSeat
from unotui.net.remote import RemoteGame
from unotui.net.room import Room
from unotui.protocol import messages as m
from unotui.protocol.codec import decode_host, encode
from unotui.protocol.framing import FrameDecoder, frame
from unotui.protocol.session import HostSession, Rates, Timing

__all__ = ["Arena", "RawPeer", "Recorder", "arena", "size"]

#: timings short enough for tests (the protocol's defaults are 5 s, 10 s and 15 s)
TIMING = Timing(hello=1.0, frame=0.5, heartbeat=1.0)
#: the protocol's own rate limits: what an attacker meets
STRICT = Rates()


def size(ci: int, full: int) -> int:
    """How many of something a test makes: ``ci`` by default, ``full`` with
    ``UNOTUI_HOSTILE_FULL=1`` (the chaos benchmark's sizes), or ``UNOTUI_HOSTILE_SCALE``
    times ``ci``."""
    if os.environ.get("UNOTUI_HOSTILE_FULL") == "1":
        return full
    return max(1, round(ci * float(os.environ.get("UNOTUI_HOSTILE_SCALE", "1"))))


class Recorder(Player):
    """A seeded random player that remembers which action it sent under which number."""

    def __init__(self, game: RemoteGame, rng: Random, pace: float = 0.0) -> None:
        super().__init__(game, rng)
        self.sent: dict[int, str] = {}
        self.pace = pace
        self._acting = False
        send = game.send

        def recording(action: Action) -> int:
            seq = send(action)
            self.sent[seq] = str(action)
            return seq

        game.send = recording  # type: ignore[method-assign]

    def act(self) -> None:
        if self.pace <= 0:
            super().act()
        elif not self._acting:  # a person's speed: the match lasts while the attack runs
            self._acting = True
            asyncio.get_running_loop().call_later(self.pace, self._act_now)

    def _act_now(self) -> None:
        self._acting = False
        super().act()

    def answered(self) -> list[int]:
        """The numbers of the intents the host said it applied."""
        return [u.seq for u in self.updates if isinstance(u, m.Accepted)]


@dataclass
class Arena:
    """See the module docstring."""

    host: Host
    rooms: dict[str, Room]
    port: int
    accepted: dict[str, list[tuple[int, int, str]]]
    legit: list[Recorder] = field(default_factory=list)
    strict: bool = False  # new connections get the protocol's real rate limits

    @property
    def game_room(self) -> Room:
        return self.rooms["legit"]

    async def start_legit(self, pace: float = 0.004) -> None:
        """Seat the two legitimate players; the match starts (a computer player fills the
        third seat).  Later connections meet the real rate limits."""
        for k, name in enumerate(("Ann", "Bob")):
            game = RemoteGame("127.0.0.1", self.port, name=name, table="legit", reconnect_for=10)
            player = Recorder(game, Random(k), pace)
            await game.start()
            self.legit.append(player)
        await until(lambda: all(has_view(p) for p in self.legit))
        self.strict = True
        assert self.game_room.status == "playing"

    async def legit_intact(self, timeout: float = 30.0) -> None:
        """The legitimate match reached its end and lost nothing (see the module docstring)."""
        room = self.game_room
        await until(lambda: room.status == "over", timeout)
        accepted = {(seq, seat): text for seq, seat, text in self.accepted["legit"]}
        for player in self.legit:
            seat = player.game.seat
            assert seat is not None
            assert not player.closed, player.closed
            protocol = [r for r in player.refused if r.code in _PROTOCOL_CODES]
            assert not protocol, protocol
            answered = player.answered()
            assert answered, "the player had no intent accepted"
            for seq in answered:
                assert accepted.get((seq, seat)) == player.sent[seq], (seq, seat)
        assert room.game is not None and room.game.phase == "match_over"
        await self.still_serving()

    async def still_serving(self) -> None:
        """The host's loop still answers: a spectator is welcomed and sent a view."""
        watcher = RemoteGame("127.0.0.1", self.port, name="Late", table="legit", spectate=True)
        seen = Player(watcher, Random(0), auto=False)
        await watcher.start()
        await until(lambda: has_view(seen))
        await watcher.close()

    async def close_all(self) -> None:
        for player in self.legit:
            await player.game.close()


_PROTOCOL_CODES = {
    "rate_limited", "offline", "bad_message", "bad_action", "bad_frame", "too_large", "timeout",
    "server_error", "spectator", "stale_seq", "bad_seq", "away", "bot_seat", "not_started",
}


def _legit_config() -> RoomConfig:
    rules = Rules.preset("classic").with_(target_score=100)
    return RoomConfig(name="Legit", seats=3, bots=1, autostart=True, rules=rules, level="random", **FAST)


class ActionRows:
    """A table's journal that keeps only the applied actions, ``(seq, seat, action text)``
    in order, in ``rows`` (what the audits compare with what the players were told)."""

    def __init__(self, rows: list[tuple[int, int, str]]) -> None:
        self.rows = rows

    def append(self, code: str, actions: tuple[tuple[int, int, str], ...]) -> None:
        self.rows.extend(actions)

    def open_table(self, code: str, config: dict[str, object], created: float) -> None:
        pass

    def seats(self, code: str, seats: tuple[SavedSeat, ...]) -> None:
        pass

    def started(self, code: str, secret: bytes) -> None:
        pass

    def close_table(self, code: str) -> None:
        pass


@contextlib.asynccontextmanager
async def arena(
    target: RoomConfig | None = None, *, limits: HostLimits | None = None, timing: Timing = TIMING
) -> AsyncIterator[Arena]:
    """A host on 127.0.0.1 with the tables ``legit`` and ``target`` (see the module docstring)."""
    accepted: dict[str, list[tuple[int, int, str]]] = {"legit": [], "target": []}
    rooms = {
        "legit": Room("legit", _legit_config(), journal=ActionRows(accepted["legit"]),
                      on_event=lambda _t: None),
        "target": Room("target", target or RoomConfig(name="Target", seats=3, **FAST),
                       journal=ActionRows(accepted["target"]), on_event=lambda _t: None),
    }
    holder: list[Arena] = []

    def session(now: float) -> HostSession:
        strict = bool(holder) and holder[0].strict
        return HostSession(now, timing=timing, rates=STRICT if strict else FAST_RATES)

    host = Host(rooms, limits=limits, session_factory=session)
    port = (await host.listen("127.0.0.1", 0))[0][1]
    holder.append(Arena(host, rooms, port, accepted))
    try:
        yield holder[0]
    finally:
        await holder[0].close_all()
        await host.close()


class RawPeer:
    """A hand-driven connection: raw bytes out, decoded host messages in."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.heard: list[object] = []
        self.eof = False
        self._decoder = FrameDecoder(256 * 1024)
        self.welcome: m.Welcome | None = None
        self.answer_pings = True

    @classmethod
    async def connect(cls, port: int, source: str = "127.0.0.2") -> RawPeer:
        return cls(*await raw(port, source))

    @classmethod
    async def seated(cls, port: int, name: str, table: str = "target", source: str = "127.0.0.2",
                     **hello: object) -> RawPeer:
        """Connected, said hello at ``table``, and welcomed."""
        peer = await cls.connect(port, source)
        peer.write(hello_frame(name, table=table, **hello))
        welcome = await peer.wait(lambda x: isinstance(x, m.Welcome | m.Error))
        assert isinstance(welcome, m.Welcome), welcome
        peer.welcome = welcome
        return peer

    def write(self, data: bytes) -> None:
        self.writer.write(data)

    def send(self, message: m.Message) -> None:
        self.writer.write(frame(encode(message), 4096))

    def send_raw(self, value: object) -> None:
        """Any msgpack value as one frame (what a hostile client may send)."""
        self.writer.write(frame(msgpack.packb(value, use_bin_type=True), 1 << 30))

    async def _read(self, timeout: float) -> None:
        try:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
        except ConnectionResetError:  # the host closed while our bytes were on the way
            data = b""
        if not data:
            self.eof = True
            return
        for body in self._decoder.feed(data):
            message = decode_host(body)
            if isinstance(message, m.Ping) and self.answer_pings:  # alive, as any client is
                with contextlib.suppress(OSError):
                    self.send(m.Pong(message.n))
            self.heard.append(message)

    async def wait(self, predicate: Callable[[object], bool], timeout: float = 5.0) -> object:
        """The first message (heard already or from now on) for which ``predicate`` holds."""
        end = asyncio.get_running_loop().time() + timeout
        seen = 0
        while True:
            for message in self.heard[seen:]:
                if predicate(message):
                    return message
            seen = len(self.heard)
            left = end - asyncio.get_running_loop().time()
            assert not self.eof, f"closed without it; heard {self.heard[-3:]}"
            assert left > 0, f"not heard in time; heard {self.heard[-3:]}"
            await self._read(left)

    async def closed(self, timeout: float = 5.0) -> list[object]:
        """Everything heard until the host closed the connection."""
        end = asyncio.get_running_loop().time() + timeout
        while not self.eof:
            left = end - asyncio.get_running_loop().time()
            assert left > 0, f"still open; heard {self.heard[-3:]}"
            await self._read(left)
        return self.heard

    async def error(self, timeout: float = 5.0) -> str:
        """The code of the ``error`` (or ``closed``) that ended the connection."""
        heard = await self.closed(timeout)
        assert heard and isinstance(heard[-1], m.Error | m.Closed), heard[-3:]
        return heard[-1].code

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()
