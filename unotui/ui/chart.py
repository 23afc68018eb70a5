"""An ASCII chart of every seat's running score, round by round (pure text)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["score_chart"]


def score_chart(history: Sequence[Sequence[int]], height: int = 8, step: int = 5) -> list[str]:
    """Lines of a chart: x is the round (0 = start), y the running score.

    Each seat is drawn with its seat number (0-9); ``*`` where several meet.
    ``history[r]`` holds every seat's score after round ``r`` (``history[0]`` may be the
    start, all zeros).
    """
    if not history:
        return ["(no rounds played)"]
    top = max(1, max(max(row) for row in history))
    height = max(2, height)
    label_w = len(str(top))
    cols = (len(history) - 1) * step + 1
    grid = [[" "] * cols for _ in range(height)]
    for r, row in enumerate(history):
        x = r * step
        for seat, score in enumerate(row):
            y = height - 1 - round(score * (height - 1) / top)
            mark = str(seat % 10)
            cell = grid[y][x]
            grid[y][x] = mark if cell in (" ", mark) else "*"
    lines = []
    for i, cells in enumerate(grid):
        value = top if i == 0 else (0 if i == height - 1 else None)
        label = f"{value:>{label_w}}" if value is not None else " " * label_w
        lines.append(f"{label} |{''.join(cells)}")
    lines.append(" " * label_w + " +" + "-" * cols)
    axis = [" "] * cols
    for r in range(len(history)):
        for i, ch in enumerate(str(r)):
            if r * step + i < cols:
                axis[r * step + i] = ch
    lines.append(" " * label_w + "  " + "".join(axis) + "  round")
    return lines
