"""End of a round and end of the match: who won, every hand's points, the totals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ...client.text import clean, display_name
from ...engine import SeatView
from ..chart import score_chart
from ..render import card_chip

__all__ = ["MatchOverScreen", "RoundOverScreen", "round_table", "standings"]


def _name(view: SeatView, seat: int) -> str:
    return display_name(view.names[seat]) + (" (you)" if seat == view.seat else "")


def round_table(view: SeatView, palette: str) -> Text:
    """Each seat: the cards left in hand, their points, the running total."""
    lines = [Text(f"{'player':<22} {'points':>6} {'total':>6}  cards left", Style(bold=True))]
    for s in range(view.players):
        row = Text(f"{_name(view, s):<22} {view.round_points[s]:>6} {view.scores[s]:>6}  ")
        for c in view.face_up.get(s, ()):
            row.append_text(card_chip(c, palette))
        if s == view.round_winner:
            row.append("went out", Style(bold=True))
        lines.append(row)
    return Text("\n").join(lines)


def standings(view: SeatView) -> list[int]:
    """Seats from first place to last."""
    lowest = view.rules.scoring.value == "lowest"
    order = sorted(
        range(view.players),
        key=lambda s: (s != view.winner, view.scores[s] if lowest else -view.scores[s], s),
    )
    return order


def _headline(view: SeatView) -> str:
    w = view.round_winner
    if w < 0:
        return f"Round {view.round_no} is over."
    who = "You" if w == view.seat else display_name(view.names[w])
    return f"{who} won round {view.round_no}!"


class RoundOverScreen(ModalScreen[None]):
    """Between rounds: Enter goes on to the next deal."""

    CSS_PATH = "results.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "next", "Next round")]

    def __init__(self, view: SeatView, palette: str) -> None:
        super().__init__()
        self.view = view
        self.palette = palette

    def compose(self) -> ComposeResult:
        v = self.view
        with VerticalScroll(classes="results"):
            yield Static(Text(_headline(v), Style(bold=True)))
            yield Static(round_table(v, self.palette))
            target = v.rules.target_score
            yield Static(
                Text(f"First to {target} points wins the match. Enter: next round.", Style(dim=True))
            )
        yield Footer()

    def action_next(self) -> None:
        """Close; the table asks for the next round."""
        self.dismiss(None)


class MatchOverScreen(ModalScreen[str]):
    """Final standings and a chart of scores by round: rematch, menu or quit."""

    CSS_PATH = "results.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('rematch')", "Rematch"),
        Binding("m,escape", "choose('menu')", "Menu"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, view: SeatView, history: Sequence[Sequence[int]], palette: str) -> None:
        super().__init__()
        self.view = view
        self.history = history
        self.palette = palette

    def compose(self) -> ComposeResult:
        v = self.view
        winner = "You" if v.winner == v.seat else display_name(v.names[v.winner])
        with VerticalScroll(classes="results"):
            yield Static(Text(f"{winner} won the match! {_headline(v)}", Style(bold=True)))
            yield Static(round_table(v, self.palette))
            place = Text("Final standings\n", Style(bold=True))
            for i, s in enumerate(standings(v), 1):
                place.append(f"{i:>2}. {_name(v, s):<22} {v.scores[s]:>6}\n")
            yield Static(place, classes="tight")
            chart = Text("Scores by round\n", Style(bold=True))
            tall = self.app.size.height >= 34
            chart.append("\n".join(score_chart(self.history, height=8 if tall else 4)))
            legend = "  ".join(f"{s}={clean(n, 10)}" for s, n in enumerate(v.names))
            chart.append("\n" + legend)
            yield Static(chart)
            yield Static(Text("r: rematch   m: main menu   q: quit", Style(dim=True)))
        yield Footer()

    def action_choose(self, choice: str) -> None:
        """Close with ``choice``."""
        self.dismiss(choice)
