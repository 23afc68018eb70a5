"""Card art and colour palettes: pure functions from cards to ``rich.text.Text``.

Every card shows its colour letter and symbol (``R5``, ``G+2``, ``W+4``), so the table is
readable with no colour at all.  Art is box-drawing characters only.  Three palettes:
``default``, ``colourblind`` (the Okabe-Ito colours, distinguishable with the common
colour-vision deficiencies) and ``mono`` (no colour: letters and text styles only).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from ..engine import Card, Colour

__all__ = [
    "PALETTES",
    "big_card",
    "card_chip",
    "card_style",
    "colour_style",
    "hand_row",
    "pile_card",
]

# colour -> (background, foreground) per palette; None = no colour (mono).
PALETTES: dict[str, dict[Colour | None, tuple[str, str] | None]] = {
    "default": {
        Colour.RED: ("#c62828", "#ffffff"),
        Colour.YELLOW: ("#f9a825", "#000000"),
        Colour.GREEN: ("#2e7d32", "#ffffff"),
        Colour.BLUE: ("#1565c0", "#ffffff"),
        None: ("#212121", "#ffffff"),
    },
    "colourblind": {
        Colour.RED: ("#d55e00", "#000000"),  # vermillion
        Colour.YELLOW: ("#f0e442", "#000000"),
        Colour.GREEN: ("#009e73", "#000000"),  # bluish green
        Colour.BLUE: ("#0072b2", "#ffffff"),
        None: ("#000000", "#ffffff"),
    },
    "mono": {Colour.RED: None, Colour.YELLOW: None, Colour.GREEN: None, Colour.BLUE: None, None: None},
}


def colour_style(colour: Colour | None, palette: str) -> Style:
    """The style of a colour's cards (empty in monochrome)."""
    pair = PALETTES.get(palette, PALETTES["default"]).get(colour)
    if pair is None:
        return Style()
    bg, fg = pair
    return Style(color=fg, bgcolor=bg, bold=True)


def card_style(card: Card, palette: str) -> Style:
    """The style a card is drawn in."""
    return colour_style(card.colour, palette)


def card_chip(card: Card, palette: str) -> Text:
    """A card in running text: `` R5 `` in its colour (for logs and lists)."""
    return Text(f" {card.text} ", style=card_style(card, palette))


def hand_row(
    cards: Sequence[Card],
    palette: str,
    selected: int = -1,
    playable: Sequence[bool] = (),
    width: int = 80,
) -> tuple[Text, int, int]:
    """The hand as a row of 5x3 boxes fitting ``width``: (3 lines of art, first, last shown).

    The selected card has a heavy frame; a playable card has ``*`` in its top frame and
    ``^`` marks under the selected one.  Cards that do not fit are counted at the edges.
    """
    per = 5
    fit = max(1, (width - 6) // per)
    n = len(cards)
    first = 0
    if n > fit:
        first = min(max(0, selected - fit // 2), n - fit)
    last = min(n, first + fit)
    lines = [Text(), Text(), Text()]
    more_left = f"<{first:<2}" if first else "   "
    for line in lines:
        line.append(more_left if line is lines[1] else "   ")
    for i in range(first, last):
        card = cards[i]
        sel = i == selected
        play = bool(playable[i]) if i < len(playable) else False
        base = card_style(card, palette)
        if palette == "mono" and not play:
            base = base + Style(dim=True)
        if sel:
            base = base + Style(reverse=palette == "mono", underline=palette != "mono")
        mark = "*" if play else ("━" if sel else "─")
        if sel:
            top, mid, bot = f"┏━{mark}━┓", f"┃{card.text:^3}┃", "┗━━━┛"
        else:
            top, mid, bot = f"┌─{mark}─┐", f"│{card.text:^3}│", "└───┘"
        frame = Style(bold=sel) if palette == "mono" or sel else Style(dim=not play)
        lines[0].append(top, frame + (Style(bold=True) if play else Style()))
        lines[1].append(mid[0], frame)
        lines[1].append(mid[1:4], base)
        lines[1].append(mid[4], frame)
        lines[2].append(bot, frame)
    right = n - last
    lines[1].append(f" {right}>" if right else "")
    return Text("\n").join(lines), first, last


def big_card(card: Card, named: Colour | None, palette: str) -> list[Text]:
    """The top discard as a 7x5 box; a wild shows the colour named for it."""
    style = card_style(card, palette)
    inner = [" " * 5, f"{card.text:^5}", " " * 5]
    if card.is_wild and named is not None:
        inner[2] = f"{'=' + named.letter:^5}"
        style = colour_style(named, palette)
    out = [Text("┌─────┐")]
    for row in inner:
        t = Text("│")
        t.append(row, style)
        t.append("│")
        out.append(t)
    out.append(Text("└─────┘"))
    return out


def pile_card(count: int) -> list[Text]:
    """The draw pile as a 7x5 box with its card count."""
    return [
        Text("┌─────┐"),
        Text("│ UNO │"),
        Text(f"│{count:^5}│"),
        Text("│cards│" if count != 1 else "│card │"),
        Text("└─────┘"),
    ]
