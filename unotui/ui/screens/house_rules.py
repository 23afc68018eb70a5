"""House rules and the player's name, saved to the settings file."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, SelectionList, Static, Switch

from ...bots import LEVELS
from ...engine import PRESETS, Effect, Rules, RulesError, Scoring, Stacking
from ...protocol.text import clean, clean_name
from ..settings import THEMES, Config, save_config
from .form import Explains, explain_line, note_row, row, switch_row

__all__ = ["HouseRulesScreen"]

_SWITCHES = ("challenge", "no_bluffing", "draw_to_match", "forced_play", "jump_in", "seven_o", "teams")
_NUMBERS = ("target_score", "hand_size", "uno_penalty", "custom_wilds", "swap_hands", "shuffle_hands")


class HouseRulesScreen(Explains, Screen[Config | None]):
    """Edit name, bots, theme and house rules; Ctrl+S saves, Escape goes back.

    Dismissed with the saved settings (``None``: not saved); whoever opened the form
    posts them up, so the screen never imports the app.  Each field is one row with the
    help's label; the line above the key bar explains the focused one (:mod:`.form`).
    """

    CSS_PATH = "form.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "cancel", "Back"),
    ]

    def __init__(self, config: Config) -> None:
        super().__init__()
        self.config = config

    def _choice(self, key: str, options: list[str], value: str) -> Horizontal:
        """A labelled drop-down of ``options`` (each shown as itself)."""
        return row(key, Select([(o, o) for o in options], value=value, allow_blank=False, id=key))

    def compose(self) -> ComposeResult:
        cfg, rules = self.config, self.config.rules
        with VerticalScroll(id="form"):
            yield Static(Text("Your name, computer players and house rules (Tab moves, Ctrl+S saves)",
                              Style(bold=True)))
            yield row("name", Input(cfg.name, id="name", max_length=16))
            yield self._choice("bots", list(LEVELS), cfg.bots)
            yield row("players", Input(str(cfg.players), id="players", type="integer"))
            preset = rules.name if rules.name in PRESETS else "giant"
            yield self._choice("theme", list(THEMES), cfg.theme)
            yield self._choice("preset", list(PRESETS), preset)
            yield self._choice("stacking", [m.value for m in Stacking], rules.stacking.value)
            yield self._choice("scoring", [m.value for m in Scoring], rules.scoring.value)
            for key in _NUMBERS:
                yield row(key, Input(str(getattr(rules, key)), id=key, type="integer"))
            for key in _SWITCHES:
                yield switch_row(key, bool(getattr(rules, key)))
            effects: SelectionList[str] = SelectionList(*[(e.words, e.value) for e in Effect],
                                                        id="custom")
            yield row("custom", effects, None)
            yield note_row("custom")
            yield row("custom_text", Input(rules.custom.text, id="custom_text", max_length=200))
            with Horizontal(classes="buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Back", id="back")
        # Outside the scrolling form, above the footer: a refused save is always in view.
        yield Static(id="problem")
        yield explain_line()
        yield Footer()

    def on_mount(self) -> None:
        # The form scrolls, so Textual would focus the scroll container: start on a field.
        self.query_one("#name", Input).focus()
        self.query_one("#problem", Static).display = False
        effects = self.query_one("#custom", SelectionList)
        for effect in self.config.rules.custom.effects:  # selected in their order: the order they fire
            effects.select(effect.value)
        self._effects_said()

    def on_selection_list_selected_changed(self, _: SelectionList.SelectedChanged[str]) -> None:
        self._effects_said()

    def _effects_said(self) -> None:
        """The custom wild's effects in the order they fire (the order they were picked)."""
        chosen = self.query_one("#custom", SelectionList).selected
        said = [Effect(e).words for e in chosen]
        words = ("Chosen, in order: " + "; then ".join(said)) if said else "None chosen: a plain Wild."
        self.query_one("#custom-state", Label).update(words)

    def _refuse(self, message: str) -> None:
        """Say why the form was not saved, and put the cursor on the field it names."""
        problem = self.query_one("#problem", Static)
        problem.update(Text(message, style="bold reverse"))
        problem.display = True
        detail = message.partition(": ")[2]
        field = "custom" if "custom wild" in detail else None
        for key in ("players", *_NUMBERS):  # the engine's messages start with the key
            if field is None and detail.startswith(key):
                field = key
        if field is not None:
            widget = self.query_one(f"#{field}")
            widget.focus()
            widget.scroll_visible(animate=False)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset" and isinstance(event.value, str):
            base = PRESETS[event.value]
            if base.name == self.config.rules.name:
                return
            for key in _NUMBERS:
                self.query_one(f"#{key}", Input).value = str(getattr(base, key))
            for key in _SWITCHES:
                self.query_one(f"#{key}", Switch).value = bool(getattr(base, key))
            self.query_one("#stacking", Select).value = base.stacking.value
            self.query_one("#scoring", Select).value = base.scoring.value

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()

    def build(self) -> Config:
        """The settings in the form; raises RulesError (or ValueError) naming a bad field."""
        preset = str(self.query_one("#preset", Select).value)
        settings: dict[str, object] = {
            "stacking": self.query_one("#stacking", Select).value,
            "scoring": self.query_one("#scoring", Select).value,
            "custom": "+".join(self.query_one("#custom", SelectionList).selected),
            "custom_text": clean(self.query_one("#custom_text", Input).value, 200, collapse=False),
        }
        for key in _NUMBERS:
            settings[key] = self.query_one(f"#{key}", Input).value or "0"
        for key in _SWITCHES:
            settings[key] = self.query_one(f"#{key}", Switch).value
        rules = Rules.preset(preset).with_settings(settings)
        players_text = self.query_one("#players", Input).value
        if not players_text.isdigit() or not 2 <= int(players_text) <= 10:
            raise RulesError("players must be between 2 and 10")
        rules.validate(int(players_text))
        return self.config.with_(
            name=clean_name(self.query_one("#name", Input).value, "You"),
            bots=str(self.query_one("#bots", Select).value),
            theme=str(self.query_one("#theme", Select).value),
            players=int(players_text),
            rules=rules,
            problems=(),  # saving rewrites the file: what it could not read is gone
        )

    def action_save(self) -> None:
        """Check the form, save the settings file and go back with the new settings."""
        try:
            cfg = self.build()
        except (RulesError, ValueError) as exc:
            self._refuse(f"Not saved: {exc}")
            return
        try:
            path = save_config(cfg)
        except OSError as exc:
            self._refuse(f"Could not save: {exc}")
            return
        self.notify(f"Saved to {path}", markup=False)
        self.dismiss(cfg)

    def action_cancel(self) -> None:
        """Back without saving."""
        self.dismiss(None)
