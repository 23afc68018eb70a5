"""The main menu as a player meets it, in Textual's pilot (from the issue 7 play-test,
:mod:`tests.ui.test_tui_playtest`): what Enter starts, the settings it follows, hosting
and joining from it, a damaged settings file, and the waiting room's start key."""

from __future__ import annotations

import pytest

from unotui.engine import Rules
from unotui.ui.app import UnoApp

from .test_tui_playtest import _long_log_app, _open_house_rules
from .tui_support import full_text, settle, words

pytestmark = pytest.mark.usefixtures("fast_keys")


@pytest.mark.parametrize(("players", "level", "words"), [
    (6, "hard", "Play solo against five computer players (hard)"),
    (2, "easy", "Play solo against one computer player (easy)"),
])
async def test_menu_says_what_enter_will_start(players: int, level: str, words: str) -> None:
    from unotui.ui.settings import Config, GameOptions

    options = GameOptions(players=players, level=level, delay=0)
    app = UnoApp(Config(players=players, bots=level), options, menu=True, save_settings=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert words in full_text(app)
        assert "three computer players" not in full_text(app)


async def test_menu_follows_the_settings_saved_on_the_house_rules_screen() -> None:
    from textual.widgets import Input

    from unotui.ui.settings import Config, GameOptions

    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_house_rules(pilot)
        app.screen.query_one("#players", Input).value = "3"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Play solo against two computer players (medium)" in full_text(app)


async def test_menu_host_opens_the_waiting_room_and_starts_with_computer_players() -> None:
    from .test_modes import hosting, menu_app

    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await hosting(pilot)
        await pilot.pause(0.1)
        assert "Others join with:" in words(app) and "unotui join 127.0.0.1:" in words(app)
        await pilot.press("s")
        for _ in range(200):
            await pilot.pause(0.02)
            if app.view is not None:
                break
        assert app.view is not None and app.view.seat == 0
        await pilot.pause(0.1)
        assert "Players" in full_text(app)


async def test_menu_join_says_why_when_the_address_is_wrong_or_nobody_answers() -> None:
    import socket

    from unotui.ui.screens.join_form import JoinForm
    from unotui.ui.screens.menu import MenuScreen
    from unotui.ui.settings import Config, GameOptions

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # Join a game
        await pilot.pause()
        await pilot.press(*"nohost:99999", "enter")
        await pilot.pause()
        assert isinstance(app.screen, JoinForm) and "not a port number" in words(app)  # said on the form
        await pilot.press("ctrl+u", *f"127.0.0.1:{port}", "enter")
        for _ in range(100):
            await pilot.pause(0.02)
            if "cannot reach" in words(app):
                break
        assert "cannot reach 127.0.0.1" in words(app)
        assert "nothing is listening there; is the game hosted (unotui host), and on that port?" in words(app)
        assert isinstance(app.screen, MenuScreen)


@pytest.mark.parametrize("menu", [True, False])
async def test_settings_file_problems_are_shown_inside_the_app(menu: bool) -> None:
    from unotui.ui.settings import Config, GameOptions

    problem = "/home/zoe/.config/unotui/config.toml [rules]: hand_size must be between 1 and 15"
    config = Config(problems=(problem,))
    if menu:
        app = UnoApp(config, GameOptions(delay=0), menu=True, save_settings=False)
    else:
        app = _long_log_app()
        app.config = config
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot) if not menu else await pilot.pause()
        await pilot.pause()
        if menu:
            text = words(app)
        else:  # a notification (a toast) at the table: its lines start with a bar
            lines = full_text(app).splitlines()
            text = " ".join(" ".join(line.split("▌", 1)[1] for line in lines if "▌" in line).split())
        assert "Settings file problem (defaults used)" in text
        assert problem in text


@pytest.mark.parametrize("owner", [True, False], ids=["host", "guest"])
async def test_waiting_room_offers_start_only_to_the_seat_that_may_start(owner: bool) -> None:
    """The footer names ``s`` only for the host's seat; a guest pressing it is told why
    nothing happens, and a guest who becomes the owner (a lobby table's first seat left)
    is offered it from then on."""
    from textual.app import App

    from unotui.net.room_info import RoomInfo, SeatInfo
    from unotui.ui.messages import StartMatch
    from unotui.ui.screens.waiting import WaitingScreen

    def room(owner: bool) -> RoomInfo:
        seats = (SeatInfo("Ada", "human"), SeatInfo("Joe", "human"), SeatInfo("", "open"))
        return RoomInfo("Ada", "waiting", seats, Rules(), 1, owner, 0, None)

    started: list[bool] = []

    class Room(App[None]):
        def on_mount(self) -> None:
            self.push_screen(WaitingScreen(room(owner)))

        def on_start_match(self, _message: StartMatch) -> None:
            started.append(True)

    async def shown(text: str) -> bool:
        for _ in range(50):
            await pilot.pause(0.02)
            if text in full_text(app):
                return True
        return False

    app = Room()
    async with app.run_test(size=(80, 24)) as pilot:
        assert await shown("? Rules")
        assert ("s Start match" in full_text(app)) is owner
        await pilot.press("s")
        assert await shown("Only the host can start the match.") is not owner
        assert started == ([True] if owner else [])
        if not owner:
            screen = app.screen
            assert isinstance(screen, WaitingScreen)
            screen.room = room(True)
            assert await shown("s Start match")
            await pilot.press("s")
            await pilot.pause()
            assert started == [True]
