"""The chat line says how long a line may be: the input takes the protocol's limit and no
more, and the dialog counts up to it and says when it is reached (a 600-character paste
was cut at the limit with no mark)."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.widgets import Input, Static

from unotui.protocol.text import CHAT_MAX
from unotui.ui.screens.chat import ChatScreen


class _One(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.said: list[str | None] = []

    def on_mount(self) -> None:
        self.push_screen(ChatScreen(), self.said.append)


async def test_the_chat_line_counts_to_its_limit_and_says_when_it_is_full() -> None:
    app = _One()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = app.screen.query_one("#chat-line", Input)
        count = app.screen.query_one("#chat-count", Static)
        assert str(count.render()) == f"0/{CHAT_MAX}"
        await pilot.press(*"hello")
        assert str(count.render()) == f"5/{CHAT_MAX}"
        line.post_message(events.Paste("x" * 600))  # a long paste, as a terminal sends one
        await pilot.pause()
        assert len(line.value) == CHAT_MAX
        assert str(count.render()).startswith(f"{CHAT_MAX}/{CHAT_MAX}: a line holds no more")
        await pilot.press("enter")
        await pilot.pause()
    assert app.said == ["hello" + "x" * (CHAT_MAX - 5)]
