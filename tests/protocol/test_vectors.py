"""This implementation against the language-neutral vectors in ``protocol/vectors/``.

Each file lists frames (hex, length prefix included) sent by ``sender``, read with the
receiver's frame ``limit``.  A valid frame must decode to a message whose encoding is the
exact same bytes, and its msgpack value must equal ``value`` and pack back to the same
body.  An invalid one must fail with exactly ``error`` (a protocol code).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgpack
import pytest

from unotui.protocol import FrameDecoder, ProtocolError, decode_client, decode_host, encode
from unotui.protocol.framing import pack_body
from unotui.protocol.messages import CLIENT_MESSAGES, HOST_MESSAGES

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
FILES = sorted(VECTORS.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def cases(kind: str) -> list[Any]:
    return [
        pytest.param(load(p), case, id=f"{p.stem}:{case['name']}")
        for p in FILES
        for case in load(p).get(kind, [])
    ]


def read(data: dict[str, Any], frame_hex: str) -> list[Any]:
    """Frame, decode and validate the bytes as the receiver would, to the end of stream."""
    decode = decode_client if data["sender"] == "client" else decode_host
    frames = FrameDecoder(data["limit"])
    bodies = frames.feed(bytes.fromhex(frame_hex))
    frames.close()
    return [(body, decode(body)) for body in bodies]


def test_there_are_vectors_for_every_message_type() -> None:
    """Version 1's in client/host.json; version 2's subsections each in files of their own."""
    assert {p.stem for p in FILES} == {"client", "framing", "host", "lobby_kept_client", "lobby_kept_host"}
    for sender, table in (("client", CLIENT_MESSAGES), ("host", HOST_MESSAGES)):
        seen = {case["value"]["t"] for p in FILES if (data := load(p))["sender"] == sender
                for case in data["valid"] if "value" in case}
        assert seen == set(table), sender


@pytest.mark.parametrize(("data", "case"), cases("valid"))
def test_valid_vectors_decode_and_encode_to_the_same_bytes(data: dict[str, Any], case: dict[str, Any]
                                                           ) -> None:
    got = read(data, case["frame"])
    values = case.get("values", [case.get("value")])
    assert len(got) == len(values)
    for (body, message), value in zip(got, values, strict=True):
        assert msgpack.unpackb(body) == value
        assert pack_body(value) == body  # the decoded value encodes to the exact bytes
        assert encode(message) == body  # and so does the typed message


@pytest.mark.parametrize(("data", "case"), cases("older"))
def test_older_senders_frames_are_read_as_their_canonical_message(data: dict[str, Any], case: dict[str, Any]
                                                                   ) -> None:
    """A frame that lacks an optional key (an older sender's) decodes, to the message
    whose canonical encoding is ``as``."""
    [(_body, message)] = read(data, case["frame"])
    assert encode(message) == pack_body(case["as"])


@pytest.mark.parametrize(("data", "case"), cases("invalid"))
def test_invalid_vectors_fail_with_their_code(data: dict[str, Any], case: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError) as info:
        read(data, case["frame"])
    assert info.value.code == case["error"]
