"""The table's panels: widgets that repaint only when their text changed.

Textual repaints a widget (renders every line again) on each ``update``, even of the same
text, and a move changes only a few of the table's panels: each panel draws its text and
hands it to :func:`put`, which updates the widget only when the text differs (and lays
out again only for a new height).

What a panel shows depends on its width (how much of a name fits, how cards overlap), and
its width is known only once the screen is laid out, which happens just before the screen
is first painted.  So a panel draws again when Textual first renders it at a width it has
not drawn at: the screen's first frame is the finished table, not an empty one redrawn a
moment later (one full paint less at start-up), and a new width needs no resize handler.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import RenderResult
from textual.visual import VisualType
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
    #: the width the shown text was drawn at (0: before the first layout)
    _drawn_at = -1
    #: drawing from :meth:`render`: the text is returned, not updated (which would repaint)
    _rendering = False

    def watch_view(self) -> None:  # (the panels bound to the view, or to what derives from it)
        self.draw()

    def watch_shown(self) -> None:
        self.draw()

    def draw(self) -> None:
        """Draw what the panel shows (again at a new width)."""

    def render(self) -> RenderResult:
        width = self.size.width
        if width and width != self._drawn_at:  # laid out at a width not drawn at
            self._rendering = True
            try:
                self._drawn_at = width
                self.draw()
            finally:
                self._rendering = False
        return self._shown if self._shown is not None else super().render()

    @property
    def content(self) -> VisualType:
        """What the panel shows now."""
        return self._shown if self._shown is not None else super().content

    @content.setter
    def content(self, content: VisualType) -> None:
        self._shown = None
        self.update(content)


def put(widget: Panel, content: Text, height: int | None = None) -> None:
    """Show ``content`` unless it shows already; lay out again only for a new height."""
    widget._drawn_at = widget.size.width
    current = widget.styles.height
    new_height = height is not None and (current is None or current.cells != height)
    if new_height:
        widget.styles.height = height  # (a layout: from render too, as the text is new)
    if widget._rendering:  # being rendered: the text is what render returns
        widget._shown = content
        return
    if new_height:
        widget.update(content)
    elif content != widget._shown:
        widget.update(content, layout=False)
    widget._shown = content
