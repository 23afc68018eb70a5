"""The menu's Join form: everything ``unotui join`` takes, one field each.

Address (``HOST[:PORT]``, the default port as the command line fills it in), your name,
a lobby table's code, the table's password (masked) and whether to watch only.  Each
field says in one line what it is for, and the whole form with its buttons fits an
80x24 terminal without scrolling.  Keys only: Tab and Shift+Tab move, Space switches
the watch-only box, Enter joins (from any field), Escape goes back.

The fields are checked by :func:`~unotui.ui.join_request.check_join`, the command line's
own check: a mistake is said on a line of the form, the field it is in gets the focus,
and nothing typed is lost.  Dismissed with the checked
:class:`~unotui.ui.join_request.JoinRequest` (or ``None``); the menu posts it up.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static

from ...net.addresses import DEFAULT_PORT, split_address
from ..join_request import JoinProblem, JoinRequest, check_join

__all__ = ["FIELDS", "JoinForm", "watch_label"]

#: (field id, label, what it is for): the fields in the order Tab visits them
FIELDS: tuple[tuple[str, str, str], ...] = (
    ("address", "Address", f"e.g. 192.168.1.20, or HOST:PORT (port {DEFAULT_PORT} unless given)"),
    ("name", "Your name", "how the table shows you, 1-16 characters (kept as your name)"),
    ("table", "Table code", "a lobby table's code, e.g. K7QMX; leave empty at a LAN host"),
    ("password", "Password", "only if the table has one; shown as dots, never saved"),
    ("spectate", "Watch only", "Space switches: watch without a seat (a started match too)"),
)
_LABELS = {key: label for key, label, _what in FIELDS}
_TYPED = ("address", "name", "table", "password")
#: how much any field takes (the checks say what is too long; this bounds the typing)
_FIELD_MAX = 512


def watch_label(on: bool) -> str:
    """The watch-only box's own words, on and off."""
    return "on: watch only, no seat" if on else "off: take a seat"


class JoinForm(ModalScreen[JoinRequest | None]):
    """Join a table elsewhere (see the module docstring).

    Args:
        address, name, table, spectate: what the fields start with (the settings' last
            address and name, or what was typed before a join that failed); the password
            always starts empty.
    """

    CSS_PATH = "join_form.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        # Enter joins from every field (the watch-only box and the Back button too, where
        # it would otherwise switch or press): the form says "Enter: join".
        Binding("enter", "join", "Join", priority=True),
    ]

    def __init__(self, address: str = "", name: str = "", table: str = "", spectate: bool = False) -> None:
        super().__init__()
        self.start = {"address": address, "name": name, "table": table}
        self.spectate = spectate

    def _field(self, key: str) -> Input:
        return Input(self.start.get(key, ""), id=key, compact=True, max_length=_FIELD_MAX,
                     password=key == "password", placeholder="HOST[:PORT]" if key == "address" else "")

    def compose(self) -> ComposeResult:
        with Vertical(id="join-form"):
            yield Static(Text("Join a game on another machine", Style(bold=True)), id="join-title")
            for key, label, what in FIELDS:
                if key == "spectate":
                    widget: Input | Checkbox = Checkbox(watch_label(self.spectate), self.spectate, id=key,
                                                        compact=True)
                else:
                    widget = self._field(key)
                yield Horizontal(Label(label, classes="label"), widget, classes="row", id=f"{key}-row")
                yield Static(Text(what), classes="what", id=f"{key}-what")
            yield Static(id="problem")
            with Horizontal(id="buttons"):
                yield Button("Join", id="join", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
            yield Static(Text("Tab/Shift+Tab: move   Enter: join   Escape: back", Style(dim=True)), id="keys")

    def on_mount(self) -> None:
        self.query_one("#address", Input).focus()
        self._show_where(self.start["address"])

    def _show_where(self, text: str) -> None:
        """The address's line says where Enter will go (the default port filled in)."""
        what = FIELDS[0][2]
        try:
            host, port = split_address(text, 0)  # (0: no port typed)
        except ValueError:
            host = ""
        if host:
            what = f"joins {host}, port {port or DEFAULT_PORT}" + ("" if port else " (the default)")
        self.query_one("#address-what", Static).update(Text(what))

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "address":
            self._show_where(event.value)
        if self.query_one(f"#{event.input.id}-row").has_class("-bad"):
            self._problem(None)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.checkbox.label = watch_label(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "back":
            self.action_close()
        else:
            self.action_join()

    def _problem(self, problem: JoinProblem | None) -> None:
        """Say what is wrong beside the form (or nothing), and mark its field."""
        for key, _label, _what in FIELDS:
            self.query_one(f"#{key}-row").set_class(problem is not None and problem.field == key, "-bad")
        line = Text()
        if problem is not None:
            line = Text(f"{_LABELS[problem.field]}: {problem}", Style(color="red", bold=True))
        shown = self.query_one("#problem", Static)
        shown.update(line)
        shown.display = problem is not None

    def action_join(self) -> None:
        """Check the fields; dismiss with the join, or say what to change and keep it all."""
        if self.focused is not None and self.focused.id == "back":
            self.action_close()
            return
        value = {key: self.query_one(f"#{key}", Input).value for key in _TYPED}
        spectate = self.query_one("#spectate", Checkbox).value
        try:
            request = check_join(value["address"], value["name"], table=value["table"],
                                 password=value["password"], spectate=spectate)
        except JoinProblem as problem:
            self._problem(problem)
            self.query_one(f"#{problem.field}").focus()
            return
        self.dismiss(request)

    def action_close(self) -> None:
        """Back to the menu without joining."""
        self.dismiss(None)
