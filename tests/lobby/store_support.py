"""What the store's tests share: a clock that ticks, a table row and a placing."""

from __future__ import annotations

from unotui.lobby.store import Placing, TableRow


class Clock:
    """A clock that ticks one second per reading."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


def table(code: str, status: str = "waiting", created: float = 1.0, private: bool = False) -> TableRow:
    return TableRow(code, f"table {code}", 4, 1, 1, "classic, to 500", status, private, 30.0, created)


def seat(name: str, rank: int, ident: str | None = None, bot: str | None = None, points: int = 0) -> Placing:
    return Placing(name, rank, points, ident, bot)
