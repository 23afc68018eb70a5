"""The table's log: what happened, as sentences, and the lines that are not game events
(chat, someone joining or dropping).  Its own module, apart from the panels in
:mod:`unotui.ui.widgets`: it is a ``RichLog`` that keeps its sentences to wrap them
again, where the panels are ``Static`` text redrawn only when it changes.

Chat looks the same in every log that shows it (the table's, the waiting room's, the
lobby's): :func:`chat_line`, a marker column that tells chat from the game without
colour, and :meth:`SentenceLog.chat`, which does not show again the recent lines a host
sends after a rejoin that this log already shows.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any

from rich.console import RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.events import Resize
from textual.geometry import Region
from textual.reactive import var
from textual.strip import Strip
from textual.widgets import RichLog

from ..engine import EventKind, SeatView
from ..protocol import messages as m
from ..protocol.text import CHAT_RECENT, clean_chat
from .words import describe, display_name

__all__ = ["CHAT_MARK", "GameLog", "SentenceLog", "chat_line"]

#: the column that marks a chat line (a game event or a notice has none)
CHAT_MARK = "» "
#: what marks a line said before this connection came in (a host's recent lines)
EARLIER = "(earlier) "


def chat_line(line: m.ChatLine, *, table: bool = True) -> RenderableType:
    """A chat line as every log shows it: the marker in a column of its own (a long line's
    continuation wraps under the text, not under the marker), the name in bold, and for an
    earlier line (said before this connection came in) "(earlier)" and dim text.  At a
    ``table`` a line with no seat is a spectator's ("Eve (watching)"); in the lobby nobody
    has a seat.  The name and text came from another person: cleaned again here."""
    body = Text()
    if line.earlier:
        body.append(EARLIER, Style(italic=True))
    body.append(display_name(line.name), Style(bold=True))
    if table and line.seat is None:
        body.append(" (watching)")
    body.append(": " + clean_chat(line.text))
    if line.earlier:
        body.stylize(Style(dim=True))
    grid = Table.grid()
    grid.add_column(width=len(CHAT_MARK), no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row(Text(CHAT_MARK, Style(bold=True)), body)
    return grid


class SentenceLog(RichLog):
    """Sentences, newest at the bottom, wrapped to the pane's width (the table's log, the
    lobby's chat).

    ``RichLog`` renders a line once, at the width it has when written (and at least its
    ``min_width``, 78 by default): so the log sets ``min_width`` to 1, keeps the sentences
    it wrote (the last :attr:`KEEP`) and writes them again at the new width when the pane
    is resized, ending at the newest line.  Lines written before the pane had its width
    (a greeting) are rendered once, when it gets one: ``RichLog`` renders them
    then, at that width, so they are not written again for the same resize.  The vertical
    scrollbar's gutter is always reserved, so a scrollbar appearing never makes a line too
    wide.
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
        self._sentences: list[RenderableType] = []
        self._wrap_width = 0
        #: the chat lines shown last (seat, name, text), to know a host's recent lines again
        self._chat: deque[tuple[int | None, str, str]] = deque(maxlen=2 * CHAT_RECENT)
        #: while a run of earlier lines arrives: how many of each line it may still match
        self._matching: Counter[tuple[int | None, str, str]] | None = None

    def add(self, sentence: RenderableType) -> None:
        """Write ``sentence`` (and keep it, to wrap it again at another width).  Anything
        but an earlier chat line ends a run of them (see :meth:`chat`)."""
        self._matching = None
        self._write(sentence)

    def _write(self, sentence: RenderableType) -> None:
        self._sentences.append(sentence)
        if len(self._sentences) > self.KEEP:
            del self._sentences[: -self.KEEP]
        self.write(sentence)

    def chat(self, line: m.ChatLine, *, table: bool = True) -> bool:
        """Show a chat line (:func:`chat_line`); ``False``: not shown, an earlier line this
        log already shows.

        A host sends its recent lines, marked earlier, each time this connection comes in
        again: a run of them is matched against the lines shown before the run began (the
        same seat, name and text, each shown line matching once), and only the rest are
        written.  Any other line (a live one, a notice, a game event) ends the run; so do
        :meth:`end_run` and :meth:`restart`."""
        key = (line.seat, line.name, line.text)
        if line.earlier:
            if self._matching is None:
                self._matching = Counter(self._chat)
            if self._matching[key] > 0:
                self._matching[key] -= 1
                return False
        else:
            self._matching = None
        self._chat.append(key)
        self._write(chat_line(line, table=table))
        return True

    def end_run(self) -> None:
        """Something else arrived (a reconnection, a notice shown elsewhere): the next
        earlier line begins a new run (see :meth:`chat`)."""
        self._matching = None

    def restart(self) -> None:
        """Forget every sentence (a new game)."""
        self.clear()
        self._sentences.clear()
        self._chat.clear()
        self._matching = None

    def render_lines(self, crop: Region) -> list[Strip]:
        """Paint, first writing the sentences that came before the pane had a width.

        ``RichLog`` writes those when its first ``Resize`` is handled, which Textual does
        after the frame the pane was first laid out in: that frame showed an empty log (the
        table's first frame without its opening sentences) and the next one filled it.  The
        width is known here, in that first frame, so they are written at it now."""
        if not self._size_known and self.scrollable_content_region.width:
            self._size_known = True
            self._wrap_width = self.scrollable_content_region.width
            deferred, self._deferred_renders = self._deferred_renders, deque()
            for render in deferred:
                self.write(*render)
        return super().render_lines(crop)

    def on_resize(self, event: Resize) -> None:
        first = not self._size_known  # (the lines written so far are rendered just now)
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if width == self._wrap_width or not self._size_known:
            return
        self._wrap_width = width
        if self.lines and not first:
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
