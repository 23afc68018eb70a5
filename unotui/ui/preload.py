"""What a forked session of the app needs, imported once by the SSH shell's forkserver.

``SshServer(preload=("unotui.ui.preload",))``: every module the app loads while it starts
(the terminal driver, the screens, the layouts) and the Unicode width table Rich loads on
first use are then shared by all sessions instead of being loaded into each one.  Measured
with the demo entry: about 3 MiB less per session.  Nothing here runs the app.
"""

from __future__ import annotations

import concurrent.futures.thread  # noqa: F401  (Textual's worker threads)
import faulthandler  # noqa: F401  (the SSH child enables it)
import queue  # noqa: F401
import resource  # noqa: F401
import termios  # noqa: F401
import tty  # noqa: F401

import textual.app
import textual.drivers.linux_driver
import textual.layouts.factory
import textual.layouts.horizontal
import textual.layouts.stream
import textual.scrollbar  # noqa: F401
from rich.cells import cell_len

# session_driver: for workers' threads (it imports the private Textual modules it uses)
from . import app, session_driver  # noqa: F401
from .screens import menu, table  # noqa: F401

cell_len("\u4e2d\u00e9")  # loads Rich's cell-width table (a large module) now, once
