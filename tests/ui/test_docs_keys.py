"""docs/keys.md and the help screen name every key the table binds."""

from __future__ import annotations

from pathlib import Path

from textual.binding import Binding

from unotui.ui.screens.help import KEYS
from unotui.ui.screens.table import TableScreen

DOC = (Path(__file__).resolve().parents[2] / "docs" / "keys.md").read_text(encoding="utf-8")
NAMES = {
    "question_mark": "?",
    "exclamation_mark": "!",
    "left": "Left",
    "right": "Right",
    "home": "Home",
    "end": "End",
    "enter": "Enter",
    "space": "Space",
    "f1": "F1",
    "slash": "/",
    "escape": "Escape",
}


def test_every_table_key_is_documented() -> None:
    help_keys = " ".join(k for k, _ in KEYS)
    for binding in TableScreen.BINDINGS:
        assert isinstance(binding, Binding)
        for key in binding.key.split(","):
            name = NAMES.get(key, key)
            assert f"`{name}`" in DOC, f"{name} missing from docs/keys.md"
            if binding.show and key in ("d", "k", "c", "x", "a", "j", "n", "t", "u"):
                assert name in help_keys, f"{name} missing from the help screen"


def test_every_lobby_key_is_documented() -> None:
    from unotui.ui.screens.lobby import LobbyScreen

    lobby = DOC[DOC.index("## The SSH lobby"):]
    for binding in LobbyScreen.BINDINGS:
        assert isinstance(binding, Binding)
        for key in binding.key.split(","):
            name = NAMES.get(key, key)
            assert f"`{name}`" in lobby, f"{name} missing from the lobby's keys in docs/keys.md"


def test_every_match_summary_key_is_documented() -> None:
    from unotui.ui.screens.results import MatchOverScreen

    row = next(line for line in DOC.splitlines() if line.startswith("| match summary |"))
    for binding in MatchOverScreen.BINDINGS:
        assert isinstance(binding, Binding)
        for key in binding.key.split(","):
            name = NAMES.get(key, key)
            assert f"`{name}`" in row, f"{name} missing from the match summary's keys in docs/keys.md"


def test_every_review_key_is_documented_and_in_its_help() -> None:
    from unotui.ui.screens.help import REVIEW_KEYS
    from unotui.ui.screens.review import ReviewScreen

    names = {**NAMES, "right_square_bracket": "]", "left_square_bracket": "["}
    section = DOC[DOC.index("## The review screen"):DOC.index("## House rules screen")]
    help_keys = " ".join(k for k, _ in REVIEW_KEYS)
    for binding in ReviewScreen.BINDINGS:
        assert isinstance(binding, Binding)
        for key in binding.key.split(","):
            name = names.get(key, key)
            assert f"`{name}`" in section, f"{name} missing from the review's keys in docs/keys.md"
            assert name in help_keys, f"{name} missing from the review's help"
