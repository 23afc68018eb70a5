"""Each screen's stylesheet, read when the screen first opens, scoped to that screen.

Textual reads a screen's ``CSS_PATH`` files into the app's stylesheet unscoped and then
parses every source again from scratch (``Stylesheet.reparse``) and restyles every node
of every screen.  Two things follow, both seen here: a screen's rules style other screens
once it has been opened (``#keys``, ``#note`` and ``#problem`` are ids on more than one
screen: the house rules form lost its rows after the table's sheet was loaded), and
opening the table cost a full parse of all the app's CSS before its first frame.

:func:`load_screen_css` adds each file once per screen class, scoped to that class (its
rules match only inside it, as a widget's ``DEFAULT_CSS`` does), and styles just the new
screen: the stylesheet parses only the new source (it caches each source's rules), and
no other node can match rules scoped to a screen that was not open.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import Screen

__all__ = ["load_screen_css", "source_key"]


def source_key(path: str | Path, screen: Screen[Any]) -> tuple[str, str]:
    """Where the stylesheet keeps ``path``'s rules for ``screen``'s class: one copy a
    class (dialogs.tcss serves several dialogs, each with its own scope)."""
    return str(path), f"{screen._css_type_name}:scoped"


def load_screen_css(app: App[Any], screen: Screen[Any]) -> bool:
    """Read ``screen``'s ``CSS_PATH`` files into ``app``'s stylesheet, scoped to its
    class, if they are not there yet; returns whether anything was added."""
    if app.css_monitor is not None:  # textual run --dev: edits to the file reload it
        app.css_monitor.add_paths(screen.css_path)
    stylesheet = app.stylesheet
    if screen.CSS:  # inline CSS: no screen here has any; Textual's own way for one that would
        raise TypeError(f"{type(screen).__name__}.CSS: give a screen its sheet in CSS_PATH")
    added = False
    for path in screen.css_path:
        key = source_key(path, screen)
        if not stylesheet.has_source(*key):
            css = Path(path).read_text(encoding="utf-8")
            stylesheet.add_source(css, read_from=key, scope=screen._css_type_name)
            added = True
    if added:
        # The screen may already be registered (styled without these rules); its
        # children are not composed yet and get them when they are.
        stylesheet.update(screen)
    return added
