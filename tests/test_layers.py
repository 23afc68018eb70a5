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
    """``unotui play`` to its first frame and the person's turn (the
    app's own start, run headless, with bench/tui.py's options) loads the
    table's messages but not the connection's (the codec, sessions, view sync, the
    handshake's messages), nor the network client, the journal's SQLite, the lobby or
    game review, the hard bot, the waiting room or the match record's handover: each is a
    share of its start-up that solo play never uses (or not before its first turn)."""
    code = (
        "import asyncio, json, sys\n"
        "from unotui.cli import build_parser, _command\n"
        "from unotui.ui.cli import build_options, play_app\n"
        "argv = ['play', '--seed', '1', '--delay', '0', '--rules', 'classic']  # bench/tui.py's\n"
        "args = build_parser(_command(['play'])).parse_args(argv)\n"
        "app = play_app(*build_options(args), menu=False)\n"
        "def played():  # dealt, the first card turned: the person is to play\n"
        "    t = app.table_screen\n"
        "    return t is not None and t.is_mounted and t.view is not None and len(t.view.log) > 0 \\\n"
        "        and t.view.turn == t.view.seat\n"
        "async def main():\n"
        "    async with app.run_test(size=(100, 30)) as pilot:\n"
        "        for _ in range(100):\n"
        "            if played(): break\n"
        "            await pilot.pause(0.05)\n"
        "        assert played()\n"
        "        print(json.dumps(sorted(sys.modules)))\n"
        "asyncio.run(main())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=60).stdout
    loaded = set(json.loads(out.splitlines()[-1]))
    assert "unotui.protocol.messages" in loaded and "unotui.net.local" in loaded
    unused = {f"unotui.protocol.{m}" for m in ("codec", "session", "sync", "shared", "link_messages",
                                                "table_messages")} | {
        "msgpack", "sqlite3", "unotui.net.remote", "unotui.net.journal", "unotui.lobby", "unotui.review",
        "tomllib",  # (the settings directory is empty here, as at a first start: no TOML to read)
        # a medium table's first turn needs no hard bot (nor its search, until a hint), no
        # waiting room (a hosted or joined table's) and no match record (a match's end)
        "unotui.bots.hard", "unotui.bots.search", "unotui.ui.screens.waiting", "unotui.net.handover",
        "unotui.ui.screens.menu"}  # (unotui play goes straight to the table: the menu loads on Escape)
    assert not loaded & unused, loaded & unused


def test_the_messages_module_offers_every_message_from_its_module_on_first_use() -> None:
    """Every name the messages module exports resolves, each from the module that defines
    it (the table's or the link's, whose names are all of them, once each); importing the
    messages module alone loads neither."""
    code = (
        "import json, sys; import unotui.protocol.messages as m; "
        "before = [k for k in ('unotui.protocol.table_messages', 'unotui.protocol.link_messages') "
        "if k in sys.modules]; "
        "names = {n: getattr(m, n).__module__ if isinstance(getattr(m, n), type) else '' "
        "for n in m.__all__}; "
        "import unotui.protocol.table_messages as t, unotui.protocol.link_messages as k; "
        "print(json.dumps([before, names, sorted(m.__all__), sorted(t.__all__ + k.__all__)]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, names, offered, defined = json.loads(out)
    assert before == []
    assert names["Hello"] == names["Welcome"] == "unotui.protocol.link_messages"
    assert names["Intent"] == names["ChatLine"] == names["TableState"] == "unotui.protocol.table_messages"
    assert offered == defined


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
              "unotui.transcript.cli", "unotui.review.cli", "unotui.ui.review_cli", "unotui.net.remote",
              "unotui.review"}
    assert not others & set(loaded), sorted(others & set(loaded))
