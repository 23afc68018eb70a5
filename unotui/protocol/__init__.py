"""The wire protocol between a table's host and its peers, without any I/O.

Nothing here opens a socket, reads a clock or imports asyncio: bytes go in, events and
bytes to send come out, and the caller says what time it is (the h11 / websockets
"sans-I/O" design).  ``protocol/SPEC.md`` at the top of the repository is the contract;
this package is one implementation of it, tested against ``protocol/vectors/``.

Layers, bottom up: :mod:`.framing` (length prefix, msgpack with limits), :mod:`.values`
(cards, actions, events, rules as strict text forms), :mod:`.messages` (one dataclass per
message, defined in :mod:`.table_messages` and :mod:`.link_messages`), :mod:`.codec`
(message <-> bytes), :mod:`.sync` (snapshot and deltas of a seat's view), :mod:`.shared`
(a moment's views as each connection's bytes), :mod:`.text` (cleaning names and chat),
:mod:`.states` (the sessions' rules as tables), :mod:`.session` (the per-connection state
machines with timeouts, limits and heartbeats).

Importing the package loads none of them: a name is loaded from its module when first
used (PEP 562), so a program that needs only the messages (solo play's table core) does
not pay for the codec, the sessions or the view sync at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import names_from

if TYPE_CHECKING:
    from .codec import decode_client, decode_host, encode, encode_frame
    from .errors import CODES, LocalProtocolError, ProtocolError, RemoteProtocolError
    from .framing import CLIENT_LIMITS, HOST_LIMITS, PEER_ACCEPTS, FrameDecoder, Limits
    from .messages import (
        Accepted,
        Bye,
        Chat,
        ChatLine,
        ClientMessage,
        Closed,
        Create,
        Created,
        Deadline,
        Delta,
        Error,
        Hello,
        HostMessage,
        Intent,
        LeaderRow,
        LobbyState,
        LobbyTable,
        Message,
        Ping,
        Pong,
        Presence,
        Quick,
        Ready,
        Refused,
        SeatState,
        Snapshot,
        Start,
        TableState,
        TranscriptPart,
        Welcome,
    )
    from .sync import ViewDecoder, ViewEncoder
    from .text import clean, clean_chat, clean_name, name_key

#: each name this package offers -> the module that defines it
_WHERE: dict[str, str] = {
    "decode_client": "codec",
    "decode_host": "codec",
    "encode": "codec",
    "encode_frame": "codec",
    "CODES": "errors",
    "LocalProtocolError": "errors",
    "ProtocolError": "errors",
    "RemoteProtocolError": "errors",
    "CLIENT_LIMITS": "framing",
    "HOST_LIMITS": "framing",
    "PEER_ACCEPTS": "framing",
    "FrameDecoder": "framing",
    "Limits": "framing",
    "Accepted": "messages",
    "Bye": "messages",
    "Chat": "messages",
    "ChatLine": "messages",
    "ClientMessage": "messages",
    "Closed": "messages",
    "Create": "messages",
    "Created": "messages",
    "Deadline": "messages",
    "Delta": "messages",
    "Error": "messages",
    "Hello": "messages",
    "HostMessage": "messages",
    "Intent": "messages",
    "LeaderRow": "messages",
    "LobbyState": "messages",
    "LobbyTable": "messages",
    "Message": "messages",
    "Ping": "messages",
    "Pong": "messages",
    "Presence": "messages",
    "Quick": "messages",
    "Ready": "messages",
    "Refused": "messages",
    "SeatState": "messages",
    "Snapshot": "messages",
    "Start": "messages",
    "TableState": "messages",
    "TranscriptPart": "messages",
    "Welcome": "messages",
    "ViewDecoder": "sync",
    "ViewEncoder": "sync",
    "clean": "text",
    "clean_chat": "text",
    "clean_name": "text",
    "name_key": "text",
}


__getattr__ = names_from(__name__, _WHERE)


__all__ = [
    "CLIENT_LIMITS",
    "CODES",
    "HOST_LIMITS",
    "PEER_ACCEPTS",
    "Accepted",
    "Bye",
    "Chat",
    "ChatLine",
    "ClientMessage",
    "Closed",
    "Create",
    "Created",
    "Deadline",
    "Delta",
    "Error",
    "FrameDecoder",
    "Hello",
    "HostMessage",
    "Intent",
    "LeaderRow",
    "Limits",
    "LobbyState",
    "LobbyTable",
    "LocalProtocolError",
    "Message",
    "Ping",
    "Pong",
    "Presence",
    "ProtocolError",
    "Quick",
    "Ready",
    "Refused",
    "RemoteProtocolError",
    "SeatState",
    "Snapshot",
    "Start",
    "TableState",
    "TranscriptPart",
    "ViewDecoder",
    "ViewEncoder",
    "Welcome",
    "clean",
    "clean_chat",
    "clean_name",
    "decode_client",
    "decode_host",
    "encode",
    "encode_frame",
    "name_key",
]
