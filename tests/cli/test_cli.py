"""The command line a user types: version, help, and subcommands not yet available."""

from __future__ import annotations

import subprocess
import sys

import pytest

import unotui


def run(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "unotui", *args]
    return subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=60)


def test_version() -> None:
    out = run("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"unotui {unotui.__version__}"


def test_help_lists_every_subcommand() -> None:
    out = run("--help")
    assert out.returncode == 0
    for name in ("play", "host", "join", "serve", "sim", "replay"):
        assert name in out.stdout


def test_unavailable_subcommand_says_so(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from unotui import cli

    monkeypatch.setitem(cli.SUBCOMMANDS, "later", ("unotui.not_written_yet", "a command to come"))
    assert cli.main(["later"]) == 2
    err = capsys.readouterr().err
    assert "not yet available" in err and "Traceback" not in err


def test_serve_help_names_its_doors_and_limits() -> None:
    out = run("serve", "--help")
    assert out.returncode == 0
    for option in ("--ssh-port", "--port", "--data-dir", "--max-tables", "--max-sessions", "--ban", "--motd",
                   "--sessions-per-process"):
        assert option in out.stdout


def test_output_into_a_closed_pipe_ends_quietly(tmp_path: object) -> None:
    """``unotui replay FILE --json | head -c 10``: the reader goes away; no traceback."""
    import os
    from pathlib import Path

    transcript = Path(__file__).parent.parent / "transcript" / "transcripts" / "01-deal-passes-left.json"
    read, write = os.pipe()
    os.close(read)  # the reader has already gone: every write fails with EPIPE
    try:
        out = subprocess.run(
            [sys.executable, "-m", "unotui", "replay", str(transcript), "--json"],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=60,
        )
    finally:
        os.close(write)
    assert "Traceback" not in out.stderr and "BrokenPipeError" not in out.stderr, out.stderr
    assert out.returncode == 1


def test_help_says_plain_unotui_opens_the_menu() -> None:
    out = run("--help")
    assert "(the default)" not in out.stdout
    assert "with no command, unotui opens the main menu" in " ".join(out.stdout.split()).lower()


def test_join_help_shows_its_address_argument() -> None:
    out = run("join", "--help")
    assert out.returncode == 0
    assert "HOST[:PORT]" in out.stdout
    for option in ("--name", "--password", "--spectate"):
        assert option in out.stdout


def test_join_a_bad_address_exits_2_with_a_sentence() -> None:
    out = run("join", "host:99999")
    assert out.returncode == 2
    assert "not a port number" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "11"], "--seats must be 2-10"),
        (["--seats", "3", "--bots", "3"], "--bots must leave"),
        (["--turn-timer", "1"], "--turn-timer"),
        (["--rules", "nope"], "unknown preset"),
        (["--level", "genius"], "unknown bot level"),
    ],
)
def test_bad_host_arguments_exit_2_without_traceback(args: list[str], message: str) -> None:
    out = run("host", *args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr
