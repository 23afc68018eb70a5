"""What a new local game is made of (chosen on the command line, the menu or the settings)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..bots import BOT_NAMES
from ..engine import Rules

__all__ = ["GameOptions"]


@dataclass(frozen=True)
class GameOptions:
    """What a new game is made of."""

    players: int = 4
    level: str = "medium"
    rules: Rules = field(default_factory=Rules)
    name: str = "You"
    seed: int | None = None
    delay: float = 0.6
    catch_grace: float = 1.0
    #: seconds the table shows a round's last card before the summary covers it (0 in tests)
    summary_pause: float = 1.5

    def names(self) -> list[str]:
        """The person first, then the computer players."""
        return [self.name] + [BOT_NAMES[i % len(BOT_NAMES)] for i in range(self.players - 1)]
