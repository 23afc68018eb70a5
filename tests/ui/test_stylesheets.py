"""The first screens' stylesheets (the table's, the menu's) are read with the app's, in
Textual's one parse at start-up: showing the table does not make Textual parse the whole
stylesheet again (which it does for a screen whose CSS_PATH it has not read)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.css.stylesheet import Stylesheet

from tests.ui.tui_support import seeded_app, settle
from unotui.ui.app import UnoApp
from unotui.ui.screens.help import HelpScreen
from unotui.ui.screens.menu import MenuScreen
from unotui.ui.screens.table import TableScreen

UI = Path(__file__).resolve().parents[2] / "unotui" / "ui"


def test_the_app_reads_the_first_screens_stylesheets() -> None:
    listed = {str((UI / p).resolve()) for p in UnoApp.CSS_PATH}
    first = {str((UI / "screens" / p).resolve()) for p in (TableScreen.CSS_PATH, MenuScreen.CSS_PATH)}
    assert first | {str(UI / "app.tcss")} == listed


@pytest.mark.asyncio
async def test_the_table_opens_without_parsing_the_stylesheet_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parses: list[int] = []
    real = Stylesheet.reparse

    def counted(self: Stylesheet) -> None:
        parses.append(1)
        real(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = seeded_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert parses == []
        await pilot.press("question_mark")  # a later screen's sheet: read when it opens
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert parses == [1]
