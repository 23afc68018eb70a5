"""The table's panels: widgets that repaint only when their text changed.

Textual repaints a widget (renders every line again) on each ``update``, even of the same
text, and a move changes only a few of the table's panels: each panel draws its text and
hands it to :func:`put`, which updates the widget only when the text differs (and lays
out again only for a new height).
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

__all__ = ["Panel", "block", "put"]


def block(lines: list[Text]) -> Text:
    """Lines joined, cropped (never wrapped) to the widget's width."""
    out = Text("\n").join(lines)
    out.no_wrap = True
    out.overflow = "ellipsis"
    return out


class Panel(Static):
    """A table widget that repaints only when its text changed: Textual repaints (renders
    every line again) on each ``update``, even of the same text, and a move changes a few."""

    _shown: Text | None = None

    def watch_view(self) -> None:  # (the panels bound to the view, or to what derives from it)
        self.draw()

    def watch_shown(self) -> None:
        self.draw()

    def draw(self) -> None:
        """Draw what the panel shows (again at a new width)."""


def put(widget: Panel, content: Text, height: int | None = None) -> None:
    """Show ``content`` unless it shows already; lay out again only for a new height."""
    current = widget.styles.height
    if height is not None and (current is None or current.cells != height):
        widget.styles.height = height
        widget.update(content)
    elif content != widget._shown:
        widget.update(content, layout=False)
    widget._shown = content
