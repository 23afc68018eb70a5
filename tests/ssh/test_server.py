"""The SSH shell with asyncssh as the client (a real SSH client, no terminal needed):
identity, exec allow-list, refusals, limits, the pty and the child's life.

The tests of a session's life run twice: a process per session, and two sessions per
worker process (``per_process``: the echo entry's app form in a worker's thread)."""

from __future__ import annotations

import asyncio
import stat
import time
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from unotui.ssh import SshLimits
from unotui.ssh.server import HOST_KEY_FILE
from unotui.ssh.session import RESET

from .ssh_support import connect, read_until, serving, spec_of

pytestmark = pytest.mark.timeout(60)

TERM = {"term_type": "xterm-256color", "term_size": (90, 25)}


@pytest.fixture(params=[1, 2], ids=["process", "worker"])
def per_process(request: pytest.FixtureRequest) -> dict[str, Any]:
    """``serving`` arguments: one session per process, or two per worker."""
    return {"sessions_per_process": request.param}


async def test_key_user_term_size_extra_and_environment_reach_the_child(
    tmp_path: Path, per_process: dict[str, Any]
) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    extra = {"lobby": "127.0.0.1:9"}
    async with (
        serving(tmp_path, extra_for=lambda spec: {**extra, "user_seen": spec.user}, **per_process) as server,
        connect(server.port, key, user="Zoë [31m") as conn,
    ):
        proc = await conn.create_process(**TERM)
        out = await read_until(proc.stdout, b"\r\n")
        payload = spec_of(out)
        spec = payload["spec"]
        assert spec["fingerprint"] == key.get_fingerprint("sha256")
        assert spec["user"] == "Zoë [31m"  # raw: the lobby cleans it
        assert spec["term"] == "xterm-256color" and spec["size"] == [90, 25]
        assert spec["command"] == [] and spec["peer"] == "127.0.0.1"
        assert spec["extra"] == {"lobby": "127.0.0.1:9", "user_seen": "Zoë [31m"}
        env = payload["env"]
        assert env["TERM"] == "xterm-256color" and env["COLORTERM"] is None
        assert env["LANG"] == env["LC_ALL"] == "C.UTF-8"
        assert env["USER"] is None and env["SSH_CONNECTION"] is None
        assert payload["tty"] is True
        assert server.sessions_now == 1
        [session] = server.sessions()
        if per_process["sessions_per_process"] > 1:  # a thread in a worker, not a process of its own
            assert session.worker is not None and payload["thread"] == f"session-{session.number}"
            assert payload["pid"] == session.pid == session.worker.pid
        else:
            assert session.worker is None
        proc.stdin.write(b"q")
        result = await asyncio.wait_for(proc.wait(), 10)
        assert result.exit_status == 0
    key_file = tmp_path / HOST_KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


async def test_a_guest_without_a_key_has_no_fingerprint(tmp_path: Path, per_process: dict[str, Any]) -> None:
    async with serving(tmp_path, **per_process) as server, connect(server.port, user="guest") as conn:
        proc = await conn.create_process(term_type="xterm-direct", term_size=(80, 24))
        spec = spec_of(await read_until(proc.stdout, b"\r\n"))
        assert spec["spec"]["fingerprint"] is None and spec["spec"]["user"] == "guest"
        assert spec["env"]["COLORTERM"] == "truecolor"  # TERM says 24-bit colour
        proc.stdin.write(b"q")
        await asyncio.wait_for(proc.wait(), 10)


async def test_the_pty_is_raw_ctrl_c_is_a_byte_and_resizes_arrive(
    tmp_path: Path, per_process: dict[str, Any]
) -> None:
    async with serving(tmp_path, **per_process) as server, connect(server.port) as conn:
        proc = await conn.create_process(**TERM)
        await read_until(proc.stdout, b"\r\n")
        proc.stdin.write(b"\x03")  # Ctrl+C: no SIGINT in raw mode, the app reads it
        await read_until(proc.stdout, b"got 03")
        proc.stdin.write(b"\x1c")  # Ctrl+\ neither (no SIGQUIT)
        await read_until(proc.stdout, b"got 1c")
        proc.change_terminal_size(132, 43)
        await read_until(proc.stdout, b"size 132x43")
        proc.stdin.write(b"q")
        assert (await asyncio.wait_for(proc.wait(), 10)).exit_status == 0


async def test_exec_words_on_the_allow_list_reach_the_child(
    tmp_path: Path, per_process: dict[str, Any]
) -> None:
    async with serving(tmp_path, **per_process) as server, connect(server.port) as conn:
        proc = await conn.create_process("join ABC123", **TERM)
        spec = spec_of(await read_until(proc.stdout, b"\r\n"))
        assert spec["spec"]["command"] == ["join", "ABC123"]
        proc.stdin.write(b"q")
        await asyncio.wait_for(proc.wait(), 10)


@pytest.mark.parametrize(
    "command", ["rm -rf /", "join ABC DEF", "join ../etc", "join ABCDEFGHIJKLM", "sh -c id", "spectate $(id)"]
)
async def test_anything_else_is_refused_with_status_2(tmp_path: Path, command: str) -> None:
    async with serving(tmp_path) as server, connect(server.port) as conn:
        result = await asyncio.wait_for(conn.run(command, **TERM), 10)
        assert result.exit_status == 2
        assert result.stdout.startswith(b"unotui: ") and result.stdout.count(b"\n") == 1
        assert server.refused["exec"] == 1 and server.sessions_now == 0


async def test_exec_without_a_pty_says_to_use_ssh_t(tmp_path: Path) -> None:
    async with serving(tmp_path) as server, connect(server.port) as conn:
        result = await asyncio.wait_for(conn.run("join ABC"), 10)
        assert result.exit_status == 2
        assert b"run ssh with -t" in result.stdout and b"join ABC" in result.stdout


async def test_sftp_port_forwarding_and_a_second_session_are_refused(tmp_path: Path) -> None:
    async with serving(tmp_path) as server, connect(server.port) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await asyncio.wait_for(conn.start_sftp_client(), 10)
        with pytest.raises(asyncssh.ChannelOpenError):
            await asyncio.wait_for(conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 22), 10)
        with pytest.raises(asyncssh.ChannelListenError):
            await asyncio.wait_for(conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22), 10)
        proc = await conn.create_process(**TERM)
        await read_until(proc.stdout, b"\r\n")
        with pytest.raises(asyncssh.ChannelOpenError):
            await asyncio.wait_for(conn.create_process(**TERM), 10)
        proc.stdin.write(b"q")
        await asyncio.wait_for(proc.wait(), 10)
        assert server.refused["subsystem"] == 1 and server.refused["forward"] == 2
        assert server.refused["session"] == 1


@pytest.mark.parametrize(("key", "status"), [(b"e", 3), (b"k", 1), (b"r", 1)])
async def test_an_abnormal_end_resets_the_terminal_and_logs_the_traceback(
    tmp_path: Path, key: bytes, status: int, caplog: pytest.LogCaptureFixture, per_process: dict[str, Any]
) -> None:
    async with serving(tmp_path, **per_process) as server, connect(server.port) as conn:
        proc = await conn.create_process(**TERM)
        await read_until(proc.stdout, b"\r\n")
        proc.stdin.write(key)
        result = await asyncio.wait_for(proc.wait(), 10)
        assert result.exit_status == status
        assert RESET in result.stdout and b"ended unexpectedly" in result.stdout
        assert b"Traceback" not in result.stdout and b"boom" not in result.stdout
        assert server.sessions_now == 0
    if key == b"r":
        assert "RuntimeError: boom from the echo entry" in caplog.text


async def test_idle_sessions_end_with_a_message(tmp_path: Path, per_process: dict[str, Any]) -> None:
    limits = SshLimits(idle_timeout=1.0)
    async with serving(tmp_path, limits=limits, **per_process) as server, connect(server.port) as conn:
        proc = await conn.create_process(**TERM)
        await read_until(proc.stdout, b"\r\n")
        proc.stdin.write(b"a")  # a key restarts the clock
        await read_until(proc.stdout, b"got 61")
        keyed = time.monotonic()
        result = await asyncio.wait_for(proc.wait(), 10)
        assert time.monotonic() - keyed >= 0.9
        assert b"without a key" in result.stdout and RESET in result.stdout


async def test_closing_the_server_tells_the_players(tmp_path: Path, per_process: dict[str, Any]) -> None:
    async with serving(tmp_path, **per_process) as server, connect(server.port) as conn:
        proc = await conn.create_process(**TERM)
        await read_until(proc.stdout, b"\r\n")
        await asyncio.wait_for(server.close(), 10)
        result = await asyncio.wait_for(proc.wait(), 10)
        assert b"shutting down" in result.stdout


async def _refused_line(port: int) -> str:
    async with connect(port) as conn:
        result = await asyncio.wait_for(conn.run("join X", **TERM), 10)
        assert result.exit_status == 1
        return bytes(result.stdout).decode()


async def test_over_the_session_cap_the_client_reads_why(tmp_path: Path) -> None:
    async with serving(tmp_path, limits=SshLimits(max_sessions=1)) as server, connect(server.port) as conn:
        proc = await conn.create_process(**TERM)
        await read_until(proc.stdout, b"\r\n")
        assert "server is full" in await _refused_line(server.port)
        assert server.refused["full"] == 1
        proc.stdin.write(b"q")
        await asyncio.wait_for(proc.wait(), 10)


async def test_per_address_caps_and_rates(tmp_path: Path) -> None:
    limits = SshLimits(per_ip=2, rate_per_ip=0.5, rate_burst=3)
    async with serving(tmp_path, limits=limits) as server:
        async with connect(server.port) as one, connect(server.port) as two:
            assert one is not None and two is not None
            assert "Too many connections" in await _refused_line(server.port)  # 3rd at once
        assert "Too many new connections" in await _refused_line(server.port)  # 4th in a second
        assert server.refused["per_ip"] == 1 and server.refused["rate"] == 1
        await asyncio.sleep(0.1)
        assert server.connections_now == 0
