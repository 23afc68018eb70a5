"""The table's log: what happened, as sentences, and the lines that are not game events
(chat, someone joining or dropping).  Its own module, apart from the panels in
:mod:`unotui.ui.widgets`: it is a ``RichLog`` that keeps its sentences to wrap them
again, where the panels are ``Static`` text redrawn only when it changes.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.events import Resize
from textual.reactive import var
from textual.widgets import RichLog

from ..engine import EventKind, SeatView
from .words import describe, display_name

__all__ = ["GameLog", "SentenceLog"]


class SentenceLog(RichLog):
    """Sentences, newest at the bottom, wrapped to the pane's width (the table's log, the
    lobby's chat).

    ``RichLog`` renders a line once, at the width it has when written (and at least its
    ``min_width``, 78 by default): so the log sets ``min_width`` to 1, keeps the sentences
    it wrote (the last :attr:`KEEP`) and writes them again at the new width when the pane
    is resized, ending at the newest line; lines written before the pane had its width
    (a greeting) are wrapped again too.  The vertical scrollbar's gutter is always
    reserved, so a scrollbar appearing never makes a line too wide.
    """

    DEFAULT_CSS = """
    SentenceLog {
        overflow-x: hidden;
        scrollbar-gutter: stable;
    }
    """

    can_focus = False
    #: sentences kept to wrap again
    KEEP = 200

    def __init__(self, max_lines: int = 400, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, max_lines=max_lines, min_width=1, **kwargs)  # type: ignore[arg-type]
        self._sentences: list[Text] = []
        self._wrap_width = 0

    def add(self, sentence: Text) -> None:
        """Write ``sentence`` (and keep it, to wrap it again at another width)."""
        self._sentences.append(sentence)
        if len(self._sentences) > self.KEEP:
            del self._sentences[: -self.KEEP]
        self.write(sentence)

    def restart(self) -> None:
        """Forget every sentence (a new game)."""
        self.clear()
        self._sentences.clear()

    def on_resize(self, event: Resize) -> None:
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if width == self._wrap_width or not self._size_known:
            return
        self._wrap_width = width
        if self.lines:
            sentences = list(self._sentences)
            self.clear()
            for sentence in sentences:
                self.write(sentence, scroll_end=False)
            self._sentences = sentences
        self.scroll_end(animate=False, immediate=False, x_axis=False)


class GameLog(SentenceLog):
    """What happened at the table, as sentences (from the view's log), and the lines that
    are not game events (chat, someone joining or dropping: :meth:`add`)."""

    view: var[SeatView | None] = var(None, init=False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._written = 0
        self._key: tuple[str, ...] = ()

    def watch_view(self, view: SeatView | None) -> None:
        """Append the events of ``view`` not yet shown (or rewrite after a new game).

        Indices are absolute (``view.log_start`` on): a remote view keeps only the newest
        part of a long match's log, so the length of ``view.log`` says nothing by itself.
        """
        if view is None:
            return
        log, start_at = view.log, view.log_start
        end = start_at + len(log)
        if view.names != self._key or end < self._written:
            self.restart()
            self._written = 0
            self._key = view.names
        names = [display_name(n) for n in view.names]
        start = max(self._written, end - 200, start_at)
        for event in log[start - start_at :]:
            if event.kind == EventKind.DEALER:
                continue
            line = describe(event, names, view.seat)
            bold = event.kind in (EventKind.ROUND, EventKind.MATCH)
            self.add(Text(line, style=Style(bold=True) if bold else ""))
        self._written = end
