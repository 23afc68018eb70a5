"""The menu's Join form (issue 18, item 9): everything ``unotui join`` takes, by keys.

Played through the real app from its main menu (``Join a game``, Enter), typed into key
by key, against real hosts on 127.0.0.1: a LAN table (with a password) and a lobby (its
tables by code, and watching).  At 80x24 and 120x40 the whole form, its buttons and the
line under each field are on screen.  Bad input is said on the form with nothing typed
lost; a join the host refuses comes back to the menu with the host's reason, and Enter
opens the form again as it was filled in (but the password).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input

from tests.lobby.test_lobby_net import FAST as LOBBY_FAST
from tests.lobby.test_lobby_net import lobby_host, visit
from tests.net.lan_support import FAST, hosted, until
from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.remote import RemoteGame
from unotui.ui.app import UnoApp
from unotui.ui.screens.join_form import FIELDS, JoinForm
from unotui.ui.screens.menu import MenuScreen
from unotui.ui.screens.waiting import WaitingScreen
from unotui.ui.settings import Config, config_path, load_config, save_config

from .tui_support import full_text, words

pytestmark = [pytest.mark.usefixtures("fast_keys"), pytest.mark.timeout(60)]

SIZES = [(80, 24), (120, 40)]


async def _until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition`` holds (a net for a loaded machine, not a figure)."""
    end = asyncio.get_running_loop().time() + 30
    while not condition():
        assert asyncio.get_running_loop().time() < end, f"never: {what}\n{full_text(pilot.app)}"
        await pilot.pause(0.02)


def menu_app(config: Config | None = None) -> UnoApp:
    """The app as ``unotui`` opens it: the main menu, with the settings on disk."""
    config = config if config is not None else load_config()
    from unotui.ui.cli import settings_options

    return UnoApp(config, settings_options(config), menu=True)


async def open_form(pilot: Pilot[Any]) -> JoinForm:
    """From the menu: to the top, down to "Join a game", Enter."""
    app = pilot.app
    await _until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
    await pilot.press("home", "down", "down", "enter")
    await _until(pilot, lambda: isinstance(app.screen, JoinForm), "the Join form")
    await pilot.pause()
    assert isinstance(app.screen, JoinForm)
    return app.screen


async def type_in(pilot: Pilot[Any], text: str, clear: bool = True) -> None:
    """Type ``text`` into the focused field, key by key (first emptying it)."""
    if clear:
        await pilot.press("end", "ctrl+u")
    for ch in text:
        await pilot.press("space" if ch == " " else ch)


def field(form: JoinForm, key: str) -> str:
    return form.query_one(f"#{key}", Input).value


def free_port() -> int:
    with socket.socket() as s:  # a port nobody listens on (closed again at once)
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
async def test_the_form_joins_a_passworded_table_with_what_was_typed_and_remembers_address_and_name(
    size: tuple[int, int],
) -> None:
    save_config(Config(name="Sam", delay=0.0))
    config = RoomConfig(seats=3, password="sesame", **FAST)
    async with hosted(config) as (_host, room, port):
        app = menu_app()
        async with app.run_test(size=size) as pilot:
            form = await open_form(pilot)
            # every field, what it is for, and both buttons: on screen, none cut off
            text = full_text(app)
            for _key, label, what in FIELDS:
                assert label in text and what in text, (label, what, text)
            width, height = size
            for widget in [*form.query(Input), form.query_one(Checkbox), *form.query("Button"),
                           form.query_one("#keys")]:
                region = widget.region
                assert region.height >= 1 and region.bottom <= height and region.right <= width, widget
            assert "Tab/Shift+Tab: move   Enter: join   Escape: back" in text
            assert field(form, "name") == "Sam" and field(form, "address") == ""  # the settings' name
            assert app.focused is form.query_one("#address")
            await type_in(pilot, f"127.0.0.1:{port}")
            assert f"joins 127.0.0.1, port {port}" in full_text(app)
            await pilot.press("tab")
            await type_in(pilot, "Zed")
            await pilot.press("shift+tab")  # back a field, and on again
            assert app.focused is form.query_one("#address") and field(form, "address") == f"127.0.0.1:{port}"
            await pilot.press("tab", "tab", "tab")  # (past the table code: a LAN host has one table)
            assert app.focused is form.query_one("#password")
            await type_in(pilot, "sesame")
            assert "sesame" not in full_text(app)  # masked
            await pilot.press("enter")
            await _until(pilot, lambda: isinstance(app.screen, WaitingScreen), "the waiting room")
            game = app.controller
            assert isinstance(game, RemoteGame)
            assert (game.host, game.port, game.name, game.password, game.table, game.spectate) == (
                "127.0.0.1", port, "Zed", "sesame", "", False)
            await until(lambda: "Zed" in room.book.names)
        saved = config_path().read_text(encoding="utf-8")
        assert "sesame" not in saved  # the password is never kept
        again = load_config()
        assert again.join_address == f"127.0.0.1:{port}" and again.name == "Zed"
        app = menu_app()
        async with app.run_test(size=size) as pilot:
            form = await open_form(pilot)  # next time: the address and name typed last
            assert (field(form, "address"), field(form, "name"), field(form, "password")) == (
                f"127.0.0.1:{port}", "Zed", "")
            await pilot.press("escape")  # Escape: back to the menu, nothing joined
            await _until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")
            assert app.controller is None


@pytest.mark.parametrize(
    ("address", "name", "table", "bad", "words_"),
    [
        ("", "Sam", "", "address", "Address: give the host's address"),
        ("myhost:99999", "Sam", "", "address", "Address: '99999' is not a port number (1-65535)"),
        ("my host", "Sam", "", "address", "an address has no spaces"),
        ("10.0.0.1:7000:1", "Sam", "", "address", "one :PORT at most"),
        (":7000", "Sam", "", "address", "give the host's name or address before the :PORT"),
        ("10.0.0.1", "", "", "name", "Your name: give your name at the table"),
        ("10.0.0.1", "Bartholomew-Smith", "", "name", "a name fits in 16 characters"),
        ("10.0.0.1", "Sam", "K7-QM", "table", "Table code: 'K7-QM': a code is 1-12 letters and digits"),
        ("10.0.0.1", "Sam", "ABCDEFGHJKMNP", "table", "a code is 1-12 letters and digits"),
    ],
)
async def test_bad_input_is_said_on_the_form_and_nothing_typed_is_lost(
    address: str, name: str, table: str, bad: str, words_: str
) -> None:
    app = menu_app(Config(name="Sam", delay=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot)
        await type_in(pilot, address)
        await pilot.press("tab")
        await type_in(pilot, name)
        await pilot.press("tab")
        await type_in(pilot, table)
        await pilot.press("tab")
        await type_in(pilot, "pw")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is form and app.controller is None  # not sent, still here
        assert words_ in words(app)
        typed = tuple(field(form, key) for key in ("address", "name", "table", "password"))
        assert typed == (address, name, table, "pw")
        assert app.focused is form.query_one(f"#{bad}")  # the field to mend
        assert form.query_one(f"#{bad}-row").has_class("-bad")


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
async def test_a_wrong_password_comes_back_to_the_menu_with_the_hosts_reason_and_the_form_as_typed(
    size: tuple[int, int],
) -> None:
    save_config(Config(name="Sam", delay=0.0))
    async with hosted(RoomConfig(seats=3, password="sesame", **FAST)) as (_host, room, port):
        app = menu_app()
        async with app.run_test(size=size) as pilot:
            await open_form(pilot)
            await type_in(pilot, f"127.0.0.1:{port}")
            await pilot.press("tab", "tab", "tab")
            await type_in(pilot, "guess")
            await pilot.press("enter")
            await _until(pilot, lambda: "Could not join" in words(app), "the host's refusal")
            assert isinstance(app.screen, MenuScreen) and app.controller is None
            shown = words(app)
            assert f"Could not join 127.0.0.1:{port}: Wrong or missing password for this table." in shown
            assert "Enter: the Join form again as you filled it in; retype the password" in shown
            await pilot.press("enter")  # the Join entry is under the cursor
            await _until(pilot, lambda: isinstance(app.screen, JoinForm), "the form again")
            await pilot.pause()
            form = app.screen
            assert isinstance(form, JoinForm)
            assert (field(form, "address"), field(form, "name"), field(form, "password")) == (
                f"127.0.0.1:{port}", "Sam", "")
            await pilot.press("tab", "tab", "tab")
            await type_in(pilot, "sesame")
            await pilot.press("enter")
            await _until(pilot, lambda: isinstance(app.screen, WaitingScreen), "the waiting room")
            await until(lambda: "Sam" in room.book.names)


async def test_no_host_there_and_a_full_table_say_why_on_the_menu() -> None:
    save_config(Config(name="Sam", delay=0.0))
    nobody = free_port()
    rules = Rules.preset("classic").with_(target_score=1000)
    async with hosted(RoomConfig(seats=2, bots=1, autostart=True, rules=rules, **FAST)) as (_h, room, port):
        first = RemoteGame("127.0.0.1", port, name="Ann")
        await first.start()  # the only seat for a person: the match starts
        await until(lambda: room.game is not None)
        app = menu_app()
        async with app.run_test(size=(80, 24)) as pilot:
            for address, reason in [
                (f"127.0.0.1:{nobody}", "nothing is listening there"),
                (f"127.0.0.1:{port}", "The match has started; join with --spectate to watch."),
            ]:
                await open_form(pilot)
                await type_in(pilot, address)
                await pilot.press("enter")
                await _until(pilot, lambda r=reason: r in words(app), reason)  # type: ignore[misc]
                assert isinstance(app.screen, MenuScreen) and app.controller is None
            assert "the form's Watch only box" in words(app)  # (--spectate, as the form calls it)
        await first.close()


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
async def test_a_lobby_table_by_its_code_a_wrong_code_and_watching(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    save_config(Config(name="Wanda", delay=0.0))
    # (nobody sits at Ann's table until the form does: the tests' half-second grace for an
    # empty table could close it first)
    async with lobby_host(tmp_path, replace(LOBBY_FAST, empty_grace=3600.0)) as (lobby, port):
        ann = await visit(port, "Ann")
        ann.client.create("Kitchen", 4, 2, Rules.preset("classic"), "easy", 30.0, False)
        await until(lambda: ann.created())
        code = ann.created()[0]
        app = menu_app()
        async with app.run_test(size=size) as pilot:
            await open_form(pilot)
            await type_in(pilot, f"127.0.0.1:{port}")
            await pilot.press("tab", "tab")
            await type_in(pilot, "ZZZZ9")
            await pilot.press("enter")
            await _until(pilot, lambda: "There is no table with that code here." in words(app), "no code")
            await pilot.press("enter")  # the form again: fix the code, as typed in small letters
            await _until(pilot, lambda: isinstance(app.screen, JoinForm), "the form again")
            await pilot.pause()
            assert field(app.screen, "table") == "ZZZZ9"  # type: ignore[arg-type]
            await pilot.press("tab", "tab")
            await type_in(pilot, code.lower())
            await pilot.press("enter")
            await _until(pilot, lambda: isinstance(app.screen, WaitingScreen), "the table's waiting room")
            game = app.controller
            assert isinstance(game, RemoteGame) and game.table == code and game.seat is not None
            await pilot.press("escape")  # leave the table: back to the menu
            await _until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            await open_form(pilot)  # the same menu session: the code is still filled in
            form = app.screen
            assert isinstance(form, JoinForm) and field(form, "table") == code
            await pilot.press("tab", "tab", "tab", "tab")
            assert app.focused is form.query_one(Checkbox)
            assert "off: take a seat" in full_text(app)
            await pilot.press("space")
            await pilot.pause()
            assert "on: watch only, no seat" in full_text(app)
            await pilot.press("enter")  # Enter joins (it does not switch the box back)
            await _until(pilot, lambda: isinstance(app.controller, RemoteGame) and app.controller.spectate
                         and not isinstance(app.screen, MenuScreen | JoinForm), "watching the table")
            game = app.controller
            assert isinstance(game, RemoteGame) and game.seat is None and game.table == code
        await ann.client.close()
    assert lobby is not None
