"""Small modal dialogs that return a typed result: colour, target seat, revealed hand."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...client.text import display_name
from ...engine import Card, Colour
from ..render import card_chip, colour_style

__all__ = ["ColourPicker", "RevealScreen", "TargetPicker"]


class ColourPicker(ModalScreen[Colour]):
    """Name the colour after a wild: r, y, g, b or arrows and Enter."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "pick('R')", "Red"),
        Binding("y", "pick('Y')", "Yellow"),
        Binding("g", "pick('G')", "Green"),
        Binding("b", "pick('B')", "Blue"),
    ]

    def __init__(self, hand: tuple[Card, ...], palette: str) -> None:
        super().__init__()
        self.hand = hand
        self.palette = palette

    def compose(self) -> ComposeResult:
        options = []
        for colour in Colour:
            held = sum(1 for c in self.hand if c.colour is colour)
            label = Text.assemble(
                (f" {colour.letter} ", colour_style(colour, self.palette)),
                f" {colour.name.title():<7} you hold {held}",
            )
            options.append(Option(label, id=colour.letter))
        with Vertical(classes="dialog"):
            yield Static(Text("Name a colour (r/y/g/b, or arrows and Enter)", Style(bold=True)))
            yield OptionList(*options, id="colours")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.action_pick(event.option.id)

    def action_pick(self, letter: str) -> None:
        """Dismiss with the colour of ``letter``."""
        self.dismiss(Colour.parse(letter))


class TargetPicker(ModalScreen[int]):
    """Choose an opponent (swap hands): digits or arrows and Enter."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding(str(d), f"pick({d})", show=False) for d in range(10)]

    def __init__(self, names: tuple[str, ...], counts: tuple[int, ...], seats: list[int]) -> None:
        super().__init__()
        self.names = names
        self.counts = counts
        self.seats = seats

    def compose(self) -> ComposeResult:
        options = [
            Option(Text(f"{s}  {display_name(self.names[s]):<16} {self.counts[s]:>3} cards"), id=f"seat{s}")
            for s in self.seats
        ]
        with Vertical(classes="dialog"):
            yield Static(Text("Swap hands with whom? (seat number, or arrows and Enter)", Style(bold=True)))
            yield OptionList(*options, id="targets")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.action_pick(int(event.option.id[4:]))

    def action_pick(self, seat: int) -> None:
        """Dismiss with ``seat`` if it is a choice."""
        if seat in self.seats:
            self.dismiss(seat)


class RevealScreen(ModalScreen[None]):
    """The hand of a challenged Wild Draw Four player, shown to the challenger alone."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,space", "close", "Close")]

    def __init__(self, name: str, cards: tuple[Card, ...], guilty: bool | None, palette: str) -> None:
        super().__init__()
        self.who = display_name(name)
        self.cards = cards
        self.guilty = guilty
        self.palette = palette

    def compose(self) -> ComposeResult:
        hand = Text()
        for c in self.cards:
            hand.append_text(card_chip(c, self.palette))
            hand.append(" ")
        if self.guilty is None:
            verdict = ""
        elif self.guilty:
            verdict = "Guilty: they held a card of the colour in play. They draw the penalty."
        else:
            verdict = "Innocent: they held no card of the colour in play. You draw 6."
        with Vertical(classes="dialog"):
            yield Static(Text(f"{self.who}'s hand (shown to you only):", Style(bold=True)))
            yield Static(hand)
            yield Static(Text(verdict))
            yield Static(Text("Enter to continue", Style(dim=True)))

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)
