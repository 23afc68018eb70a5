"""The review screen: step through a match as one seat saw it, with what each decision
cost in chance of winning the round.

The analysis runs in a worker thread through a :class:`~unotui.ui.review_job.ReviewJob`
(it may take half a minute; the event loop never waits for it): meanwhile the screen
already steps through the match and shows a progress bar; the estimates appear when it
is done.  A refusal or an error shows its sentence and the screen stays usable without
estimates.  The default view is the seat's own (what the analysis used); ``h`` adds the
other hands, labelled HINDSIGHT.
"""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static

from ...transcript import Transcript
from ..review_job import ReviewJob, ReviewRefused
from ..review_model import Moment, ReviewModel, costliest, curve, first_seat, rounds
from ..review_panels import (
    chance_plot,
    hindsight_text,
    log_lines,
    move_text,
    options_text,
    summary_text,
    table_text,
)
from ..words import display_name

__all__ = ["ReviewScreen"]

WIDE = 110
"""At this width and wider the table and the estimates sit side by side."""


class _Left(Exception):
    """Raised in the job's progress callback once the screen is gone: the job stops."""


class ReviewScreen(Screen[None]):
    """One seat's decisions over a match, the estimates once the job is done."""

    CSS_PATH = "review.tcss"
    # (Left/Right/Home/End take priority over the scrolling body's own bindings of them:
    # they step through the match; Up/Down and the page keys still scroll.)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "Next", priority=True),
        Binding("left", "step(-1)", "Prev", show=False, priority=True),
        Binding("right_square_bracket", "round(1)", "Round"),
        Binding("left_square_bracket", "round(-1)", "Prev round", show=False),
        Binding("m", "mistake(1)", "Mistake"),
        Binding("M", "mistake(-1)", "Prev mistake", show=False),
        Binding("1", "costliest(0)", "Costliest", show=False),
        Binding("2", "costliest(1)", show=False),
        Binding("3", "costliest(2)", show=False),
        Binding("home", "jump(0)", "First", show=False, priority=True),
        Binding("end", "jump(-1)", "Last", show=False, priority=True),
        Binding("s", "seat", "Seat"),
        Binding("t", "summary", "Summary"),
        Binding("h", "hindsight", "Hindsight"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, transcript: Transcript, seat: int | None, job: ReviewJob, palette: str = "default",
                 text: str | None = None) -> None:
        """``text``: the transcript as the job is to read it (its saved file's text, so
        that a cache keyed by that text is found); by default it is written anew.

        Raises:
            TranscriptError: the transcript cannot be replayed.
        """
        super().__init__()
        self.model = ReviewModel.of(transcript)
        self.job = job
        self.palette = palette
        self.text = text
        self.seat = first_seat(transcript.players) if seat is None else seat % self.model.players
        self.index = 0
        self.show_summary = False
        self.show_hindsight = False
        self.status = "Analysing the match..."
        self.failed = ""
        self.progress = (0, 0)
        self._moments: list[Moment] = self.model.moments(self.seat)

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="review-head")
        with Horizontal(id="review-status"):
            yield Static(id="review-said")
            yield ProgressBar(total=None, show_eta=False, id="review-progress")
        with VerticalScroll(id="review-body"):
            with Horizontal(id="review-panels"):
                # The decision first (at 80 columns the columns stack: what was played
                # and the options come before the context), then the context and the curve.
                with Vertical(id="review-left"):
                    yield Static(id="review-table")
                    yield Static(id="review-move")
                    yield Static(id="review-options")
                with Vertical(id="review-right"):
                    yield Static(id="review-hindsight")
                    yield Static(id="review-log")
                    yield Static(id="review-plot")
            yield Static(id="review-summary")
        # (no palette entry: at 80 columns it cut off the last key, Escape; Ctrl+P still opens it)
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self._wide(self.app.size.width)
        self.refresh_panels()
        self.run_worker(self._analyse, thread=True, exclusive=True, group="review")

    def on_resize(self, event: Resize) -> None:
        self._wide(event.size.width)
        self.refresh_panels()

    def _wide(self, width: int) -> None:
        self.set_class(width >= WIDE, "wide")

    # -- the analysis ------------------------------------------------------------------

    def _analyse(self) -> None:
        """(In a worker thread.)  Run the job; hand its result or its sentence back."""
        import json

        text = self.text if self.text is not None else json.dumps(self.model.transcript.to_mapping())
        try:
            result = self.job.run(text, self._progress_from_thread)
        except _Left:
            return
        except ReviewRefused as exc:
            self._hand_back(self._failed, str(exc))
            return
        except Exception as exc:  # (any failure is shown; the screen stays usable)
            self._hand_back(self._failed, f"The analysis failed: {exc}")
            return
        self._hand_back(self._done, result)

    def _hand_back(self, call: Any, *args: Any) -> None:
        """Run ``call`` on the event loop, unless the app has stopped meanwhile."""
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(call, *args)

    def _progress_from_thread(self, done: int, total: int) -> None:
        if not self.is_attached:  # the screen was left: stop the analysis (a local job
            raise _Left           # drops the decisions not yet started)
        self._hand_back(self._progressed, done, total)

    def _progressed(self, done: int, total: int) -> None:
        if self.model.result is not None or self.failed or not self.is_mounted:
            return
        self.progress = (done, total)
        bar = self.query_one("#review-progress", ProgressBar)
        bar.update(total=max(1, total), progress=done)
        self.status = f"Analysing: {done}/{total} decisions"
        self._head()

    def _done(self, result: dict[str, Any]) -> None:
        if not self.is_mounted:
            return
        self.model.with_review(result)
        self._moments = self.model.moments(self.seat)
        self.status = ""
        self.query_one("#review-progress", ProgressBar).display = False
        self.refresh_panels()

    def _failed(self, sentence: str) -> None:
        if not self.is_mounted:
            return
        self.failed = sentence
        self.status = ""
        self.query_one("#review-progress", ProgressBar).display = False
        self.refresh_panels()

    # -- what is shown -----------------------------------------------------------------

    @property
    def moment(self) -> Moment | None:
        """The decision shown (``None``: the seat made none)."""
        return self._moments[self.index] if self._moments else None

    def _head(self) -> None:
        names = self.model.transcript.players
        who = display_name(names[self.seat])
        count = len(self._moments)
        head = Text(f"Review: {who}", Style(bold=True))
        m = self.moment
        if self.show_summary:
            head.append("   summary (t: back to the decisions)")
        elif m is not None:
            head.append(f"   decision {m.index + 1}/{count}   round {m.round}")
        else:
            head.append("   made no decisions")
        self.query_one("#review-head", Static).update(head)
        said = Text()
        if self.failed:
            said.append(f"{self.failed} Stepping through still works, without estimates.",
                        Style(bold=True, color="red"))
        elif self.status:
            said.append(self.status, Style(italic=True))
        self.query_one("#review-said", Static).update(said)
        self.query_one("#review-status").display = bool(self.failed or self.status)

    def refresh_panels(self) -> None:
        """Redraw every panel for the current seat, decision and view."""
        if not self.is_mounted:
            return
        self._head()
        width = self.app.size.width
        # The cells a panel has: the body's padding and scroll bar off (two columns and
        # the gap between them when wide).
        half = (width - 6) // 2 - 1 if width >= WIDE else width - 4
        m = self.moment
        summary = self.query_one("#review-summary", Static)
        self.query_one("#review-panels").display = not self.show_summary
        summary.display = self.show_summary
        if self.show_summary:
            summary.update(self._summary(width - 4))
            return
        hind = self.query_one("#review-hindsight", Static)
        if m is None:
            for name in ("table", "log", "move", "options", "plot"):
                self.query_one(f"#review-{name}", Static).update("")
            hind.display = False
            return
        self.query_one("#review-table", Static).update(table_text(m, self.palette))
        hind.display = self.show_hindsight
        if self.show_hindsight:
            hind.update(hindsight_text(m, self.model.hindsight(m.step), self.palette))
        waiting = self.model.result is None and not self.failed
        self.query_one("#review-move", Static).update(move_text(m, waiting))
        self.query_one("#review-options", Static).update(options_text(m.options, half))
        self.query_one("#review-plot", Static).update(self._plot(half))
        rows = 3 if self.app.size.height < 30 else 8
        self.query_one("#review-log", Static).update(log_lines(m.view, rows))

    def _plot(self, width: int) -> Group | Text:
        values = curve(self._moments)
        if not any(v is not None for v in values):
            return Text("")
        height = 4 if self.app.size.height < 30 else 8
        title = Text("Chance of winning the round, move by move", Style(bold=True))
        return Group(title, *chance_plot(values, self.index, width, height))

    def _summary(self, width: int) -> Group | Text:
        if self.model.result is None:
            reason = self.failed or "The summary appears when the analysis is done."
            return Text(reason, Style(italic=True))
        players = list(self.model.transcript.players)
        summaries = list(self.model.result.get("summary", ()))
        top = {self.seat: [self._moments[i] for i in self._costliest()]}
        return Group(summary_text(players, summaries, top, self.seat), Text(""), self._plot(width))

    def _costliest(self) -> list[int]:
        return costliest(self._moments, self.model.summary(self.seat))

    # -- keys --------------------------------------------------------------------------

    def _go(self, index: int) -> None:
        if self._moments:
            self.index = max(0, min(len(self._moments) - 1, index))
            self.show_summary = False
            self.refresh_panels()

    def action_step(self, delta: int) -> None:
        """Next (1) or previous (-1) decision."""
        self._go(self.index + delta)

    def action_jump(self, index: int) -> None:
        """The first (0) or last (-1) decision."""
        self._go(index if index >= 0 else len(self._moments) - 1)

    def action_round(self, delta: int) -> None:
        """The first decision of the next (1) or previous (-1) round (the previous one from
        inside a round goes to that round's start)."""
        starts = rounds(self._moments)
        if delta > 0:
            later = [i for i in starts if i > self.index]
            target = later[0] if later else self.index
        else:
            earlier = [i for i in starts if i < self.index]
            target = earlier[-1] if earlier else 0
        self._go(target)

    def action_mistake(self, delta: int) -> None:
        """The next (1) or previous (-1) inaccuracy or worse, in match order."""
        if self.model.result is None:
            self.notify("The mistakes are known when the analysis is done.", markup=False)
            return
        marked = [m.index for m in self._moments if m.costly]
        ahead = [i for i in marked if i > self.index] if delta > 0 else [i for i in marked if i < self.index]
        if not ahead:
            self.notify("No more mistakes that way." if marked else "No mistakes: well played.", markup=False)
            return
        self._go(ahead[0] if delta > 0 else ahead[-1])

    def action_costliest(self, rank: int) -> None:
        """The seat's costliest (0), second (1) or third (2) costliest moment."""
        top = self._costliest()
        if rank < len(top):
            self._go(top[rank])
        elif self.model.result is None:
            self.notify("The costliest moments are known when the analysis is done.", markup=False)
        else:
            self.notify("There is no such moment: fewer moves cost anything.", markup=False)

    def action_seat(self) -> None:
        """Review the next seat (its first decision)."""
        self.seat = (self.seat + 1) % self.model.players
        self._moments = self.model.moments(self.seat)
        self.index = 0
        self.refresh_panels()

    def action_summary(self) -> None:
        """The per-seat summary, or back to the decision."""
        self.show_summary = not self.show_summary
        self.refresh_panels()

    def action_hindsight(self) -> None:
        """Show or hide the other hands at this moment (HINDSIGHT)."""
        self.show_hindsight = not self.show_hindsight
        if self.show_summary:
            self.show_summary = False
        self.refresh_panels()
        if self.show_hindsight:  # (below the fold at 80x24)
            self.call_after_refresh(self.query_one("#review-hindsight").scroll_visible, animate=False)

    def action_help(self) -> None:
        """The review's keys and the match's rules."""
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(self.model.transcript.rules, review=True))

    def action_back(self) -> None:
        """Leave the summary view; else leave the screen (the app, when it is the first)."""
        if self.show_summary:
            self.show_summary = False
            self.refresh_panels()
        elif len(self.app.screen_stack) > 2:
            self.dismiss(None)
        else:
            self.app.exit()
