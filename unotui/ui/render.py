"""Card art and colour palettes: pure functions from cards to ``rich.text.Text``.

Every card shows its colour letter and symbol (``R5``, ``G+2``, ``W+4``), so the table is
readable with no colour at all.  Art is box-drawing characters only.  Three palettes:
``default``, ``colourblind`` (the Okabe-Ito colours, distinguishable with the common
colour-vision deficiencies) and ``mono`` (no colour: letters and text styles only).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from ..engine import Card, Colour

__all__ = [
    "PALETTES",
    "PILE_SIZES",
    "big_card",
    "card_chip",
    "card_style",
    "colour_style",
    "hand_order",
    "hand_row",
    "pile_card",
    "turn_style",
    "wrap_cells",
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


def turn_style(palette: str) -> Style:
    """The style of the row of the seat whose turn it is.

    Reverse video in monochrome (it needs no colour to stand out), a tinted background
    otherwise; bold in both, so the row stands out on any terminal.
    """
    if palette == "mono":
        return Style(reverse=True, bold=True)
    return Style(bgcolor="#3a4a6b", bold=True)


def hand_order(cards: Sequence[Card], order: str) -> list[int]:
    """Indices into ``cards`` in the order ``order`` (one of ``ui.settings.HAND_ORDERS``).

    ``colour``: red, yellow, green, blue, then wilds, each by rank (numbers, Skip,
    Reverse, Draw Two).  ``rank``: numbers low to high, then action cards, then wilds,
    each by colour.  Anything else: as the view holds them (sorted by the engine).
    """
    n = len(cards)
    if order == "colour":
        return sorted(range(n), key=lambda i: (cards[i].colour is None, cards[i].colour or 0, cards[i].rank))
    if order == "rank":
        return sorted(range(n), key=lambda i: (cards[i].rank, cards[i].colour or 0))
    return list(range(n))


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
    marked: Sequence[bool] = (),
    tall: bool = False,
) -> tuple[Text, int, int]:
    """The hand as a row of boxes fitting ``width``: (the art, first, last shown).

    Cards are 5x3 boxes, or 7x5 when ``tall`` (large terminals).  The selected card has a
    heavy frame; a playable card has ``*`` in its top frame; a card just drawn
    (``marked``) reads ``new`` in its bottom frame.  Every mark is a character, so all of
    them show in monochrome too.  Cards that do not fit are counted at the edges.
    """
    per = 7 if tall else 5
    fit = max(1, (width - 6) // per)
    n = len(cards)
    first = 0
    if n > fit:
        first = min(max(0, selected - fit // 2), n - fit)
    last = min(n, first + fit)
    rows = 5 if tall else 3
    mid = rows // 2
    lines = [Text() for _ in range(rows)]
    more_left = f"<{first:<2}" if first else "   "
    for k, line in enumerate(lines):
        line.append(more_left if k == mid else "   ")
    inner = per - 2
    for i in range(first, last):
        card = cards[i]
        sel = i == selected
        play = bool(playable[i]) if i < len(playable) else False
        new = bool(marked[i]) if i < len(marked) else False
        base = card_style(card, palette)
        if palette == "mono" and not play:
            base = base + Style(dim=True)
        if sel:
            base = base + Style(reverse=palette == "mono", underline=palette != "mono")
        h, v, corners = ("━", "┃", "┏┓┗┛") if sel else ("─", "│", "┌┐└┘")
        top_mark = "*" if play else h
        side = (inner - 1) // 2
        top = corners[0] + h * side + top_mark + h * (inner - 1 - side) + corners[1]
        bottom_mark = f"{'new':{h}^{inner}}" if new else h * inner
        bot = corners[2] + bottom_mark + corners[3]
        frame = Style(bold=sel) if palette == "mono" or sel else Style(dim=not play)
        lines[0].append(top, frame + (Style(bold=True) if play else Style()))
        for k in (1, mid) if tall else (mid,):  # a tall card's rows 1 and 3 are alike: copied below
            lines[k].append(v, frame)
            lines[k].append(f"{card.text:^{inner}}" if k == mid else " " * inner, base)
            lines[k].append(v, frame)
        lines[-1].append(bot, frame + (Style(bold=True) if new else Style()))
    if tall:
        lines[3] = lines[1].copy()
    right = n - last
    lines[mid].append(f" {right}>" if right else "")
    return Text("\n").join(lines), first, last


#: the piles' art: (inside width, inside rows) of a card box, normal and large
PILE_SIZES = {False: (5, 3), True: (9, 5)}


def _box(rows: list[str], style: Style, width: int) -> list[Text]:
    out = [Text("┌" + "─" * width + "┐")]
    for row in rows:
        t = Text("│")
        t.append(f"{row:^{width}}", style)
        t.append("│")
        out.append(t)
    out.append(Text("└" + "─" * width + "┘"))
    return out


def big_card(card: Card, named: Colour | None, palette: str, large: bool = False) -> list[Text]:
    """The top discard as a 7x5 box (11x7 when ``large``: a tall terminal with rows to
    spare); a wild shows the colour named for it."""
    width, height = PILE_SIZES[large]
    style = card_style(card, palette)
    inner = [""] * height
    inner[height // 2] = card.text
    if card.is_wild and named is not None:
        inner[height // 2 + 1] = "=" + named.letter
        style = colour_style(named, palette)
    return _box(inner, style, width)


def pile_card(count: int, large: bool = False) -> list[Text]:
    """The draw pile as a box of the same size as the top card's, with its card count."""
    width, height = PILE_SIZES[large]
    inner = [""] * height
    middle = height // 2
    inner[middle - 1], inner[middle], inner[middle + 1] = "UNO", str(count), "cards" if count != 1 else "card"
    return _box(inner, Style(), width)


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` terminal cells, broken between words (a
    word wider than a line is cut): a panel that does not wrap by itself (``nowrap``)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if cell_len(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    lines.append(line)
    return lines
