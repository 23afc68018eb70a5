"""The table's key bar: the keys that do something now, in one line."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.reactive import var

from .panel import Panel, block, put

__all__ = ["KeyBar"]


_KEY_NAMES = {"enter": "Enter", "space": "Space", "question_mark": "?", "exclamation_mark": "!"}


class KeyBar(Panel):
    """The keys that do something now, in one line (a light footer for the table).

    The bar always fits its width and always ends with the Quit key (``quit_label`` says
    what it does: "Quit", or "Quit SSH" where Ctrl+Q ends an SSH session): when the keys
    that apply do not fit, the least needed ones (ranked by the caller) are left out first.
    """

    def __init__(self, *, quit_label: str = "Quit", id: str | None = None) -> None:
        super().__init__(id=id)
        self.quit_label = quit_label

    #: the (key, description, rank) triples that apply now (bound to the table's)
    keys: var[tuple[tuple[str, str, int], ...]] = var((), init=False)

    def watch_keys(self) -> None:
        self.draw()

    def draw(self) -> None:
        """Draw the keys (again at a new width)."""
        self.show(self.keys)

    def show(self, bindings: Sequence[tuple[str, str, int]]) -> None:
        """Draw (key, description, rank) triples, then the palette and quit keys.

        ``rank`` 0 means "always shown"; higher ranks are left out first when space is short.
        """
        entries = [*bindings, ("^P", "Palette", 1), ("^Q", self.quit_label, 0)]
        width = self.size.width or 80

        def length(items: Sequence[tuple[str, str, int]]) -> int:
            return sum(len(key) + len(what) + 4 for key, what, _ in items)

        for rank in sorted({r for _, _, r in entries if r}, reverse=True):
            if length(entries) <= width:
                break
            entries = [e for e in entries if e[2] != rank]
        bar = Text()
        for key, what, _ in entries:
            bar.append(f" {key} ", Style(bold=True, reverse=True))
            bar.append(f" {what} ")
        put(self, block([bar]))

    @staticmethod
    def key_name(keys: str, display: str | None) -> str:
        """How a binding's keys are written in the bar."""
        if display:
            return display
        first = keys.split(",")[0]
        return _KEY_NAMES.get(first, first)
