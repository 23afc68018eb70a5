"""Helpers for tests of hosted tables over real loopback sockets."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING

from unotui.engine import DEAL, Catch, Phase
from unotui.net.config import RoomConfig
from unotui.net.host import Host, HostLimits
from unotui.net.remote import RemoteGame
from unotui.net.room import Room
from unotui.protocol import messages as m
from unotui.protocol.codec import decode_host, encode
from unotui.protocol.events import ViewUpdated
from unotui.protocol.framing import FrameDecoder, frame
from unotui.protocol.session import HostSession, Rates

if TYPE_CHECKING:
    from unotui.net.controller import Update

FAST_RATES = Rates(per_s=10_000, burst=10_000, chat_per_s=100, chat_burst=100)


@dataclass
class Player:
    """A remote seat played by a seeded random policy that never catches (so rounds end)."""

    game: RemoteGame
    rng: Random
    auto: bool = True
    updates: list[Update] = field(default_factory=list)
    refused: list[m.Refused] = field(default_factory=list)
    closed: list[m.Closed] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.game.listen(self.on_update)

    def on_update(self, update: Update) -> None:
        self.updates.append(update)
        if isinstance(update, m.Refused):
            self.refused.append(update)
        elif isinstance(update, m.Closed):
            self.closed.append(update)
        if self.auto and isinstance(update, ViewUpdated | m.Accepted | m.Refused):
            self.act()

    def act(self) -> None:
        game = self.game
        try:
            view = game.view
        except LookupError:
            return
        if game.in_flight or view.seat is None:
            return
        if view.phase == Phase.ROUND_OVER:
            if DEAL in view.legal:  # (the next round's dealer)
                game.send(DEAL)
            else:
                game.next_round()
            return
        if not view.my_turn:
            return
        options = [a for a in view.legal if not isinstance(a, Catch)]
        if options:
            game.send(self.rng.choice(options))


FAST = dict(bot_delay=0.0, catch_grace=0.0, auto_keep=0.0)


@contextlib.asynccontextmanager
async def hosted(
    config: RoomConfig, *, limits: HostLimits | None = None
) -> AsyncIterator[tuple[Host, Room, int]]:
    """A host on 127.0.0.1 with one table; yields (host, room, port)."""
    room = Room("", config, on_event=lambda _text: None)
    # Scripted players act as fast as the loop turns: lift the per-connection rate limit
    # (tests of the limit itself build their own sessions).
    host = Host({"": room}, limits=limits, session_factory=lambda now: HostSession(now, rates=FAST_RATES))
    bound = await host.listen("127.0.0.1", 0)
    try:
        yield host, room, bound[0][1]
    finally:
        await host.close()


async def join_two(port: int, *, auto: bool = False) -> tuple[Player, Player]:
    """Seats A and B (seeded players) joined to the table on ``port``, each with a view."""
    a = Player(RemoteGame("127.0.0.1", port, name="A"), Random(1), auto=auto)
    b = Player(RemoteGame("127.0.0.1", port, name="B"), Random(2), auto=auto)
    await a.game.start()
    await b.game.start()
    await until(lambda: has_view(a) and has_view(b))
    return a, b


def has_view(p: Player) -> bool:
    """Whether ``p`` has been sent a view of the game yet."""
    try:
        _ = p.game.view
    except LookupError:
        return False
    return True


async def raw(
    port: int, source: str = "127.0.0.1"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A bare TCP connection to the host on ``port`` (from the loopback address ``source``:
    any of 127.0.0.0/8, so that tests can stand for several addresses)."""
    return await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 5)


async def frames_until_closed(reader: asyncio.StreamReader, timeout: float = 5.0) -> list[object]:
    """Every message the host sends on a raw connection until it closes it."""
    decoder, out = FrameDecoder(256 * 1024), []
    while True:
        data = await asyncio.wait_for(reader.read(65536), timeout)
        if not data:
            return out
        out += [decode_host(body) for body in decoder.feed(data)]


def hello_frame(name: str = "raw", **fields: object) -> bytes:
    """The frame of a ``hello`` (fields as :class:`~unotui.protocol.messages.Hello` takes them)."""
    return frame(encode(m.Hello(1, 1, name, **fields)), 4096)  # type: ignore[arg-type]


async def until(predicate: object, timeout: float = 10.0) -> None:
    """Wait (polling the loop) until ``predicate()`` is true; fail after ``timeout``."""
    assert callable(predicate)
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.005)
