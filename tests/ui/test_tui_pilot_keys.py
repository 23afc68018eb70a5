"""Help, hints, the command palette and the themes, by key presses alone in Textual's
pilot (zero delays, seeded): the keys beside play (:mod:`tests.ui.test_tui_pilot` plays
whole games)."""

from __future__ import annotations

import pytest

from unotui.engine import Rules
from unotui.ui.screens.dialogs import ColourPicker
from unotui.ui.screens.table import TableScreen

from .test_tui_pilot import log_text
from .tui_support import (
    ScriptedBot,
    deal_order,
    picking_a_colour,
    screen_text,
    scripted_app,
    seeded_app,
    settle,
    showing,
    table,
    wild_in_hand_app,
)

CLASSIC = Rules.preset("classic")
pytestmark = pytest.mark.usefixtures("fast_keys")


async def test_help_shows_the_custom_wild_rule_and_keys() -> None:
    rules = Rules.preset("giant").with_settings({"custom": "extra_turn", "custom_text": "[red]sing[/red]"})
    app = seeded_app(players=3, rules=rules, seed=80)
    async with app.run_test(size=(100, 60)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ColourPicker)  # this deal starts with a wild
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        assert "you take another turn" in text
        assert '"[red]sing[/red]"' in text
        assert "Ctrl+Q" in text and "challenge / accept" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


async def test_hint_key_suggests_a_legal_action() -> None:
    rules = CLASSIC.with_(hand_size=3)
    deck = deal_order(["B5 R7 G3", "B9 G2 Y1"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert "Hint: play red 7 (R7)" in screen_text(app)
        assert app.view is not None and app.view.hand[table(app).cursor].text == "R7"


async def test_a_hint_to_call_uno_names_the_key_that_does() -> None:
    rules = CLASSIC.with_(hand_size=2)
    deck = deal_order(["R7 G3", "B9 G2"], "R1", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert "Hint: play red 7 (R7) and call UNO: press u." in screen_text(app)
        await pilot.press("u")
        await settle(pilot)
        assert app.view is not None and app.view.uno_called[0]


async def test_command_palette_offers_game_commands() -> None:
    rules = CLASSIC.with_(hand_size=3)
    # The draws are given: with other draws Ada keeps playing while the app shuts down.
    deck = deal_order(["B5 R7 G3", "B9 G2 Y1"], "R1", "G5 B5 G3 GS Y9 Y7", dealer=1)
    app = scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"draw a card")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert "You drew 1 card" in log_text(app)


async def test_ctrl_q_quits_from_a_dialog() -> None:
    app = wild_in_hand_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await picking_a_colour(pilot)
        await pilot.press("ctrl+q")  # a match is running: asked first; Ctrl+Q again is yes
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0


async def test_theme_key_cycles_and_saves(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("UNOTUI_CONFIG_DIR", str(tmp_path))
    from unotui.ui.settings import load_config

    app = seeded_app(players=3, seed=2)
    app.save_settings = True
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        seen = []
        for _ in range(3):
            await pilot.press("t")
            await pilot.pause()
            seen.append(app.palette)
            assert f"Theme: {app.palette}." in screen_text(app)
        assert seen == ["colourblind", "mono", "default"]
        assert app.theme == "textual-dark"
    assert load_config().theme == "default"


async def test_the_palette_offers_one_theme_list_that_restyles_cards_and_screen(
        tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Textual's own "Theme" picker (ansi-dark, nord, ...) set a theme the cards did not
    follow, beside the table's "Next theme": now the palette lists the app's themes only,
    and choosing one changes the cards' palette and Textual's theme together (and saves)."""
    monkeypatch.setenv("UNOTUI_CONFIG_DIR", str(tmp_path))
    from unotui.ui.settings import load_config

    app = seeded_app(players=3, seed=2)
    app.save_settings = True
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        themes = [t for t in titles if "theme" in t.lower()]
        assert themes == ["Theme: default (now)", "Theme: colourblind", "Theme: mono"]
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"theme: mono")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert app.palette == "mono" and app.theme == "unotui-mono"
        assert isinstance(app.screen, TableScreen) and app.screen.palette == "mono"
        assert "Theme: mono." in screen_text(app)
    assert load_config().theme == "mono"


async def test_a_hint_goes_when_its_moment_has_passed_and_other_messages_stay() -> None:
    """A hint is about one moment: once the game has moved on (a bot played, a new round
    was dealt) it is cleared rather than left on screen; a refusal or a note is not."""

    from unotui.engine import DRAW, Game, seat_view

    game = Game(["Me", "Ada"], CLASSIC, seed=5)
    me = game.actor
    screen = TableScreen(seat_view(game, me))

    app = showing(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen.show_hint(DRAW)
        await pilot.pause()
        assert "Hint: draw" in screen_text(app)
        screen.view = seat_view(game, me)  # the same moment again: the hint stays
        await pilot.pause()
        assert "Hint: draw" in screen_text(app)
        game.apply(me, DRAW)
        screen.view = seat_view(game, me)  # the game moved on
        await pilot.pause()
        assert "Hint:" not in screen_text(app)
        screen.say("You cannot draw now: a test says so.")
        if game.actor == me:
            game.apply(me, game.legal_actions(me)[-1])
        screen.view = seat_view(game, me)
        await pilot.pause()
        assert "a test says so" in screen_text(app)
