"""``unotui serve``'s operator commands, through the real command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from unotui.lobby.sqlite_store import SqliteStore

FP = "SHA256:abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unotui", "serve", *args], capture_output=True, text=True,
                          timeout=60)


def test_ban_unban_motd_and_kick_change_the_store_and_exit(tmp_path: Path) -> None:
    data = tmp_path / "data"
    out = serve("--data-dir", str(data), "--ban", FP, "--reason", "spam in chat")
    assert out.returncode == 0 and f"banned {FP}" in out.stdout
    assert FP in serve("--data-dir", str(data), "--bans").stdout
    assert serve("--data-dir", str(data), "--motd", "Be kind.").returncode == 0
    assert serve("--data-dir", str(data), "--kick", FP).returncode == 0
    store = SqliteStore(data / "lobby.sqlite3")
    try:
        assert store.banned(FP) == "spam in chat"
        assert store.motd() == "Be kind."
        assert [e.kind for e in store.recent_events(5)][-2:] == ["ban", "kick"]
    finally:
        store.close()
    out = serve("--data-dir", str(data), "--unban", FP)
    assert out.returncode == 0 and "unbanned" in out.stdout
    assert "not banned" in serve("--data-dir", str(data), "--unban", FP).stdout


def test_bad_ports_and_limits_are_one_line_errors(tmp_path: Path) -> None:
    out = serve("--data-dir", str(tmp_path), "--port", "70000")
    assert out.returncode == 2 and "--port must be 0-65535" in out.stderr and "Traceback" not in out.stderr
    out = serve("--data-dir", str(tmp_path), "--max-tables", "0")
    assert out.returncode == 2 and "at least 1" in out.stderr
    out = serve("--data-dir", str(tmp_path), "--sessions-per-process", "0")
    assert out.returncode == 2 and "--sessions-per-process must be at least 1" in out.stderr
    out = serve("--data-dir", str(tmp_path), "--public-host", "uno.example.org;\x1b[2J")
    assert out.returncode == 2 and "--public-host must be a host name or address" in out.stderr
    out = serve("--data-dir", str(tmp_path), "--public-host=-oProxyCommand=x")
    assert out.returncode == 2 and "--public-host must be a host name or address" in out.stderr


def test_bad_retention_and_review_options_are_one_line_errors(tmp_path: Path) -> None:
    for args, said in ((("--keep-matches", "101"), "--keep-matches must be 0-100"),
                       (("--keep-total", "-1"), "--keep-total and --review-slots at least 0"),
                       (("--review-slots", "-1"), "--keep-total and --review-slots at least 0"),
                       (("--keep-days", "0"), "--keep-days must be above 0"),
                       (("--keep-days", "nan"), "--keep-days must be above 0")):
        out = serve("--data-dir", str(tmp_path), *args)
        assert out.returncode == 2 and said in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr
    shown = serve("--help").stdout
    assert all(o in shown for o in ("--keep-matches", "--keep-days", "--keep-total", "--review-slots"))
