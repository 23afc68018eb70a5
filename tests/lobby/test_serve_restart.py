"""``kill -9`` of ``unotui serve`` mid-match: restarted on the same data directory, the
table comes back with every action its players saw and the TCP players resume their
seats by token (a retried intent is tested in ``tests/net/test_journal.py``)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from random import Random

import pytest

from tests.net.lan_support import has_view, until
from tests.net.test_journal import PacedPlayer
from unotui.engine import Rules
from unotui.net.remote import RemoteGame

from .test_lobby_net import visit

pytestmark = pytest.mark.timeout(120)
REPO = Path(__file__).resolve().parents[2]


def serve(data: Path, port: int = 0) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, "-m", "unotui", "serve", "--bind", "127.0.0.1", "--ssh-port", "0",
               "--port", str(port), "--data-dir", str(data)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=REPO)
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if found := re.search(r"TCP lobby on port (\d+)", line):
            return process, int(found[1])
    process.kill()
    raise AssertionError("unotui serve did not start")


async def test_kill_9_of_the_lobby_then_restart_resumes_the_table(tmp_path: Path) -> None:
    lobby, port = serve(tmp_path)
    players: list[PacedPlayer] = []
    try:
        ann = await visit(port, "Ann")
        ann.client.create("Crash", 2, 0, Rules.preset("classic"), "easy", None, True)
        await until(lambda: ann.created())
        code = ann.created()[0]
        await ann.client.close()
        players = [PacedPlayer(RemoteGame("127.0.0.1", port, name=n, table=code, reconnect_for=60), Random(i))
                   for i, n in enumerate(("Ann", "Bob"))]
        for p in players:
            await p.game.start()
        await until(lambda: all(has_view(p) and len(p.game.view.log) >= 20 for p in players), timeout=40)
        for p in players:
            p.auto = False
        # Settled: no intent in flight and nothing new for longer than the table's own
        # pacing (a drawn card is kept for its player after 0.8 s), bounded.
        seen = [list(p.game.view.log) for p in players]
        for _ in range(20):
            await asyncio.sleep(1.0)
            now = [list(p.game.view.log) for p in players]
            if now == seen and not any(p.game.in_flight for p in players):
                break
            seen = now
        else:
            raise AssertionError("the table never settled")
        heard = [len(p.updates) for p in players]
        os.kill(lobby.pid, signal.SIGKILL)
        lobby.wait()
        lobby, _ = serve(tmp_path, port)
        await until(lambda: all(len(p.updates) > n + 1 and list(p.game.view.log) == s
                                for p, n, s in zip(players, heard, seen, strict=True)), timeout=40)
        assert not any(p.closed for p in players)
        game = players[0].game
        version = game.view.version
        for p in players:
            p.auto = True
            p.act()
        await until(lambda: all(len(p.game.view.log) > len(s) for p, s in zip(players, seen, strict=True)))
        assert game.view.version > version
    finally:
        for p in players:
            p.auto = False
            await p.game.close()
        lobby.send_signal(signal.SIGTERM)
        lobby.wait(15)
