"""The table's clocks over real loopback sockets, as a player and a spectator see them:
a dropped player's held seat counted down (and marked ``away`` in the Players panel), the
turn timer shown to a spectator at once, and a turn timer that ran out said in the log.

The core's side of the same (what is sent, and when, on a clock that is a number) is
``tests/net/test_core_clocks.py``; these check that it crosses the wire and reaches the
screen.
"""

from __future__ import annotations

import asyncio
import re
from random import Random

import pytest

from tests.hostile.test_screens import joined_app, wait_for
from tests.net.lan_support import FAST, Player, has_view, hello_frame, hosted, raw, until
from tests.ui.tui_support import full_text, table_up
from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.remote import RemoteGame
from unotui.protocol import messages as m
from unotui.protocol.codec import decode_host
from unotui.protocol.framing import FrameDecoder
from unotui.ui.app import UnoApp
from unotui.ui.game_log import GameLog
from unotui.ui.screens.table import TableScreen

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("fast_keys")]

RULES = Rules.preset("classic").with_(target_score=1000)
SIZES = [(80, 24), (120, 40)]
#: what the table may do for a seat whose timer ran out (the engine's timeout action)
DID = r"(drew \d+ cards?|kept the drawn card|named a colour|accepted the Wild Draw Four|dealt)"


async def raw_seat(port: int, name: str) -> tuple[asyncio.StreamWriter, str]:
    """A seat taken over a bare connection (a ``unotui join`` that will be killed): its
    writer and its resume token."""
    reader, writer = await raw(port)
    writer.write(hello_frame(name))
    decoder = FrameDecoder(256 * 1024)
    while True:
        data = await asyncio.wait_for(reader.read(65536), 5)
        assert data, "the host closed the connection"
        for body in decoder.feed(data):
            message = decode_host(body)
            if isinstance(message, m.Welcome):
                assert message.token is not None
                return writer, message.token


def panel_row(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if re.match(rf"^│ [ >] ?\d {re.escape(name)}\b", line))


@pytest.mark.parametrize("size", SIZES)
async def test_a_dropped_player_s_seat_is_marked_away_and_counted_down_until_they_are_back(
        size: tuple[int, int]) -> None:
    config = RoomConfig(seats=3, autostart=True, rules=RULES, hold=120.0, **FAST)
    async with hosted(config) as (_host, _room, port):
        bob, token = await raw_seat(port, "Bob")
        ann = Player(RemoteGame("127.0.0.1", port, name="Ann"), Random(1), auto=False)
        await ann.game.start()
        app = joined_app(port, name="Cleo")
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: table_up(app) and app.view is not None)
            assert "away" not in panel_row(full_text(app), "Bob")
            bob.close()  # killed: no bye, the host holds the seat
            counting = r"Bob is away: a (computer player takes the seat|bot takes over) in (2:00|1:5\d)"
            await wait_for(pilot, lambda: re.search(counting, full_text(app)) is not None)
            text = full_text(app)
            assert re.search(r"Bob\s+away\b", panel_row(text, "Bob")), text
            assert re.search(r"Cleo\s+you\b", panel_row(text, "Cleo")), text
            view = app.view
            assert view is not None
            if view.names[view.actor] == "Bob":  # his turn: the status line says it, not "Waiting"
                assert "Waiting for Bob" not in text and "takes the seat in" in text.splitlines()[0]
            _reader, again = await raw(port)  # back with the token in time
            again.write(hello_frame("Bob", token=token))
            await wait_for(pilot, lambda: "Bob is away" not in full_text(app))
            await wait_for(pilot, lambda: "away" not in panel_row(full_text(app), "Bob"))
            again.close()
        await ann.game.close()


async def test_a_spectator_sees_the_turn_timer_at_once_not_from_the_next_turn() -> None:
    config = RoomConfig(seats=2, autostart=True, rules=RULES, turn_timer=300.0, **FAST)
    async with hosted(config) as (_host, _room, port):
        a = Player(RemoteGame("127.0.0.1", port, name="A"), Random(1), auto=False)
        b = Player(RemoteGame("127.0.0.1", port, name="B"), Random(2), auto=False)
        await a.game.start()
        await b.game.start()
        await until(lambda: has_view(a) and has_view(b))
        app = joined_app(port, name="Eve", spectate=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: table_up(app) and app.view is not None)
            # nobody acts: only the clocks running when Eve came in can show a time
            await wait_for(pilot, lambda: re.search(r"Time left: (300|29\d) s", full_text(app)) is not None)
            text = full_text(app)
            assert "Watching" in text and re.search(r"A\s+\d+ cards", panel_row(text, "A")), text
        await a.game.close()
        await b.game.close()


def log_words(app: UnoApp) -> str:
    """Everything in the table's log (scrolled off or not), its wrapped lines joined."""
    table = app.table_screen  # (none yet while the table is being put up)
    logs = table.query(GameLog) if table is not None else ()
    return " ".join(" ".join(strip.text for log in logs for strip in log.lines).split())


@pytest.mark.parametrize("size", SIZES)
async def test_a_turn_timer_that_runs_out_is_said_in_the_log(size: tuple[int, int]) -> None:
    # A short timer that nobody beats: the event is waited for, not timed.
    config = RoomConfig(seats=2, autostart=True, rules=RULES, turn_timer=0.5, **FAST)
    async with hosted(config) as (_host, _room, port):
        ann = Player(RemoteGame("127.0.0.1", port, name="Ann"), Random(1), auto=False)
        app = joined_app(port, name="Cleo")
        async with app.run_test(size=size) as pilot:
            # Cleo's screen is up before Ann's join starts the match: after three timeouts
            # a computer player stands in, and a slow start-up would have missed Cleo's.
            await wait_for(pilot, lambda: app.controller is not None and app.controller.room is not None)
            await ann.game.start()
            await wait_for(pilot, lambda: table_up(app) and app.view is not None)
            ann_timed_out = rf"Time's up for Ann: the table {DID}\."
            await wait_for(pilot, lambda: re.search(ann_timed_out, log_words(app)) is not None)
            mine = rf"Time's up: the table {DID} for you\."
            await wait_for(pilot, lambda: re.search(mine, log_words(app)) is not None)
        await ann.game.close()


@pytest.mark.parametrize("size", SIZES)
async def test_a_player_whose_turns_ran_out_is_told_and_b_takes_the_seat_back(size: tuple[int, int]) -> None:
    """Cleo lets her turn timer run out three times: her own screen says a computer player
    plays for her (not only the others'), marks her ``idle`` and offers ``b``; ``b`` gives
    her the seat back at once, whoever's turn it is, and the screen says so."""
    rules = RULES.with_(target_score=1000)
    config = RoomConfig(seats=2, bots=1, autostart=True, rules=rules, turn_timer=0.5,
                        **{**FAST, "bot_delay": 0.3})
    async with hosted(config) as (_host, _room, port):
        app = joined_app(port, name="Cleo")
        async with app.run_test(size=size) as pilot:
            told = "Your turns ran out three times: a computer player plays for you. b takes your seat back."
            await wait_for(pilot, lambda: told in log_words(app))
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))  # (no dialog over it)
            text = full_text(app)
            assert re.search(r"Cleo\s+idle\b", panel_row(text, "Cleo")), text
            assert re.search(r"\bb +Take seat back", text.splitlines()[-1]), text
            await pilot.press("b")
            await wait_for(pilot, lambda: "Your seat is yours again." in log_words(app))
