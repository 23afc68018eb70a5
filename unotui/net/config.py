"""How a hosted table is set up, and that set-up as the journal stores it.

One module for the configuration, apart from the room (the asyncio adapter) and the
table core (the rules of membership), so that both, and crash recovery, read it without
importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import Rules
from ..protocol.values import rules_in, rules_out
from ..table import AUTO_KEEP
from .password import check_hash, hash_password

__all__ = ["RoomConfig", "config_from_dict", "config_to_dict"]


@dataclass(frozen=True)
class RoomConfig:
    """How a hosted table is set up (``unotui host`` options).

    ``password`` is the clear password as the host typed it: it is hashed at once into
    ``password_hash`` and blanked, so no configuration (nor the journal, which stores
    them) ever holds the clear text (:mod:`unotui.net.password`)."""

    name: str = "unotui"
    seats: int = 4
    bots: int = 0
    rules: Rules = field(default_factory=Rules)
    password: str = field(default="", repr=False)
    level: str = "medium"
    turn_timer: float | None = None
    hold: float = 120.0
    bot_delay: float = 0.8
    catch_grace: float = 1.0
    auto_keep: float = AUTO_KEEP
    autostart: bool = False
    first_is_owner: bool = False  # lobby tables: the first person seated may start early
    private: bool = False  # lobby tables: left out of the list, joined by code
    password_hash: str = ""  # "": no password

    def __post_init__(self) -> None:
        if self.password:
            object.__setattr__(self, "password_hash", hash_password(self.password))
            object.__setattr__(self, "password", "")
        elif self.password_hash:
            check_hash(self.password_hash)


_PLAIN = ("name", "seats", "bots", "password_hash", "level", "turn_timer", "hold", "bot_delay", "catch_grace",
          "auto_keep", "autostart", "first_is_owner", "private")


def config_to_dict(config: RoomConfig) -> dict[str, object]:
    """A room's configuration as JSON-able values (the rules in their wire form; the
    password only as its hash)."""
    out: dict[str, object] = {key: getattr(config, key) for key in _PLAIN}
    out["rules"] = rules_out(config.rules)
    return out


def config_from_dict(data: dict[str, object]) -> RoomConfig:
    """The configuration :func:`config_to_dict` wrote.  A journal written before passwords
    were hashed has ``password`` in clear: it is hashed here (and the caller rewrites the
    row).  Such a journal's ``auto_keep`` was the pause before an *unplayable* drawn card
    was kept (0.8 s); it is now the pause before any drawn card is kept, so a journal of
    that age gets today's default rather than 0.8 s to play a card just drawn."""
    values = {key: data[key] for key in _PLAIN if key in data}
    if "password_hash" not in data:  # written before passwords were hashed (and auto-keep changed)
        values.pop("auto_keep", None)
    if data.get("password"):
        values["password"] = data["password"]
    return RoomConfig(rules=rules_in(data["rules"]), **values)  # type: ignore[arg-type]
