"""A hostile host in a few lines: a raw asyncio server speaking frames, which reads a
client's hello and then sends whatever the test queues, message by message, so that a
test decides what a real ``RemoteGame`` is sent and when (what it has been sent before
it answers, what is still to come)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import msgpack

from unotui.protocol import messages as m
from unotui.protocol.codec import encode
from unotui.protocol.framing import FrameDecoder

__all__ = ["FakeHost"]


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


class FakeHost:
    """A raw server: reads the hello, sends a welcome, then what the test queues."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.hellos: list[bytes] = []
        self.port = 0
        self._server: asyncio.Server | None = None

    def send(self, message: m.Message) -> None:
        self.queue.put_nowait(_frame(encode(message)))

    def send_raw(self, value: object) -> None:
        self.queue.put_nowait(_frame(msgpack.packb(value, use_bin_type=True)))

    def hang_up(self) -> None:
        self.queue.put_nowait(None)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        decoder = FrameDecoder(4096)
        while not self.hellos:
            data = await reader.read(4096)
            if not data:
                return
            self.hellos += decoder.feed(data)
        while (chunk := await self.queue.get()) is not None:
            writer.write(chunk)
            await writer.drain()
        writer.close()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[FakeHost]:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        try:
            yield self
        finally:
            self._server.close()
