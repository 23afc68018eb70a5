"""The real ``unotui serve`` and ``unotui host --headless --data-dir`` and their data
directory: everything 0700/0600 under umask 022 (an older, looser directory tightened),
a damaged table set aside while the host starts, and a garbage journal, store or host
key, or a ``--data-dir`` that is a file, one sentence and exit status 1."""

from __future__ import annotations

import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.net.test_journal import _free_port
from unotui.net.config import RoomConfig, config_to_dict
from unotui.net.journal import Journal, SavedSeat

pytestmark = pytest.mark.timeout(120)
REPO = Path(__file__).resolve().parents[2]
GARBAGE = b"\x00\xffnot a database, not a key\n" * 200


def started(args: list[str], ready: str) -> tuple[subprocess.Popen[str], list[str]]:
    """``python -m unotui ARGS`` under umask 022, once it printed a line with ``ready``;
    the lines so far."""
    process = subprocess.Popen([sys.executable, "-m", "unotui", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=REPO, umask=0o022)
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if ready in line:
            return process, lines
    process.kill()
    _out, err = process.communicate()
    raise AssertionError(f"{args[0]} did not start: {lines} {err}")


def stop(process: subprocess.Popen[str]) -> str:
    """SIGTERM, then what it wrote on stderr."""
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=20)
    return err


def serve_args(data: Path) -> list[str]:
    return ["serve", "--bind", "127.0.0.1", "--port", "0", "--ssh-port", "0", "--data-dir", str(data)]


def headless_args(data: Path) -> list[str]:
    return ["host", "--headless", "--bind", "127.0.0.1", "--port", str(_free_port()), "--seats", "2",
            "--data-dir", str(data)]


def modes(data: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in [data, *data.iterdir()]}


def test_serve_makes_its_directory_and_files_private_and_tightens_an_older_one(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for _ in ("a new directory", "the one an older unotui left readable"):
        process, _lines = started(serve_args(data), "TCP lobby on port")
        try:
            seen = modes(data)  # while it runs: the -wal and -shm of both databases are there
        finally:
            assert "Traceback" not in stop(process)
        assert {"journal.sqlite3-wal", "journal.sqlite3-shm", "lobby.sqlite3-wal", "lobby.sqlite3-shm",
                "ssh.log", "ssh_host_ed25519_key", "ssh_host_ed25519_key.pub"} <= set(seen)
        assert seen == {name: 0o700 if name == "data" else 0o600 for name in seen}
        for path in data.iterdir():
            path.chmod(0o644)
        data.chmod(0o755)


def test_headless_host_journal_is_private(tmp_path: Path) -> None:
    data = tmp_path / "data"
    process, _lines = started(headless_args(data), "hosting")
    try:
        seen = modes(data)
    finally:
        stop(process)
    assert "journal.sqlite3" in seen
    assert seen == {name: 0o700 if name == "data" else 0o600 for name in seen}


def damaged_journal(data: Path, code: str) -> None:
    """A journal whose table ``code`` has a seat row with a field missing."""
    data.mkdir()
    journal = Journal(data / "journal.sqlite3")
    journal.open_table(code, config_to_dict(RoomConfig(seats=2, autostart=True)), 0.0)
    journal.seats(code, [SavedSeat("Ann", "human", "token", False, "medium", None)])
    journal.close()
    db = sqlite3.connect(data / "journal.sqlite3")
    db.execute("UPDATE seats SET state = '[\"Ann\", \"human\"]'")
    db.commit()
    db.close()


@pytest.mark.parametrize("command", ["serve", "host"])
def test_a_damaged_table_is_set_aside_and_the_host_starts(tmp_path: Path, command: str) -> None:
    data = tmp_path / "data"
    damaged_journal(data, "AB12" if command == "serve" else "")
    args, ready = (serve_args(data), "TCP lobby on port") if command == "serve" else (headless_args(data),
                                                                                      "hosting")
    process, lines = started(args, ready)
    err = stop(process)
    assert any("is damaged in the journal" in x and "set aside in its quarantine" in x for x in lines)
    assert "Traceback" not in err


@pytest.mark.parametrize("damage", ["journal", "store", "host key", "a file"])
def test_garbage_in_the_data_directory_is_one_sentence_and_status_1(tmp_path: Path, damage: str) -> None:
    data = tmp_path / "data"
    if damage == "a file":
        data.write_bytes(GARBAGE)
    else:
        data.mkdir()
        name = {"journal": "journal.sqlite3", "store": "lobby.sqlite3", "host key": "ssh_host_ed25519_key"}
        (data / name[damage]).write_bytes(GARBAGE)
    commands = [serve_args(data)]
    if damage in ("journal", "a file"):
        commands.append(headless_args(data))
    if damage in ("store", "a file"):
        commands.append(["serve", "--data-dir", str(data), "--bans"])  # an operator command
    for args in commands:
        out = subprocess.run([sys.executable, "-m", "unotui", *args], capture_output=True, text=True,
                             timeout=60, cwd=REPO)
        assert out.returncode == 1, out.stderr
        assert "Traceback" not in out.stderr
        [line] = out.stderr.splitlines()
        assert line.startswith(f"unotui {args[0]}: ") and str(data) in line
