"""The lobby app by keyboard (Textual's pilot) against a real lobby host on loopback."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, RichLog

from tests.net.lan_support import until
from tests.ui.tui_support import showing, words
from unotui.engine import Rules
from unotui.lobby.lobby import LobbySettings
from unotui.net.remote import RemoteGame
from unotui.ui.app import UnoApp
from unotui.ui.lobby_home import LobbyHome, lobby_app
from unotui.ui.screens.create_table import CreateTableScreen
from unotui.ui.screens.lobby import LobbyScreen, lobby_text
from unotui.ui.screens.table import TableScreen
from unotui.ui.screens.waiting import WaitingScreen

from .test_lobby_net import lobby_host, visit

pytestmark = pytest.mark.timeout(60)

SETTINGS = LobbySettings(bot_delay=0.0, catch_grace=0.0, reap_every=0.2, empty_grace=0.3, over_grace=0.3)


async def lobby_ready(pilot: Pilot[Any]) -> LobbyScreen:
    app = pilot.app
    assert isinstance(app, UnoApp)
    home = app.home
    assert isinstance(home, LobbyHome)

    async def ready() -> bool:
        await pilot.pause(0.05)
        screen = home.lobby_screen()
        return screen is not None and screen.state is not None and app.screen is screen

    for _ in range(200):
        if await ready():
            break
    screen = home.lobby_screen()
    assert screen is not None and screen.state is not None
    return screen


async def screen_is(pilot: Pilot[Any], cls: type) -> None:
    """Wait (bounded) until the app's current screen is a ``cls``."""
    for _ in range(100):
        await pilot.pause(0.05)
        if isinstance(pilot.app.screen, cls):
            return
    raise AssertionError(f"{cls.__name__} never came; the screen is {pilot.app.screen!r}")


async def bob_at_a_quick_match(port: int) -> tuple[Any, RemoteGame]:
    """Bob in the lobby, seated at a quick match of his own (his lobby visit, his seat)."""
    bob = await visit(port, "Bob")
    bob.client.quick()
    await until(lambda: bob.created())
    seat = RemoteGame("127.0.0.1", port, name="Bob", table=bob.created()[0])
    await seat.start()
    return bob, seat


async def watch_the_only_table(pilot: Pilot[Any]) -> LobbyScreen:
    """From the lobby, once its one table is listed, watch it (w) and be at that table."""
    screen = await lobby_ready(pilot)
    for _ in range(100):
        await pilot.pause(0.05)
        if screen.query_one("#tables", DataTable).row_count == 1:
            break
    await pilot.press("w")
    await at_table(pilot)
    return screen


async def test_create_a_table_wait_leave_then_quick_match(tmp_path: Path) -> None:
    async with lobby_host(tmp_path, SETTINGS) as (lobby, port):
        app = lobby_app("127.0.0.1", port, "Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await lobby_ready(pilot)
            assert "Ann - 1 online" in lobby_text(screen.state)  # type: ignore[arg-type]
            await pilot.pause(0.2)
            log = screen.query_one("#lobby-log", RichLog)
            shown = " ".join(line.text.strip() for line in log.lines)
            assert "q finds you a quick match, n opens a new table." in shown
            width = log.scrollable_content_region.width  # wrapped to the pane, never cut at its edge
            assert max(len(line.text.rstrip()) for line in log.lines) <= width
            await pilot.press("t")  # the colour toggle works in the lobby too
            await pilot.pause()
            assert app.palette == "colourblind"
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, CreateTableScreen)
            await pilot.press("ctrl+s")
            await screen_is(pilot, WaitingScreen)
            assert len(lobby.tables) == 1
            await pilot.press("escape")
            screen = await lobby_ready(pilot)
            for _ in range(100):  # the empty table is closed by the lobby
                await pilot.pause(0.05)
                if not lobby.tables:
                    break
            assert not lobby.tables
            await pilot.press("q", "y")  # quick match, and yes to what it starts
            await screen_is(pilot, TableScreen)
            assert app.view is not None and len(app.view.names) == 4


async def test_enter_sits_at_the_highlighted_table_and_w_watches(tmp_path: Path) -> None:
    # Nobody sits at "Open": with the file's 0.3 s empty grace a loaded machine reaped it
    # before the app had listed it.  Here it waits for Ann however slow the machine.
    async with lobby_host(tmp_path, replace(SETTINGS, empty_grace=60.0)) as (_lobby, port):
        bob = await visit(port, "Bob")
        bob.client.quick()
        await until(lambda: bob.created())
        seat = RemoteGame("127.0.0.1", port, name="Bob", table=bob.created()[0])
        await seat.start()  # the quick table starts: Ann may only watch it
        bob.client.create("Open", 3, 0, Rules(), "easy", 30.0, False)
        await until(lambda: len(bob.created()) == 2)
        app = lobby_app("127.0.0.1", port, "Ann")
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await lobby_ready(pilot)
            quick = bob.created()[0]
            for _ in range(100):  # both listed, and the quick match known to be playing
                await pilot.pause(0.05)
                state = screen.state
                if (screen.query_one("#tables", DataTable).row_count == 2 and state is not None
                        and any(t.code == quick and t.status == "playing" for t in state.tables)):
                    break
            # waiting tables come first: Enter takes a seat at "Open"
            assert screen.highlighted() == bob.created()[1]
            await pilot.press("down")
            assert screen.highlighted() == bob.created()[0]
            await pilot.press("enter")  # a match in progress: told how to watch, not sent away
            await pilot.pause(0.2)
            assert app.screen is screen
            log = "\n".join(line.text for line in screen.query_one("#lobby-log", RichLog).lines)
            assert "w watches it" in log
            await pilot.press("w")
            await screen_is(pilot, TableScreen)
            assert app.view is not None and app.view.seat is None  # a spectator
        await seat.close()
        await bob.client.close()


async def test_the_app_keeps_trying_when_the_lobby_answers_late(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on yet
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = lobby_app("127.0.0.1", port, "Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(1.0)  # refused at least once
        from unotui.lobby.lobby import Lobby
        from unotui.lobby.sqlite_store import SqliteStore
        from unotui.net.host import Host
        from unotui.net.room import Room

        rooms: dict[str, Room] = {}
        lobby = Lobby(SqliteStore(tmp_path / "s.sqlite3"), rooms, settings=SETTINGS, on_event=lambda _t: None)
        host = Host(rooms, lobby=lobby)
        await host.listen("127.0.0.1", port)
        screen = await lobby_ready(pilot)
        assert screen.state is not None and screen.state.you == "Ann"
        await host.close()
        lobby.close()


async def at_table(pilot: Pilot[Any]) -> None:
    """Wait (bounded) until the table is up, whatever dialog of its own is over it (a
    first card that asks for a colour) but not a question of the app's."""
    from unotui.ui.screens.dialogs import ConfirmScreen

    for _ in range(100):
        await pilot.pause(0.05)
        stack = pilot.app.screen_stack
        if any(isinstance(s, TableScreen) for s in stack) and not isinstance(pilot.app.screen, ConfirmScreen):
            return
    raise AssertionError(f"no table; the screen is {pilot.app.screen!r}")


@pytest.mark.parametrize("keyed", [True, False])
async def test_quitting_a_match_says_what_becomes_of_the_seat(tmp_path: Path, keyed: bool) -> None:
    """At a lobby table the quit question tells the truth: the table plays on and the seat
    is held, and only a player with an SSH key is told the key takes it back.  A spectator
    abandons nothing and leaves at once.  (And before that, the empty leaderboard tells a
    player with a key what ranks them, a guest that it takes a key.)"""
    from textual.widgets import Static

    from unotui.ui.screens.dialogs import ConfirmScreen

    async with lobby_host(tmp_path, SETTINGS) as (lobby, port):
        identity = lobby.credentials.issue("SHA256:annsKeyAAAAAAAA") if keyed else None
        app = lobby_app("127.0.0.1", port, "Ann", identity=identity)
        async with app.run_test(size=(100, 30)) as pilot:
            await lobby_ready(pilot)
            await pilot.pause(0.1)  # the empty leaderboard says what it takes to be on it
            board = " ".join(str(app.screen.query_one("#leaders", Static).render()).split())
            assert board == ("No rated games yet. Finish a match to be ranked." if keyed else
                             "No rated games yet. Play with an SSH key to be ranked.")
            await pilot.press("q", "y")  # a quick match (yes): seated at once, bots fill the table
            await at_table(pilot)
            await pilot.press("ctrl+q")
            await screen_is(pilot, ConfirmScreen)
            said = " ".join(str(w.render()) for w in app.screen.query(Static))
            assert "The table plays on" in said and "cannot be resumed" not in said
            assert ("same SSH key" in said) is keyed
            assert "End the SSH session and leave this match?" in said  # Ctrl+Q says what it ends
            await pilot.press("n")
            await at_table(pilot)  # (or its colour picker, if a wild came first)
    (tmp_path / "watch").mkdir()
    async with lobby_host(tmp_path / "watch", SETTINGS) as (_lobby, port):
        bob, seat = await bob_at_a_quick_match(port)
        watcher = lobby_app("127.0.0.1", port, "Ann")
        async with watcher.run_test(size=(100, 30)) as pilot:
            await watch_the_only_table(pilot)
            await pilot.press("ctrl+q")  # nothing to abandon: no question
            await pilot.pause(0.3)
            assert not isinstance(watcher.screen, ConfirmScreen)
            assert watcher.return_code == 0
        await seat.close()
        await bob.client.close()


async def test_help_in_the_lobby_shows_the_lobby_s_keys_first(tmp_path: Path) -> None:
    """``?`` in the lobby: its own keys (every one it binds), then a table's keys, and the
    classic rules named as such (no table's rules are in force in the lobby)."""
    from textual.binding import Binding

    from tests.ui.tui_support import words
    from unotui.ui.screens.help import LOBBY_KEYS, HelpScreen

    listed = {keys for keys, _what in LOBBY_KEYS}
    names = {"enter": "Enter", "slash": "/"}
    for binding in LobbyScreen.BINDINGS:
        assert isinstance(binding, Binding)
        if binding.key != "question_mark":  # (the help itself)
            assert names.get(binding.key, binding.key) in listed, binding.key
    async with lobby_host(tmp_path, SETTINGS) as (_lobby, port):
        app = lobby_app("127.0.0.1", port, "Ann")
        async with app.run_test(size=(100, 50)) as pilot:  # (all of the help: its headings are read)
            await lobby_ready(pilot)
            await pilot.press("question_mark")
            await screen_is(pilot, HelpScreen)
            text = words(app)
            lobby, table, rules = (text.index(h) for h in ("The lobby", "At a table", "The classic rules"))
            assert lobby < table < rules
            assert "join a private table by its code" in text and "Rules in force" not in text
            await pilot.press("escape")
            await screen_is(pilot, LobbyScreen)


async def test_quick_match_says_what_it_starts_and_starts_nothing_without_a_yes(tmp_path: Path) -> None:
    """q used to seat the player at once in a four-seat match to 500 points: now it asks
    first, saying the seats, the computer players and the target; n starts nothing."""
    from textual.widgets import Static

    from unotui.lobby.lobby import QUICK_SEATS
    from unotui.ui.screens.dialogs import ConfirmScreen

    async with lobby_host(tmp_path, SETTINGS) as (lobby, port):
        app = lobby_app("127.0.0.1", port, "Ann", quick_seats=QUICK_SEATS)
        async with app.run_test(size=(80, 24)) as pilot:
            await lobby_ready(pilot)
            await pilot.press("q")
            await screen_is(pilot, ConfirmScreen)
            said = " ".join(" ".join(str(w.render()) for w in app.screen.query(Static)).split())
            assert "Start a quick match?" in said
            assert f"a new table of {QUICK_SEATS} seats" in said and f"the other {QUICK_SEATS - 1}" in said
            assert "a match to 500 points" in said and "stay in the lobby" in said
            await pilot.press("n")
            await screen_is(pilot, LobbyScreen)
            await pilot.pause(0.3)
            assert not lobby.tables and app.controller is None  # nothing started


def _bar(app: Any) -> str:
    from tests.ui.tui_support import full_text

    return " ".join(full_text(app).splitlines()[-1].split())


async def test_escape_leaves_a_lobby_table_for_the_lobby_with_the_seat_held(tmp_path: Path) -> None:
    """At a lobby table Escape did nothing (and Ctrl+Q ended the whole SSH session).  Now
    the key bar offers Esc for the lobby and says Ctrl+Q quits SSH; Escape during a match
    asks, then the table connection closes, the lobby shows where the seat is held, and
    Enter on that table takes the same seat back."""
    from unotui.ui.screens.dialogs import ConfirmScreen
    from unotui.ui.screens.lobby import held_text

    async with lobby_host(tmp_path, SETTINGS) as (lobby, port):
        identity = lobby.credentials.issue("SHA256:annsKeyAAAAAAAA")
        app = lobby_app("127.0.0.1", port, "Ann", identity=identity)
        async with app.run_test(size=(100, 30)) as pilot:
            await lobby_ready(pilot)
            await pilot.press("q", "y")
            await at_table(pilot)
            while not isinstance(app.screen, TableScreen):  # a first card that asks for a colour
                await pilot.press("r")
                await pilot.pause(0.05)
            assert app.view is not None and app.view.seat is not None
            seat, code = app.view.seat, next(iter(lobby.tables))
            bar = _bar(app)
            assert "Esc Lobby" in bar and "^Q Quit SSH" in bar, bar
            game = app.controller
            await pilot.press("escape")
            await screen_is(pilot, ConfirmScreen)
            from textual.widgets import Static

            said = " ".join(str(w.render()) for w in app.screen.query(Static))
            assert "Leave this match for the lobby?" in said and "The table plays on" in said
            assert "In the lobby, Enter on that table takes your seat back." in said
            await pilot.press("y")
            screen = await lobby_ready(pilot)
            assert app.controller is None and game is not None
            for _ in range(100):  # the lobby learns the seat is held
                await pilot.pause(0.05)
                if screen.state is not None and screen.state.seat_at == code:
                    break
            assert screen.state is not None and screen.state.seat_at == code
            await pilot.pause(0.2)
            head = " ".join(str(screen.query_one("#lobby-head", Static).render()).split())
            assert held_text(code) in head
            assert app.screen is screen  # not sent back to the table by itself
            assert screen.highlighted() == code
            await pilot.press("enter")
            await at_table(pilot)
            assert app.view is not None and app.view.seat == seat  # the same seat, taken back


async def test_a_seat_left_in_another_terminal_of_the_key_is_offered_not_taken(tmp_path: Path) -> None:
    """Two terminals of one key: one idle in the lobby, the other at a table.  When the one
    at the table left it for the lobby (its seat held), the idle one was moved onto that
    table by itself, and the first was told nothing (found walking the seam over SSH).  Now
    the idle terminal stays in the lobby, says where the seat is held, and Enter on that
    table takes it back."""
    from unotui.ui.screens.lobby import held_text

    async with lobby_host(tmp_path, SETTINGS) as (lobby, port):
        identity = lobby.credentials.issue("SHA256:annsKeyAAAAAAAA")
        other = await visit(port, "Ann", identity)
        other.client.quick()
        await until(lambda: other.created())
        code = other.created()[0]
        await other.client.close()
        twin = RemoteGame("127.0.0.1", port, name="Ann", table=code, identity=identity)
        await twin.start()
        app = lobby_app("127.0.0.1", port, "Ann", identity=identity)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await lobby_ready(pilot)
            assert screen.state is not None and screen.state.seat_at is None  # (the twin plays it)
            seat = twin.seat
            await twin.close()  # the twin leaves its table: the seat is held for the key
            for _ in range(100):
                await pilot.pause(0.05)
                if screen.state is not None and screen.state.seat_at == code:
                    break
            assert screen.state is not None and screen.state.seat_at == code
            await pilot.pause(0.3)
            assert app.screen is screen and app.controller is None  # still in the lobby
            assert held_text(code) in words(app)  # on the screen, at 80x24
            assert screen.highlighted() == code
            await pilot.press("enter")
            await at_table(pilot)
            assert app.view is not None and app.view.seat == seat  # the seat, taken back by a key


async def test_escape_stops_watching_at_once(tmp_path: Path) -> None:
    """A spectator abandons nothing: Escape goes straight back to the lobby."""
    async with lobby_host(tmp_path, SETTINGS) as (_lobby, port):
        bob, seat = await bob_at_a_quick_match(port)
        app = lobby_app("127.0.0.1", port, "Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await watch_the_only_table(pilot)
            assert app.view is not None and app.view.seat is None
            assert "Esc Lobby" in _bar(app)
            await pilot.press("escape")
            await lobby_ready(pilot)
            assert app.controller is None
        await seat.close()
        await bob.client.close()


async def test_the_create_form_sets_how_long_the_match_lasts(tmp_path: Path) -> None:
    """A lobby table need not be a match to 500: "Match to" in the create form sets the
    table's target score, and the table's rules carry it."""
    async with lobby_host(tmp_path, replace(SETTINGS, empty_grace=60.0)) as (lobby, port):
        app = lobby_app("127.0.0.1", port, "Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await lobby_ready(pilot)
            await pilot.press("n")
            await screen_is(pilot, CreateTableScreen)
            form = app.screen
            from textual.widgets import Select

            target = form.query_one("#target", Select)
            assert target.value == 500  # the official length unless changed
            target.focus()
            await pilot.pause()
            await pilot.press("enter", "up", "up", "up", "enter")  # to the first choice, 100
            await pilot.pause()
            assert target.value == 100
            await pilot.press("ctrl+s")
            await screen_is(pilot, WaitingScreen)
            (table,) = lobby.tables.values()
            assert table.room.config.rules.target_score == 100


async def test_the_leaderboard_says_what_its_numbers_are() -> None:
    """Not bare numbers: a header names the skill and the games, and the help says what
    skill is."""
    from textual.widgets import Static

    from unotui.protocol import messages as m
    from unotui.ui.screens.help import LEADERBOARD_TEXT

    leaders = (m.LeaderRow("alice", 4, 3, 23), m.LeaderRow("bob", 2, 0, -34))
    state = m.LobbyState("Ann", "", 2, (), leaders, None)

    app = showing(LobbyScreen(keyed=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        screen.state = state
        await pilot.pause()
        board = str(screen.query_one("#leaders", Static).render()).splitlines()
        assert board[0].split() == ["player", "skill", "games"]
        assert board[1].split() == ["1.", "alice", "2.3", "4"]
        assert board[2].split() == ["2.", "bob", "-3.4", "2"]
    assert "newcomer starts at 0" in LEADERBOARD_TEXT


async def test_enter_on_a_finished_table_says_it_is_over_not_started() -> None:

    from unotui.protocol import messages as m

    over = m.LobbyTable("AB12C", "Done", 2, 2, 0, "over", "classic", None)
    playing = m.LobbyTable("CD34E", "Busy", 2, 2, 0, "playing", "classic", None)

    app = showing(LobbyScreen())  # (a guest: a keyed player's Enter asks the table's host)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        screen.state = m.LobbyState("Ann", "", 2, (over, playing), (), None)
        await pilot.pause()
        log = screen.query_one("#lobby-log", RichLog)
        await pilot.press("enter")  # the first row: the finished table
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        said = [line.text.strip() for line in log.lines]
        assert any("The match at AB12C is over" in line for line in said), said
        assert any("The match at CD34E has started" in line for line in said), said


async def test_the_lobby_chat_wraps_to_its_pane_at_every_size(tmp_path: Path) -> None:
    """Lines written before the pane had its final width wrap again to it: over SSH the
    session's first layout is smaller than the terminal the pty then says, and at 120x40
    the greeting kept the narrow first width."""
    async with lobby_host(tmp_path, SETTINGS) as (_lobby, port):
        app = lobby_app("127.0.0.1", port, "Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await lobby_ready(pilot)
            await pilot.pause(0.2)
            await pilot.resize_terminal(120, 40)
            await pilot.pause(0.2)
            log = screen.query_one("#lobby-log", RichLog)
            width = log.scrollable_content_region.width
            longest = max(len(line.text.rstrip()) for line in log.lines)
            assert width - 12 <= longest <= width, (longest, width)


@pytest.mark.parametrize(("size", "rows"), [((80, 24), 9), ((120, 40), 15)])
async def test_the_lobby_chat_grows_with_the_terminal(tmp_path: Path, size: tuple[int, int], rows: int
                                                      ) -> None:
    """At 120x40 the chat kept 7 rows beside 26 empty rows of the tables' list."""
    async with lobby_host(tmp_path, SETTINGS) as (_lobby, port):
        app = lobby_app("127.0.0.1", port, "Ann")
        async with app.run_test(size=size) as pilot:
            screen = await lobby_ready(pilot)
            assert screen.query_one("#lobby-log", RichLog).outer_size.height >= rows

