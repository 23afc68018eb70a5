"""The settings forms say what they are (issue 19 item 5).

The house rules screen named rules unlike the help (``Seven o``, ``Uno penalty``, ``Jump
in``), showed switches without on/off words, made the custom wild's effects be typed as
identifiers (``extra_turn+skip_next``), fitted about six fields at 80x24 and explained
none; the lobby's new-table form offered 0-9 computer players for a 4-seat table and had
no key bar.  Pilot tests through the screens, at 80x24 and 120x40.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Label, Select, SelectionList, Switch

from unotui.engine import Effect
from unotui.ui.app import UnoApp
from unotui.ui.rule_words import FIELDS, label
from unotui.ui.screens.create_table import CreateTableScreen
from unotui.ui.screens.help import rules_rows
from unotui.ui.screens.house_rules import HouseRulesScreen
from unotui.ui.settings import Config, GameOptions, load_config

from .tui_support import full_text

SIZES = [(80, 24), (120, 40)]


async def _open(app: UnoApp, pilot: object) -> HouseRulesScreen:
    await pilot.pause()  # type: ignore[attr-defined]
    await pilot.press("down", "down", "down", "enter")  # type: ignore[attr-defined]  # House rules
    await pilot.pause()  # type: ignore[attr-defined]
    assert isinstance(app.screen, HouseRulesScreen)
    return app.screen


@pytest.mark.parametrize("size", SIZES)
async def test_the_house_rules_fit_speak_the_helps_words_and_explain_the_focused_field(
        size: tuple[int, int]) -> None:
    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=size) as pilot:
        form = await _open(app, pilot)
        text = full_text(app)
        help_text = [name for name, _value in rules_rows(Config().rules)]
        for key in ("seven_o", "jump_in", "uno_penalty", "draw_to_match", "challenge", "no_bluffing"):
            assert label(key) in text and label(key) in help_text  # one name, here and in the help
        for wrong in ("Seven o", "Uno penalty", "Jump in"):
            assert wrong not in text
        # Every field down to the last switch is on the first screen at 80x24 (one row each).
        lines = text.splitlines()
        assert any(line.strip().startswith("Teams") for line in lines[: size[1] - 3])
        assert "Your name: What the table calls you" in text  # the focused field, explained
        await pilot.press("tab", "tab")  # to Players at the table
        await pilot.pause()
        assert f"Players at the table: {FIELDS['players'][1]}" in full_text(app)
        # A switch says on or off, and follows a toggle.
        switch = form.query_one("#seven_o", Switch)
        state = form.query_one("#seven_o-state", Label)
        assert str(state.render()) == "off"
        switch.focus()
        await pilot.pause()
        assert "Seven-O: A 7 swaps hands" in full_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert switch.value and str(state.render()) == "on"


async def test_the_custom_wilds_effects_are_chosen_from_their_words_in_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOTUI_CONFIG_DIR", str(tmp_path))
    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=(80, 24)) as pilot:
        form = await _open(app, pilot)
        effects = form.query_one("#custom", SelectionList)
        assert not any(isinstance(w, Input) and w.id == "custom" for w in form.query(Input))  # no typing
        assert Effect.EXTRA_TURN.words in full_text(app) or effects.option_count == len(Effect)
        effects.focus()
        await pilot.pause()
        order = [e.value for e in Effect]
        for wanted in (Effect.SKIP_NEXT, Effect.EXTRA_TURN):  # skip first, then the extra turn
            effects.highlighted = order.index(wanted.value)
            await pilot.press("space")
            await pilot.pause()
        state = str(form.query_one("#custom-state", Label).render())
        assert state == (f"Chosen, in order: {Effect.SKIP_NEXT.words}; "
                         f"then {Effect.EXTRA_TURN.words}")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, HouseRulesScreen)
    assert [e.value for e in load_config().rules.custom.effects] == ["skip_next", "extra_turn"]


async def test_saved_effects_come_back_selected_in_their_order(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOTUI_CONFIG_DIR", str(tmp_path))
    config = Config()
    config = config.with_(rules=config.rules.with_settings({"custom": "next_draws_two+extra_turn"}))
    app = UnoApp(config, GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=(80, 24)) as pilot:
        form = await _open(app, pilot)
        assert form.query_one("#custom", SelectionList).selected == ["next_draws_two", "extra_turn"]


@pytest.mark.parametrize("size", SIZES)
async def test_the_new_table_form_offers_the_computer_players_its_seats_leave_and_has_a_key_bar(
        size: tuple[int, int]) -> None:
    from textual.app import App

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(CreateTableScreen("Ann's table"))

    app = Host()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        form = app.screen
        assert isinstance(form, CreateTableScreen)
        bots = form.query_one("#bots", Select)
        assert [v for _t, v in bots._options] == [0, 1, 2, 3]  # 4 seats: one is the creator's
        form.query_one("#seats", Select).value = 2
        await pilot.pause()
        assert [v for _t, v in bots._options] == [0, 1] and bots.value == 1  # 2 lowered to fit
        text = full_text(app)
        assert "^s Create" in text and "esc Back" in text  # the key bar
        assert "Seven-O" in text and "Draw until playable" in text  # the help's words
        assert "Table name" in text and "Your name" not in text
        assert "Table name: What the lobby's list calls the table." in text  # explained by its row
        form.query_one("#bots", Select).focus()
        await pilot.pause()
        assert f"Computer players: {FIELDS['bots_count'][1]}" in full_text(app)


async def test_the_helps_wrapped_lines_keep_their_column_at_80x24() -> None:
    """A key's long meaning wraps under the meanings, not under the keys."""
    from unotui.ui.screens.help import HelpScreen

    app = UnoApp(Config(), GameOptions(delay=0), menu=True, save_settings=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(HelpScreen(Config().rules))
        await pilot.pause()
        await pilot.press("end")  # the keys, at the end
        await pilot.pause()
        rows = full_text(app).splitlines()
        meaning = next(r for r in rows if r.strip().startswith("k ")).index("keep the card")
        continued = [r for r in rows if r.strip() and not r[:meaning].strip() and "^q" not in r]
        assert continued, "some meaning wraps at 80 columns"
        assert all(r[meaning] != " " for r in continued)  # each continuation starts in the column
