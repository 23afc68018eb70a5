"""Hostile text on every screen: escape sequences, bidi controls, zero-width characters
and markup in names, chat, table names, log lines and errors are shown as inert literal
text (read from the rendered screen), from an honest host and from a hostile one.

The hostile host is :class:`~tests.hostile.fake_host.FakeHost`: a raw asyncio server speaking
frames, which sends a welcome and then whatever it likes to a real ``RemoteGame`` inside
the real app.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.lobby.test_lobby_net import FAST as LOBBY_FAST
from tests.lobby.test_lobby_net import lobby_host, visit
from tests.net.lan_support import FAST, Player, hosted, until
from tests.seeds import rng_secret
from tests.ui.tui_support import full_text, words
from unotui.engine import Game, Rules, seat_view
from unotui.net.config import RoomConfig
from unotui.net.remote import JoinError, RemoteGame
from unotui.protocol import messages as m
from unotui.protocol.sync import ViewEncoder
from unotui.ui.app import UnoApp
from unotui.ui.lobby_home import lobby_app
from unotui.ui.screens.table import TableScreen
from unotui.ui.screens.waiting import WaitingScreen
from unotui.ui.settings import Config, GameOptions

from .fake_host import FakeHost

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("fast_keys")]

OSC, SGR, BIDI, ZW = "\x1b]0;pwn\x07", "\x1b[31m", "\u202e", "\u200b"
#: names (at most 16 cells once cleaned) and a chat line carrying every trick
EVE = f"{OSC}{SGR}Eve"  # -> "]0;pwn[31mEve"
BOLD = f"[b]bold[/b]{BIDI}{ZW}"  # -> "[b]bold[/b]"
CHAT = f"{OSC} {SGR}red {BIDI}evil{ZW} [b]bold[/b] [@click=app.quit]x"
SHOWN = ["]0;pwn[31mEve", "[b]bold[/b]", "[@click=app.quit]x", "evil"]
NEVER = ["\x1b", "\x07", BIDI, ZW, "\u2066", "\u200f"]


def inert(text: str, expect: list[str]) -> None:
    """``text`` (a rendered screen) shows ``expect`` literally and no control at all."""
    assert not [c for c in NEVER if c in text], [c for c in NEVER if c in text]
    missing = [e for e in expect if e not in text]
    assert not missing, (missing, text)


async def wait_for(pilot: Any, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait (pausing the app) until ``predicate()``; the deadline is a net for a loaded
    machine, not a figure of the test (the module's own timeout is 60 s)."""
    end = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < end, "not in time"
        await pilot.pause(0.02)


def joined_app(port: int, name: str = "Me", **kwargs: Any) -> UnoApp:
    def factory(_options: GameOptions) -> RemoteGame:
        return RemoteGame("127.0.0.1", port, name=name, **kwargs)

    return UnoApp(Config(), GameOptions(name=name, delay=0), factory=factory, save_settings=False)


# ----- an honest host, hostile players --------------------------------------------------------


async def test_hostile_names_and_chat_are_literal_in_the_waiting_room_and_at_the_table() -> None:
    rules = Rules.preset("classic").with_(target_score=1000)
    config = RoomConfig(seats=3, autostart=True, rules=rules, **FAST)
    async with hosted(config) as (_host, _room, port):
        eve = Player(RemoteGame("127.0.0.1", port, name=EVE), random.Random(1), auto=False)
        await eve.game.start()
        app = joined_app(port)
        async with app.run_test(size=(160, 50)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, WaitingScreen) and bool(app.screen.room))
            eve.game.chat(CHAT)
            await wait_for(pilot, lambda: "evil" in words(app))
            inert(words(app), ["]0;pwn[31mEve", "[b]bold[/b]", "[@click=app.quit]x"])
            bold = Player(RemoteGame("127.0.0.1", port, name=BOLD), random.Random(2), auto=False)
            await bold.game.start()  # the third seat: the match starts
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.view is not None)
            eve.game.chat(CHAT)
            await wait_for(pilot, lambda: "evil" in words(app))
            inert(full_text(app) + words(app), SHOWN)
            if not isinstance(app.screen, TableScreen):  # a first card that asks us for a colour
                await pilot.press("r")
                await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
            await pilot.click("#players")  # a would-be link does nothing
            await pilot.pause()
            assert app.is_running
        await eve.game.close()
        await bold.game.close()


async def test_the_lobby_screen_shows_hostile_names_tables_motd_and_chat_literally(tmp_path: Path) -> None:
    # Nobody sits at Eve's table: with the tests' half-second grace for empty tables it
    # could be gone before a slow start of the app lists it.  It stays for the test.
    settings = dataclasses.replace(LOBBY_FAST, empty_grace=3600.0)
    async with lobby_host(tmp_path, settings) as (lobby, port):
        lobby.store.set_motd(CHAT)
        eve = await visit(port, EVE)
        eve.client.create(f"{OSC}[b]T[/b]{BIDI}", 4, 2, Rules.preset("classic"), "easy", None, False)
        await until(lambda: eve.created())
        app = lobby_app("127.0.0.1", port, BOLD)
        async with app.run_test(size=(160, 50)) as pilot:
            await wait_for(pilot, lambda: "[b]T[/b]" in words(app))
            eve.client.chat(CHAT)
            await wait_for(pilot, lambda: words(app).count("evil") >= 2)
            inert(full_text(app) + words(app), [*SHOWN, "]0;pwn[b]T[/b]"])
            assert app.is_running
        await eve.client.close()


# ----- a hostile host ---------------------------------------------------------------------------


def welcome(table_name: str = f"{OSC}Kitchen{BIDI}") -> m.Welcome:
    return m.Welcome(1, 0, "t" * 43, "", table_name, 2, Rules.preset("classic"), 15000, 4096)


async def test_a_hostile_host_s_names_log_errors_and_chat_are_literal_on_every_screen() -> None:
    async with FakeHost().running() as fake:
        fake.send(welcome())
        seats = (m.SeatState("Me", "human", False), m.SeatState(EVE, "human", False))
        fake.send(m.TableState("waiting", seats, 0, False, 0, None, 0))
        fake.send(m.Presence(1, "joined", BOLD))
        fake.send(m.ChatLine(1, EVE, CHAT))
        app = joined_app(fake.port)
        async with app.run_test(size=(160, 50)) as pilot:
            await wait_for(pilot, lambda: "evil" in words(app))
            assert isinstance(app.screen, WaitingScreen)
            inert(words(app), ["]0;pwn[31mEve", "[b]bold[/b]", "[@click=app.quit]x"])
            # The match "starts": a view whose names are hostile, so every log line is.
            game = Game(["Me", EVE], Rules.preset("classic"), secret=rng_secret(3))
            fake.send(ViewEncoder().update(seat_view(game, 0)))  # type: ignore[arg-type]
            fake.send(m.ChatLine(None, BOLD, CHAT))
            fake.send(m.Refused(None, "rate_limited", CHAT))
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and "evil" in words(app))
            await pilot.pause(0.1)
            inert(full_text(app) + words(app), SHOWN)
            fake.send(m.Closed("host_left", f"{CHAT} bye"))
            await wait_for(pilot, lambda: "Game closed" in words(app))
            inert(full_text(app) + words(app), ["]0;pwn [31mred evil"])
            assert app.is_running


async def test_a_malformed_message_from_the_host_closes_with_a_sentence_not_a_traceback() -> None:
    async with FakeHost().running() as fake:
        fake.send(welcome())
        game = Game(["Me", "Bob"], Rules.preset("classic"), secret=rng_secret(3))
        fake.send(ViewEncoder().update(seat_view(game, 0)))  # type: ignore[arg-type]
        app = joined_app(fake.port)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
            fake.send_raw({"t": "delta", "log_at": 0, "log": [], "set": {"hand": [f"{OSC}R5"]}})
            await wait_for(pilot, lambda: "Game closed" in words(app))
            text = words(app)
            inert(text, ["Game closed"])
            assert "Traceback" not in text and app.is_running


async def test_a_hostile_host_s_refusal_at_the_door_is_cleaned_before_anyone_prints_it() -> None:
    """Regression: ``unotui join`` printed the host's error message raw to stderr (and the
    menu showed it in a notification): a hostile host could retitle the terminal."""
    async with FakeHost().running() as fake:
        fake.send(m.Error("table_full", f"{OSC}{SGR}full{BIDI}"))
        with pytest.raises(JoinError) as caught:
            await RemoteGame("127.0.0.1", fake.port, name="Me").start()
        assert str(caught.value) == "]0;pwn[31mfull"
    async with FakeHost().running() as fake:
        fake.send(m.Error("table_full", f"{OSC}{SGR}full{BIDI}"))
        app = joined_app(fake.port)
        async with app.run_test(size=(80, 24)):
            for _ in range(200):
                await asyncio.sleep(0.02)
                if app.exit_message:
                    break
        assert app.exit_message == "]0;pwn[31mfull"
