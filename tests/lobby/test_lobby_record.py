"""A lobby table is a RemoteGame over the same protocol: its seat gets the match's record
too, before the lobby closes the finished table."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from tests.lobby.test_lobby_net import lobby_host, visit
from tests.net.lan_support import Player, has_view, until
from unotui.engine import Rules
from unotui.net.remote import RemoteGame
from unotui.transcript import replay

pytestmark = pytest.mark.timeout(60)


async def test_a_lobby_seat_keeps_the_record_of_its_finished_match(tmp_path: Path) -> None:
    async with lobby_host(tmp_path) as (lobby, port):
        cred = lobby.credentials.issue("SHA256:annsKeyAAAAAAAA")
        ann = await visit(port, "Ann", cred)
        rules = Rules.preset("classic").with_(target_score=40)
        ann.client.create("Short", 2, 1, rules, "random", 30.0, False)
        await until(lambda: ann.created())
        game = RemoteGame("127.0.0.1", port, name="Ann", table=ann.created()[0], identity=cred)
        player = Player(game, Random(3))
        await game.start()
        await until(lambda: has_view(player) and game.record is not None, timeout=45)
        record = game.record
        assert record is not None and record.seat == game.seat == 0
        again = replay(record.transcript)
        assert again.over and tuple(again.scores) == game.view.scores
        assert record.transcript.players == game.view.names
        await game.close()
        await ann.client.close()
