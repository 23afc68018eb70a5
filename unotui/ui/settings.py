"""The UI's settings: the player's settings file (:class:`Config`: name, preferred house
rules, bot level, theme, pacing) and what a new local game is made of (:class:`GameOptions`,
from the command line, the menu or the settings).

The file lives at ``config.toml`` in the platform's config directory (``platformdirs``), or
in ``$UNOTUI_CONFIG_DIR`` when that is set (tests point it at a temporary directory).
A missing or broken file gives the defaults; a broken one is never overwritten silently
(saving replaces it only when the player saves from the house-rules screen).  No Textual
here: the command line reads the settings before it decides to start a screen.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, NamedTuple

from ..bots import BOT_NAMES
from ..engine import Rules, RulesError
from ..protocol.text import clean, clean_name

__all__ = [
    "CONFIG_ENV",
    "HAND_ORDERS",
    "THEMES",
    "THEME_NOTES",
    "Config",
    "GameOptions",
    "config_path",
    "load_config",
    "save_changes",
    "save_config",
]

CONFIG_ENV = "UNOTUI_CONFIG_DIR"
THEMES: tuple[str, ...] = ("default", "colourblind", "mono")
#: what each theme is for (the command palette's line)
THEME_NOTES: dict[str, str] = {
    "default": "The usual card colours on a dark screen",
    "colourblind": "Card colours told apart with the common colour blindnesses (Okabe-Ito)",
    "mono": "No colour at all: the cards' letters and marks alone",
}
#: how the table shows the hand: as the cards arrived, by colour, by rank (the ``s`` key)
#: how the table shows your hand (the ``s`` key).  There is no "as dealt": a hand's order
#: would tell which card arrived when, so views carry hands sorted (see ``seat_view``).
HAND_ORDERS: tuple[str, ...] = ("colour", "rank")


class Config(NamedTuple):
    """Saved settings.  ``rules`` are the preferred house rules for new games."""

    name: str = "You"
    rules: Rules = Rules()
    bots: str = "medium"
    players: int = 4
    theme: str = "default"
    hand_order: str = "colour"
    delay: float = 0.6
    catch_grace: float = 1.0
    #: the address last typed in the menu's Join form (its name is ``name``; never a password)
    join_address: str = ""
    problems: tuple[str, ...] = ()

    def with_(self, **changes: Any) -> Config:
        """A copy with some settings changed."""
        return self._replace(**changes)


def config_path() -> Path:
    """Where the settings file is (it may not exist yet)."""
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env) / "config.toml"
    import platformdirs

    return Path(platformdirs.user_config_dir("unotui", appauthor=False)) / "config.toml"


def load_config(path: Path | None = None) -> Config:
    """The saved settings, or defaults (``problems`` says what could not be read)."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:  # a first start: nothing saved yet, and no TOML to load
        return Config()
    except (OSError, UnicodeDecodeError) as exc:
        return Config(problems=(f"{path}: {exc}",))
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return Config(problems=(f"{path}: {exc}",))
    problems: list[str] = []
    cfg = Config()
    if isinstance(data.get("name"), str):
        cfg = cfg.with_(name=clean_name(data["name"], "Player"))
    if isinstance(data.get("bots"), str):
        cfg = cfg.with_(bots=clean(data["bots"], 20, collapse=False))
    if isinstance(data.get("players"), int) and 2 <= data["players"] <= 10:
        cfg = cfg.with_(players=data["players"])
    if data.get("theme") in THEMES:
        cfg = cfg.with_(theme=data["theme"])
    if data.get("hand_order") in HAND_ORDERS:
        cfg = cfg.with_(hand_order=data["hand_order"])
    if isinstance(data.get("join_address"), str):
        from .join_request import ADDRESS_MAX  # (only a file that has one loads the join's checks)

        cfg = cfg.with_(join_address=clean(data["join_address"], ADDRESS_MAX))
    for key in ("delay", "catch_grace"):
        v = data.get(key)
        if isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 10:
            cfg = cfg.with_(**{key: float(v)})
    rules = data.get("rules")
    if isinstance(rules, dict):
        try:
            cfg = cfg.with_(rules=Rules.from_mapping(rules))
        except RulesError as exc:
            problems.append(f"{path} [rules]: {exc}")
    return cfg.with_(problems=tuple(problems))


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    import json  # here: only writing settings needs it, not every start

    # JSON string escapes are valid TOML basic-string escapes (no surrogates without ASCII).
    return json.dumps(str(value), ensure_ascii=False)


def dumps(cfg: Config) -> str:
    """The settings as a TOML document."""
    lines = [
        "# unotui settings (edit here or from the house-rules screen)",
        f"name = {_toml_value(cfg.name)}",
        f"bots = {_toml_value(cfg.bots)}",
        f"players = {cfg.players}",
        f"theme = {_toml_value(cfg.theme)}",
        f"hand_order = {_toml_value(cfg.hand_order)}",
        f"delay = {_toml_value(cfg.delay)}",
        f"catch_grace = {_toml_value(cfg.catch_grace)}",
        f"join_address = {_toml_value(cfg.join_address)}",
        "",
        "[rules]",
    ]
    mapping = cfg.rules.to_mapping()
    custom = mapping.pop("custom_wild")
    for key, value in mapping.items():
        lines.append(f"{key} = {_toml_value(value)}")
    lines += ["", "[rules.custom_wild]"]
    for key, value in custom.items():
        lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def save_config(cfg: Config, path: Path | None = None) -> Path:
    """Write the settings file (creating its directory); returns its path."""
    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(dumps(cfg), encoding="utf-8")
    tmp.replace(path)
    return path


def save_changes(**changes: Any) -> None:
    """Write just ``changes`` to the settings file (a theme cycled, a hand order, the
    Join form's address and name), leaving the rest as the file has it.

    The file is read again so that one-game overrides from the command line (``--theme``)
    are not saved with it, and a file that cannot be read is never overwritten (the
    change then lasts for this session).  A write error is not fatal.
    """
    on_disk = load_config()
    if not on_disk.problems:
        with contextlib.suppress(OSError):
            save_config(on_disk.with_(**changes))


class GameOptions(NamedTuple):
    """What a new local game is made of."""

    players: int = 4
    level: str = "medium"
    rules: Rules = Rules()
    name: str = "You"
    seed: int | None = None
    delay: float = 0.6
    catch_grace: float = 1.0
    #: seconds the table shows a round's last card before the summary covers it (0 in tests)
    summary_pause: float = 1.5

    def names(self) -> list[str]:
        """The person first, then the computer players."""
        return [self.name] + [BOT_NAMES[i % len(BOT_NAMES)] for i in range(self.players - 1)]
