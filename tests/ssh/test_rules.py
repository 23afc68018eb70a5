"""The SSH shell's rules without sockets: admission (rates and caps), the exec allow-list,
the colour decision, and its place in the layers."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from unotui.ssh import SshLimits
from unotui.ssh.limits import Admission
from unotui.ssh.spec import CommandError, colour_env, parse_command, safe_term
from unotui.tokens import TokenBucket


def test_new_connections_per_address_follow_a_token_bucket() -> None:
    admission = Admission(SshLimits(rate_per_ip=5, rate_burst=5, per_ip=100))
    assert [admission.connect("a", 0.0) for _ in range(6)] == [None] * 5 + ["rate"]
    assert admission.connect("b", 0.0) is None  # another address has its own bucket
    assert admission.connect("a", 0.1) == "rate"  # half a token back: not yet
    assert admission.connect("a", 0.25) is None  # 0.5 + 0.75 tokens: one
    assert admission.connect("a", 10.0) is None


def test_past_the_refusals_an_address_is_cut_at_once() -> None:
    admission = Admission(SshLimits(per_ip=2, per_ip_refused=1, rate_burst=100))
    assert [admission.connect("a", 0) for _ in range(5)] == [None, None, "per_ip", "flood", "flood"]
    assert admission.connect("b", 0) is None
    for _ in range(5):
        admission.disconnect("a", admitted=False)
    assert admission.connect("a", 0) is None


def test_the_input_budget_is_a_token_bucket_of_bytes() -> None:
    budget = TokenBucket(rate=1000, burst=4000, now=0.0)
    assert budget.allowed(0.0) == 4000
    budget.spend(4000)
    assert budget.allowed(0.5) == 500 and budget.wait_for(1000) == 0.5
    budget.spend(500)
    assert budget.wait_for(10**6) == 4.0  # at most a burst is waited for
    assert budget.allowed(100.0) == 4000  # never more than the burst


@pytest.mark.parametrize(("term", "kept"), [
    ("xterm-256color", True), ("screen.xterm-256color", True), ("rxvt-unicode+x", True),
    ("xterm\nERROR unotui.ssh: forged", False), ("", False), ("a" * 33, False), ("xterm\x1b[31m", False),
])
def test_term_must_be_a_terminal_name(term: str, kept: bool) -> None:
    assert safe_term(term) == (term if kept else "xterm-256color")


def test_connections_at_once_per_address_and_in_all() -> None:
    admission = Admission(SshLimits(per_ip=2, max_sessions=3, rate_burst=100))
    assert admission.connect("a", 0) is None and admission.connect("a", 0) is None
    assert admission.connect("a", 0) == "per_ip"  # refused, but open until it is closed
    admission.disconnect("a", admitted=False)
    assert admission.connect("a", 0) == "per_ip"
    admission.disconnect("a", admitted=False)
    admission.disconnect("a", admitted=False)
    assert admission.connect("a", 0) is None  # one left: room for one more
    assert [admission.admit() for _ in range(4)] == [None, None, None, "full"]
    admission.disconnect("a", admitted=True)
    assert admission.admit() is None


def test_exec_words_are_checked_never_run() -> None:
    allowed = {"join", "spectate"}
    assert parse_command("join AB12", allowed) == ("join", "AB12")
    assert parse_command("  spectate   x ", allowed) == ("spectate", "x")
    assert parse_command("join", allowed) == ("join",)
    for bad in ("", "rm -rf /", "join a b", "join a;b", "join " + "A" * 13, "JOIN x", "join é", "sftp"):
        with pytest.raises(CommandError):
            parse_command(bad, allowed)


@pytest.mark.parametrize(
    ("term", "client", "truecolor"),
    [
        ("xterm-256color", None, False),
        ("xterm-256color", "truecolor", True),
        ("xterm-256color", "yes", False),
        ("xterm-direct", None, True),
        ("xterm-kitty", None, True),
        ("screen", None, False),
    ],
)
def test_24_bit_colour_only_when_the_client_says_so(term: str, client: str | None, truecolor: bool) -> None:
    assert (colour_env(term, client) == {"COLORTERM": "truecolor"}) is truecolor


@pytest.mark.parametrize("module", ["unotui.ssh", "unotui.ssh.server"])
def test_the_ssh_shell_loads_neither_textual_nor_the_game(module: str) -> None:
    code = f"import json, sys; import {module}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = json.loads(out)
    forbidden = ("textual", "rich", "unotui.ui", "unotui.engine")
    bad = [m for m in loaded if m.startswith(forbidden)]
    assert not bad
    if module == "unotui.ssh":
        assert "asyncssh" not in loaded  # entries import SessionSpec from here: keep it light
