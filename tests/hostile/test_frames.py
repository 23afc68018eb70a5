"""Bad bytes at the door: every malformed frame or message gets its error code and the
connection is closed, while the match at the other table goes on to its end.

Each case is one connection (from its own loopback address) sending one payload; the
table below is the contract: the payload and the one ``error`` code it must get.
"""

from __future__ import annotations

import asyncio

import msgpack
import pytest

from tests.net.lan_support import hello_frame

from .arena import RawPeer, arena

pytestmark = pytest.mark.timeout(60)


def _body(value: object) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


HELLO = {"t": "hello", "min_version": 1, "max_version": 1, "name": "Eve", "password": None, "token": None,
         "spectate": False, "client": "x", "table": "target", "lobby": False, "identity": None}


def _deep(levels: int) -> bytes:
    return b"\x91" * levels + b"\xc0"  # [[[...[nil]...]]]


#: (case, bytes sent, the error code expected)
CASES: list[tuple[str, bytes, str]] = [
    ("claims 10 MB", (10_000_000).to_bytes(4, "big") + b"x" * 10, "too_large"),
    ("one byte over 4 KiB", (4097).to_bytes(4, "big") + b"\x00" * 4097, "too_large"),
    ("2^32-1 length", b"\xff\xff\xff\xff", "too_large"),
    ("never-valid byte", _frame(b"\xc1\xc1\xc1"), "bad_frame"),
    ("empty body", _frame(b""), "bad_frame"),
    ("two objects in one frame", _frame(_body(HELLO) + b"\xc0"), "bad_frame"),
    ("truncated object", _frame(_body(HELLO)[:-3]), "bad_frame"),
    ("float (the vectors: bad_message)", _frame(_body({**HELLO, "min_version": 1.0})), "bad_message"),
    ("bin", _frame(_body({**HELLO, "name": b"Eve"})), "bad_frame"),
    ("ext", _frame(b"\xd4\x05\x00"), "bad_frame"),
    ("timestamp ext", _frame(b"\xd6\xff\x00\x00\x00\x00"), "bad_frame"),
    ("invalid utf-8", _frame(b"\x81\xa1t\xa2\xff\xfe"), "bad_frame"),
    ("integer map key", _frame(_body({1: 2})), "bad_frame"),
    ("nested 4,000 deep", _frame(_deep(4000)), "bad_frame"),
    ("a list, not a map", _frame(_body([1, 2, 3])), "bad_message"),
    ('{"t": []}', _frame(_body({"t": []})), "bad_message"),
    ("unknown type", _frame(_body({"t": "sudo"})), "bad_message"),
    ("a host's message", _frame(_body({"t": "closed", "code": "x", "message": ""})), "bad_message"),
    ("hello with an extra key", _frame(_body({**HELLO, "seat": 0})), "bad_message"),
    ("hello missing a key", _frame(_body({k: v for k, v in HELLO.items() if k != "lobby"})), "bad_message"),
    ("0 for false", _frame(_body({**HELLO, "spectate": 0})), "bad_message"),
    ("negative version", _frame(_body({**HELLO, "min_version": -1})), "bad_message"),
    ("2^64-1", _frame(_body({**HELLO, "max_version": 2**64 - 1})), "bad_message"),
    ("long name", _frame(_body({**HELLO, "name": "x" * 65})), "bad_message"),
    ("intent before hello", _frame(_body({"t": "intent", "seq": 1, "action": "draw"})), "bad_message"),
    ("ready before hello", _frame(_body({"t": "ready"})), "bad_message"),
    ("hello twice", hello_frame("Eve", table="target") * 2, "bad_message"),
    ("versions from the future", _frame(_body({**HELLO, "min_version": 3, "max_version": 9})), "version"),
    ("a name of escapes only", _frame(_body({**HELLO, "name": "\x1b\x07\u202e\u200b"})), "bad_name"),
    ("a name too wide", _frame(_body({**HELLO, "name": "W" * 17})), "bad_name"),
    ("a table nobody has", hello_frame("Eve", table="nope"), "no_such_table"),
    ("hello cut short, then silence", hello_frame("Eve")[:9], "timeout"),
    ("a length prefix cut short, then silence", b"\x00\x00", "timeout"),
    ("connected, then silence", b"", "timeout"),
]


async def _attack(port: int, k: int, payload: bytes) -> str:
    peer = await RawPeer.connect(port, f"127.0.3.{k + 1}")
    peer.write(payload)
    try:
        return await peer.error(timeout=5)
    finally:
        peer.close()


async def test_every_bad_frame_gets_its_code_and_the_match_at_the_other_table_ends_intact() -> None:
    async with arena() as a:
        await a.start_legit()
        got = await asyncio.gather(*(_attack(a.port, k, sent) for k, (_c, sent, _e) in enumerate(CASES)))
        wrong = [(c, want, code) for (c, _s, want), code in zip(CASES, got, strict=True) if code != want]
        assert not wrong, wrong
        assert not a.host.links - {link for r in a.rooms.values() for link in r.members}
        await a.legit_intact()


async def test_a_stream_that_ends_inside_a_frame_is_bad_frame() -> None:
    """SPEC: "A stream that ends inside a frame is ``bad_frame`` too": the peer that
    half-closes mid-frame still reads, and is told why."""
    async with arena() as a:
        for k, payload in enumerate((hello_frame("Eve")[:9], b"\x00\x00")):
            peer = await RawPeer.connect(a.port, f"127.0.4.{k + 1}")
            peer.write(payload)
            peer.writer.write_eof()
            assert await peer.error() == "bad_frame"
            peer.close()


async def test_hello_and_a_bad_frame_in_one_read_take_no_seat() -> None:
    """Regression: the host admitted the hello of a session its next frame had already
    closed; ``accept`` raised inside ``data_received`` (no error frame was sent) and the
    seat stayed taken by nobody, so one packet per seat could fill a waiting table."""
    async with arena() as a:
        for k, tail in enumerate((b"\x00\x00\x00\x01\xc1", hello_frame("Eve", table="target"))):
            peer = await RawPeer.connect(a.port, f"127.0.5.{k + 1}")
            peer.write(hello_frame(f"Eve{k}", table="target") + tail)
            assert await peer.error() in ("bad_frame", "bad_message")
            peer.close()
        assert a.rooms["target"].book.humans() == []
