"""Chat told apart from the game and earlier lines shown once (issue 18 item 8), on the
screens, over real loopback sockets: the table's log, the waiting room and the lobby mark
a chat line with a column of its own (no colour needed), a long line's continuation is
indented past the marker, the recent lines a host sends to a newcomer say "(earlier)",
and after a reconnection (the host sends them again) they are not repeated."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App
from textual.widgets import RichLog

from tests.hostile.test_screens import joined_app, wait_for
from tests.lobby.test_lobby_app import SETTINGS, lobby_ready
from tests.lobby.test_lobby_net import lobby_host, visit
from tests.net.lan_support import FAST, Player, has_view, hosted, until
from tests.ui.tui_support import full_text, table_up
from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.remote import RemoteGame
from unotui.protocol import messages as m
from unotui.ui.app import UnoApp
from unotui.ui.game_log import CHAT_MARK, GameLog, SentenceLog
from unotui.ui.lobby_home import lobby_app
from unotui.ui.screens.waiting import WaitingScreen

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("fast_keys")]

SIZES = [(80, 24), (120, 40)]
LONG = " ".join(f"word{n}" for n in range(40))  # 269 cells: several lines at any size


def lines(log: RichLog) -> list[str]:
    return [line.text.rstrip() for line in log.lines]


def count(log: RichLog, text: str) -> int:
    return sum(text in line for line in lines(log))


async def reconnect(pilot: Any, app: UnoApp) -> None:
    """Pull the app's cable: its controller resumes with its token (the host sends the
    recent lines again)."""
    game = app.controller
    assert isinstance(game, RemoteGame)
    link, token = game._link, game.token
    assert link is not None
    link.abort("test: cable pulled")
    await wait_for(pilot, lambda: game.token != token and game._link is not None)
    await pilot.pause(0.3)


def assert_wrapped_past_the_marker(log: RichLog) -> None:
    shown = lines(log)
    first = next(i for i, line in enumerate(shown) if line.startswith(f"{CHAT_MARK}Ann: word0 "))
    last = next(i for i in range(first, len(shown)) if "word39" in shown[i])
    rest = shown[first + 1:last + 1]
    assert rest, shown  # wrapped, each continuation indented past the marker, not under it
    assert all(row.startswith(" " * len(CHAT_MARK)) and row[len(CHAT_MARK)] != " " for row in rest), rest
    width = log.scrollable_content_region.width
    assert all(len(line) <= width for line in shown)


@pytest.mark.parametrize("size", SIZES)
async def test_at_the_table_chat_is_marked_wraps_past_its_marker_and_earlier_lines_come_once(
        size: tuple[int, int]) -> None:
    rules = Rules.preset("classic").with_(target_score=1000)
    config = RoomConfig(seats=3, bots=1, autostart=True, rules=rules, **{**FAST, "bot_delay": 60.0})
    async with hosted(config) as (_host, _room, port):
        ann = Player(RemoteGame("127.0.0.1", port, name="Ann"), random.Random(1), auto=False)
        await ann.game.start()
        ann.game.chat("hi all")  # before Joey comes: an earlier line for him
        app = joined_app(port, "Joey")
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: table_up(app))
            assert app.table_screen is not None
            log = app.table_screen.query_one(GameLog)
            await wait_for(pilot, lambda: count(log, "(earlier) Ann: hi all") == 1)
            assert f"{CHAT_MARK}(earlier) Ann: hi all" in lines(log)
            await until(lambda: has_view(ann))
            ann.game.chat(LONG)
            await wait_for(pilot, lambda: count(log, "word39") == 1)
            assert_wrapped_past_the_marker(log)
            assert not any(line.startswith(CHAT_MARK) for line in lines(log)
                           if "Ann" not in line and "word" not in line)  # game lines: no marker
            await reconnect(pilot, app)
            assert count(log, "Ann: hi all") == 1 and count(log, "word39") == 1  # not repeated
            ann.game.chat("hi all")  # the same words said again: a new line, shown
            await wait_for(pilot, lambda: f"{CHAT_MARK}Ann: hi all" in lines(log))
        await ann.game.close()


@pytest.mark.parametrize("size", SIZES)
async def test_the_waiting_room_shows_earlier_lines_marked_and_wraps_past_the_marker(
        size: tuple[int, int]) -> None:
    config = RoomConfig(seats=6, rules=Rules.preset("classic"), **FAST)  # type: ignore[arg-type]
    async with hosted(config) as (_host, _room, port):
        ann = Player(RemoteGame("127.0.0.1", port, name="Ann"), random.Random(1), auto=False)
        await ann.game.start()
        ann.game.chat("anyone?")
        app = joined_app(port, "Joey")
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, WaitingScreen) and app.screen.room)
            log = app.screen.query_one("#waiting-chat", RichLog)
            await wait_for(pilot, lambda: f"{CHAT_MARK}(earlier) Ann: anyone?" in lines(log))
            ann.game.chat(LONG)
            await wait_for(pilot, lambda: count(log, "word39") == 1)
            assert_wrapped_past_the_marker(log)
            for n in range(6):
                ann.game.chat(f"line {n}")
            ann.game.chat("welcome Joey")
            await wait_for(pilot, lambda: f"{CHAT_MARK}Ann: welcome Joey" in lines(log))
            await pilot.pause(0.2)
            screen = full_text(app)  # the newest line in sight, under a room of six seats
            assert f"{CHAT_MARK}Ann: welcome Joey" in screen and "Table " in screen, screen
        await ann.game.close()


@pytest.mark.parametrize("size", SIZES)
async def test_arriving_in_the_lobby_shows_its_recent_lines_marked_earlier(tmp_path: Path,
                                                                           size: tuple[int, int]) -> None:
    async with lobby_host(tmp_path, SETTINGS) as (_lobby, port):
        ann = await visit(port, "Ann")
        ann.client.chat("table K at 8?")
        ann.client.chat(LONG)
        app = lobby_app("127.0.0.1", port, "Bob")
        async with app.run_test(size=size) as pilot:
            screen = await lobby_ready(pilot)
            log = screen.query_one("#lobby-log", RichLog)
            await wait_for(pilot, lambda: count(log, "word39") == 1)
            shown = lines(log)
            assert f"{CHAT_MARK}(earlier) Ann: table K at 8?" in shown, shown
            assert not any("(watching)" in line for line in shown)  # nobody has a seat in a lobby
            assert not any(line.startswith(CHAT_MARK) for line in shown if "Welcome" in line)
            ann.client.chat("anyone?")
            await wait_for(pilot, lambda: f"{CHAT_MARK}Ann: anyone?" in lines(log))
        await ann.client.close()


class _Log(App[None]):
    def compose(self) -> Any:
        yield SentenceLog()


def said(who: str, text: str, earlier: bool = True, seat: int | None = 0) -> m.ChatLine:
    return m.ChatLine(seat, who, text, earlier)


async def test_a_run_of_earlier_lines_matches_the_lines_shown_each_as_often_as_shown() -> None:
    """What the host sends again after each reconnection: its last lines, some already
    shown (live or earlier), some missed while away; identical lines count one each."""
    app = _Log()
    async with app.run_test(size=(60, 20)) as pilot:
        log = app.query_one(SentenceLog)
        assert [log.chat(x) for x in (said("Ann", "gg"), said("Bob", "hi", seat=1))] == [True, True]
        log.chat(said("Ann", "gg", earlier=False))  # said again, live
        log.end_run()  # (a reconnection)
        again = [said("Ann", "gg"), said("Bob", "hi", seat=1), said("Ann", "gg"), said("Ann", "gg"),
                 said("Eve", "late", seat=None)]
        assert [log.chat(x) for x in again] == [False, False, False, True, True]  # the third gg was missed
        log.add(Text("Connection lost: reconnecting to the host..."))  # ends the run as end_run does
        assert [log.chat(x) for x in again] == [False] * 5
        log.end_run()
        assert not log.chat(said("Eve", "late", seat=None))
        await pilot.pause()
        shown = lines(log)
        assert shown.count(f"{CHAT_MARK}(earlier) Ann: gg") == 2 and shown.count(f"{CHAT_MARK}Ann: gg") == 1
        assert f"{CHAT_MARK}(earlier) Eve (watching): late" in shown


class _EarlyLog(App[None]):
    """A log written to before it has a size (a greeting, say), counting
    how often the console renders each of its sentences."""

    def __init__(self) -> None:
        super().__init__()
        self.renders: list[str] = []

    def compose(self) -> Any:
        real = self.console.render

        def counted(renderable: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(renderable, Text) and renderable.plain.startswith("sentence"):
                self.renders.append(renderable.plain.split()[1])
            return real(renderable, *args, **kwargs)

        self.console.render = counted  # type: ignore[method-assign]
        log = SentenceLog()
        for n in range(5):
            log.add(Text(f"sentence {n} " + "word " * 12))
        yield log


async def test_sentences_written_before_the_log_has_a_size_are_rendered_once() -> None:
    """The lines written before the pane had its width are rendered when it gets one, at
    that width, and not a second time for the same resize (before, each was rendered
    twice); a later resize still wraps every sentence again at the new width."""
    app = _EarlyLog()
    async with app.run_test(size=(40, 20)) as pilot:
        log = app.query_one(SentenceLog)
        await pilot.pause()
        assert app.renders == ["0", "1", "2", "3", "4"]
        shown = lines(log)
        assert shown[0].startswith("sentence 0") and len(shown) > 5  # wrapped at 40 columns
        assert all(len(line.rstrip()) <= 39 for line in shown)
        await pilot.resize_terminal(100, 20)
        await wait_for(pilot, lambda: len(app.renders) == 10)
        assert app.renders[5:] == ["0", "1", "2", "3", "4"]  # each once more, at the new width
        assert len(lines(log)) == 5  # one line each at 100 columns
