"""The match's record over real loopback sockets: a LAN match of two remote seats and a
computer player ends, each seat's record replays to the host's final scores; a version 1
client is sent none; a seat that arrives after the end gets it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.controller import RecordArrived
from unotui.net.remote import RemoteGame
from unotui.protocol import messages as m
from unotui.protocol.codec import decode_host, encode
from unotui.protocol.framing import FrameDecoder, frame
from unotui.transcript import Transcript, final_state, replay
from unotui.transcript.save import save

from .lan_support import FAST, Player, hosted, raw, until

pytestmark = pytest.mark.timeout(60)

#: a short match: two remote seats and a computer player to 60 points
CONFIG = RoomConfig(seats=3, bots=1, autostart=True, rules=Rules.preset("classic").with_(target_score=60),
                    **FAST)


async def _frames_for(reader: asyncio.StreamReader, seconds: float) -> list[object]:
    """Every message the host sends on a raw connection for ``seconds``."""
    decoder, out = FrameDecoder(256 * 1024), []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        try:
            data = await asyncio.wait_for(reader.read(65536), left)
        except TimeoutError:
            break
        if not data:
            break
        out += [decode_host(body) for body in decoder.feed(data)]
    return out


async def _raw_spectator(port: int, max_version: int) -> list[object]:
    reader, writer = await raw(port)
    writer.write(frame(encode(m.Hello(1, max_version, "Old", spectate=True)), 4096))
    try:
        return await _frames_for(reader, 1.5)
    finally:
        writer.close()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unotui", *args], capture_output=True, text=True,
                          timeout=120, check=False)


async def test_each_seat_gets_a_record_that_replays_to_the_hosts_match(tmp_path: Path) -> None:
    async with hosted(CONFIG) as (_host, room, port):
        players = [Player(RemoteGame("127.0.0.1", port, name=n), Random(k)) for k, n in enumerate("AB")]
        for p in players:
            await p.game.start()
        await until(lambda: all(p.game.record is not None for p in players), 45)
        game = room.game
        assert game is not None and game.over
        for p in players:
            record = p.game.record
            assert record is not None and record.seat == p.game.seat
            assert [u for u in p.updates if isinstance(u, RecordArrived)] == [RecordArrived(record)]
            data = record.transcript.to_mapping()
            assert data["format"] == "unotui-transcript/3" and "secret" not in data
            again = replay(Transcript.from_mapping(data))
            assert again.scores == game.scores and final_state(again) == final_state(game)
            assert not p.game.record_refused and not p.closed
        # What s saves, the CLI replays and reviews (in a subprocess, as a user runs them).
        record = players[1].game.record
        assert record is not None
        path = tmp_path / "seat.json"
        save(record.transcript, path)
        replayed = _cli("replay", str(path), "--json", "--no-events")
        assert replayed.returncode == 0, replayed.stderr
        assert json.loads(replayed.stdout) == final_state(game, events=False)
        reviewed = _cli("review", str(path), "--json", "--playouts", "4", "--jobs", "1")
        assert reviewed.returncode == 0, reviewed.stderr
        assert json.loads(reviewed.stdout)["players"] == list(game.names)

        # A version 1 client arriving now is sent no record; a version 2 one is.
        old = await _raw_spectator(port, 1)
        new = await _raw_spectator(port, 2)
        assert any(isinstance(x, m.Welcome) and x.version == 1 for x in old)
        assert not [x for x in old if isinstance(x, m.TranscriptPart)]
        parts = [x for x in new if isinstance(x, m.TranscriptPart)]
        assert parts and [p.part for p in parts] == list(range(parts[0].parts))

        # A seat arriving after the end (a spectator's chair) gets it and checks it.
        late = Player(RemoteGame("127.0.0.1", port, name="Late", spectate=True), Random(9), auto=False)
        await late.game.start()
        await until(lambda: late.game.record is not None, 10)
        assert late.game.record is not None and late.game.record.seat == game.winner
        assert replay(late.game.record.transcript).scores == game.scores
        for p in (*players, late):
            await p.game.close()
