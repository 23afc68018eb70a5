"""How a lobby ends a table's connections (``protocol/SPEC.md``, Errors: ``closed``).

A finished table's connections end with ``closed`` ``match_over`` when the lobby reaps it;
any other table it reaps (nobody joined, everyone left) ends them with ``host_left``.
"""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from tests.lobby.test_lobby_net import lobby_host, visit
from tests.net.lan_support import Player, has_view, until
from unotui.engine import Rules
from unotui.lobby.lobby import LobbySettings
from unotui.net.remote import RemoteGame

pytestmark = pytest.mark.timeout(60)

SETTINGS = LobbySettings(bot_delay=0.0, catch_grace=0.0, auto_keep=0.0, reap_every=0.1, over_grace=0.4,
                         empty_grace=30.0, lonely_grace=0.5)


async def test_a_lobby_closes_a_finished_tables_connections_with_match_over(tmp_path: Path) -> None:
    async with lobby_host(tmp_path, SETTINGS) as (_lobby, port):
        ann = await visit(port, "Ann")
        ann.client.create("Short", 2, 1, Rules.preset("classic").with_(target_score=1), "random", None, False)
        await until(lambda: ann.created())
        code = ann.created()[0]
        game = RemoteGame("127.0.0.1", port, name="Ann", table=code, reconnect_for=0)
        player = Player(game, Random(3))
        await game.start()
        await until(lambda: has_view(player) and game.view.phase == "match_over", timeout=40)
        await until(lambda: bool(player.closed), timeout=10)  # still connected: the reaper ends it
        assert [c.code for c in player.closed] == ["match_over"]
        await game.close()
        await ann.client.close()


async def test_a_lobby_reaps_an_unfinished_table_with_host_left_not_match_over(tmp_path: Path) -> None:
    async with lobby_host(tmp_path, SETTINGS) as (_lobby, port):
        ann = await visit(port, "Ann")
        ann.client.create("Lonely", 3, 0, Rules.preset("classic"), "easy", None, True)
        await until(lambda: ann.created())
        game = RemoteGame("127.0.0.1", port, name="Ann", table=ann.created()[0], reconnect_for=0)
        player = Player(game, Random(1), auto=False)
        await game.start()
        await until(lambda: bool(player.closed), timeout=10)
        assert [c.code for c in player.closed] == ["host_left"]
        await game.close()
        await ann.client.close()
