"""A name clash is said, not silent (issue 18 item 9): the host seats a second "Dave" as
"dave 2", and that player's waiting room says so."""

from __future__ import annotations

import pytest

from tests.net.lan_support import FAST, hosted, until
from unotui.net.config import RoomConfig
from unotui.net.remote import RemoteGame
from unotui.ui.cli import table_app
from unotui.ui.lan import joined
from unotui.ui.screens.waiting import WaitingScreen

from .test_modes import _until
from .tui_support import full_text

pytestmark = [pytest.mark.usefixtures("fast_keys"), pytest.mark.timeout(60)]


async def test_a_renamed_join_is_told_its_name_at_the_table() -> None:
    async with hosted(RoomConfig(seats=3, **FAST)) as (_host, _room, port):
        first = RemoteGame("127.0.0.1", port, name="Dave")
        await first.start()
        app = table_app(joined("127.0.0.1", port, name="dave"), "dave")
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: isinstance(app.screen, WaitingScreen) and app.screen.room is not None,
                         "the waiting room")
            await _until(pilot, lambda: "You are dave 2 at this table: dave was taken." in full_text(app),
                         "the line that says the name")
        again = RemoteGame("127.0.0.1", port, name="Eve")
        await again.start()
        await until(lambda: again.seat is not None)
        from unotui.ui.lan import renamed

        assert renamed(again) == ""  # the name asked for: nothing to say
        await again.close()
        await first.close()
