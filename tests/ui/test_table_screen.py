"""The table screen as a newcomer meets it (issue 7): panels that fit, a key bar that
keeps Quit, keys that say why they do nothing, the hand's order and the cards just drawn,
the turn's row, one word for the direction of play, sizes, the monochrome theme, and the
wiring (messages up, the view handed down)."""

from __future__ import annotations

import ast
import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from unotui.engine import KEEP, Card, Event, Rules, Stacking
from unotui.net.local import LocalGame
from unotui.ui.app import UnoApp
from unotui.ui.key_bar import KeyBar
from unotui.ui.settings import Config, GameOptions, load_config
from unotui.ui.widgets import HandView, PlayersView, prompt
from unotui.ui.words import describe

from .tui_support import ScriptedBot, deal_order, play_card, screen_text, scripted_app, settle, showing, table

CLASSIC = Rules.preset("classic")
UI = Path(__file__).resolve().parents[2] / "unotui" / "ui"
pytestmark = pytest.mark.usefixtures("fast_keys")


async def until(condition: Callable[[], bool]) -> None:
    """Let the app process events (a resize) until ``condition`` holds (bounded)."""
    for _ in range(400):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("condition never held")


def cells_prefix(line: str, width: int) -> str:
    """The first ``width`` terminal cells of ``line`` (wide characters take two)."""
    out, used = [], 0
    for ch in line:
        used += cell_len(ch)
        if used > width:
            break
        out.append(ch)
    return "".join(out)


def message(app: UnoApp) -> str:
    """The message line above the hand."""
    content = table(app).query_one("#message").content  # type: ignore[attr-defined]
    return str(content)


def players_box(app: UnoApp) -> list[str]:
    """The rows of the Players panel as drawn on screen (the left box only)."""
    lines = screen_text(app).splitlines()
    top = next(i for i, line in enumerate(lines) if "Players" in line)
    width = cell_len(lines[top][: lines[top].index("╮") + 1])
    rows = []
    for line in lines[top + 1 :]:
        if line.startswith("╰"):
            break
        rows.append(cells_prefix(line, width))
    return rows


# ----- item 5: a 16-cell name ----------------------------------------------------------------


@pytest.mark.parametrize("long_name", ["Bartholomew Jone", "漢字漢字漢字漢字"])
async def test_a_sixteen_cell_name_leaves_every_score_visible(long_name: str) -> None:
    names = ["Me", long_name, "Ada", "Blaise"]
    bots = {s: ScriptedBot() for s in range(1, 4)}
    app = scripted_app(names, CLASSIC, bots, dealer=3, seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        rows = players_box(app)
        assert len(rows) == 4
        for row in rows:  # "... 7 cards      0 │": the count and the score end every row
            assert re.search(r"\d+ cards?\s+(UNO[!?]\s+)?\d+\s*│$", row), row
        assert "…" in rows[1]  # the long name is cut, with an ellipsis


# ----- item 7: the key bar at 80 columns ----------------------------------------------------


@pytest.mark.parametrize("width", [66, 80])
async def test_key_bar_fits_with_context_keys_and_keeps_quit(width: int) -> None:
    rules = CLASSIC.with_(hand_size=2, target_score=1000)
    deck = deal_order(["R5 R6", "B1 B7"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        bar = screen_text(app).splitlines()[-1]
        assert "UNO!" in bar and "Play" in bar and "Draw" in bar
        assert bar.rstrip().endswith("^Q  Quit"), bar
        assert "…" not in bar


def test_key_bar_leaves_out_the_least_needed_keys_first() -> None:
    bar = KeyBar()
    keys = [("Enter", "Play", 0), ("s", "Sort", 5), ("n", "Hint", 4), ("c", "Catch", 0)]
    shown: list[str] = []
    bar.update = lambda content, layout=True: shown.append(str(content))  # type: ignore[method-assign]
    bar.show(keys)  # not mounted: 80 columns
    assert "Sort" in shown[-1] and shown[-1].endswith("Quit ")
    bar.show([*keys, ("x", "Challenge", 0), ("a", "Accept", 0), ("j", "Jump in", 0), ("k", "Keep", 0)])
    assert "Sort" not in shown[-1] and "Challenge" in shown[-1] and shown[-1].endswith("Quit ")


# ----- keys read view.legal, and keys that do nothing say why -------------------------------


async def test_challenge_key_follows_view_legal_with_challenges_off_and_stacking_on() -> None:
    rules = CLASSIC.with_(hand_size=3, challenge=False, stacking=Stacking.OFFICIAL, target_score=1000)
    deck = deal_order(["R5 G3 B2", "W+4 B9 G2"], "R1", dealer=0)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot(["W+4", "colour G"])}, dealer=0, deck=deck)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        view = app.view
        assert view is not None and view.my_turn and view.wd4_by == 1
        assert "challenge" not in [str(a) for a in view.legal]
        bar = screen_text(app).splitlines()[-1]
        assert "Challenge" not in bar
        version = view.version
        await pilot.press("x")
        await settle(pilot)
        assert app.view.version == version  # nothing was sent
        assert "challenges are off at this table" in message(app)


async def test_keys_that_do_nothing_say_why() -> None:
    rules = CLASSIC.with_(hand_size=5, target_score=1000)
    deck = deal_order(["R5 G3 B2 Y7 Y8", "B9 G2 Y1 Y2 Y3"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        version = app.view.version if app.view else -1
        await pilot.press("c")
        await settle(pilot)
        assert "Nobody to catch" in message(app)
        await pilot.press("u")
        await settle(pilot)
        assert "You cannot call UNO now" in message(app)
        await pilot.press("k")
        await settle(pilot)
        assert "You cannot keep a card now" in message(app)
        await pilot.press("j")
        await settle(pilot)
        assert "jump-in is off at this table" in message(app)
        assert app.view is not None and app.view.version == version


def test_prompt_when_the_drawn_card_cannot_be_played() -> None:
    game = LocalGame(["Me", "Ada"], CLASSIC, seed=1, delay=0)
    view = game.view._replace(phase="drawn", legal=(KEEP,), drawn=Card.parse("R0"), actor=0, turn=0)
    assert view.my_turn
    assert "You drew R0: it can't be played" in prompt(view)
    for card in ("R0", "W+4"):  # the key that goes on now fits an 80-column header
        line = f" Round 10  {prompt(view._replace(drawn=Card.parse(card)))}"
        assert "(k: now)" in line and len(line) <= 80, line


def test_your_turn_beside_a_catch_fits_an_80_column_header() -> None:
    """'Blaise did not call UNO: catch (c)! Your turn: play a card (Enter; u pla…' was cut
    at 80 columns: beside a catch (or an UNO call) the turn's sentence is short."""
    from unotui.engine import Catch

    game = LocalGame(["Me", "Blaise", "Ada"], CLASSIC, seed=1, delay=0)
    view = game.view._replace(phase="play", actor=0, turn=0, pending=0)
    view = view._replace(legal=(*view.legal, Catch(1)))
    assert view.my_turn
    line = f" Round 10  {prompt(view)}"
    assert "catch (c)!" in line and "Your turn: Enter plays, d draws." in line and len(line) <= 80, line
    assert "u plays and calls UNO" in prompt(view._replace(legal=view.legal[:-1]))  # alone: the long one


# ----- the hand: sorting, the cards just drawn ---------------------------------------------


def _sorting_app() -> UnoApp:
    rules = CLASSIC.with_(hand_size=5, target_score=1000)
    deck = deal_order(["G3 W R5 B2 R1", "B9 G2 Y1 Y2 Y3"], "Y5", dealer=1)

    def factory(options: GameOptions) -> LocalGame:
        bots = {1: ScriptedBot()}
        return LocalGame(["Me", "Ada"], rules, bots=bots, delay=0, catch_grace=0, dealer=1, deck=deck)

    config = load_config()
    return UnoApp(config, GameOptions(players=2, rules=rules, delay=0), factory=factory, save_settings=True)


def hand_on_screen(app: UnoApp) -> list[str]:
    lines = screen_text(app).splitlines()
    row = next(line for line in reversed(lines) if re.search(r"[│┃]\s*\S+\s*[│┃]", line))
    return re.findall(r"[│┃]\s*([^│┃\s]+)\s*[│┃]", row)


async def test_sort_key_orders_the_hand_and_is_remembered() -> None:
    app = _sorting_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert hand_on_screen(app) == ["R1", "R5", "G3", "B2", "W"]  # by colour at first
        await pilot.press("right")  # R5 selected
        await pilot.press("s")
        await settle(pilot)
        assert hand_on_screen(app) == ["R1", "B2", "G3", "R5", "W"]
        assert table(app).cursor == 3  # still on R5
        assert "by rank" in message(app)
        assert load_config().hand_order == "rank"
        await pilot.press("s")
        await settle(pilot)
        assert hand_on_screen(app) == ["R1", "R5", "G3", "B2", "W"]
        assert load_config().hand_order == "colour"
        await pilot.press("s")
    again = _sorting_app()  # a new session starts in the saved order
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert hand_on_screen(again) == ["R1", "B2", "G3", "R5", "W"]


async def test_the_card_just_drawn_is_marked_until_a_play() -> None:
    rules = CLASSIC.with_(hand_size=3, target_score=1000)
    deck = deal_order(["B5 B7 G3", "B9 G2 Y1"], "R1", draws="R8 Y9", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "new" not in screen_text(app)
        await pilot.press("d")
        await settle(pilot)
        assert app.view is not None and app.view.phase == "drawn"
        assert hand_on_screen(app)[table(app).cursor] == "R8"  # on the card drawn
        hand = str(table(app).query_one(HandView).content)
        assert hand.count("new") == 1 and "┗new┛" in hand  # the selected card is the new one
        await pilot.press("enter")  # play it: the mark goes
        await settle(pilot)
        assert "new" not in str(table(app).query_one(HandView).content)


# ----- the turn's row, the direction of play ------------------------------------------------


@pytest.mark.parametrize("theme", ["default", "mono"])
async def test_the_seat_whose_turn_it_is_is_a_highlighted_row(theme: str) -> None:
    rules = CLASSIC.with_(hand_size=3, target_score=1000)
    deck = deal_order(["B5 B7 G3", "B9 G2 Y1"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck, theme=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        content = table(app).query_one(PlayersView).content
        assert isinstance(content, Text)
        rows = content.split("\n")

        def highlighted(row: Text) -> bool:
            for span in row.spans:
                style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
                whole = span.start == 0 and span.end >= len(row.plain.rstrip())
                if whole and (style.reverse or style.bgcolor):
                    return True
            return False

        assert highlighted(rows[0]) and not highlighted(rows[1])


async def test_one_word_for_the_direction_of_play() -> None:
    rules = CLASSIC.with_(hand_size=3, target_score=1000)
    deck = deal_order(["RR B7 G3", "B9 G2 Y1", "Y4 Y5 Y6"], "R1", dealer=2)
    bots = {1: ScriptedBot(), 2: ScriptedBot()}
    app = scripted_app(["Me", "Ada", "Blaise"], rules, bots, dealer=2, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Players, clockwise" in screen_text(app)
        await play_card(pilot, "RR")
        assert "Players, counter-clockwise" in screen_text(app)
        assert app.view is not None
        log = [describe(e, app.view.names, 0) for e in app.view.log]
        assert "Direction reversed: play now goes counter-clockwise." in log
    assert describe(Event("reverse", 0, value=1), ["A"], 0) == "Direction reversed: play now goes clockwise."


# ----- sizes ----------------------------------------------------------------------------------


async def test_large_terminals_get_larger_cards_and_a_wider_log() -> None:
    rules = CLASSIC.with_(hand_size=3, target_score=1000)
    deck = deal_order(["B5 B7 G3", "B9 G2 Y1"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        small_log = table(app).query_one("#log").size.width
        assert table(app).query_one(HandView).size.height == 4
        await pilot.resize_terminal(120, 40)
        hand = table(app).query_one(HandView)
        await until(lambda: hand.size.height == 6)
        assert "┏━━━━━┓" in str(hand.content)  # 7-wide cards
        assert table(app).query_one("#log").size.width >= small_log + 25


async def test_below_the_smallest_size_a_notice_asks_for_a_larger_terminal() -> None:
    rules = CLASSIC.with_(hand_size=3, target_score=1000)
    deck = deal_order(["B5 B7 G3", "B9 G2 Y1"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(60, 14)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Make the terminal larger" in text and "60 x 14" in text
        await pilot.resize_terminal(80, 24)
        await until(lambda: "Draw pile" in screen_text(app))
        assert "Make the terminal larger" not in screen_text(app)


# ----- the monochrome theme -------------------------------------------------------------------


async def test_monochrome_switches_show_on_and_off_without_colour() -> None:
    from textual.widgets import Switch

    app = UnoApp(Config(theme="mono"), GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        switches = list(app.screen.query(Switch))
        on = [s for s in switches if s.value]
        off = [s for s in switches if not s.value]
        assert on and off
        from textual.widgets import Label

        def said(s: Switch) -> str:
            return str(app.screen.query_one(f"#{s.id}-state", Label).render())

        assert {said(s) for s in on} == {"on"} and {said(s) for s in off} == {"off"}  # words, no colour


# ----- the wiring ------------------------------------------------------------------------------


@pytest.mark.parametrize("module", ["screens/table.py", "widgets.py", "render.py", "messages.py"])
def test_the_table_and_its_parts_never_import_the_app(module: str) -> None:
    tree = ast.parse((UI / module).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            name = "." * node.level + (node.module or "")
            assert not re.fullmatch(r"(\.\.?app|unotui\.ui\.app)", name), f"{module} imports {name}"


def test_no_benchmark_hooks_in_the_program() -> None:
    for path in (UI.parent).rglob("*.py"):
        assert "UNOTUI_FIRST_FRAME_FILE" not in path.read_text(encoding="utf-8"), path


async def test_saving_the_hand_order_keeps_one_game_overrides_out_of_the_file() -> None:
    app = _sorting_app()
    app.config = app.config.with_(theme="mono")  # as `unotui play --theme mono` does
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
    saved = load_config()
    assert saved.hand_order == "rank" and saved.theme == "default"


async def test_ctrl_c_says_how_to_quit_in_a_dialog_too() -> None:
    """Textual's own hint is an app binding, which a modal screen cuts off: with the
    colour picker open (the round's first card is a Wild), Ctrl+C did nothing at all."""
    deck = deal_order(["R2 R9 G3 GS B1 Y4 Y5", "B9 G2 Y1 Y2 Y3 G4 G5"], "W", dealer=1)
    app = scripted_app(["Me", "Ada"], Rules.preset("classic"), {}, dealer=1, deck=deck)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert type(app.screen).__name__ == "ColourPicker"
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert [n.message for n in app._notifications] == ["Press [b]ctrl+q[/b] to quit the app"]


async def test_the_first_view_is_drawn_whole_without_a_second_one() -> None:
    """A joined table whose first view is the person's turn gets no other view until they
    act: the hand must be drawn from that first view alone."""

    from unotui.engine import Game, seat_view
    from unotui.ui.screens.table import TableScreen

    game = Game(["Me", "Ada", "Bob"], CLASSIC, seed=4)
    screen = TableScreen(seat_view(game, game.actor))

    app = showing(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        hand = str(screen.query_one(HandView).content)
        assert "7 cards" in hand and "playable" in hand and "No cards" not in hand


async def test_lines_said_before_the_table_is_up_are_shown_once_it_is_and_none_after_it_is_gone() -> None:
    """A chat line or a turn-timer line can arrive between the app making the table and its
    mounting (a lobby table filling as it opens): shown when the table is up, not lost
    and no crash; one still queued after the table is gone says nothing."""
    from textual.widgets import Static

    from unotui.engine import Game, seat_view
    from unotui.ui.game_log import GameLog
    from unotui.ui.screens.table import TableScreen

    screen = TableScreen(seat_view(Game(2, seed=3), 0))
    screen.note("Bob: hello")
    screen.say("Turn timer: 30 s to decide, or the table acts for you.")

    app = showing(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = " ".join(line.text for line in screen.query_one(GameLog).lines)
        assert "Bob: hello" in log
        assert "Turn timer: 30 s" in str(screen.query_one("#message", Static).render())
        await app.pop_screen()
        await pilot.pause()
        screen.say("late")  # an update still in the queue: nothing, and no NoMatches
        screen.note("late")


@pytest.mark.parametrize("top", ["R+2", "W+4", "Y7"])
async def test_the_top_card_line_is_never_cut_at_80x24(top: str) -> None:
    """At 80x24 "Top: R+2 red Draw Two" was cut to "Top: R+2 red Draw T…": a name that
    does not fit beside the cards' art is shown without the code (the art shows it)."""

    from unotui.engine import Colour, Game, seat_view
    from unotui.ui.screens.table import TableScreen
    from unotui.ui.words import card_name

    card = Card.parse(top)
    view = seat_view(Game(4, seed=3), 0)._replace(top=card, colour=card.colour or Colour.RED)
    screen = TableScreen(view)

    app = showing(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)  # type: ignore[arg-type]
    top_line = next(line for line in text.splitlines() if "Top:" in line)
    assert "…" not in top_line.split("│")[0], top_line
    assert card_name(card) in top_line


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_selected_customizable_wild_shows_its_whole_rule(size: tuple[int, int]) -> None:
    """At 80 columns "Selected: Customizable Wild (WC) - playable: plays as..." was cut:
    the rule goes on a line of its own when it does not fit beside."""
    rules = CLASSIC.with_(hand_size=3, custom_wilds=1).with_settings(
        {"custom": "next_draws_two+skip_next", "custom_text": "everyone sings"})
    deck = deal_order(["WC R5 G3", "B9 G2 Y1"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("end")  # (wilds sort last)
        await pilot.pause()
        text = screen_text(app)
        assert "Selected: Customizable Wild (WC) - playable" in text
        whole = rules.custom.describe()
        assert whole in " ".join(line.strip() for line in text.splitlines())  # nowhere cut
