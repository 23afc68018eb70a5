"""The ceiling for ``bench/host_load.py``: a bare length-prefixed msgpack fan-out server.

It does the least a table host could do with the same traffic: read a frame
(4-byte big-endian length + one msgpack object), decode it, and send one frame of the
given size to every connection at the sender's table, which is named in the first frame
a connection sends (``{"t": "hello", "table": CODE, "seat": N}``).  No rules, no views,
no validation beyond decoding.  Run as a subprocess: it prints ``port=N`` and serves
until stdin closes.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import struct
import sys
from typing import Any

import msgpack

_LEN = struct.Struct(">I")


class Echo(asyncio.Protocol):
    """One connection to the echo server."""

    tables: dict[str, list[Echo]] = {}  # noqa: RUF012 - shared by all connections on purpose

    def __init__(self, reply_size: int) -> None:
        self.buf = bytearray()
        self.table: str | None = None
        self.transport: asyncio.Transport | None = None
        self.reply_size = reply_size

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:  # as the host does (unotui.net.link): no Nagle delay on small frames
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        self.buf += data
        while len(self.buf) >= 4:
            (size,) = _LEN.unpack_from(self.buf)
            if len(self.buf) < 4 + size:
                return
            body = bytes(self.buf[4 : 4 + size])
            del self.buf[: 4 + size]
            msg: Any = msgpack.unpackb(body, raw=False, strict_map_key=True, max_ext_len=0)
            if self.table is None:
                self.table = str(msg.get("table", ""))
                self.tables.setdefault(self.table, []).append(self)
                continue
            reply = msgpack.packb({"t": "echo", "seq": msg.get("seq", 0), "pad": b"x" * self.reply_size})
            frame = _LEN.pack(len(reply)) + reply
            for other in self.tables.get(self.table, ()):
                if other.transport is not None:
                    other.transport.write(frame)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.table is not None:
            peers = self.tables.get(self.table, [])
            if self in peers:
                peers.remove(self)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reply-size", type=int, default=200)
    args = parser.parse_args()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: Echo(args.reply_size), "127.0.0.1", 0, backlog=4096)
    port = server.sockets[0].getsockname()[1]
    print(f"port={port}", flush=True)
    await loop.run_in_executor(None, sys.stdin.read)
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
