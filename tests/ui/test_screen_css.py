"""Each screen's stylesheet styles that screen only, and opening one parses only it
(unotui.ui.screen_css).

Before: Textual read a screen's ``CSS_PATH`` unscoped, so once the table had opened its
``#keys`` and ``#hand`` rules styled any widget with those ids on any screen (the house
rules form lost its rows that way), and every first opening of a screen parsed all of
the app's CSS again from scratch."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen
from textual.widgets import Static

from tests.ui.tui_support import seeded_app, table
from unotui.ui.screens.table import TableScreen


class Other(Screen[None]):
    """A screen with the table's ids on it."""

    def compose(self) -> ComposeResult:
        yield Static("hand", id="hand")
        yield Static("keys", id="keys")


async def test_the_tables_rules_do_not_style_another_screen() -> None:
    app = seeded_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        at_table = table(app)
        assert at_table.query_one("#hand").styles.height is not None
        assert at_table.query_one("#hand").styles.height.value == 4  # table.tcss: #hand { height: 4 }
        other = Other()
        await app.push_screen(other)
        await pilot.pause()
        hand, keys = other.query_one("#hand"), other.query_one("#keys")
        assert hand.outer_size.height == 1, "the table's #hand rule reached another screen"
        assert keys.styles.background != at_table.query_one("#keys").styles.background


async def test_opening_a_screen_does_not_parse_the_whole_stylesheet_again(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    reparsed: list[int] = []
    original = Stylesheet.reparse

    def counting(self: Stylesheet) -> None:
        reparsed.append(1)
        original(self)

    monkeypatch.setattr(Stylesheet, "reparse", counting)
    app = seeded_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        before = len(reparsed)  # (the theme set at mount re-parses: new colours)
        await pilot.press("question_mark")  # the help: a sheet of its own, first opened here
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        assert len(reparsed) == before
        keys = {key for key, _source in app.stylesheet.source.items()}
        assert any(path.endswith("help.tcss") and scope == "HelpScreen:scoped" for path, scope in keys)
