"""End of a round and end of the match: who won, what each player scored, the totals.

Both are dialogs over the table (``ModalScreen``): the last card played stays visible
around them.  The score rows (every seat's running total after each round, the first
row the start) are an argument, not read from the app, so the source can change (the
app's history today, the view's own history once the engine provides it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from ...engine import SeatView, Verdict
from ..chart import chart_legend, score_chart
from ..match_review import saved_game
from ..render import card_style
from ..words import display_name, verdict_text

if TYPE_CHECKING:
    from pathlib import Path

    from ...net.controller import RecordArrived, RecordRefused
    from ...transcript import Transcript

__all__ = [
    "MatchOverHook",
    "MatchOverScreen",
    "RoundOverScreen",
    "celebration",
    "matches_dir",
    "round_scored",
    "round_table",
    "shuffle_line",
    "standings",
]

ScoreRows = Sequence[Sequence[int]]


def _name(view: SeatView, seat: int) -> str:
    name = display_name(view.names[seat])
    if seat != view.seat or name.casefold() == "you":
        return name
    return f"{name} (you)"


def round_scored(view: SeatView, rows: ScoreRows = ()) -> list[int]:
    """What each seat scored in the round just over.

    From the score rows when they reach back to the round's start (``rows[r]`` is the
    totals after round ``r``); otherwise worked out from the scoring rule, as the engine
    scores: standard gives the winner's side every other hand's points, the tally modes
    add to each side the points its own hands held.
    """
    r = view.round_no
    if 0 < r < len(rows) + 1 and len(rows[r - 1]) == view.players:
        return [now - before for now, before in zip(view.scores, rows[r - 1], strict=True)]
    held, teams = view.round_points, view.teams
    playing = [s for s in range(view.players) if view.counts[s] or s == view.round_winner]
    if view.rules.scoring.value == "standard":
        w = view.round_winner
        if w < 0:
            return [0] * view.players
        gained = sum(held[s] for s in playing if teams[s] != teams[w])
        return [gained if teams[s] == teams[w] else 0 for s in range(view.players)]
    return [
        sum(held[t] for t in playing if teams[t] == teams[s]) if s in playing else 0
        for s in range(view.players)
    ]


def round_table(view: SeatView, palette: str, rows: ScoreRows = ()) -> Table:
    """Each seat: what it scored this round, the points left in its hand, its total and
    the cards it was left holding (they wrap within their own column, never under the
    names)."""
    scored = round_scored(view, rows)
    table = Table(box=None, show_edge=False, pad_edge=False, expand=False, padding=(0, 1))
    table.add_column("player", no_wrap=True, max_width=28, style=Style())
    table.add_column("scored", justify="right", no_wrap=True)
    table.add_column("in hand", justify="right", no_wrap=True)
    table.add_column("total", justify="right", no_wrap=True)
    table.add_column("cards left", ratio=1, min_width=12)
    for s in range(view.players):
        cards = Text()
        for c in view.face_up.get(s, ()):
            # No space before a card inside its colour: lines break only between cards.
            cards.append(c.text.ljust(3), card_style(c, palette))
            cards.append(" ")
        if s == view.round_winner:
            cards.append("went out", Style(bold=True))
        mine = s == view.seat
        table.add_row(
            Text(_name(view, s), Style(bold=mine)),
            Text(f"+{scored[s]}" if scored[s] else "0", Style(bold=scored[s] > 0), justify="right"),
            Text(str(view.round_points[s]), justify="right"),
            Text(str(view.scores[s]), justify="right"),
            cards,
        )
    return table


def _won(view: SeatView, seat: int) -> bool:
    """Whether ``seat``'s win is the viewer's (the viewer or the viewer's partner)."""
    if seat < 0 or view.seat is None or not 0 <= view.seat < view.players:
        return False
    return seat == view.seat or (view.rules.teams and view.teams[seat] == view.teams[view.seat])


_ROUND_ART = r"""
 \o/  *   .   *   .   *  \o/
  |    Y O U   W O N !    |
 / \  *   .   *   .   *  / \
"""

_MATCH_ART = r"""
 |\___/|   *   .   *   .   *   .   *
  \   /     C H A M P I O N !
   ) (     *   .   *   .   *   .   *
  /___\
"""


def celebration(view: SeatView, match: bool, small: bool = False) -> Text | None:
    """A little text art when the viewer (or the viewer's team) won; None otherwise
    (one line when ``small``, for short terminals)."""
    seat = view.winner if match else view.round_winner
    if not _won(view, seat):
        return None
    if small:
        art = r"\o/  C H A M P I O N !  \o/" if match else r"\o/  Y O U   W O N !  \o/"
    else:
        art = (_MATCH_ART if match else _ROUND_ART).strip("\n")
    return Text(art, Style(bold=True), no_wrap=True, overflow="crop")


def standings(view: SeatView) -> list[tuple[int, int]]:
    """(place, seat) from first place to last: the winner first, then by points; equal
    points share a place (the lobby ranks them so too), in seat order, the viewer's seat
    taking no precedence."""
    lowest = view.rules.scoring.value == "lowest"
    order = sorted(
        range(view.players),
        key=lambda s: (s != view.winner, view.scores[s] if lowest else -view.scores[s], s),
    )
    places: list[tuple[int, int]] = []
    for i, seat in enumerate(order):
        before = places[-1] if places else None  # (the winner shares the first place with nobody)
        tied = before is not None and before[1] != view.winner and view.scores[seat] == view.scores[before[1]]
        places.append((before[0] if before is not None and tied else i + 1, seat))
    return places


def _headline(view: SeatView) -> str:
    w = view.round_winner
    if w < 0:
        return f"Round {view.round_no} is over."
    who = "You" if w == view.seat else display_name(view.names[w])
    return f"{who} won round {view.round_no}!"


def shuffle_line(verdict: Verdict | None) -> Text:
    """The round's shuffle check: a quiet mark when verified (or not checked), to go at
    the end of a line already there; a loud line of its own on a mismatch."""
    text, alarm = verdict_text(verdict)
    if alarm:
        return Text(text, Style(bold=True, reverse=True, color="red"))
    if verdict is not None and verdict.ok:
        return Text(text, Style(color="green"))
    return Text(text, Style(dim=True))


def _with_mark(hint: str, verdict: Verdict | None, room: int) -> list[Static]:
    """The dim hint line with the shuffle mark at its end, if both fit in ``room`` cells,
    else the mark on a line of its own (never split: "Shuffle / verified" over two lines
    read as two things); a mismatch above the hint, loudly."""
    line = shuffle_line(verdict)
    if verdict_text(verdict)[1]:
        return [Static(line, id="shuffle-check"), Static(Text(hint, Style(dim=True)))]
    if len(hint) + 3 + len(line.plain) <= room:
        return [Static(Text.assemble(Text(hint + "   ", Style(dim=True)), line), id="shuffle-check")]
    return [Static(Text(hint, Style(dim=True)), classes="tight"), Static(line, id="shuffle-check")]


def dialog_room(width: int) -> int:
    """The cells a line has inside the results dialog on a terminal ``width`` wide
    (results.tcss: 90% of it, at most 100, less the frame and padding)."""
    return min(100, width * 9 // 10) - 4


def scoreboard(view: SeatView, rows: ScoreRows, width: int) -> Table | None:
    """Every round's points so far and the totals (``rows[r]``: the totals after round
    ``r``, ``rows[0]`` the start), in ``width`` cells: the rounds that do not fit are
    added up in one "earlier" column.  ``None`` before there are two rounds to show (the
    round's own table says the first)."""
    played = [r for r in range(1, len(rows)) if len(rows[r]) == view.players == len(rows[r - 1])]
    if len(played) < 2:
        return None
    names = [_name(view, s) for s in range(view.players)]
    name_w = min(20, max(len("player"), *(len(n) for n in names)))  # (the header, uncut)
    cell = max(4, len(str(max(max(abs(x) for x in row) for row in rows))) + 1)
    room = max(1, (width - name_w - 2 - (cell + 1) * 2) // (cell + 1))  # the rounds that fit
    shown, earlier = played[-room:], played[:-room]
    table = Table(box=None, show_edge=False, pad_edge=False, expand=False, padding=(0, 1),
                  title="Scores so far", title_justify="left", title_style=Style(bold=True))
    table.add_column("player", no_wrap=True, max_width=name_w)
    if earlier:
        table.add_column(f"R1-{earlier[-1]}", justify="right", no_wrap=True)
    for r in shown:
        table.add_column(f"R{r}", justify="right", no_wrap=True)
    table.add_column("total", justify="right", no_wrap=True, style=Style(bold=True))
    for s in range(view.players):
        cells = [Text(names[s], Style(bold=s == view.seat))]
        if earlier:
            cells.append(Text(str(rows[earlier[-1]][s] - rows[0][s])))
        cells += [Text(str(rows[r][s] - rows[r - 1][s])) for r in shown]
        cells.append(Text(str(rows[played[-1]][s])))
        table.add_row(*cells)
    return table


def _help(screen: Screen[Any], view: SeatView) -> None:
    from .help import HelpScreen

    screen.app.push_screen(HelpScreen(view.rules))


class RoundOverScreen(ModalScreen[None]):
    """Between rounds: Enter (or Escape) goes on to the next deal; ``?`` is help."""

    CSS_PATH = "results.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "next", "Next round"),
        Binding("question_mark,f1", "help", "Help"),
    ]

    def __init__(
        self, view: SeatView, palette: str, rows: ScoreRows = (), verdict: Verdict | None = None
    ) -> None:
        super().__init__()
        self.view = view
        self.palette = palette
        self.rows = rows
        self.verdict = verdict

    def compose(self) -> ComposeResult:
        v = self.view
        with VerticalScroll(classes="results"):
            yield Static(Text(_headline(v), Style(bold=True)))
            art = celebration(v, match=False, small=self.app.size.height < 30)
            if art is not None:
                yield Static(art, classes="celebration")
            yield Static(round_table(v, self.palette, self.rows))
            board = scoreboard(v, self.rows, dialog_room(self.app.size.width))
            if board is not None:
                yield Static(board)
            target = v.rules.target_score
            hint = f"First to {target} points wins the match. Enter: next round."
            yield from _with_mark(hint, self.verdict, dialog_room(self.app.size.width))
        yield Footer()

    def action_next(self) -> None:
        """Close; the table asks for the next round."""
        self.dismiss(None)

    def action_help(self) -> None:
        """The rules in force and the keys, over the summary."""
        _help(self, self.view)


@runtime_checkable
class MatchOverHook(Protocol):
    """An app's solo-game factory that wants to hear when a match ends (``unotui play
    --save FILE``: :class:`unotui.ui.cli.SaveFirstMatch`)."""

    def match_over(self, controller: object) -> tuple[str, bool] | None:
        """The match of ``controller`` is over: a sentence for the summary and whether
        it is an error, or ``None``."""


def _shown(path: Path) -> str:
    """``path`` as a person types it: the home directory as ``~``."""
    from pathlib import Path

    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)


def matches_dir() -> Path:
    """Where ``s`` saves matches: ``matches/`` beside the settings file (in
    ``$UNOTUI_CONFIG_DIR`` when that is set)."""
    from ..settings import config_path

    return config_path().parent / "matches"


class MatchOverScreen(ModalScreen[str]):
    """Final standings and a chart of scores by round: save, review, rematch, menu or quit.

    ``s`` saves the match's transcript (``unotui replay FILE`` reads it): a solo game's,
    or at a LAN or lobby seat the host's record once it arrived; until then (or where
    there is none) the same key says why, and the key bar leaves it out (two bindings of
    ``s``: :meth:`check_action` lets one through).
    """

    CSS_PATH = "results.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "save", "Save"),
        Binding("s", "cannot_save", show=False),
        Binding("r", "review", "Review"),
        Binding("n", "choose('rematch')", "Rematch"),
        Binding("m,escape", "choose('menu')", "Menu"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("question_mark,f1", "help", "Help"),
    ]

    #: the chart's height in rows: at least, and at most
    CHART_ROWS = (4, 16)

    def __init__(
        self, view: SeatView, history: ScoreRows, palette: str, verdict: Verdict | None = None,
        note: str = "",
    ) -> None:
        super().__init__()
        self.note = note  # about the table (a lobby's leaderboard not counting this player)
        self.view = view
        self.history = history
        self.palette = palette
        self.verdict = verdict
        self._rows = self.CHART_ROWS[0]
        self._fits = 0
        self._saved: Path | None = None

    def _game(self) -> tuple[Transcript | None, str]:
        return saved_game(self.app)

    def record_changed(self, update: RecordArrived | RecordRefused) -> None:
        """A networked match's record arrived (``s`` now saves it: the key bar and the
        hint line say so) or was refused (said at once, in red: never used silently)."""
        self.refresh_bindings()
        reason = getattr(update, "reason", "")
        if reason:
            self._say(reason, error=True, scroll=False)
            self.app.notify(reason, severity="error", markup=False)
        elif self.is_mounted:  # (the hint line alone is made again: nothing else moves)
            self.run_worker(self._new_keys(), group="keys", exclusive=True)

    async def _new_keys(self) -> None:
        keys = self.query_one("#keys", Vertical)
        await keys.remove_children()
        await keys.mount_all(self._keys())

    def compose(self) -> ComposeResult:
        v = self.view
        winner = "You" if v.winner == v.seat else display_name(v.names[v.winner])
        with VerticalScroll(classes="results"):
            yield Static(Text(f"{winner} won the match!  {_headline(v)}", Style(bold=True)))
            if self.note:  # (first: it is about the match the player just finished)
                yield Static(Text(self.note, Style(italic=True)))
            art = celebration(v, match=True, small=self.app.size.height < 30)
            if art is not None:
                yield Static(art, classes="celebration")
            yield Static(round_table(v, self.palette, self.history))
            place = Text("Final standings\n", Style(bold=True))
            places = standings(v)
            shared = {p for p, _s in places if sum(1 for q, _t in places if q == p) > 1}
            for p, s in places:
                mark = "=" if p in shared else "."  # "2=": tied for second
                place.append(f"{p:>2}{mark} {_name(v, s):<28} {v.scores[s]:>6}\n")
            yield Static(place, classes="tight")
            yield Static(self._chart(), id="chart")
            yield Static(Text(""), id="saved", classes="tight")
            keys = Vertical(*self._keys(), id="keys")
            keys.styles.height = "auto"
            yield keys
        yield Footer()

    def _keys(self) -> list[Static]:
        """The hint line of keys (``s`` when there is something to save), with the mark."""
        save = "s: save   " if self._game()[0] is not None else ""
        return _with_mark(f"{save}r: review   n: rematch   m: menu   q: quit   ?: help", self.verdict,
                          dialog_room(self.app.size.width))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``s`` saves where the game is here, and explains where it is not."""
        if action in ("save", "cannot_save"):
            return (self._game()[0] is not None) == (action == "save")
        return True

    def action_save(self) -> None:
        """Write the match's transcript under :func:`matches_dir` (once: ``s`` again says
        where it went) and say the path on the dialog."""
        from datetime import datetime

        from ...private import DataDirError
        from ...transcript.save import save_in

        game = self._game()[0]
        if game is None:  # (the key bar refreshes when the record arrives: say why instead)
            self.action_cannot_save()
            return
        if self._saved is None:
            try:
                self._saved = save_in(game, matches_dir(), datetime.now())
            except (DataDirError, OSError) as exc:
                reason = getattr(exc, "strerror", None) or str(exc)
                self._say(f"Could not save the match: {reason}", error=True)
                return
        self._say(f"Saved. Replay it with: unotui replay {_shown(self._saved)}")

    def action_review(self) -> None:
        """Review the match just played (``controller.record``); where it is not known
        here yet, say why on the dialog."""
        from ..match_review import review_match

        why = review_match(self.app, matches_dir(), self._saved)
        if why:
            self._say(why, error=True)

    def action_cannot_save(self) -> None:
        """``s`` where the game is not held here: say why, on the dialog."""
        self._say(self._game()[1], error=True)

    def _say(self, text: str, error: bool = False, scroll: bool = True) -> None:
        """Show ``text`` on the save line (scrolled into sight when ``scroll``)."""
        line = self.query_one("#saved", Static)
        line.update(Text(text, Style(bold=True, color="red" if error else None)))
        line.add_class("said")
        if scroll:
            line.scroll_visible()

    def on_mount(self) -> None:
        self.call_after_refresh(self._fit_chart)
        factory = getattr(self.app, "factory", None)
        if isinstance(factory, MatchOverHook):
            said = factory.match_over(getattr(self.app, "controller", None))
            if said is not None:
                # The headline stays in sight: the line may be below the fold (80x24), so
                # a notification says it too.
                text, error = said
                self._say(text, error, scroll=False)
                self.app.notify(text, severity="error" if error else "information", markup=False)

    def on_resize(self, event: Resize) -> None:
        self._fits = 0
        self.call_after_refresh(self._fit_chart)

    def _fit_chart(self) -> None:
        """Make the chart as tall as the terminal leaves room for (within CHART_ROWS),
        measured on the laid-out dialog: the rows it overflows by, or those left free."""
        if not self.is_mounted:
            return
        box = self.query_one(VerticalScroll)
        overflow = box.virtual_size.height - box.scrollable_content_region.height
        footer = self.query_one(Footer).outer_size.height
        spare = self.size.height - footer - box.outer_size.height
        low, high = self.CHART_ROWS
        rows = max(low, min(high, self._rows + (spare if overflow <= 0 else -overflow)))
        if rows != self._rows and self._fits < 4:  # grown too far: the next pass trims it
            self._fits += 1
            self._rows = rows
            self.query_one("#chart", Static).update(self._chart())
            self.call_after_refresh(self._fit_chart)

    def _chart(self) -> RenderableType:
        width = max(30, min(100, self.app.size.width) - 8)
        title = Text("Scores by round", Style(bold=True))
        lines = score_chart(self.history, height=self._rows, width=width)
        legend = chart_legend([_name(self.view, s) for s in range(self.view.players)])
        chart = Text("\n".join(lines), no_wrap=True, overflow="crop")
        return Group(title, chart, Text(legend, Style(dim=True)))

    def action_choose(self, choice: str) -> None:
        """Close with ``choice``."""
        self.dismiss(choice)

    def action_help(self) -> None:
        """The rules in force and the keys, over the summary."""
        _help(self, self.view)
