"""The command line a user types: version, help, and subcommands not yet available."""

from __future__ import annotations

import subprocess
import sys

import unotui


def run(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "unotui", *args]
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def test_version() -> None:
    out = run("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"unotui {unotui.__version__}"


def test_help_lists_every_subcommand() -> None:
    out = run("--help")
    assert out.returncode == 0
    for name in ("play", "host", "join", "serve", "sim", "replay"):
        assert name in out.stdout


def test_unavailable_subcommand_says_so() -> None:
    out = run("serve")
    assert out.returncode == 2
    assert "not yet available" in out.stderr
    assert "Traceback" not in out.stderr
