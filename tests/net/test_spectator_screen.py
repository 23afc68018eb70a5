"""A spectator's table screen: it says the viewer is watching, offers only the keys that
do something for a spectator, and every game key says why it does nothing."""

from __future__ import annotations

import random

import pytest

from tests.hostile.test_screens import joined_app, wait_for
from tests.net.lan_support import FAST, Player, has_view, hosted, until
from tests.ui.tui_support import full_text
from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.remote import RemoteGame
from unotui.ui.screens.table import TableScreen
from unotui.ui.screens.table_keys import WATCHING_NOTE

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("fast_keys")]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_spectator_is_told_it_is_watching_and_offered_only_its_keys(size: tuple[int, int]) -> None:
    rules = Rules.preset("classic").with_(target_score=1000)
    config = RoomConfig(seats=2, bots=1, autostart=True, rules=rules, **{**FAST, "bot_delay": 60.0})
    async with hosted(config) as (_host, _room, port):
        ann = Player(RemoteGame("127.0.0.1", port, name="Ann"), random.Random(1), auto=False)
        await ann.game.start()
        await until(lambda: has_view(ann))
        app = joined_app(port, "Sam", spectate=True)
        async with app.run_test(size=size) as pilot:
            watching = lambda: isinstance(app.screen, TableScreen) and "Watching." in full_text(app)  # noqa: E731
            await wait_for(pilot, watching)
            screen = full_text(app)
            assert "You are watching: the players' hands are hidden." in screen
            keys = " ".join(screen.splitlines()[-1].split())
            assert "? Help" in keys and "/ Chat" in keys and "^Q Quit" in keys
            assert not any(k in keys for k in ("Play", "Hint", "Move", "Draw", "Sort")), keys
            for key in ("enter", "d", "n", "right", "s", "u", "b"):
                table = app.screen
                assert isinstance(table, TableScreen)
                table.say("")
                await pilot.press(key)
                await wait_for(pilot, lambda: WATCHING_NOTE in full_text(app))
        await ann.game.close()
