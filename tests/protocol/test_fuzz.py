"""Decode and validate together: hostile bytes only ever raise the protocol's error.

A schema check like ``msg.get("t") in ALLOWED`` crashes on ``{"t": []}``; msgpack itself
raises half a dozen exception types.  These tests throw random bytes, random msgpack
values and mutated valid frames at both parsers and both sessions.
"""

from __future__ import annotations

import contextlib

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.seeds import rng_secret
from unotui.engine import Game, Rules, seat_view
from unotui.protocol import (
    Chat,
    Hello,
    Intent,
    ProtocolError,
    Snapshot,
    ViewEncoder,
    decode_client,
    decode_host,
    encode,
)
from unotui.protocol.events import ConnectionClosed
from unotui.protocol.peer_session import PeerSession
from unotui.protocol.session import HostSession, State
from unotui.protocol.values import ACTION_BY_TEXT

from .proto_support import Pair, random_steps

FUZZ = settings(max_examples=300, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


def _valid_bodies() -> list[bytes]:
    game = Game(3, Rules.preset("giant"), secret=rng_secret(4))
    enc = ViewEncoder()
    bodies = [encode(enc.update(seat_view(game, 0)))]  # type: ignore[arg-type]
    for _ in random_steps(game, 4, 40):
        message = enc.update(seat_view(game, 0))
        if message is not None:
            bodies.append(encode(message))
    return bodies


HOST_BODIES = _valid_bodies()
CLIENT_BODIES = [
    encode(Hello(1, 1, "Ann", token="x" * 43)),
    encode(Intent(3, ACTION_BY_TEXT["colour G"])),
    encode(Chat("hi")),
]
VALID = HOST_BODIES + CLIENT_BODIES

plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8)
    | st.sampled_from(["t", "hello", "intent", "delta", "snapshot", "R5", "draw", "view", "set"])
    | st.floats(allow_nan=False) | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6) | st.sampled_from(
        ["t", "seq", "action", "log", "log_at", "set", "view", "name"]), inner, max_size=4),
    max_leaves=12,
)


def parse_both(body: bytes) -> None:
    for parse in (decode_client, decode_host):
        with contextlib.suppress(ProtocolError):  # any other exception fails the test
            parse(body)


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes_only_raise_protocol_errors(body: bytes) -> None:
    parse_both(body)


@settings(FUZZ, max_examples=120)
@given(plain)
def test_random_msgpack_values_only_raise_protocol_errors(value: object) -> None:
    parse_both(msgpack.packb(value, use_bin_type=True))
    parse_both(msgpack.packb({"t": "intent", "seq": 1, "action": value}, use_bin_type=True))
    parse_both(msgpack.packb({"t": "delta", "log_at": 0, "log": [value], "set": {"top": value}},
                             use_bin_type=True))


@FUZZ
@given(st.sampled_from(range(len(VALID))), st.data())
def test_mutated_valid_frames_only_raise_protocol_errors(index: int, data: st.DataObject) -> None:
    body = bytearray(VALID[index])
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "cut", "insert", "delete"]))
        at = data.draw(st.integers(0, max(0, len(body) - 1)))
        if op == "flip" and body:
            body[at] ^= 1 << data.draw(st.integers(0, 7))
        elif op == "cut":
            del body[at:]
        elif op == "insert":
            body[at:at] = data.draw(st.binary(min_size=1, max_size=3))
        elif body:
            del body[at]
    parse_both(bytes(body))


@FUZZ
@given(st.lists(st.binary(max_size=64), max_size=8))
def test_sessions_turn_any_bytes_into_events_never_exceptions(chunks: list[bytes]) -> None:
    host = HostSession(0.0)
    peer = PeerSession(Hello(1, 1, "Ann"), 0.0)
    for i, chunk in enumerate(chunks):
        for session in (host, peer):
            events = session.receive_data(chunk, float(i))
            if session.state is State.CLOSED:
                assert all(not isinstance(e, ConnectionClosed) or e.code for e in events)
            session.tick(float(i))


def test_the_unmutated_bodies_are_valid() -> None:
    """The mutations start from real frames (else the fuzzing above proves little)."""
    for body in HOST_BODIES:
        assert encode(decode_host(body)) == body
    for body in CLIENT_BODIES:
        assert encode(decode_client(body)) == body
    assert isinstance(decode_host(HOST_BODIES[0]), Snapshot) and len(HOST_BODIES) > 20


@FUZZ
@given(st.sampled_from(range(len(VALID))), st.data())
def test_admitted_sessions_survive_mutated_frames(index: int, data: st.DataObject) -> None:
    """Past the handshake, where most of the parsing happens, sessions still only close."""
    pair = Pair()
    pair.admit(seat=0, rules=Rules.preset("giant"))
    body = bytearray(VALID[index])
    if body:
        at = data.draw(st.integers(0, len(body) - 1))
        body[at] = data.draw(st.integers(0, 255))
    frame = len(body).to_bytes(4, "big") + bytes(body)
    for session in (pair.host, pair.peer):
        events = session.receive_data(frame, pair.now)
        assert session.closed == any(isinstance(e, ConnectionClosed) for e in events)
