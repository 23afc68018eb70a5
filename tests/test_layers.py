"""The layer rules at run time, in a clean interpreter.

The rules themselves are written once, as the import-linter contracts in
``pyproject.toml`` (CI runs ``lint-imports`` on them).  ``lint-imports`` reads the source:
with ``allow_indirect_imports`` it sees only a module's own imports, and it cannot see an
import made by name at run time.  So each contract is checked here a second way, from
the same table: import the contract's modules (every submodule) in a fresh interpreter
and look at what got loaded, through any chain of imports.  What no contract can say is
kept below by hand: the engine loads the standard library only (a contract lists what is
forbidden, not what is allowed), and the command line loads its heavy parts only when a
command needs them (it does import Textual, lazily, so a contract would forbid that)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _contracts() -> list[dict[str, Any]]:
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    contracts: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return [c for c in contracts if c["type"] == "forbidden"]


CASES = [
    pytest.param(contract, source, id=f"{source}: {contract['name']}")
    for contract in _contracts()
    for source in contract["source_modules"]
]

#: imports ``source`` and its submodules (but those a contract exempts), prints what that
#: added to ``sys.modules``: modules the interpreter had before any import (``time``) are
#: left to the contracts alone
_PROBE = """
import importlib, json, pkgutil, sys
source, skip = sys.argv[1], set(json.loads(sys.argv[2]))
before = set(sys.modules)
package = importlib.import_module(source)
names = [i.name for i in pkgutil.walk_packages(getattr(package, "__path__", []), source + ".")]
for name in names:
    if name not in skip:
        importlib.import_module(name)
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def _loaded_by(source: str, skip: list[str]) -> set[str]:
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, source, json.dumps(skip)], capture_output=True, text=True, check=True
    )
    return set(json.loads(run.stdout))


@pytest.mark.parametrize(("contract", "source"), CASES)
def test_each_contract_holds_at_run_time_through_every_chain_of_imports(contract: dict[str, Any],
                                                                         source: str) -> None:
    exempt = [rule.split("->")[0].strip() for rule in contract.get("ignore_imports", [])]
    loaded = _loaded_by(source, exempt)
    forbidden = contract["forbidden_modules"]
    bad = {m for m in loaded if any(m == f or m.startswith(f + ".") for f in forbidden)}
    assert not bad, f"importing {source} pulls in {sorted(bad)}"


def test_the_contracts_cover_the_layers_below_the_ui() -> None:
    """The run-time check is only as wide as the contracts: these must stay in them."""
    sources = {s for c in _contracts() for s in c["source_modules"]}
    assert {"unotui.engine", "unotui.bots", "unotui.table", "unotui.transcript", "unotui.protocol",
            "unotui.net", "unotui.lobby.sqlite_store", "unotui.ssh"} <= sources


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
    assert not {m for m in loaded if m.split(".")[0] in {"textual", "rich", "asyncssh", "msgpack"}}


def test_solo_play_loads_no_wire_format() -> None:
    """The app and solo play's table core (the start-up of ``unotui play``) load the
    protocol's messages and events but not its codec, sessions or view sync."""
    code = (
        "import json, sys; import unotui.ui.app, unotui.net.local; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(json.loads(out))
    wire = {f"unotui.protocol.{m}" for m in ("codec", "session", "sync", "shared")} | {"msgpack"}
    assert not loaded & wire, loaded & wire


def test_the_protocol_package_offers_each_of_its_names_from_its_module() -> None:
    """Its names load on first use (PEP 562): the table of where each lives matches the
    names it exports, and each resolves."""
    import unotui.protocol as protocol

    assert set(protocol._WHERE) == set(protocol.__all__)
    for name in protocol.__all__:
        assert getattr(protocol, name) is not None


def test_a_subcommand_loads_only_its_own_module() -> None:
    """``unotui play`` parses its arguments without importing the other subcommands'
    modules (the network client, the lobby, game review: a tenth of its start-up)."""
    code = (
        "import json, sys; from unotui.cli import build_parser, _command; "
        "a = build_parser(_command(['play', '--bots', 'hard'])).parse_args(['play', '--bots', 'hard']); "
        "print(json.dumps([a.bots, sorted(sys.modules)]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    bots, loaded = json.loads(out)
    assert bots == "hard"
    assert "unotui.ui.cli" in loaded
    others = {"unotui.ui.host_cli", "unotui.ui.join_cli", "unotui.lobby.cli", "unotui.sim.cli",
              "unotui.transcript.cli", "unotui.review.cli", "unotui.net.remote", "unotui.review"}
    assert not others & set(loaded), sorted(others & set(loaded))
