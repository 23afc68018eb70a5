"""The SSH shell against a hostile client (asyncssh, or raw TCP, on loopback): what a
client sends is bounded before it is stored, and its free text cannot forge the log.

``env`` requests other than the few the shell uses are refused before asyncssh keeps
them; a ``TERM`` that is not a terminal's name is replaced (and never logged raw)."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from tests.net.lan_support import until
from unotui.ssh import SshLimits
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


async def test_over_the_per_address_cap_a_connection_is_closed_before_the_handshake(tmp_path: Path) -> None:
    """Silent raw TCP connections: ``per_ip`` of them are held (waiting to log in), then
    ``per_ip_refused`` more (to be told why once they log in); every one after those is
    closed at once, before the server has sent a byte."""
    limits = SshLimits(per_ip=2, per_ip_refused=1, rate_per_ip=100.0, rate_burst=100)
    async with serving(tmp_path, limits=limits) as server:
        held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(3)]
        for reader, _writer in held:
            assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"SSH-2.0-unotui")
        cut = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(20)]
        for reader, _writer in cut:
            assert await asyncio.wait_for(reader.read(), 2) == b""  # EOF, no version line
        assert server.refused["flood"] == 20
        for reader, _writer in held:  # still open: no EOF yet
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(reader.read(1), 0.2)
        for _reader, writer in held + cut:
            writer.close()
        await until(lambda: server.connections_now == 0)
        # The address's count went back to nothing: it may connect (and log in) again.
        async with connect(server.port) as conn:
            proc = await conn.create_process(**TERM)
            await read_until(proc.stdout, b"SPEC ")
            proc.stdin.write(b"q")
            await asyncio.wait_for(proc.wait(), 10)


async def test_silent_connections_from_many_addresses_are_capped_in_all(tmp_path: Path) -> None:
    """Each address within its own cap, but together past ``max_silent``: a new connection
    from yet another address is closed at once (file descriptors are the whole server's);
    one that logs in is no longer silent, and once some close others get in again."""
    limits = SshLimits(max_silent=3, rate_per_ip=100.0, rate_burst=100)
    async with serving(tmp_path, limits=limits) as server:
        async def silent(k: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
            return await asyncio.open_connection("127.0.0.1", server.port, local_addr=(f"127.77.0.{k}", 0))

        held = [await silent(k) for k in (1, 2, 3)]
        for reader, _writer in held:
            assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"SSH-2.0-unotui")
        reader, writer = await silent(4)
        assert await asyncio.wait_for(reader.read(), 2) == b""  # EOF, no version line
        writer.close()
        assert server.refused["flood"] == 1
        for _reader, old in held[:2]:
            old.close()
        await until(lambda: server.connections_now == 1)
        async with connect(server.port) as conn:  # logs in: it holds no silent slot
            proc = await conn.create_process(**TERM)
            await read_until(proc.stdout, b"SPEC ")
            more = [await silent(k) for k in (5, 6)]  # with the one left: three silent again
            for late, _w in more:
                assert (await asyncio.wait_for(late.readline(), 5)).startswith(b"SSH-2.0-unotui")
            proc.stdin.write(b"q")
            await asyncio.wait_for(proc.wait(), 10)
        for _reader, w in [held[2], *more]:
            w.close()


async def test_a_logged_in_connection_that_opens_no_session_is_closed(tmp_path: Path) -> None:
    limits = SshLimits(no_session_timeout=0.5)
    async with serving(tmp_path, limits=limits) as server, connect(server.port) as conn:
        began = time.monotonic()
        await asyncio.wait_for(conn.wait_closed(), 5)
        assert 0.4 <= time.monotonic() - began < 3
        assert server.refused["no_session"] == 1
        await until(lambda: server.connections_now == 0)
    # One that opens a session in time keeps it past the timeout.
    async with serving(tmp_path, limits=limits) as server, connect(server.port) as conn:
        proc = await conn.create_process(**TERM)
        await read_until(proc.stdout, b"SPEC ")
        await asyncio.sleep(0.8)
        proc.stdin.write(b"a")
        await read_until(proc.stdout, b"got 61")
        proc.stdin.write(b"q")
        await asyncio.wait_for(proc.wait(), 10)
        assert server.refused["no_session"] == 0



async def test_a_typed_in_band_resize_is_ignored_in_a_session_of_its_own(tmp_path: Path) -> None:
    """``--sessions-per-process 1``: the app runs on the process's own pty with Textual's
    LinuxDriver, guarded the same way as in a worker: a forged "mode 2048 supported"
    report and a typed ``ESC[48;200;300;0;0t`` leave it at the SSH window's size."""
    async with serving(tmp_path, "tests.ssh.entries:crash_app") as server, connect(server.port) as conn:
        proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
        seen = await read_until(proc.stdout, b"size 80x24", 20)
        proc.stdin.write(b"\x1b[?2048;1$y\x1b[48;200;300;0;0tc")
        seen += await read_until(proc.stdout, b"count 1", 20)
        proc.stdin.write(b"\x1b[48;50;120;0;0tc")
        seen += await read_until(proc.stdout, b"count 2", 20)
        assert b"300x200" not in seen and b"120x50" not in seen
        proc.stdin.write(b"q")
