"""The chat line: a one-line dialog over the table, for games with other people.

What is typed goes up to the app as text; the host cleans it, relays it, and every
screen shows it as plain text in the log (never markup: ``[@click=app.quit]`` is just
text).  Enter sends, Escape closes without sending.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...protocol.text import CHAT_MAX

__all__ = ["AskScreen", "ChatInput", "ChatScreen", "CodeScreen", "chat_count"]


def chat_count(length: int) -> str:
    """How much of a chat line is used, as the dialog says it under the line (the
    protocol's limit, :data:`~unotui.protocol.text.CHAT_MAX`: the input takes no more, a
    longer paste is cut, and at the limit the line says so)."""
    if length >= CHAT_MAX:
        return f"{CHAT_MAX}/{CHAT_MAX}: a line holds no more (the rest was left out)"
    return f"{length}/{CHAT_MAX}"


class ChatInput(Input):
    """The chat line's input: a paste longer than the room left is cut to fit (Textual's
    input refuses a too-long insertion whole, so a long paste vanished without a word),
    and the count under the line says the limit was reached."""

    def insert_text_at_cursor(self, text: str) -> None:
        super().insert_text_at_cursor(text[: max(0, CHAT_MAX - len(self.value))])


class ChatScreen(ModalScreen[str | None]):
    """Type one line to the table; dismissed with the text, or ``None``."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    def __init__(self, prompt: str = "Say to the table") -> None:
        super().__init__()
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(f"{self.prompt} (Enter: send, Escape: close)", Style(bold=True)))
            yield ChatInput(placeholder="a line of chat", max_length=CHAT_MAX, id="chat-line")
            yield Static(Text(chat_count(0), Style(dim=True)), id="chat-count")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        full = len(event.value) >= CHAT_MAX
        style = Style(color="yellow", bold=True) if full else Style(dim=True)
        self.query_one("#chat-count", Static).update(Text(chat_count(len(event.value)), style))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(text or None)

    def action_close(self) -> None:
        """Close without sending."""
        self.dismiss(None)


class AskScreen(ModalScreen[str | None]):
    """Ask for one line (an address, a code); dismissed with it, or ``None`` on Escape."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]
    TITLE_TEXT = ""
    HINT = ""
    PLACEHOLDER = ""
    MAX_LENGTH = 100
    RESTRICT: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.TITLE_TEXT, Style(bold=True)))
            yield Static(Text(self.HINT))
            yield Input(placeholder=self.PLACEHOLDER, max_length=self.MAX_LENGTH, restrict=self.RESTRICT,
                        id="answer")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_close(self) -> None:
        """Back, without an answer."""
        self.dismiss(None)


class CodeScreen(AskScreen):
    """Ask for a table's code (a private table is joined by code only)."""

    TITLE_TEXT = "Join a table by its code"
    HINT = "The code its creator sees, e.g. K7QMX (Enter: join, Escape: back)"
    PLACEHOLDER = "CODE"
    MAX_LENGTH = 12
    RESTRICT = r"[A-Za-z0-9]*"
