"""Enter on a started table, by keyboard against a real lobby on loopback: the key's
seat in use in its other terminal is offered for taking over; a guest, and a key with
no seat there, are told the match has started."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lobby.test_lobby_app import SETTINGS, lobby_ready, screen_is
from tests.net.lan_support import until
from tests.ui.tui_support import words
from unotui.net.remote import RemoteGame
from unotui.ui.lobby_home import lobby_app
from unotui.ui.screens.lobby import LobbyScreen

from .test_lobby_net import lobby_host, visit

pytestmark = pytest.mark.timeout(60)


async def test_enter_on_a_started_table_where_the_keys_seat_is_in_use_asks_to_take_it_over(
        tmp_path: Path) -> None:
    """Two terminals of one key, the other playing a quick match: Enter on that table asks
    "Take it over here?" (the greeting says to sit there), where it said the match had
    started (found over SSH: only a waiting table asked).  A started table without the
    key's seat still says it has started."""
    from unotui.ui.screens.dialogs import ConfirmScreen
    from unotui.ui.screens.lobby import started_text

    async with lobby_host(tmp_path, SETTINGS) as (lobby, port):
        identity = lobby.credentials.issue("SHA256:annsKeyAAAAAAAA")
        other = await visit(port, "Ann", identity)
        other.client.quick()
        await until(lambda: other.created())
        code = other.created()[0]
        await other.client.close()
        twin = RemoteGame("127.0.0.1", port, name="Ann", table=code, identity=identity)
        await twin.start()
        app = lobby_app("127.0.0.1", port, "Ann", identity=identity, keyed=True)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await lobby_ready(pilot)
            assert screen.started(code) and screen.highlighted() == code
            await pilot.press("enter")
            await screen_is(pilot, ConfirmScreen)
            assert "Take it over here?" in words(app)
            await pilot.press("n")
            await screen_is(pilot, LobbyScreen)
        guest = lobby_app("127.0.0.1", port, "Cy")
        async with guest.run_test(size=(80, 24)) as pilot:
            screen = await lobby_ready(pilot)
            await pilot.press("enter")
            await pilot.pause(0.2)
            assert guest.screen is screen and started_text(code) in words(guest)
        bob = lobby_app("127.0.0.1", port, "Bob", identity=lobby.credentials.issue("SHA256:bobsKeyBBBBBBBB"),
                        keyed=True)
        async with bob.run_test(size=(80, 24)) as pilot:  # a key with no seat there: the host says
            screen = await lobby_ready(pilot)
            await pilot.press("enter")
            for _ in range(100):
                await pilot.pause(0.05)
                if started_text(code) in words(bob):
                    break
            assert bob.screen is screen and started_text(code) in words(bob), words(bob)
        await twin.close()
