"""The review screen's panels as Rich text, from the model (no widgets: the screen lays
them out, tests read them as plain text).

Each function takes the cells it has, and wraps between words or cards, never inside one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.style import Style
from rich.text import Text

from ..engine import Card, SeatView
from .render import card_chip, colour_style
from .review_model import Moment, OptionRow
from .words import describe, display_name

__all__ = ["MARK_STYLES", "chance_plot", "hand_line", "hindsight_text", "log_lines", "move_text",
           "move_words", "options_text", "summary_text", "table_text"]

MARK_STYLES: dict[str, Style] = {
    "good": Style(color="green"),
    "inaccuracy": Style(color="yellow"),
    "mistake": Style(color="dark_orange", bold=True),
    "blunder": Style(color="red", bold=True),
    "forced": Style(dim=True),
    "not analysed": Style(dim=True),
}


def _names(view: SeatView) -> list[str]:
    return [display_name(n) for n in view.names]


def hand_line(cards: Sequence[Card], palette: str, label: str) -> Text:
    """``label`` then the cards as chips, a space between (lines break between cards)."""
    out = Text(label, Style(bold=True))
    for c in cards:
        out.append(" ")
        out.append_text(card_chip(c, palette))
    if not cards:
        out.append(" (none)", Style(dim=True))
    return out


def table_text(m: Moment, palette: str) -> Text:
    """The table as the seat saw it: the top card and colour, every seat's count (whose
    turn), the draw pile, then its hand."""
    v = m.view
    names = _names(v)
    out = Text("Top ", Style(bold=True))
    out.append_text(card_chip(v.top, palette))
    out.append("  colour ")
    out.append(f" {v.colour.name.lower()} ", colour_style(v.colour, palette))
    out.append(f"   draw pile {v.draw_count}\n")
    for s, name in enumerate(names):
        who = f"{name} (reviewed)" if s == m.seat else name
        mark = "> " if s == v.actor else "  "
        out.append(f"{mark}{who}: {v.counts[s]} card{'s' if v.counts[s] != 1 else ''}"
                   f"   {v.scores[s]} pts\n", Style(bold=s == m.seat))
    out.append_text(hand_line(v.hand, palette, "Hand"))
    if v.drawn is not None:
        out.append("\n")
        out.append_text(hand_line((v.drawn,), palette, "Just drew"))
    return out


def _what(key: str) -> str:
    return {"draw": "draw a card", "keep": "keep the drawn card"}.get(key, key)


_COLOURS = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}


def move_words(m: Moment) -> str:
    """The move made, in words: "Played R5", "Drew a card", "Named blue", ..."""
    if m.chosen == "draw":
        return "Drew a card"
    if m.chosen == "keep":
        return "Kept the drawn card"
    if m.phase in ("play", "drawn"):
        return f"Played {m.chosen}"
    word, _, rest = m.action.partition(" ")
    if word == "colour":
        return f"Named {_COLOURS.get(rest, rest)}"
    if word == "challenge":
        return "Challenged the Wild Draw Four"
    if word == "accept":
        return "Accepted the Wild Draw Four"
    return f"Chose {m.action}"


def move_text(m: Moment, waiting: bool) -> Text:
    """The move made, its mark and cost, and the move the analysis prefers."""
    out = Text(move_words(m), Style(bold=True))
    if m.options:
        out.append("   ")
        out.append(m.mark, MARK_STYLES.get(m.mark, Style()))
        if m.cost > 0:
            out.append(f" (-{m.cost:.1f} points of chance)")
        if m.best and m.best != m.chosen:
            out.append("\nPreferred: ")
            out.append(_what(m.best), Style(bold=True))
        elif m.mark != "forced":
            out.append("   the analysis agrees")
    elif m.mark:
        out.append(f"   not analysed: {m.note}" if m.note else f"   {m.mark}", Style(dim=True))
    elif waiting:
        out.append("   (estimates when the analysis is done)", Style(dim=True))
    return out


def options_text(options: Sequence[OptionRow], width: int) -> Text:
    """Each option's chance of winning the round as a bar, best first, with its mark;
    ``>`` marks the move made."""
    if not options:
        return Text("")
    key_w = max(4, *(len(_what(o.key)) for o in options))
    key_w = min(key_w, 20)
    bar_w = max(6, width - key_w - 3 - len(" 100.0% -100.0 inaccuracy"))  # (the widest label)
    out = Text("Options (chance of winning the round)\n", Style(bold=True))
    for i, o in enumerate(options):
        filled = round(o.chance * bar_w)
        out.append("> " if o.chosen else "  ", Style(bold=True))
        out.append(f"{_what(o.key)[:key_w]:<{key_w}} ")
        out.append("#" * filled, MARK_STYLES.get(o.mark, Style()))
        out.append("." * (bar_w - filled), Style(dim=True))
        out.append(f" {100 * o.chance:5.1f}% ")
        label = "best" if o.best else (f"-{o.cost:.1f} {o.mark}" if o.cost > 0 else o.mark)
        out.append(label, MARK_STYLES.get("good" if o.best else o.mark, Style()))
        if i < len(options) - 1:
            out.append("\n")
    return out


def log_lines(view: SeatView, rows: int) -> Text:
    """The last ``rows`` lines of this round's log, as the seat saw it."""
    names = _names(view)
    lines = [describe(e, names, view.seat) for e in view.log]
    lines = [ln for ln in lines if ln][-max(1, rows):]
    out = Text("This round so far\n", Style(bold=True))
    out.append("\n".join(lines) if lines else "(nothing yet)", Style(dim=not lines))
    return out


def hindsight_text(m: Moment, hands: Sequence[Sequence[Card]], palette: str) -> Text:
    """Every other hand at that moment, labelled HINDSIGHT: the seat did not know them,
    and the analysis did not use them."""
    out = Text(" HINDSIGHT ", Style(bold=True, reverse=True))
    out.append(" the other hands at this moment\n")
    out.append("(unknown to the seat then; the analysis never uses them)", Style(italic=True))
    names = _names(m.view)
    for s, hand in enumerate(hands):
        if s != m.seat:
            out.append("\n")
            out.append_text(hand_line(hand, palette, f"{names[s]}:"))
    return out


_LEVELS = " .:-=+*#"


def chance_plot(values: Sequence[float | None], at: int, width: int, height: int) -> list[Text]:
    """The seat's winning chance across the match: one column per group of decisions
    (their mean), 0 to 100% bottom to top; the current decision's column reversed."""
    height = max(2, height)
    cols = max(1, min(len(values), width - 6))
    per = max(1, -(-len(values) // cols)) if values else 1
    cols = -(-len(values) // per) if values else 0
    here = at // per if values else -1
    means: list[float | None] = []
    for c in range(cols):
        chunk = [v for v in values[c * per:(c + 1) * per] if v is not None]
        means.append(sum(chunk) / len(chunk) if chunk else None)
    lines: list[Text] = []
    for r in range(height):
        top = 1 - r / height
        label = "100%" if r == 0 else (" 50%" if r == height // 2 else "    ")
        line = Text(f"{label} |")
        for c, mean in enumerate(means):
            low = top - 1 / height
            cell = "*" if mean is not None and low <= mean < top + (1e-9 if r == 0 else 0) else " "
            line.append(cell, Style(reverse=True) if c == here else Style())
        lines.append(line)
    lines.append(Text("  0% +" + "-" * cols))
    if 0 <= here < cols:  # (the reversed column is lost in plain text and in mono)
        lines.append(Text(" " * (6 + here) + "^ here", no_wrap=True, overflow="crop"))
    return lines


def summary_text(players: Sequence[str], summaries: Sequence[dict[str, Any]],
                 costly: dict[int, list[Moment]], seat: int) -> Text:
    """Per seat: the share matched, the chance given away, the marks, and the reviewed
    seat's three costliest moments."""
    out = Text("Summary\n", Style(bold=True, underline=True))
    for s in summaries:
        who = display_name(players[s["seat"]])
        out.append(f"{who}{' (reviewed)' if s['seat'] == seat else ''}: ", Style(bold=s["seat"] == seat))
        out.append(f"{s['matched']}/{s['judged']} best ({100 * s['share']:.0f}%), "
                   f"{s['given_away']:.1f} points of chance given away\n")
        marks = "  ".join(f"{k} {v}" for k, v in s["marks"].items())
        out.append(f"  {marks}\n", Style(dim=True))
    out.append("Costliest moments (1-3 to jump)\n", Style(bold=True))
    top = costly.get(seat, [])
    if not top:
        out.append("  none: every judged move was the best\n")
    for n, m in enumerate(top, 1):
        better = f", preferred {_what(m.best)}" if m.best else ""
        out.append(f"  {n}. round {m.round}, decision {m.index + 1}: {_what(m.chosen)} ")
        out.append(m.mark, MARK_STYLES.get(m.mark, Style()))
        out.append(f" -{m.cost:.1f}{better}\n")
    out.rstrip()
    return out
