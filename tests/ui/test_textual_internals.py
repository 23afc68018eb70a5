"""Textual's internals that unotui relies on, all named in :mod:`unotui.ui.session_driver`
(the one module that touches them): this fails when a Textual release changes them
underneath, before an SSH session does (pyproject pins ``textual>=8.2,<8.3``)."""

from __future__ import annotations

import ast
import hashlib
import inspect
import signal
from importlib.metadata import version
from pathlib import Path

import textual.app
from textual.app import App
from textual.drivers.linux_driver import LinuxDriver

from unotui.ui import session_driver
from unotui.ui.session_driver import COPIED, DRIVER_ATTRIBUTES, RELIES_ON, SessionDriver

UNOTUI = Path(__file__).resolve().parents[2] / "unotui"

#: sha256 (first 16 hex digits) of LinuxDriver's methods that SessionDriver rewrote from a
#: copy, as they were in the Textual it was written against (8.2.8)
COPIED_DIGESTS = {
    "__init__": "671887bbf938d1d8",
    "start_application_mode": "7c41f5ba11a8ef05",
    "disable_input": "6154c5a7c1743fe9",
    "run_input_thread": "d796af6d69db337d",
}


def test_textual_is_in_the_pinned_range() -> None:
    major, minor = (int(part) for part in version("textual").split(".")[:2])
    assert (major, minor) == (8, 2)


def test_every_private_name_relied_on_is_there() -> None:
    for owner, name in RELIES_ON:
        assert hasattr(owner, name), f"{owner!r} has no {name} any more"
    assert inspect.iscoroutinefunction(App._post_message)
    assert "redirect_stdout(self._capture_stdout)" in inspect.getsource(textual.app.App)


async def test_a_linux_driver_has_the_attributes_the_session_driver_sets_and_no_others() -> None:
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
    app = App[None]()
    try:
        driver = LinuxDriver(app)
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    for name in DRIVER_ATTRIBUTES:
        assert hasattr(driver, name), f"LinuxDriver has no {name} any more"

    class Terminal:
        fd, environ, size = 0, {}, (80, 24)

    bound = type("Bound", (SessionDriver,), {"terminal": Terminal()})(app)
    try:  # SessionDriver.__init__ is a copy of LinuxDriver's: it sets every attribute
        assert set(vars(driver)) <= set(vars(bound)), set(vars(driver)) - set(vars(bound))
    finally:
        bound.close()


def test_the_methods_copied_from_linux_driver_are_unchanged() -> None:
    assert set(COPIED) == set(COPIED_DIGESTS)
    for name in COPIED:
        source = inspect.getsource(getattr(LinuxDriver, name)).encode()
        digest = hashlib.sha256(source).hexdigest()[:16]
        assert digest == COPIED_DIGESTS[name], f"LinuxDriver.{name} changed: read SessionDriver's copy again"


def test_no_other_module_touches_textual_internals() -> None:
    """Only the session driver imports a private Textual module (``textual._x``
    or ``textual.x._y``)."""
    own = Path(session_driver.__file__).resolve()
    for path in UNOTUI.rglob("*.py"):
        if path.resolve() == own:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                parts = name.split(".")
                if parts[0] == "textual":
                    assert not any(p.startswith("_") for p in parts), f"{path}: imports {name}"


def test_the_screen_sheet_loader_replaced_is_the_one_it_was_written_against() -> None:
    """UnoApp._load_screen_css replaces Textual's (unotui.ui.screen_css): when Textual
    changes its own, read it again (it was 8.2.8's)."""
    source = inspect.getsource(App._load_screen_css).encode()
    assert hashlib.sha256(source).hexdigest()[:16] == "425ed568a77ad9ab"
