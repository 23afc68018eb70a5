"""The waiting room when its host goes away: it says the table is closed, and the lines
about waiting, starting and joining go (they would be stale)."""

from __future__ import annotations

import pytest

from tests.hostile.test_screens import joined_app, wait_for
from tests.net.lan_support import FAST, hosted
from tests.ui.tui_support import full_text, words
from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.ui.screens.waiting import WaitingScreen

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("fast_keys")]


async def test_a_waiting_room_whose_host_left_says_closed_and_nothing_stale() -> None:
    config = RoomConfig(seats=3, rules=Rules.preset("classic"), **FAST)
    async with hosted(config) as (host, _room, port):
        app = joined_app(port, "Joe")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: "Waiting for the host to start the match." in words(app))
            await host.close()
            await wait_for(pilot, lambda: "Game closed: The host ended the game." in words(app))
            text = words(app)
            assert "(closed)" in text and "waiting for players" not in text
            assert "Waiting for the host" not in text and "Others join with" not in text
            await pilot.press("s")
            await wait_for(pilot, lambda: "The table is closed: Escape leaves." in words(app))
            assert "Start match" not in full_text(app)
            assert isinstance(app.screen, WaitingScreen)
