"""The wire protocol between a table's host and its peers, without any I/O.

Nothing here opens a socket, reads a clock or imports asyncio: bytes go in, events and
bytes to send come out, and the caller says what time it is (the h11 / websockets
"sans-I/O" design).  ``protocol/SPEC.md`` at the top of the repository is the contract;
this package is one implementation of it, tested against ``protocol/vectors/``.

Layers, bottom up: :mod:`.framing` (length prefix, msgpack with limits), :mod:`.values`
(cards, actions, events, rules as strict text forms), :mod:`.messages` (one dataclass per
message), :mod:`.codec` (message <-> bytes), :mod:`.sync` (snapshot and deltas of a
seat's view), :mod:`.shared` (a moment's views as each connection's bytes), :mod:`.text`
(cleaning names and chat), :mod:`.states` (the sessions' rules as tables),
:mod:`.session` (the per-connection state machines with timeouts, limits and heartbeats).
"""

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
    Welcome,
)
from .sync import ViewDecoder, ViewEncoder
from .text import clean, clean_chat, clean_name, name_key

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
