"""The SSH shell against a hostile client (asyncssh, or raw TCP, on loopback): what a
client sends is bounded before it is stored, and its free text cannot forge the log.

``env`` requests other than the few the shell uses are refused before asyncssh keeps
them; a ``TERM`` that is not a terminal's name is replaced (and never logged raw)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from unotui.ssh.spec import ENV_VALUE_MAX

from .ssh_support import ECHO, cli_server, connect, read_until, rss_mib, serving, spec_of

pytestmark = pytest.mark.timeout(60)

TERM = {"term_type": "xterm-256color", "term_size": (90, 25)}


def _hostile_env(big_values: int) -> dict[str, str]:
    """COLORTERM (kept), one value over the cap, 2,000 names and ``big_values`` values of
    200 KiB (one request's packet stays under asyncssh's 256 KiB)."""
    env = {"COLORTERM": "truecolor", "LONG": "z" * (ENV_VALUE_MAX + 1)}
    env.update({f"JUNK{n}": "x" * 100 for n in range(2000)})
    big = "y" * (200 * 1024)
    env.update({f"BIG{n}": big for n in range(big_values)})
    return env


async def test_env_requests_are_refused_before_they_are_stored(tmp_path: Path) -> None:
    env = _hostile_env(10)
    async with serving(tmp_path) as server, connect(server.port) as conn:
        proc = await conn.create_process(env=env, **TERM)
        payload = spec_of(await read_until(proc.stdout, b"\r\n"))
        assert payload["env"]["COLORTERM"] == "truecolor"  # the one it uses still arrives
        [session] = server.sessions()
        assert dict(session.client_env) == {"COLORTERM": "truecolor"}
        assert server.refused["env"] == len(env) - 1
        proc.stdin.write(b"q")
        await asyncio.wait_for(proc.wait(), 10)


async def test_env_requests_do_not_grow_the_server_process(tmp_path: Path) -> None:
    """The server in a process of its own (its RSS is not the client's): 16 MiB of ``env``
    leave it within a few MiB of where it was."""
    env = _hostile_env(80)
    with cli_server(tmp_path, ECHO) as cli:
        async with connect(cli.port) as conn:
            before = rss_mib(cli.process.pid)
            proc = await conn.create_process(env=env, **TERM)
            await read_until(proc.stdout, b"\r\n")
            grown = rss_mib(cli.process.pid) - before
            proc.stdin.write(b"q")
            await asyncio.wait_for(proc.wait(), 10)
    assert grown < 4, f"the server grew by {grown:.1f} MiB"


async def test_a_forged_term_cannot_forge_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="unotui.ssh")
    forged = "xterm\nERROR unotui.ssh: forged"
    async with serving(tmp_path) as server, connect(server.port, user="eve") as conn:
        proc = await conn.create_process(term_type=forged, term_size=(80, 24))
        payload = spec_of(await read_until(proc.stdout, b"\r\n"))
        assert payload["spec"]["term"] == payload["env"]["TERM"] == "xterm-256color"
        proc.stdin.write(b"q")
        await asyncio.wait_for(proc.wait(), 10)
    records = [r for r in caplog.records if r.name.startswith("unotui.ssh")]
    assert any("started" in r.getMessage() for r in records)
    for record in records:
        assert "\n" not in record.getMessage(), record.getMessage()
