"""Frames: a 4-byte big-endian length, then exactly one msgpack object.

Two concerns live here and nowhere else:

* **Cutting the byte stream into frames** (:class:`FrameDecoder`).  The length prefix is
  checked against the receiver's limit *before* any of the body is buffered, so a peer
  announcing a 2 GiB frame costs us four bytes, not 2 GiB.
* **Turning one frame body into a Python value and back** (:func:`unpack_body`,
  :func:`pack_body`).  Each body is decoded on its own with ``msgpack.unpackb`` and
  tight per-call limits; a streaming ``Unpacker`` is never used, so no decoder state
  survives an error (msgpack < 1.2.1 could crash reusing one: GHSA-6v7p-g79w-8964).
  Every failure becomes a :class:`~unotui.protocol.errors.ProtocolError`.

The packer is an allow-list: it refuses any value that is not exactly ``None``, ``bool``,
``int``, ``str``, ``list`` or ``dict`` with string keys (a walk before packing, and
``strict_types=True`` with a refusing ``default`` as a second guard).  So a
:class:`~unotui.engine.Card` or a ``Colour`` (an ``IntEnum``) can never leave as a bare
number, and tuples, floats and bytes never sneak through.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import msgpack

from .errors import LocalProtocolError, RemoteProtocolError

__all__ = [
    "CLIENT_LIMITS",
    "HEADER",
    "HOST_LIMITS",
    "PEER_ACCEPTS",
    "FrameDecoder",
    "Limits",
    "frame",
    "pack_body",
    "unpack_body",
]

#: bytes in the length prefix
HEADER = 4


@dataclass(frozen=True, slots=True)
class Limits:
    """How big a frame and its parts may be, for one direction.

    Attributes:
        frame: largest body in bytes (the length prefix is not counted).
        str_len: longest string in bytes.
        array_len: longest array.
        map_len: largest map.
    """

    frame: int
    str_len: int
    array_len: int
    map_len: int


#: what a host accepts from a client (4 KiB frames: intents, chat, hello)
CLIENT_LIMITS = Limits(frame=4 * 1024, str_len=2048, array_len=64, map_len=32)  # a create carries rules
#: what a host sends (64 KiB frames: views and deltas)
HOST_LIMITS = Limits(frame=64 * 1024, str_len=4 * 1024, array_len=4096, map_len=64)
#: what a client accepts from a host: hosts are untrusted too, but given some slack
PEER_ACCEPTS = Limits(frame=256 * 1024, str_len=16 * 1024, array_len=16384, map_len=64)


def _refuse(obj: object) -> object:
    raise LocalProtocolError(
        "bad_message", f"refusing to pack a {type(obj).__name__}: only None, bool, int, str, list, dict"
    )


_SCALARS = (type(None), bool, int, str)


def _plain(value: object) -> None:
    """Refuse floats, bytes and anything else msgpack would pack but the protocol never uses."""
    kind = type(value)
    if kind is list:
        for item in value:  # type: ignore[attr-defined]
            if type(item) not in _SCALARS:
                _plain(item)
    elif kind is dict:
        for key, item in value.items():  # type: ignore[attr-defined]
            if type(key) is not str:
                raise LocalProtocolError("bad_message", "map keys are strings")
            if type(item) not in _SCALARS:
                _plain(item)
    elif kind not in _SCALARS:
        _refuse(value)


# One packer per thread, reused: ``msgpack.packb`` builds a new ``Packer`` per call, which
# costs about as much as packing a small message.  (A packer empties itself when a pack
# fails; it is not shared between threads, as ``default`` could switch threads mid-pack.)
_PER_THREAD = threading.local()


def pack_body(value: object) -> bytes:
    """The canonical msgpack bytes of ``value`` (plain data only; see the module doc).

    Raises:
        LocalProtocolError: ``value`` holds a type outside the allow-list, or an int
            msgpack cannot represent.
    """
    _plain(value)
    try:
        packer = _PER_THREAD.packer
    except AttributeError:
        packer = _PER_THREAD.packer = msgpack.Packer(
            use_bin_type=True, strict_types=True, default=_refuse, autoreset=True
        )
    try:
        return packer.pack(value)  # type: ignore[no-any-return]
    except LocalProtocolError:
        raise
    except Exception as exc:  # OverflowError for huge ints, ValueError for deep nesting
        raise LocalProtocolError("bad_message", f"cannot pack: {type(exc).__name__}") from None


def frame(body: bytes, limit: int) -> bytes:
    """Prefix ``body`` with its length; refuse a body over ``limit`` (the sender's own check)."""
    if len(body) > limit:
        raise LocalProtocolError("too_large", f"frame of {len(body)} bytes is over the {limit}-byte limit")
    return len(body).to_bytes(HEADER, "big") + body


def unpack_body(body: bytes, limits: Limits) -> object:
    """Decode one frame body into plain data, or raise ``RemoteProtocolError("bad_frame")``.

    Strings must be UTF-8 (``raw=False``), map keys strings (``strict_map_key``), and
    bin and ext types (timestamps included) are refused: the protocol uses neither.
    Trailing bytes after the object are an error too.
    """
    try:
        return msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=limits.str_len,
            max_bin_len=0,
            max_array_len=limits.array_len,
            max_map_len=limits.map_len,
            max_ext_len=0,
        )
    except Exception as exc:  # msgpack raises ValueError subclasses, TypeError, UnicodeDecodeError...
        raise RemoteProtocolError("bad_frame", f"not one msgpack object ({type(exc).__name__})") from None


class FrameDecoder:
    """Cuts a byte stream into frame bodies, checking each length before buffering.

    Feed it whatever the transport delivers (any chunking); it returns the complete
    bodies.  After it has raised, it is poisoned: every later call raises again, so a
    caller cannot accidentally carry on parsing a stream that lost its framing.

    Args:
        limit: the largest body accepted, in bytes.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._buf = bytearray()
        self._need = -1  # body length of the frame being read, -1 while reading a header
        self._failed: RemoteProtocolError | None = None

    @property
    def pending(self) -> bool:
        """Whether part of a frame has arrived and the rest is awaited."""
        return bool(self._buf) or self._need >= 0

    def feed(self, data: bytes) -> list[bytes]:
        """Add received bytes; return every body that is now complete, in order.

        Raises:
            RemoteProtocolError: ``too_large`` when a length prefix is over the limit.
        """
        if self._failed is not None:
            raise self._failed
        self._buf += data
        out: list[bytes] = []
        buf = self._buf
        while True:
            if self._need < 0:
                if len(buf) < HEADER:
                    break
                need = int.from_bytes(buf[:HEADER], "big")
                if need > self.limit:
                    self._failed = RemoteProtocolError(
                        "too_large", f"frame of {need} bytes announced; the limit is {self.limit}"
                    )
                    self._buf = bytearray()
                    raise self._failed
                del buf[:HEADER]
                self._need = need
            if len(buf) < self._need:
                break
            out.append(bytes(buf[: self._need]))
            del buf[: self._need]
            self._need = -1
        return out

    def close(self) -> None:
        """The stream ended: raise ``bad_frame`` if it ended inside a frame."""
        if self._failed is None and self.pending:
            self._failed = RemoteProtocolError("bad_frame", "the stream ended inside a frame")
            raise self._failed
