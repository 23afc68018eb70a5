"""The app's Textual themes, one for each of the settings' themes (``THEMES``).

The card palettes (``render.PALETTES``) colour the cards; these colour everything else.
The colourblind palette changes only the cards, so it keeps Textual's dark theme; the
monochrome one needs a theme of its own with no colour in it at all.
"""

from __future__ import annotations

from textual.theme import Theme

__all__ = ["MONO", "TEXTUAL_THEMES"]

MONO = Theme(
    name="unotui-mono",
    primary="#ffffff",
    secondary="#c0c0c0",
    accent="#e0e0e0",
    warning="#ffffff",
    error="#ffffff",
    success="#ffffff",
    foreground="#ffffff",
    background="#000000",
    surface="#101010",
    panel="#202020",
    dark=True,
)
#: a settings theme -> the Textual theme the app runs with
TEXTUAL_THEMES = {"default": "textual-dark", "colourblind": "textual-dark", "mono": MONO.name}
