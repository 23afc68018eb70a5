"""Open a table from the lobby: its name, seats, computer players, rules, timer and length.

A form of drop-downs and switches (Tab moves, Enter or Ctrl+S creates, Escape goes
back).  The house rules offered are the ones players ask for most; a table's full rules
are shown to everyone in its waiting room and on the help screen.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Select, Static, Switch

from ...bots import LEVELS
from ...engine import PRESETS, Rules, Stacking
from ..lobby_messages import CreateTable
from .form import Explains, explain_line, row, switch_row

__all__ = ["TARGETS", "TIMERS", "CreateTableScreen"]

#: turn timer choices (label, seconds); "none" only for private tables
TIMERS: tuple[tuple[str, float | None], ...] = (
    ("15 s", 15.0), ("30 s", 30.0), ("60 s", 60.0), ("none", None)
)
#: how long a match lasts: the score that ends it (500, the official rules, is many rounds)
TARGETS: tuple[tuple[str, int], ...] = (
    ("100 points (short)", 100), ("200 points", 200), ("300 points", 300), ("500 points (official)", 500)
)
_SWITCHES = ("seven_o", "jump_in", "draw_to_match", "no_bluffing")


def _bot_counts(seats: int) -> list[tuple[str, int]]:
    """The computer players a table of ``seats`` can have: every seat but its creator's."""
    return [(str(n), n) for n in range(seats)]


class CreateTableScreen(Explains, ModalScreen[CreateTable | None]):
    """The new table's settings; dismissed with a :class:`CreateTable`, or ``None``.

    One row a field with the help's labels, the focused one explained above the key bar
    (:mod:`.form`); the computer players offered are those the seats leave room for."""

    CSS_PATH = "form.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+s", "create", "Create", priority=True),
    ]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.table_name = name

    def _choice(self, key: str, options: list[tuple[str, Any]], value: Any, widget_id: str = ""
                ) -> Horizontal:
        return row(key, Select(options, value=value, allow_blank=False, id=widget_id or key))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="form"):
            title = "A new table (Tab: next field, Ctrl+S: create, Escape: back)"
            yield Static(Text(title, Style(bold=True)))
            yield row("table_name", Input(self.table_name[:32], id="name", max_length=32))
            yield self._choice("seats", [(str(n), n) for n in range(2, 11)], 4)
            yield self._choice("bots_count", _bot_counts(4), 2, "bots")
            yield self._choice("level", [(lv, lv) for lv in LEVELS], "medium")
            yield self._choice("preset", [(p, p) for p in PRESETS], "classic")
            yield self._choice("stacking", [(s.value, s.value) for s in Stacking], "off")
            for key in _SWITCHES:
                yield switch_row(key, False)
            yield self._choice("timer", [(label, label) for label, _s in TIMERS], "30 s")
            yield self._choice("target_score", [(label, points) for label, points in TARGETS], 500, "target")
            yield switch_row("private", False)
            yield Static(id="problem")
            yield Horizontal(Button("Create", id="create", variant="primary"), Button("Back", id="back"),
                             classes="buttons")
        yield explain_line()
        yield Footer()

    def on_select_changed(self, event: Select.Changed) -> None:
        """Seats changed: offer the computer players they leave room for (one seat is yours)."""
        if event.select.id != "seats" or not isinstance(event.value, int):
            return
        bots = self.query_one("#bots", Select)
        kept = min(bots.value if isinstance(bots.value, int) else 0, event.value - 1)
        bots.set_options(_bot_counts(event.value))
        bots.value = kept

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def on_input_submitted(self, _: Input.Submitted) -> None:
        self.action_create()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.action_create()
        else:
            self.action_close()

    def action_create(self) -> None:
        """Check the form and hand it back."""
        seats = int(self.query_one("#seats", Select).value)  # type: ignore[arg-type]
        bots = int(self.query_one("#bots", Select).value)  # type: ignore[arg-type]
        private = self.query_one("#private", Switch).value
        timer = dict(TIMERS)[str(self.query_one("#timer", Select).value)]
        problem = ""
        if bots >= seats:
            problem = f"{bots} computer players leave no seat for you at {seats} seats."
        elif timer is None and not private:
            problem = "Public tables need a turn timer (so nobody can hold one hostage); make it private."
        if problem:
            self.query_one("#problem", Static).update(Text(problem, Style(color="red", bold=True)))
            return
        rules = Rules.preset(str(self.query_one("#preset", Select).value)).with_(
            stacking=str(self.query_one("#stacking", Select).value),
            target_score=int(self.query_one("#target", Select).value),  # type: ignore[arg-type]
            **{key: self.query_one(f"#{key}", Switch).value for key in _SWITCHES},
        )
        name = self.query_one("#name", Input).value.strip() or self.table_name
        level = str(self.query_one("#level", Select).value)
        self.dismiss(CreateTable(name, seats, bots, rules, level, timer, private))

    def action_close(self) -> None:
        """Back to the lobby without a table."""
        self.dismiss(None)
