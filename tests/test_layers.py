"""The layer rules, checked in a clean interpreter: importing a lower layer must not
pull in anything it may not use."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FORBIDDEN = {
    "unotui.engine": {"textual", "rich", "msgpack", "asyncssh", "asyncio", "platformdirs", "unotui.bots",
                      "unotui.ui"},
    "unotui.bots": {"textual", "rich", "msgpack", "asyncssh", "platformdirs", "unotui.ui"},
    "unotui.transcript": {"textual", "rich", "msgpack", "asyncssh", "asyncio", "unotui.ui"},
    "unotui.cli": {"textual", "rich", "asyncssh"},
    "unotui.protocol": {"textual", "rich", "asyncssh", "asyncio", "unotui.ui", "unotui.client", "unotui.net"},
    "unotui.net.host": {"textual", "rich", "asyncssh", "unotui.ui"},
    "unotui.net.remote": {"textual", "rich", "asyncssh", "unotui.ui"},
    "unotui.lobby.sqlite_store": {"textual", "rich", "asyncssh", "asyncio", "msgpack", "unotui.ui",
                                  "unotui.net"},
}


@pytest.mark.parametrize("module", sorted(FORBIDDEN))
def test_lower_layers_do_not_import_upper_ones(module: str) -> None:
    code = f"import json, sys; import {module}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(json.loads(out))
    bad = {m for m in loaded if any(m == f or m.startswith(f + ".") for f in FORBIDDEN[module])}
    assert not bad, f"{module} pulls in {sorted(bad)}"


def test_engine_imports_only_the_standard_library() -> None:
    code = (
        "import json, sys; before = set(sys.modules); import unotui.engine; "
        "print(json.dumps(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    new = json.loads(out)
    stdlib = set(sys.stdlib_module_names)
    outside = [m for m in new if m.split(".")[0] not in stdlib and m.split(".")[0] != "unotui"]
    assert not outside, outside


def test_help_stays_light() -> None:
    """``unotui --help`` and ``unotui replay`` must not load Textual or the network stack."""
    code = (
        "import json, sys; from unotui.cli import build_parser; build_parser(); "
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(json.loads(out))
    assert not {m for m in loaded if m.split(".")[0] in {"textual", "asyncssh", "msgpack"}}
