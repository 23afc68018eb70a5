"""Whole games played by key presses alone, in Textual's pilot (zero delays, seeded)."""

from __future__ import annotations

import threading

import pytest

from unotui.engine import Rules, SeatView
from unotui.ui.screens.dialogs import ColourPicker, RevealScreen
from unotui.ui.screens.results import MatchOverScreen, RoundOverScreen
from unotui.ui.screens.table import TableScreen

from .tui_support import (
    ScriptedBot,
    autoplay,
    deal_order,
    play_card,
    screen_text,
    scripted_app,
    seeded_app,
    settle,
)

CLASSIC = Rules.preset("classic")
pytestmark = pytest.mark.usefixtures("fast_keys")


def log_text(app: object) -> str:
    from unotui.ui.words import describe

    view = app.view  # type: ignore[attr-defined]
    return "\n".join(describe(e, view.names, view.seat) for e in view.log)


async def test_a_game_to_the_end_with_colour_challenge_caught_uno_and_round_end() -> None:
    rules = CLASSIC.with_(hand_size=4, target_score=150)
    deck = deal_order(["W R5 R7 G3", "W+4 B9 G2 Y1"], "R1", dealer=1)
    bot = ScriptedBot(["W+4", "colour R", "draw", "keep"], passive=False, seed=3)
    app = scripted_app(["Me", "Ada"], rules, {1: bot}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.view is not None and app.view.my_turn
        assert "Your turn" in screen_text(app)

        # A wild: the colour picker opens; "b" names blue.
        await play_card(pilot, "W")
        assert isinstance(app.screen, ColourPicker)
        await pilot.press("b")
        await settle(pilot)
        assert "You named blue." in log_text(app)

        # Ada bluffs a Wild Draw Four (she holds B9); we challenge with "x".
        assert app.view.phase == "challenge" and app.view.my_turn
        assert "challenge (x)" in screen_text(app)
        await pilot.press("x")
        await settle(pilot)
        assert isinstance(app.screen, RevealScreen)
        shown = screen_text(app)
        assert "B9" in shown and "G2" in shown and "Guilty" in shown
        assert "Ada drew 4 cards after the challenge." in log_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)

        # Play R5, then R7 with Enter (forgetting UNO): Ada catches us.
        await play_card(pilot, "R5")
        await play_card(pilot, "R7")
        log = log_text(app)
        assert "Ada caught you not calling UNO!" in log
        assert "You drew 2 cards for not calling UNO" in log
        assert len(app.view.hand) == 3

        # Play on by keys to the end of the round.
        await autoplay(pilot, until=RoundOverScreen)
        summary = screen_text(app)
        assert "won round 1!" in summary
        assert "Enter: next round" in summary
        winner = app.view.round_winner
        assert app.view.scores[winner] == app.view.round_points[1 - winner] > 0
        await pilot.press("enter")
        await settle(pilot)
        assert app.view.round_no == 2 and app.view.phase != "round_over"
        assert isinstance(app.screen, TableScreen)

        # And on to the end of the match (this deal: round 2 decides it).
        await autoplay(pilot, until=MatchOverScreen)
        final = screen_text(app)
        assert "won the match!" in final and "Final standings" in final
        assert app.view.phase == "match_over" and max(app.view.scores) >= 150


async def test_calling_uno_with_the_play_key_is_safe() -> None:
    rules = CLASSIC.with_(hand_size=3, target_score=1000)
    deck = deal_order(["R5 R7 G3", "B9 G2 Y1"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_card(pilot, "R5")
        await play_card(pilot, "R7", key="u")
        log = log_text(app)
        assert "You played red 7 (R7) and called UNO!" in log
        assert "caught" not in log
        assert app.view is not None and len(app.view.hand) == 1


async def test_catching_a_computer_player_by_key() -> None:
    rules = CLASSIC.with_(hand_size=2, target_score=1000)
    deck = deal_order(["R9 B2", "R5 G5"], "R1", dealer=0)
    # No grace: the catch grace binds people too (a catch before it ends is "too_early").
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot(["R5"])}, dealer=0, deck=deck, catch_grace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.view is not None and app.view.uno_open == 1
        text = screen_text(app)
        assert "catch (c)" in text and "UNO?" in text
        await pilot.press("c")
        await settle(pilot)
        assert "You caught Ada not calling UNO!" in log_text(app)
        assert app.view.counts[1] == 3


async def test_refused_intent_is_shown_and_changes_nothing() -> None:
    rules = CLASSIC.with_(hand_size=3)
    deck = deal_order(["B5 R7 G3", "B9 G2 Y1"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = app.view
        await play_card(pilot, "B5")
        assert app.view is before
        assert "You can't play that: B5 does not match R1 (red)." in screen_text(app)
        await pilot.press("k")  # not applicable now: nothing happens
        await settle(pilot)
        assert app.view is before


async def test_jump_in_while_a_bot_is_thinking() -> None:
    rules = CLASSIC.with_(hand_size=3, jump_in=True, target_score=1000)
    deck = deal_order(["G4 R5 Y1", "R5 B2 B3", "G7 G8 G9"], "R1", "G5", dealer=2)
    gate, thinking = threading.Event(), threading.Event()

    class SlowBot(ScriptedBot):
        def choose(self, view: SeatView) -> object:  # type: ignore[override]
            thinking.set()
            gate.wait(5)
            return super().choose(view)

    app = scripted_app(
        ["Me", "Ada", "Blaise"], rules, {1: ScriptedBot(["R5"]), 2: SlowBot()}, dealer=2, deck=deck
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Draw G5 (unplayable): it is kept for us at once (no settle here: it would wait for
        # Blaise's whole decision).  Ada plays R5, then Blaise thinks, held by the gate.
        await pilot.press("d")
        for _ in range(250):
            await pilot.pause(0.02)
            if app.view is not None and app.view.actor == 2 and app.view.top.text == "R5":
                break
        assert app.view is not None and app.view.actor == 2
        assert thinking.is_set() and not gate.is_set()  # Blaise thinks in a worker thread
        assert "G5" in [c.text for c in app.view.hand]  # kept without a key press
        assert "Jump in with R5 (j)" in screen_text(app)
        await pilot.press("j")
        gate.set()
        await settle(pilot)
        assert "You jumped in with red 5 (R5)!" in log_text(app)


async def test_a_whole_match_by_keys_then_rematch_and_quit() -> None:
    rules = CLASSIC.with_(target_score=200, hand_size=5)
    app = seeded_app(players=3, rules=rules, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        keys = await autoplay(pilot, until=MatchOverScreen)
        assert len(keys) > 10
        text = screen_text(app)
        assert "won the match!" in text
        assert "Final standings" in text and "Scores by round" in text
        assert "| " in text or "|" in text  # the chart's axis
        view = app.view
        assert view is not None and view.phase == "match_over"
        assert max(view.scores) >= 200
        assert view.round_no >= 1
        assert len(app.history) == view.round_no + 1
        await pilot.press("n")  # rematch
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.view is not None and app.view.round_no == 1 and app.view.phase != "match_over"
        await pilot.press("ctrl+q", "y")
    assert app.return_code == 0


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
async def test_ten_players_fit_and_survive_resizing(size: tuple[int, int]) -> None:
    app = seeded_app(players=10, rules=Rules.preset("giant"), seed=5)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        text = screen_text(app)
        for name in ("Ada", "Radia", "Ken"):
            assert name in text
        assert "Your hand" in text or "playable" in text
        for w, h in ((80, 24), (120, 40), (81, 25), size):
            await pilot.resize_terminal(w, h)
            await pilot.pause()
            assert "playable" in screen_text(app)


async def test_names_and_log_lines_render_as_literal_text() -> None:
    rules = CLASSIC.with_(hand_size=3, target_score=1000)
    deck = deal_order(["G4 B5 Y1", "R5 B2 B3", "R6 G8 G9"], "R1", dealer=2)
    names = ["[bold]Me[/bold]", "[@click=app.quit]Evil", "\x1b]0;pwned\x07Bob"]
    bots = {1: ScriptedBot(["R5"]), 2: ScriptedBot(["R6"])}
    app = scripted_app(names, rules, bots, dealer=2, deck=deck)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("k")  # every turn draw ends in a play or a keep
        await settle(pilot)
        text = screen_text(app)
        assert "[bold]Me[/bold]" in text
        assert "[@click=app.quit]Evil" in text
        assert "[@click=app.quit]Evil played red 5 (R5)." in text
        assert "]0;pwnedBob" in text
        assert "\x1b" not in text and "\x07" not in text
        # Clicking the would-be link does nothing: the app is still running.
        await pilot.click("#players")
        await pilot.pause()
        assert app.is_running


async def test_main_menu_enter_starts_a_solo_game_against_three(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("UNOTUI_CONFIG_DIR", str(tmp_path))
    from unotui.ui.app import UnoApp
    from unotui.ui.settings import Config, GameOptions

    app = UnoApp(Config(), GameOptions(delay=0, catch_grace=0, seed=2), menu=True, save_settings=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Play solo against three computer players" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.view is not None and app.view.players == 4


async def test_house_rules_screen_saves_name_and_rules(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("UNOTUI_CONFIG_DIR", str(tmp_path))
    from textual.widgets import Input

    from unotui.ui.app import UnoApp
    from unotui.ui.settings import Config, GameOptions, load_config

    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "down", "enter")  # "House rules and your name"
        await pilot.pause()
        assert "Your name" in screen_text(app)
        name = app.screen.query_one("#name", Input)
        name.value = ""
        name.focus()
        await pilot.press(*"Zoe", "tab")
        app.screen.query_one("#target_score", Input).value = "250"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Play solo" in screen_text(app)
    saved = load_config()
    assert saved.name == "Zoe"
    assert saved.rules.target_score == 250
    assert (tmp_path / "config.toml").exists()


async def test_swap_target_picker_then_colour() -> None:
    rules = Rules.preset("modern").with_(hand_size=3, custom_wilds=0, target_score=1000)
    deck = deal_order(["WX R5 G3", "B9 B2 Y1"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_card(pilot, "WX")
        from unotui.ui.screens.dialogs import TargetPicker

        assert isinstance(app.screen, TargetPicker)
        assert "Ada" in screen_text(app)
        await pilot.press("1")
        await settle(pilot)
        assert isinstance(app.screen, ColourPicker)
        await pilot.press("y")
        await settle(pilot)
        log = log_text(app)
        assert "You swapped hands with Ada." in log and "You named yellow." in log
        assert app.view is not None and sorted(c.text for c in app.view.hand[:3]) == ["B2", "B9", "Y1"]


async def test_custom_wild_discard_prompt_by_keys() -> None:
    rules = Rules.preset("giant").with_settings(
        {"custom": "all_to_three", "hand_size": "5", "target_score": "1000"}
    )
    deck = deal_order(["R5 G3 B4 Y7 G8", "WC B9 B2 Y1 R2"], "R1", dealer=0)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot(["WC", "colour B"])}, dealer=0, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = app.view
        assert view is not None and view.phase == "discard" and view.my_turn and view.discard_left == 2
        assert "Discard 2 more" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert "Discard 1 more" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert app.view is not None and len(app.view.hand) == 3
        # The hand shows sorted (R5 Y7 G3 G8 B4): Enter discards the first card twice.
        assert "You discarded R5." in log_text(app) and "You discarded Y7." in log_text(app)


async def test_a_round_ending_while_help_is_open_shows_its_summary_after() -> None:
    rules = CLASSIC.with_(hand_size=2, target_score=1000)
    deck = deal_order(["R5 R6", "B1 B7"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_card(pilot, "R5", key="u")
        await pilot.press("question_mark")
        await pilot.pause()
        from unotui.engine import Action
        from unotui.ui.screens.help import HelpScreen

        assert isinstance(app.screen, HelpScreen)
        app.send(Action.parse("R6"))  # the round ends behind the help screen
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, RoundOverScreen)


async def test_match_summary_back_to_the_menu() -> None:
    rules = CLASSIC.with_(hand_size=2, target_score=1)
    deck = deal_order(["R5 R6", "B1 B7"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_card(pilot, "R5", key="u")
        await play_card(pilot, "R6")
        assert isinstance(app.screen, MatchOverScreen)
        assert "You won the match!" in screen_text(app)
        await pilot.press("m")
        await pilot.pause()
        from unotui.ui.screens.menu import MenuScreen

        assert isinstance(app.screen, MenuScreen)
        assert app.controller is None
        await pilot.press("enter")  # and a new game starts from the menu
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)


async def test_acting_out_of_turn_is_refused_with_whose_turn_it_is() -> None:
    rules = CLASSIC.with_(hand_size=3, target_score=1000)
    deck = deal_order(["G4 R5 Y1", "R5 B2 B3", "G7 G8 G9"], "R1", "G5", dealer=2)
    gate, thinking = threading.Event(), threading.Event()

    class SlowBot(ScriptedBot):
        def choose(self, view: SeatView) -> object:  # type: ignore[override]
            thinking.set()
            gate.wait(5)
            return super().choose(view)

    app = scripted_app(["Me", "Ada", "Blaise"], rules, {1: SlowBot(), 2: ScriptedBot()}, dealer=2, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Draw G5 (unplayable): it is kept for us at once and our turn ends (no settle here:
        # it would wait for Ada's whole decision).  Ada thinks, held by the gate.
        await pilot.press("d")
        for _ in range(250):
            await pilot.pause(0.02)
            if app.view is not None and app.view.actor == 1:
                break
        assert app.view is not None and app.view.actor == 1
        assert thinking.is_set() and not gate.is_set()  # Ada thinks in a worker thread
        await pilot.press("enter")
        await pilot.pause()
        assert "It's not your turn: wait for Ada." in screen_text(app)
        gate.set()
        await settle(pilot)
        # Ada played: the line is stale (it stayed, under 'Your turn' or 'challenge (x)')
        assert app.view is not None and app.view.actor != 1
        assert "wait for Ada" not in screen_text(app)
