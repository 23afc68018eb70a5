"""Small modal dialogs over the table that return a typed result: colour, target seat,
revealed hand.  Each says why it is asked (the first card was a Wild; the colour that
was in play when a challenged Wild Draw Four went down)."""

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

from ...engine import Card, Colour, Event, EventKind, SeatView
from ..render import card_chip, colour_style
from ..words import card_name, display_name

__all__ = [
    "ColourPicker",
    "ConfirmScreen",
    "RevealScreen",
    "TargetPicker",
    "colour_reason",
    "colour_when_played",
]


def colour_reason(view: SeatView) -> str:
    """Why the viewer is asked for a colour: the card that asks (the first card of the
    round, which nobody played, or the wild the viewer just played)."""
    for event in reversed(view.log):
        card = event.cards[0] if event.cards else None
        if event.kind == EventKind.FLIP and card is not None:
            return (
                f"The first card of the round is a {card_name(card)}: it names no colour, "
                "so the first player (you) names it."
            )
        if event.kind in (EventKind.PLAY, EventKind.JUMP) and card is not None:
            if event.seat == view.seat:
                return f"You played a {card_name(card)}: name the colour play goes on in."
            break
    return "Name the colour play goes on in."


def colour_when_played(log: tuple[Event, ...] | list[Event], reveal: int) -> Colour | None:
    """The colour in play when the Wild Draw Four revealed at ``log[reveal]`` was played
    (what the challenge is judged against); None if the log does not reach back."""
    offender = log[reveal].seat
    i = reveal - 1
    while i >= 0 and not (
        log[i].kind in (EventKind.PLAY, EventKind.JUMP)
        and log[i].seat == offender
        and log[i].cards
        and log[i].cards[0].text == "W+4"
    ):
        i -= 1
    for event in reversed(log[: max(i, 0)]):
        if event.kind == EventKind.COLOUR:
            return Colour(event.value)
        shown = event.cards[0].colour if event.cards else None
        if event.kind in (EventKind.PLAY, EventKind.JUMP, EventKind.FLIP) and shown is not None:
            return shown
        if event.kind == EventKind.DEAL:
            break
    return None


class ColourPicker(ModalScreen[Colour]):
    """Name the colour after a wild: r, y, g, b or arrows and Enter."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "pick('R')", "Red"),
        Binding("y", "pick('Y')", "Yellow"),
        Binding("g", "pick('G')", "Green"),
        Binding("b", "pick('B')", "Blue"),
    ]

    def __init__(self, hand: tuple[Card, ...], palette: str, reason: str = "") -> None:
        super().__init__()
        self.hand = hand
        self.palette = palette
        self.reason = reason

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
            if self.reason:
                yield Static(Text(self.reason), id="reason")
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
    """The hand of a challenged Wild Draw Four player, shown to the challenger alone.

    When guilty, the cards of the colour that was in play are marked: they are what made
    the Wild Draw Four illegal.
    """

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,space", "close", "Close")]

    def __init__(
        self,
        name: str,
        cards: tuple[Card, ...],
        guilty: bool | None,
        palette: str,
        colour: Colour | None = None,
    ) -> None:
        super().__init__()
        self.who = display_name(name)
        self.cards = cards
        self.guilty = guilty
        self.palette = palette
        self.colour = colour

    def compose(self) -> ComposeResult:
        colour = self.colour
        hand, marks = Text(), Text()
        for c in self.cards:
            chip = card_chip(c, self.palette)
            bad = bool(self.guilty) and colour is not None and c.colour is colour
            if bad:
                chip.stylize(Style(underline=True))
            hand.append_text(chip)
            hand.append(" ")
            marks.append(("^" if bad else " ") * chip.cell_len + " ", Style(bold=True))
        named = colour.name.lower() if colour is not None else ""
        if self.guilty is None:
            verdict = ""
        elif self.guilty:
            held = [c.text for c in self.cards if colour is not None and c.colour is colour]
            if held:
                verdict = (
                    f"Guilty: {named} was in play and they held {' '.join(held)} (marked ^), "
                    "so the Wild Draw Four was not allowed. They draw the penalty."
                )
            else:
                verdict = "Guilty: they held a card of the colour in play. They draw the penalty."
        elif named:
            verdict = f"Innocent: {named} was in play and they held no {named} card. You draw 6."
        else:
            verdict = "Innocent: they held no card of the colour in play. You draw 6."
        with Vertical(classes="dialog"):
            yield Static(Text(f"{self.who}'s hand (shown to you only):", Style(bold=True)))
            yield Static(hand)
            if marks.plain.strip():
                yield Static(marks, id="marks")
            yield Static(Text(verdict))
            yield Static(Text("Enter to continue", Style(dim=True)))

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question before something that cannot be undone (abandoning a match) or
    that commits the player for a long while (a quick match to 500 points).

    ``y`` or Enter says yes (so does the key that asked, pressed again: Ctrl+Q twice
    quits); ``n`` or Escape says no, and ``no`` says what no means ("keep playing").
    """

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, detail: str = "", no: str = "no, keep playing") -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.question, Style(bold=True)))
            if self.detail:
                yield Static(Text(self.detail))
            yield Static(Text(f"y / Enter: yes    n / Escape: {self.no}", Style(dim=True)))

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)
