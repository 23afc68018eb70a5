"""Issue 7, as a player saw it: each test drives the real app in Textual's pilot and
checks what is on the screen (zero delays, seeded deals)."""

from __future__ import annotations

from typing import Any

import pytest

from unotui.engine import Rules
from unotui.ui.app import UnoApp
from unotui.ui.game_log import GameLog

from .tui_support import (
    ScriptedBot,
    deal_order,
    full_text,
    picking_a_colour,
    play_card,
    scripted_app,
    settle,
    wild_in_hand_app,
)

CLASSIC = Rules.preset("classic")
pytestmark = pytest.mark.usefixtures("fast_keys")
SIZES = [(80, 24), (120, 40)]


def _long_log_app() -> UnoApp:
    """A two-player deal where the person draws a few times: the log fills with lines,
    the longest being Ada's 'played ... and called UNO!' and our own 'drew' lines."""
    rules = CLASSIC.with_(hand_size=7, target_score=1000)
    deck = deal_order(["R5 R6 R7 R8 R9 G1 G2", "B1 B2 B3 B4 B5 B6 B7"], "Y1", dealer=1)
    return scripted_app(["Me", "Ada Lovelace-Byron"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)


async def _draw_rounds(pilot: Any, times: int) -> None:
    app = pilot.app
    for _ in range(times):
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        if app.view is not None and app.view.phase == "drawn":
            await pilot.press("k")
            await settle(pilot)


def _challenge_app() -> UnoApp:
    """Ada (a long name) bluffs a Wild Draw Four holding yellow; the person challenges."""
    rules = CLASSIC.with_(hand_size=5, target_score=1000)
    deck = deal_order(["R5 R6 G1 G2 B9", "Y2 W+4 Y3 B1 B2"], "Y1", dealer=1)
    bot = ScriptedBot(["Y2", "W+4", "colour G"])
    return scripted_app(["Me", "Ada Lovelace-Byron"], rules, {1: bot}, dealer=1, deck=deck)


async def _challenge(pilot: Any) -> None:
    app = pilot.app
    for _ in range(3):  # we draw and keep; Ada plays Y2, then W+4 naming green
        await settle(pilot)
        if app.view.phase == "challenge":
            break
        await pilot.press("d")
        await settle(pilot)
        if app.view.phase == "drawn":
            await pilot.press("k")
    assert app.view.phase == "challenge"
    await pilot.press("x")
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES)
async def test_log_lines_wrap_to_the_pane_without_a_horizontal_scrollbar(size: tuple[int, int]) -> None:
    app = _challenge_app()
    async with app.run_test(size=size) as pilot:
        await _challenge(pilot)
        await pilot.press("enter")  # close the revealed hand
        await settle(pilot)
        await pilot.pause()
        log = app.screen.query_one(GameLog)
        width = log.scrollable_content_region.width
        assert not log.show_horizontal_scrollbar
        assert log.virtual_size.width <= width
        lines = [strip.text.rstrip() for strip in log.lines]
        assert all(len(line) <= width for line in lines)
        # The long sentences are there in full, wrapped over several lines of the pane.
        joined = " ".join(lines)
        assert "You challenged Ada Lovelace-Byron's Wild Draw Four: guilty!" in joined
        assert "Ada Lovelace-Byron drew 4 cards after the challenge" in joined


async def test_after_a_resize_the_log_shows_its_newest_lines_rewrapped() -> None:
    app = _long_log_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await _draw_rounds(pilot, 12)
        for size in ((80, 24), (100, 30), (80, 24)):
            await pilot.resize_terminal(*size)
            log = app.screen.query_one(GameLog)
            # The log scrolls to its end after the refresh that follows the rewrap; under
            # load that refresh can come a pause or two late (bounded: it must come).
            for _ in range(10):
                await pilot.pause()
                if log.scroll_y == log.max_scroll_y:
                    break
            assert log.max_scroll_y > 0, "the test needs a log taller than its pane"
            assert log.scroll_y == log.max_scroll_y
            assert log.virtual_size.width <= log.scrollable_content_region.width
        assert app.view is not None
        last = app.view.log[-1]
        assert last.kind in ("draw", "keep", "play")
        assert "Ada Lovelace-Byron" in full_text(app).split("Log")[-1]


async def test_red_0_drawn_and_played_is_named_on_the_screen() -> None:
    rules = CLASSIC.with_(hand_size=2, target_score=1000)
    deck = deal_order(["G5 G6", "B7 B8"], "R1", draws="R0", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        text = full_text(app)
        assert "You drew R0: play it (Enter) or keep it (k)." in text
        assert "Selected: red 0 (R0)" in text
        await pilot.press("enter")
        await settle(pilot)
        assert "You played red 0 (R0)." in full_text(app)


async def _open_house_rules(pilot: Any) -> None:
    await pilot.pause()
    await pilot.press("down", "down", "down", "enter")  # "House rules and your name"
    await pilot.pause()


@pytest.mark.parametrize(("field", "value", "words"), [
    ("target_score", "0", "target_score must be between 1 and 100000"),
    ("players", "11", "players must be between 2 and 10"),
    ("uno_penalty", "99", "uno_penalty must be between 0 and 10"),
])
async def test_house_rules_save_error_is_on_screen_and_focus_goes_to_the_field(
    field: str, value: str, words: str
) -> None:
    from textual.widgets import Input

    from unotui.ui.screens.house_rules import HouseRulesScreen
    from unotui.ui.settings import Config, GameOptions

    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_house_rules(pilot)
        assert isinstance(app.screen, HouseRulesScreen)
        assert app.focused is app.screen.query_one("#name", Input), "the form opens on its first field"
        app.screen.query_one(f"#{field}", Input).value = value
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, HouseRulesScreen), "a bad value is not saved"
        text = full_text(app)
        assert "Not saved" in text and words in text
        assert app.focused is app.screen.query_one(f"#{field}", Input)


# ----- the summaries -------------------------------------------------------------------


def _long_hands_round(target: int = 1000) -> UnoApp:
    """The person goes out in eight plays while Ada (a long name) draws every turn: she
    is left holding fifteen cards, more than one line of the summary."""
    rules = CLASSIC.with_(hand_size=8, target_score=target)
    deck = deal_order(["R1 R2 R3 R4 R5 R6 R7 R8", "B1 B2 B3 B4 B5 B6 B7 B8"], "R9", dealer=1)
    return scripted_app(["Me", "Ada Lovelace-Byron"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)


async def _go_out_in_eight(pilot: Any) -> None:
    await settle(pilot)
    for card in ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]:
        await play_card(pilot, card, key="u" if card == "R7" else "enter")


def _dialog_lines(app: UnoApp) -> list[str]:
    """The lines inside the dialog's frame (between its two side borders)."""
    out = []
    for line in full_text(app).splitlines():
        if line.count("█") >= 2:
            out.append(line[line.index("█") + 1 : line.rindex("█")])
    return out


@pytest.mark.parametrize("size", SIZES)
async def test_round_summary_wraps_a_long_hand_in_its_own_column(size: tuple[int, int]) -> None:
    from unotui.ui.screens.results import RoundOverScreen

    app = _long_hands_round()
    async with app.run_test(size=size) as pilot:
        await _go_out_in_eight(pilot)
        assert isinstance(app.screen, RoundOverScreen)
        lines = _dialog_lines(app)
        column = next(line for line in lines if "cards left" in line).index("cards left")
        row = next(i for i, line in enumerate(lines) if "Ada Lovelace-Byron" in line)
        assert lines[row][column] != " ", "her hand starts in its column"
        following = lines[row + 1]
        assert following.strip(), "the hand needs a second line at this size"
        assert len(following) - len(following.lstrip()) == column, "continued under the cards"


async def test_round_summary_says_what_each_player_scored_and_celebrates() -> None:
    app = _long_hands_round()
    async with app.run_test(size=(120, 40)) as pilot:
        await _go_out_in_eight(pilot)
        view = app.view
        assert view is not None and view.round_winner == 0
        lines = _dialog_lines(app)
        header = next(line for line in lines if "player" in line)
        assert "scored" in header and "in hand" in header and "total" in header
        mine = next(line for line in lines if "Me (you)" in line)
        hers = next(line for line in lines if "Ada Lovelace-Byron" in line)
        points = view.round_points[1]
        assert points > 0 and view.scores[0] == points
        assert mine.split()[2:5] == [f"+{points}", "0", str(points)]
        assert hers.split()[2:5] == ["0", str(points), "0"]
        assert "Y O U   W O N !" in full_text(app)
        # The summary is a dialog over the table: the table shows around it.
        assert "Players, clockwise" in full_text(app)


async def test_no_celebration_when_a_computer_player_wins_the_round() -> None:
    rules = CLASSIC.with_(hand_size=2, target_score=1000)
    deck = deal_order(["B5 B6", "R1 R2"], "R9", dealer=0)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot(["R1!", "R2"])}, dealer=0, deck=deck)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        if app.view is not None and app.view.phase == "drawn":  # the drawn card is kept
            await pilot.press("k")
            await settle(pilot)
        from unotui.ui.screens.results import RoundOverScreen

        assert isinstance(app.screen, RoundOverScreen)
        text = full_text(app)
        assert "Ada won round 1!" in text and "W O N" not in text


async def test_escape_and_help_work_on_the_round_summary() -> None:
    from unotui.ui.screens.help import HelpScreen
    from unotui.ui.screens.results import RoundOverScreen
    from unotui.ui.screens.table import TableScreen

    app = _long_hands_round()
    async with app.run_test(size=(80, 24)) as pilot:
        await _go_out_in_eight(pilot)
        assert isinstance(app.screen, RoundOverScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)
        await pilot.press("escape")  # Escape closes the summary: on to the next deal
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.view is not None and app.view.round_no == 2


@pytest.mark.parametrize(("size", "rows"), [((80, 24), (4, 4)), ((120, 40), (8, 16)), ((100, 60), (16, 16))])
async def test_match_chart_uses_the_room_there_is_and_has_a_legend(
    size: tuple[int, int], rows: tuple[int, int]
) -> None:
    from textual.containers import VerticalScroll

    from unotui.ui.screens.results import MatchOverScreen

    app = _long_hands_round(target=10)
    async with app.run_test(size=size) as pilot:
        await _go_out_in_eight(pilot)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MatchOverScreen)
        assert rows[0] <= screen._rows <= rows[1]
        box = screen.query_one(VerticalScroll)
        if size != (80, 24):
            assert box.virtual_size.height <= box.scrollable_content_region.height, "no scrolling"
        box.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        text = full_text(app)
        assert "Marks: 0 Me (you)  1 Ada Lovelace-Byron" in text
        assert "C H A M P I O N" in text or size == (80, 24)


def test_score_chart_fits_its_width_and_labels_rounds() -> None:
    from unotui.ui.chart import chart_legend, score_chart

    rows = [[0, 0, 0]] + [[r * 10, r * 7, r * 3] for r in range(1, 31)]
    lines = score_chart(rows, height=6, width=60)
    assert all(len(line) <= 60 for line in lines)
    assert lines[0].startswith("300 |") and lines[-1].endswith("round")
    assert len(lines) == 6 + 2
    assert chart_legend(["You", "Ada", "Blaise"]) == "Marks: 0 You  1 Ada  2 Blaise  (* several at one point)"


# ----- the dialogs over the table ------------------------------------------------------


async def test_colour_picker_is_a_dialog_over_the_table_and_says_why() -> None:
    app = wild_in_hand_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await picking_a_colour(pilot)
        text = full_text(app)
        assert "You played a Wild: name the colour play goes on in." in text
        assert "Players, clockwise" in text and "Log" in text, "the table shows around the dialog"


async def test_a_round_that_starts_on_a_wild_says_why_it_asks_for_a_colour() -> None:
    from unotui.ui.screens.dialogs import ColourPicker

    rules = CLASSIC.with_(hand_size=3)
    deck = deal_order(["B5 R5 G3", "B9 G2 Y1"], "W", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ColourPicker)
        text = " ".join(" ".join(_dialog_lines(app)).split())
        assert "The first card of the round is a Wild: it names no colour, so the first player (you)" in text


@pytest.mark.parametrize("size", SIZES)
async def test_a_guilty_reveal_marks_the_cards_and_names_the_colour(size: tuple[int, int]) -> None:
    from unotui.ui.screens.dialogs import RevealScreen

    app = _challenge_app()
    async with app.run_test(size=size) as pilot:
        await _challenge(pilot)
        assert isinstance(app.screen, RevealScreen)
        lines = _dialog_lines(app)
        hand = next(i for i, line in enumerate(lines) if " Y3 " in line and " B1 " in line)
        marks = lines[hand + 1]
        start = lines[hand].index(" Y3 ")
        assert marks[start : start + 4] == "^^^^"
        assert "^" not in marks[lines[hand].index(" B1 ") :]
        text = " ".join(" ".join(lines).split())
        assert "Guilty: yellow was in play and they held Y3 (marked ^)" in text
        assert "Players, clockwise" in full_text(app)


async def test_the_winning_card_stays_on_show_before_the_summary_and_enter_skips_the_wait() -> None:
    from unotui.ui.screens.results import RoundOverScreen
    from unotui.ui.screens.table import TableScreen

    rules = CLASSIC.with_(hand_size=2, target_score=1000)
    deck = deal_order(["R5 R6", "B1 B7"], "R1", dealer=1)
    # A pause far longer than the test: only the key can end it (no real waiting).
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck, summary_pause=600)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_card(pilot, "R5", key="u")
        await play_card(pilot, "R6")
        await pilot.pause()
        assert app.view is not None and app.view.phase == "round_over"
        assert isinstance(app.screen, TableScreen), "the summary waits"
        assert "Top: R6 red 6" in full_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)


# ----- leaving a match -----------------------------------------------------------------


async def test_ctrl_q_during_a_match_asks_first() -> None:
    from unotui.ui.screens.dialogs import ConfirmScreen
    from unotui.ui.screens.table import TableScreen

    app = _long_log_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Quit unotui and leave this match?" in full_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_code == 0


async def test_ctrl_q_quits_at_once_on_the_menu_and_after_the_match() -> None:
    from unotui.ui.screens.results import MatchOverScreen
    from unotui.ui.settings import Config, GameOptions

    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running

    app = _long_hands_round(target=10)
    async with app.run_test(size=(80, 24)) as pilot:
        await _go_out_in_eight(pilot)
        assert isinstance(app.screen, MatchOverScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


async def test_main_menu_from_the_palette_asks_before_abandoning() -> None:
    from unotui.ui.screens.dialogs import ConfirmScreen
    from unotui.ui.screens.menu import MenuScreen

    app = _long_log_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"main menu")
        await pilot.pause(0.3)
        await pilot.press("enter")
        for _ in range(50):  # the palette closes, then runs the command
            await pilot.pause()
            if isinstance(app.screen, ConfirmScreen):
                break
        assert isinstance(app.screen, ConfirmScreen)
        assert "Leave this match for the main menu?" in full_text(app)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


def test_a_short_chart_keeps_a_few_points_off_the_zero_row_and_labels_the_last_round() -> None:
    """At 80x24 the match chart is 3-4 rows: 34 of 400 points plotted on the zero row, and
    the last round (an odd one, with labels every two or five) had no label."""
    from unotui.ui.chart import score_chart

    for rounds in range(1, 31):
        rows = [[0, 0]] + [[r * 34, min(400, r * 40)] for r in range(1, rounds + 1)]
        for width in (40, 60, 100):
            lines = score_chart(rows, height=3, width=width)
            zero_row = lines[2]
            assert "0" not in zero_row.split("|", 1)[1][1:], (rounds, width)  # only the start is at zero
            axis = lines[-1].removesuffix("  round").split()
            assert axis[-1] == str(rounds), (rounds, width, lines[-1])


def test_tied_players_share_their_place_in_seat_order() -> None:
    from unotui.engine import Game
    from unotui.engine.views import seat_view
    from unotui.ui.screens.results import standings

    game = Game(["Me", "Ada", "Bo", "Cy"], CLASSIC, seed=1)
    view = seat_view(game, 3)._replace(scores=(0, 120, 0, 0), winner=1)
    assert standings(view) == [(1, 1), (2, 0), (2, 2), (2, 3)]  # not 2, 3, 4 with "you" (3) first
