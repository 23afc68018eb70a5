"""``LobbyClient.kept`` against a hostile lobby on loopback: a transcript sent out of
order, too long, or that does not parse is a KeptError with a sentence, never a crash or
unbounded memory, and the connection's other requests still work."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from unotui.engine import Rules
from unotui.net.lobby_client import MAX_KEPT_TEXT, KeptError, LobbyClient
from unotui.protocol import messages as m
from unotui.protocol.events import HelloReceived
from unotui.protocol.session import HostSession

pytestmark = pytest.mark.timeout(30)

Answer = Callable[[m.Kept], list[m.Message]]


@asynccontextmanager
async def hostile(answer: Answer, versions: tuple[int, int] = (1, 2)) -> AsyncIterator[int]:
    """A lobby that welcomes anyone and answers ``kept`` with ``answer``'s messages."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        session = HostSession(asyncio.get_running_loop().time(), versions=versions)
        while data := await reader.read(65536):
            for event in session.receive_data(data, asyncio.get_running_loop().time()):
                if isinstance(event, HelloReceived):
                    session.accept(seat=None, token=None, table="", table_name="lobby", seats=4,
                                   rules=Rules.preset("classic"))
                elif isinstance(event, m.Kept):
                    for message in answer(event):
                        session.send(message)
                elif isinstance(event, m.Matches):
                    session.send(m.KeptList((), "none"))
            writer.write(session.data_to_send())
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()


@pytest.mark.parametrize(("answer", "said"), [
    (lambda r: [m.KeptText(r.id, 1, 2, ("{}",))], "broken transcript"),  # part 1 first
    (lambda r: [m.KeptText(r.id + 1, 0, 1, ("{}",))], "broken transcript"),  # another match
    (lambda r: [m.KeptText(r.id, 0, 2, ("{",)), m.KeptText(r.id, 1, 3, ("}",))], "broken transcript"),
    (lambda r: [m.KeptText(r.id, i, 64, ("x" * 4096,) * 14) for i in range(64)], "broken transcript"),
    (lambda r: [m.KeptText(r.id, 0, 1, ('{"players": "Ann"}',))], "cannot be read"),
    (lambda r: [m.ReviewSlot(True, "")], "something else"),
])
async def test_a_hostile_transcript_is_a_sentence(answer: Answer, said: str) -> None:
    async with hostile(answer) as port:
        client = LobbyClient("127.0.0.1", port, name="Ann")
        await client.start()
        with pytest.raises(KeptError, match=said):
            await client.kept(7)
        assert (await client.matches()).note == "none"  # the connection still answers in order
        await client.close()


async def test_a_version_1_lobby_still_seats_the_client_and_is_never_asked_for_matches() -> None:
    async with hostile(lambda r: [], versions=(1, 1)) as port:
        client = LobbyClient("127.0.0.1", port, name="Ann")
        await client.start()  # (the client offers versions 1..2)
        with pytest.raises(KeptError, match="older than recent matches"):
            await client.matches()
        with pytest.raises(KeptError, match="older than recent matches"):
            await client.review_slot()
        await client.close()


def test_the_client_cap_is_above_what_a_lobby_keeps() -> None:
    from unotui.lobby.sqlite_store import MAX_TRANSCRIPT

    assert MAX_TRANSCRIPT < MAX_KEPT_TEXT < 64 * 14 * 4096
