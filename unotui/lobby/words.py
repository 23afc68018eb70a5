"""What the lobby says in words: the rules of a table in a few of them, and why a key's
held seat stays where it is.  Apart from the lobby's bookkeeping (:mod:`.lobby`), which
sends them, so that a sentence is found and changed in one place.
"""

from __future__ import annotations

from ..engine import Rules

__all__ = ["in_use_text", "rules_summary"]


def in_use_text(code: str) -> str:
    """Why a key is not sent back to its seat at table ``code``: another terminal of the
    key is at it (the lobby's line, and the table's refusal)."""
    return (f"Your seat at table {code} is in use in another terminal of your SSH key. "
            f"Sit at {code} to take it over here (you are asked first).")


def rules_summary(rules: Rules) -> str:
    """The rules in a few words for the list: the preset, then the house rules on."""
    extras = [
        label
        for on, label in (
            (rules.stacking.value != "off", f"stacking ({rules.stacking.value})"),
            (rules.seven_o, "7-0"),
            (rules.jump_in, "jump-in"),
            (rules.draw_to_match, "draw to match"),
            (rules.forced_play, "forced play"),
            (rules.no_bluffing, "no bluffing"),
            (rules.teams, "teams"),
            (rules.custom_wilds > 0, "custom wild"),
            (rules.target_score != 500, f"to {rules.target_score}"),
        )
        if on
    ]
    return ", ".join([rules.name, *extras])[:200]
