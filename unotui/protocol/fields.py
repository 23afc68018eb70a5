"""The readers the wire's fields are built from (for :data:`~unotui.protocol.codec.SCHEMAS`).

A :class:`Field` is a wire key with its reader (strict: a wrong type, size or range is a
:class:`~unotui.protocol.errors.RemoteProtocolError`) and its writer, which checks the
outgoing value with the same reader (a failure there is the sender's bug: a
:class:`~unotui.protocol.errors.LocalProtocolError`).  Apart from the codec so that the
table of every message's fields fits on a few screens.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import Event
from .errors import LocalProtocolError, RemoteProtocolError
from .sync import MAX_LOG
from .values import MAX_SEATS, bad, event_in, int_in, list_in, str_in

_CODE = re.compile(r"[a-z][a-z0-9_]{0,31}")
_TABLE_CODE = re.compile(r"[A-Za-z0-9]{1,12}")
_IDENTITY = re.compile(r"[A-Za-z0-9+/=:._-]{8,200}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_U32 = 2**32 - 1
_SEQ = 2**62


@dataclass(frozen=True, slots=True)
class Field:
    """One message field: its wire key, how it goes out and how it comes back."""

    key: str
    out: Callable[[Any], object]
    read: Callable[[object], Any]


def _plain(read: Callable[[object], Any]) -> Callable[[Any], object]:
    """An ``out`` for fields whose wire form is their Python value: validate and pass."""

    def out(value: Any) -> object:
        try:
            read(value)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(exc.code, exc.message) from None
        return value

    return out


def _f(key: str, read: Callable[[object], Any], out: Callable[[Any], object] | None = None) -> Field:
    return Field(key, out or _plain(read), read)


def _int(what: str, lo: int, hi: int) -> Callable[[object], int]:
    return lambda v: int_in(v, what, lo, hi)


def _log_in(v: object) -> tuple[Event, ...]:
    return list_in(v, "log", event_in, MAX_LOG)


def _str(what: str, max_len: int, min_len: int = 0) -> Callable[[object], str]:
    return lambda v: str_in(v, what, max_len, min_len)


def _opt(read: Callable[[object], Any]) -> Callable[[object], Any]:
    return lambda v: None if v is None else read(v)


def _match(what: str, pattern: re.Pattern[str]) -> Callable[[object], str]:
    def read(v: object) -> str:
        if type(v) is not str or not pattern.fullmatch(v):
            raise RemoteProtocolError("bad_message", f"{what}: not a valid {what}")
        return v

    return read


def _one_of(what: str, allowed: tuple[str, ...]) -> Callable[[object], str]:
    def read(v: object) -> str:
        if type(v) is not str or v not in allowed:
            raise RemoteProtocolError("bad_message", f"{what}: expected one of {', '.join(allowed)}")
        return v

    return read


def _text(value: object) -> object:
    """A name of a vocabulary as plain text: the host holds a table's status, a seat's
    kind or presence and a deadline's kind as :class:`enum.StrEnum` members (the framing
    packs exact types only); its text is the same bytes on the wire."""
    return str.__str__(value) if isinstance(value, str) else value


def _name_out(read: Callable[[object], str]) -> Callable[[Any], object]:
    """An ``out`` for a field holding one name of a vocabulary (see :func:`_text`)."""

    def out(value: Any) -> object:
        text = _text(value)
        _local(read, text)
        return text

    return out


_seat = _opt(_int("seat", 0, MAX_SEATS - 1))
_seq = _int("seq", 0, _SEQ)
_n = _int("n", 0, _U32)
_code = _match("code", _CODE)
_message = _str("message", 512)
_token = _opt(_match("token", _TOKEN))
_name = _str("name", 64, 1)


def _row(what: str, read: Callable[[list[object]], Any], size: int) -> Callable[[object], Any]:
    """A reader of a fixed-size array (a row of a list), refusing any other shape."""

    def reader(v: object) -> Any:
        if type(v) is not list or len(v) != size:
            raise bad(what, v)
        return read(v)

    return reader


def _local(read: Callable[[object], Any], value: object) -> None:
    """Check an outgoing value with the incoming reader (errors are the sender's bug)."""
    try:
        read(value)
    except RemoteProtocolError as exc:
        raise LocalProtocolError(exc.code, exc.message) from None
