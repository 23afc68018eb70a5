"""An ASCII chart of every seat's running score, round by round (pure text).

The chart takes the score rows as an argument (``rows[r]``: every seat's total after
round ``r``, ``rows[0]`` the start), so whoever keeps them - the app today, the view
itself later - is the caller's business.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["chart_legend", "score_chart"]

#: the widest gap between two rounds on the x axis, in columns
MAX_STEP = 5


def score_chart(
    history: Sequence[Sequence[int]], height: int = 8, step: int = MAX_STEP, width: int | None = None
) -> list[str]:
    """Lines of a chart: x is the round (0 = start), y the running score.

    Each seat is drawn with its seat number (0-9); ``*`` where several meet.
    ``history[r]`` holds every seat's score after round ``r`` (``history[0]`` may be the
    start, all zeros).  ``height`` is the plot's rows; with ``width``, rounds are drawn
    closer together (down to one column each) so that the chart fits it.
    """
    if not history:
        return ["(no rounds played)"]
    top = max(1, max(max(row) for row in history))
    height = max(2, height)
    label_w = len(str(top))
    if width is not None and len(history) > 1:
        room = width - label_w - 2 - len(" round")
        step = max(1, min(step, room // (len(history) - 1)))
    cols = (len(history) - 1) * step + 1
    grid = [[" "] * cols for _ in range(height)]
    for r, row in enumerate(history):
        x = r * step
        for seat, score in enumerate(row):
            level = round(score * (height - 1) / top)
            if score > 0:  # (a few points on a short chart must not read as none)
                level = max(1, level)
            y = height - 1 - level
            mark = str(seat % 10)
            cell = grid[y][x]
            grid[y][x] = mark if cell in (" ", mark) else "*"
    middle = (height - 1) // 2
    lines = []
    for i, cells in enumerate(grid):
        if i == 0:
            value: int | None = top
        elif i == height - 1:
            value = 0
        elif i == middle and height >= 7:
            value = round(top * (height - 1 - i) / (height - 1))
        else:
            value = None
        label = f"{value:>{label_w}}" if value is not None else " " * label_w
        lines.append(f"{label} |{''.join(cells)}")
    lines.append(" " * label_w + " +" + "-" * cols)
    axis = [" "] * cols
    label_every = 1 if step >= 3 else (2 if step == 2 else 5)
    last = len(history) - 1
    for r in [last, *range(0, last, label_every)]:  # the last round is always labelled
        text = str(r)
        x = r * step
        if r != last and x + len(text) + 1 > last * step:
            continue  # (it would run into the last round's label)
        if all(c == " " for c in axis[max(0, x - 1) : x + len(text)]):
            axis[x : x + len(text)] = text  # (the last one's digits may run past the plot)
    lines.append(" " * label_w + "  " + "".join(axis) + "  round")
    return lines


def chart_legend(names: Sequence[str]) -> str:
    """What the chart's marks mean: each seat's number and name, and ``*``."""
    seats = "  ".join(f"{s % 10} {name}" for s, name in enumerate(names))
    return f"Marks: {seats}  (* several at one point)"
