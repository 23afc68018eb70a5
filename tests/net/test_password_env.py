"""A table's password from ``$UNOTUI_PASSWORD`` rather than the command line: every local
user can read a process's command line (``ps``, ``/proc/PID/cmdline``), only its owner its
environment.  A real headless ``unotui host`` and ``unotui join`` over loopback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from unotui.net.remote import JoinError, RemoteGame

from .test_e2e_lan import _free_port, _read_until

pytestmark = pytest.mark.timeout(60)

EXE = Path(sys.executable).with_name("unotui")
SECRET = "s3cret-from-env"


async def test_a_password_from_the_environment_guards_the_table_and_stays_off_the_command_line(
    tmp_path: Path,
) -> None:
    port = _free_port()
    env = os.environ | {"UNOTUI_CONFIG_DIR": str(tmp_path), "UNOTUI_PASSWORD": SECRET}
    argv = [str(EXE), "host", "--headless", "--bind", "127.0.0.1", "--port", str(port), "--seats", "2"]
    host = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        _read_until(host, "join with: unotui join 127.0.0.1:")
        assert SECRET.encode() not in Path(f"/proc/{host.pid}/cmdline").read_bytes()
        wrong = subprocess.run([str(EXE), "join", f"127.0.0.1:{port}"], capture_output=True, text=True,
                               timeout=30, stdin=subprocess.DEVNULL,
                               env=env | {"UNOTUI_PASSWORD": "guess"})
        assert wrong.returncode == 1 and "Wrong or missing password" in wrong.stderr + wrong.stdout
        with pytest.raises(JoinError) as refused:
            await RemoteGame("127.0.0.1", port, name="Eve", reconnect_for=0).start()
        assert refused.value.code == "password"
        game = RemoteGame("127.0.0.1", port, name="Ann", password=SECRET, reconnect_for=0)
        await game.start()
        await game.close()
    finally:
        host.kill()
        host.wait()
