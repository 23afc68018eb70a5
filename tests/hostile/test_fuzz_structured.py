"""Structured mutations of valid messages, decoded and handled together.

tests/protocol/test_fuzz.py throws random bytes, random msgpack values and bit flips at
the parsers.  Here hypothesis starts from every valid message of the wire vectors (both
directions, every message type) and mutates its *structure*: a field replaced by a value
of another type, deleted, added, a list grown past its limit, a nested value swapped for
another message's, ``t`` changed.  The mutated frame goes to the decoder and to an
admitted session; only :class:`~unotui.protocol.errors.ProtocolError` may escape the
decoder, and a session ends, if it ends, in one ``ConnectionClosed`` with a protocol code.
"""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.protocol.proto_support import Pair
from unotui.engine import Rules
from unotui.protocol import ProtocolError, decode_client, decode_host
from unotui.protocol.errors import CODES
from unotui.protocol.events import ConnectionClosed

from .arena import size

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
CLIENT = [v["value"] for v in json.loads((VECTORS / "client.json").read_text())["valid"]]
HOST = [v["value"] for v in json.loads((VECTORS / "host.json").read_text())["valid"]]
TYPES = sorted({v["t"] for v in CLIENT + HOST})

FUZZ = settings(max_examples=size(400, 20_000), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

scalar = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=12)
          | st.sampled_from(["", "R5", "W+4", "draw", "x" * 300, "\x1b]0;x\x07", "\u202e", *TYPES])
          | st.floats(allow_nan=True) | st.binary(max_size=4))
value = st.recursive(scalar, lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=10)


def _paths(obj: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*at, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*at, i))
    return out


def _mutate(base: dict[str, Any], data: st.DataObject) -> Any:
    msg = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(msg)
        path = data.draw(st.sampled_from(paths))
        parent, key = (None, None) if not path else (_get(msg, path[:-1]), path[-1])
        target = msg if not path else parent[key]  # type: ignore[index]
        op = data.draw(st.sampled_from(["replace", "delete", "add", "grow", "swap", "retype", "wrap"]))
        if op == "replace" and path:
            parent[key] = data.draw(value)  # type: ignore[index]
        elif op == "delete" and path:
            del parent[key]  # type: ignore[union-attr]
        elif op == "add" and isinstance(target, dict):
            target[data.draw(st.sampled_from(["seat", "t", "cards", "view", "x"]))] = data.draw(value)
        elif op == "grow" and isinstance(target, list):
            target.extend([target[0] if target else 0] * data.draw(st.sampled_from([1, 70, 5000])))
        elif op == "swap" and path:
            parent[key] = copy.deepcopy(data.draw(st.sampled_from(CLIENT + HOST)))  # type: ignore[index]
        elif op == "retype" and isinstance(msg, dict):
            msg["t"] = data.draw(st.sampled_from(TYPES))
        elif op == "wrap" and path:
            parent[key] = [parent[key]]  # type: ignore[index]
    return msg


def _get(obj: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        obj = obj[k]
    return obj


def _body(msg: Any) -> bytes:
    try:
        return msgpack.packb(msg, use_bin_type=True)
    except (ValueError, OverflowError, TypeError):
        return b"\xc1"


def _decoders(body: bytes) -> None:
    for parse in (decode_client, decode_host):
        with contextlib.suppress(ProtocolError):  # anything else fails the test
            parse(body)


def _sessions(body: bytes) -> None:
    frame = len(body).to_bytes(4, "big") + body
    for spectator in (False, True):
        pair = Pair()
        pair.admit(seat=None if spectator else 0, rules=Rules.preset("giant"))
        for session in (pair.host, pair.peer):
            events = session.receive_data(frame, pair.now)
            closed = [e for e in events if isinstance(e, ConnectionClosed)]
            assert session.closed == bool(closed) and len(closed) <= 1, events
            assert all(e.code in CODES for e in closed), closed
            session.tick(pair.now + 100)  # timers after a mutated frame: still no exception


@FUZZ
@given(st.sampled_from(range(len(CLIENT))), st.data())
def test_mutated_client_messages_only_ever_raise_protocol_errors(index: int, data: st.DataObject) -> None:
    body = _body(_mutate(CLIENT[index], data))
    _decoders(body)
    _sessions(body)


@FUZZ
@given(st.sampled_from(range(len(HOST))), st.data())
def test_mutated_host_messages_only_ever_raise_protocol_errors(index: int, data: st.DataObject) -> None:
    body = _body(_mutate(HOST[index], data))
    _decoders(body)
    _sessions(body)


def test_the_corpus_covers_every_message_type() -> None:
    assert len(TYPES) >= 20 and {"hello", "intent", "snapshot", "delta", "lobby", "create"} <= set(TYPES)
