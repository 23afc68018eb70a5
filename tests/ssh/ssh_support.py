"""Helpers for the SSH shell's tests: a server in this event loop or in a subprocess,
asyncssh clients (with a key or as a guest) and OpenSSH command lines."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

from unotui.ssh import SshLimits, SshServer

from ..e2e.tmux_support import tmux, wait_for, wait_match

ECHO = "tests.ssh.entries:echo"
ECHO_APP = "tests.ssh.entries:echo_app"
REPO = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def serving(
    data_dir: Path, entry: str = ECHO, limits: SshLimits | None = None, sessions_per_process: int = 1,
    **kwargs: Any
) -> AsyncIterator[SshServer]:
    """An :class:`SshServer` on 127.0.0.1 (any port) for the ``async with`` body; with
    ``sessions_per_process`` > 1, workers run ``app_entry`` (the echo app unless given)."""
    limits = dataclasses.replace(limits or SshLimits(), sessions_per_process=sessions_per_process)
    if sessions_per_process > 1:
        kwargs.setdefault("app_entry", ECHO_APP)
    server = SshServer(entry, data_dir, limits, preload=(), **kwargs)
    await asyncio.wait_for(server.start("127.0.0.1", 0), 30)
    try:
        yield server
    finally:
        await asyncio.wait_for(server.close(), 15)


class Guest(asyncssh.SSHClient):
    """A client without a key: keyboard-interactive, answering no prompts."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str, prompts: Any) -> list[str]:
        return []


def connect(port: int, key: asyncssh.SSHKey | None = None, user: str = "ada") -> Any:
    """``asyncssh.connect`` to the test server: with ``key``, else as a guest."""
    return asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, client_factory=Guest,
        client_keys=[key] if key is not None else None, agent_path=None, encoding=None,
        preferred_auth="publickey" if key is not None else "keyboard-interactive",
    )


async def read_until(stream: Any, needle: bytes, timeout: float = 10) -> bytes:
    """Bytes from ``stream`` up to and including ``needle``; fail after ``timeout``."""
    data = b""

    async def _read() -> bytes:
        nonlocal data
        while needle not in data:
            chunk = await stream.read(65536)
            if not chunk:
                raise AssertionError(f"EOF before {needle!r}; got {data!r}")
            data += chunk
        return data

    try:
        return await asyncio.wait_for(_read(), timeout)
    except TimeoutError:
        raise AssertionError(f"{needle!r} never came; got {data!r}") from None


def spec_of(output: bytes) -> dict[str, Any]:
    """The payload the echo entry printed first."""
    line = output.split(b"SPEC ", 1)[1].split(b"\r\n", 1)[0]
    return dict(json.loads(line))


@dataclass
class CliServer:
    """``python -m unotui.ssh`` running in a subprocess."""

    process: subprocess.Popen[str]
    port: int
    fingerprint: str
    data_dir: Path

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Screen:
    """One asyncssh session's output, read all the time into a buffer."""

    def __init__(self, proc: Any) -> None:
        self.proc = proc
        self.data = b""
        self._task = asyncio.ensure_future(self._read())
        self._more = asyncio.Event()

    async def _read(self) -> None:
        while chunk := await self.proc.stdout.read(65536):
            self.data += chunk
            self._more.set()
        self._more.set()

    async def wait(self, needle: bytes, since: int = 0, timeout: float = 10) -> int:
        """Wait until ``needle`` is in the output after offset ``since``; the offset after it."""
        deadline = time.monotonic() + timeout
        while (at := self.data.find(needle, since)) < 0:
            left = deadline - time.monotonic()
            if left <= 0 or self._task.done():
                raise AssertionError(f"{needle!r} never came; got {self.data[-400:]!r}")
            self._more.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._more.wait(), left)
        return at + len(needle)

    @property
    def ended(self) -> bool:
        """The session's output has ended (the server closed it, or it was closed)."""
        return self._task.done()

    def key(self, text: str) -> int:
        """Send ``text``; the output offset before it."""
        mark = len(self.data)
        self.proc.stdin.write(text.encode())
        return mark


def start_cli_server(data_dir: Path, entry: str, *args: str) -> CliServer:
    """Start the server CLI (Textual preloaded) and wait for its ``listening`` line."""
    command = [
        sys.executable, "-m", "unotui.ssh", "--port", "0", "--data-dir", str(data_dir), "--entry", entry,
        "--preload", "unotui.ui.preload", *args,
    ]
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=REPO, env=env)
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    line = ""
    while time.monotonic() < deadline and process.poll() is None:
        line = process.stdout.readline()
        if line.startswith("listening "):
            break
    if not line.startswith("listening "):
        process.kill()
        raise AssertionError(f"the server did not start: {line!r}")
    _, address, _, fingerprint = line.split()
    return CliServer(process, int(address.rsplit(":", 1)[1]), fingerprint, data_dir)


@contextlib.contextmanager
def cli_server(data_dir: Path, entry: str, *args: str) -> Iterator[CliServer]:
    server = start_cli_server(data_dir, entry, *args)
    try:
        yield server
    finally:
        server.stop()


def ssh_argv(port: int, home: Path, *options: str, key: Path | None = None, user: str = "ada") -> list[str]:
    """An OpenSSH command line to the test server (no config, its own known_hosts).

    ``options`` come first: for ``-o`` OpenSSH keeps the first value given.
    """
    argv = [
        "ssh", *options, "-F", "/dev/null", "-o", "StrictHostKeyChecking=accept-new",
        "-o", f"UserKnownHostsFile={home / 'known_hosts'}", "-o", "LogLevel=ERROR", "-p", str(port),
    ]
    if key is not None:
        argv += ["-o", "IdentitiesOnly=yes", "-i", str(key)]
    else:
        argv += ["-o", "PubkeyAuthentication=no", "-o", "IdentitiesOnly=yes"]
    return [*argv, f"{user}@127.0.0.1"]


def shell_line(argv: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in argv)


def make_key(directory: Path) -> tuple[Path, str]:
    """An ed25519 client key made by ssh-keygen; (private key path, its SHA256 fingerprint)."""
    key = directory / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    listed = subprocess.run(["ssh-keygen", "-lf", f"{key}.pub"], capture_output=True, text=True, check=True)
    return key, listed.stdout.split()[1]


class Terminal:
    """A tmux session running one command; its status lands in a file when it ends."""

    def __init__(self, command: list[str], tmp: Path, size: tuple[int, int] = (100, 30)) -> None:
        self.name = f"unotui-ssh-{uuid.uuid4().hex[:8]}"
        self.status = tmp / f"{self.name}.status"
        line = f"{shell_line(command)}; echo $? > {self.status}; sleep 30"
        env = {k: v for k, v in os.environ.items() if k != "TMUX"}
        # A running tmux server gives a new session its own environment, not ours: pass on
        # the test's settings directory, so no program here writes to the real one.
        own = ["-e", f"UNOTUI_CONFIG_DIR={env['UNOTUI_CONFIG_DIR']}"] if "UNOTUI_CONFIG_DIR" in env else []
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", self.name, "-x", str(size[0]), "-y", str(size[1]),
             *own, line],
            check=True, env=env,
        )

    def wait(self, needle: str, timeout: float = 15) -> str:
        return wait_for(self.name, needle, timeout)

    def wait_match(self, pattern: str, timeout: float = 15) -> str:
        return wait_match(self.name, pattern, timeout)

    def keys(self, *keys: str) -> None:
        tmux("send-keys", "-t", self.name, *keys)

    def flag(self, name: str) -> str:
        return tmux("display-message", "-p", "-t", self.name, f"#{{{name}}}").strip()

    def exit_status(self, timeout: float = 30) -> int:
        """The ssh command's exit status, once it has ended (the wait is a net for a
        loaded machine: a session's own process may take seconds to wind down)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.status.exists() and self.status.read_text().strip():
                return int(self.status.read_text())
            time.sleep(0.05)
        shown = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name],
                               capture_output=True, text=True)
        gone = "(the terminal is gone, with no exit status written)"
        screen = shown.stdout if shown.returncode == 0 else gone
        raise AssertionError(f"ssh did not end within {timeout:g} s; screen:\n{screen}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def rss_mib(pid: int | str = "self") -> float:
    """A process's resident memory now (``VmRSS``), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for {pid}")
