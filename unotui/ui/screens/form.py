"""What the settings forms share: a row per field, a switch that says on or off, and a
line explaining the focused field.

The house rules screen and the lobby's new-table form are long lists of fields; at 80x24
a field three rows tall (Textual's bordered inputs) let six of them show, and none said
what it did.  Here a field is one row (``form.tcss``), a switch carries its state in
words (the ``mono`` theme has no colour to show it by), and the line above the key bar
explains whichever field has the focus, from :data:`unotui.ui.rule_words.FIELDS`.
"""

from __future__ import annotations

from typing import cast

from rich.style import Style
from rich.text import Text
from textual import events
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Label, Static, Switch

from ..rule_words import FIELDS, label

__all__ = ["Explains", "explain_line", "note_row", "row", "switch_row"]


def row(key: str, widget: Widget, state: str | None = "") -> Horizontal:
    """Field ``key`` (its id, and its label from FIELDS) with ``widget`` and a state text
    beside it (``None``: none; :func:`note_row` can put one under a wide field)."""
    parts = [Label(label(key), classes="label"), widget]
    if state is not None:
        parts.append(Label(state, id=f"{widget.id}-state", classes="state"))
    return Horizontal(*parts, classes="row", name=key)  # (its name: the field the focus explains)


def note_row(widget_id: str) -> Horizontal:
    """The state of a wide field, on a line of its own under it (in the field's column)."""
    return Horizontal(Label("", classes="label"), Label("", id=f"{widget_id}-state", classes="state"),
                      classes="row")


def switch_row(key: str, value: bool) -> Horizontal:
    """A switch for ``key`` that says "on" or "off" beside it."""
    return row(key, Switch(value, id=key), _on_off(value))


def explain_line() -> Static:
    """The line that explains the focused field (put it above the key bar)."""
    return Static(id="explain")


def _on_off(value: bool) -> str:
    return "on" if value else "off"


class Explains:
    """Mixed into a form screen: keeps the explanation line and the switches' words true."""

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The focused field's explanation (a field's row is named by its key; a button: none)."""
        parent = event.widget.parent
        key = (parent.name if isinstance(parent, Widget) else None) or ""
        if key not in FIELDS:
            return
        line = Text(f"{label(key)}: ", Style(bold=True))
        line.append(FIELDS[key][1])
        cast(Widget, self).query_one("#explain", Static).update(line)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        """The switch's words follow it."""
        if event.switch.id:
            cast(Widget, self).query_one(f"#{event.switch.id}-state", Label).update(_on_off(event.value))
