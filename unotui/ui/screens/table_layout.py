"""How the table fits a terminal: the smallest it is drawn in, and the sizes that get
larger cards and a wider log.  A pure function of the size, apart from the screen, so
that the sizes are stated once and read without the screen's state.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.style import Style
from rich.text import Text

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "TALL", "WIDE", "Layout", "fit"]

#: the narrowest terminal the table is drawn in (the left column and the log side by side)
MIN_WIDTH = 66
#: rows the table needs besides the players panel (status, pile, message, hand, keys)
MIN_HEIGHT = 13
#: terminals at least this large get larger cards (tall) and a wider log (wide)
TALL, WIDE = 34, 110


class Layout(NamedTuple):
    """The table's layout for one terminal size."""

    tall: bool
    wide: bool
    #: below the smallest usable size, what the screen says instead of drawing the table
    notice: Text | None


def fit(width: int, height: int, players: int) -> Layout:
    """The layout for a ``width`` x ``height`` terminal at a table of ``players``: large
    terminals get larger cards and a wider log; below the smallest usable size a notice
    asks for a larger terminal instead of panels silently disappearing."""
    need = MIN_HEIGHT + players
    notice = None
    if width < MIN_WIDTH or height < need:
        notice = Text.assemble(
            ("Make the terminal larger\n", Style(bold=True)),
            f"It is {width} x {height}; the table needs {MIN_WIDTH} x {need}.\n\n",
            ("Ctrl+Q quits.", Style(dim=True)),
        )
    return Layout(height >= TALL, width >= WIDE, notice)
