"""Frames: length checked before the body is buffered, any chunking, poisoned after errors."""

from __future__ import annotations

import msgpack
import pytest

from unotui.protocol import FrameDecoder, RemoteProtocolError
from unotui.protocol.errors import LocalProtocolError
from unotui.protocol.framing import CLIENT_LIMITS, PEER_ACCEPTS, frame, pack_body, unpack_body


def frames(*bodies: bytes) -> bytes:
    return b"".join(frame(b, 1 << 20) for b in bodies)


def test_bodies_come_out_whole_however_the_stream_is_cut() -> None:
    bodies = [pack_body({"t": "ping", "n": i}) for i in range(5)] + [pack_body("x" * 300)]
    stream = frames(*bodies)
    for step in (1, 2, 3, 4, 5, 7, 64, len(stream)):
        dec = FrameDecoder(4096)
        got: list[bytes] = []
        for i in range(0, len(stream), step):
            got += dec.feed(stream[i : i + step])
        assert got == bodies
        assert not dec.pending


def test_the_length_is_checked_before_the_body_arrives() -> None:
    dec = FrameDecoder(4096)
    assert dec.feed(b"\x00\x00") == []
    with pytest.raises(RemoteProtocolError) as info:
        dec.feed((4097).to_bytes(2, "big"))  # only the header: no body was ever sent
    assert info.value.code == "too_large"
    with pytest.raises(RemoteProtocolError):
        dec.feed(frames(b"\xc0"))  # poisoned: the stream has lost its framing


def test_a_frame_at_the_limit_is_fine() -> None:
    dec = FrameDecoder(10)
    assert dec.feed(frame(b"0123456789", 10)) == [b"0123456789"]


def test_the_sender_refuses_an_oversized_frame() -> None:
    with pytest.raises(LocalProtocolError) as info:
        frame(b"x" * 11, 10)
    assert info.value.code == "too_large"


def test_a_stream_that_ends_inside_a_frame_is_a_bad_frame() -> None:
    dec = FrameDecoder(4096)
    dec.feed(frames(b"\xc0")[:-1])
    assert dec.pending
    with pytest.raises(RemoteProtocolError) as info:
        dec.close()
    assert info.value.code == "bad_frame"
    FrameDecoder(4096).close()  # a clean end is fine


@pytest.mark.parametrize(
    "body",
    [
        b"",  # no object
        b"\xc0\xc0",  # two objects
        b"\x92\x01",  # truncated array
        b"\xd4\x01\x00",  # fixext (ext types are refused)
        b"\xd6\xff\x00\x00\x00\x01",  # a timestamp is an ext type too
        b"\xc4\x01a",  # bin
        b"\x81\x01\x02",  # an int map key
        b"\xa2\xff\xfe",  # not UTF-8
        b"\xc1",  # the never-used byte
        b"\x91" * 5000 + b"\xc0",  # nested too deep
    ],
)
def test_undecodable_bodies_raise_bad_frame(body: bytes) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        unpack_body(body, PEER_ACCEPTS)
    assert info.value.code == "bad_frame"


def test_per_call_limits_cap_strings_and_containers() -> None:
    with pytest.raises(RemoteProtocolError):
        unpack_body(msgpack.packb("x" * (CLIENT_LIMITS.str_len + 1)), CLIENT_LIMITS)
    with pytest.raises(RemoteProtocolError):
        unpack_body(msgpack.packb([0] * (CLIENT_LIMITS.array_len + 1)), CLIENT_LIMITS)
    with pytest.raises(RemoteProtocolError):
        unpack_body(msgpack.packb({str(i): 0 for i in range(CLIENT_LIMITS.map_len + 1)}), CLIENT_LIMITS)
    assert unpack_body(msgpack.packb([0] * CLIENT_LIMITS.array_len), CLIENT_LIMITS) == [0] * 64


def test_packing_is_canonical() -> None:
    assert pack_body({"t": "ping", "n": 1}) == b"\x82\xa1t\xa4ping\xa1n\x01"
    assert pack_body(2**40) == msgpack.packb(2**40)
    with pytest.raises(LocalProtocolError):
        pack_body(2**64)
    with pytest.raises(LocalProtocolError):
        pack_body(b"bytes")
