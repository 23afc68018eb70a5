"""Chat in the waiting room (issue 18 item 8: ``/`` did nothing there, silently): the host
says a line before the match, a joined player gets it, and theirs shows in the room."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import RichLog

from tests.net.lan_support import until
from unotui.net.remote import RemoteGame
from unotui.protocol import messages as m
from unotui.ui.game_log import CHAT_MARK, GameLog
from unotui.ui.screens.chat import ChatScreen
from unotui.ui.screens.table import TableScreen
from unotui.ui.screens.waiting import WaitingScreen

from .test_modes import _until, hosting, menu_app
from .tui_support import full_text, showing, table_up

pytestmark = [pytest.mark.usefixtures("fast_keys"), pytest.mark.timeout(60)]


async def test_the_waiting_room_has_chat_both_ways() -> None:
    app = menu_app("Hosty")
    async with app.run_test(size=(80, 24)) as pilot:
        hosted = await hosting(pilot)
        waiting = app.screen
        joey = RemoteGame("127.0.0.1", hosted.port, name="Joey")
        heard: list[Any] = []
        joey.listen(heard.append)
        await joey.start()
        await pilot.press("slash")
        await _until(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat line")
        await pilot.press(*"hi all", "enter")
        await until(lambda: any(isinstance(u, m.ChatLine) and u.text == "hi all" for u in heard))
        line = next(u for u in heard if isinstance(u, m.ChatLine))
        assert line.name == "Hosty"
        joey.chat("hello")
        log = waiting.query_one("#waiting-chat", RichLog)
        shown = lambda: [line.text.rstrip() for line in log.lines]  # noqa: E731
        await _until(pilot, lambda: f"{CHAT_MARK}Joey: hello" in shown(), "Joey's line in the room")
        assert f"{CHAT_MARK}Hosty: hi all" in shown()  # the room's chat keeps both, marked as chat
        await joey.close()


async def test_what_was_said_in_the_waiting_room_stays_in_the_tables_log() -> None:
    """The host starts the match (``s``) just after Joey said a line: the table that
    replaces the room starts its log with the room's chat, so the line is not lost."""
    app = menu_app("Hosty")
    async with app.run_test(size=(80, 24)) as pilot:
        hosted = await hosting(pilot)
        joey = RemoteGame("127.0.0.1", hosted.port, name="Joey")
        await joey.start()
        joey.chat("gl hf")
        await _until(pilot, lambda: "Joey: gl hf" in full_text(app), "Joey's line in the room")
        await pilot.press("s")  # start: computer players fill the open seats
        await _until(pilot, lambda: table_up(app), "the table")
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        log = table.query_one(GameLog)
        shown = lambda: [line.text.rstrip() for line in log.lines]  # noqa: E731
        await _until(pilot, lambda: f"{CHAT_MARK}Joey: gl hf" in shown(), "the room's chat in the table")
        await joey.close()


async def test_the_waiting_room_takes_what_comes_before_it_is_up_and_after_it_is_gone() -> None:
    """An update can reach the waiting room before it is composed, or after it is gone
    (the app closing with updates still queued: CI once failed here with ``No nodes match
    '#note'``): the first are shown when it is up, the last show nothing and break nothing."""
    room = WaitingScreen(note="Welcome")
    room.say("Ann joined the table.")
    room.chat(m.ChatLine(0, "Ann", "hello early"))
    app = showing(room)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: "Ann: hello early" in full_text(app), "the early chat line")
        assert "Ann joined the table." in full_text(app)
        app.pop_screen()
        await pilot.pause()
        room.say("Ann left the table.")
        room.chat(m.ChatLine(0, "Ann", "hello late"))
        await pilot.pause()
        assert app.is_running and "Ann left" not in full_text(app)
