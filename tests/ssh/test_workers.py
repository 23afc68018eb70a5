"""Several SSH sessions per worker process (``SshLimits(sessions_per_process=K)``): each a
Textual app in a thread of its own on its own pty, with asyncssh as the client.

Two sessions share one worker and both work, each with the colours its ``TERM`` allows; an
exception in one app ends only that session; a resize reaches only its own session; a
closed channel ends its app and frees its thread, and the worker ends with its last
session; beyond K sessions a new worker starts.  Then the driver on its own: the pty's
master closing ends the app; a banned key's line goes to its own terminal."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from unotui.ssh import SessionSpec, SshLimits, SshServer
from unotui.ssh.session import RESET, set_size
from unotui.ssh.terminal import SessionTerminal

from .ssh_support import Screen, connect, read_until, rss_mib, serving

pytestmark = pytest.mark.timeout(60)

CRASH = "tests.ssh.entries:crash_app_threaded"
TRUECOLOR = re.compile(rb"\x1b\[[0-9;]*38;2;")
INDEXED = re.compile(rb"\x1b\[[0-9;]*38;5;")


async def _open(conn: Any, term: str = "xterm-256color", size: tuple[int, int] = (90, 25)) -> Screen:
    proc = await conn.create_process(term_type=term, term_size=size)
    screen = Screen(proc)
    await screen.wait(b"count 0")
    return screen


def _session(server: SshServer, user: str) -> Any:
    [session] = [s for s in server.sessions() if s.spec.user == user]
    return session


async def _until(condition: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("never became true")
        await asyncio.sleep(0.02)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has ended


async def test_two_sessions_share_a_worker_each_with_its_colours_and_a_crash_ends_only_its_own(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with (
        serving(tmp_path, sessions_per_process=2, app_entry=CRASH) as server,
        connect(server.port, user="ann") as ann_conn,
        connect(server.port, user="bob") as bob_conn,
    ):
        ann = await _open(ann_conn, term="xterm-direct")
        bob = await _open(bob_conn, term="xterm-256color")
        ann_session, bob_session = _session(server, "ann"), _session(server, "bob")
        assert ann_session.worker is bob_session.worker is not None
        assert ann_session.pid == bob_session.pid and len(server.pool.workers) == 1  # type: ignore[union-attr]
        # Colour depth per session, in one process: 24-bit for xterm-direct only.
        await ann.wait(b"paint")
        await bob.wait(b"paint")
        assert TRUECOLOR.search(ann.data) and not TRUECOLOR.search(bob.data) and INDEXED.search(bob.data)
        # Both answer keys.
        await ann.wait(b"count 1", ann.key("c"))
        await bob.wait(b"count 1", bob.key("c"))
        # An exception in bob's app (the later one: its traceback is printed after ann's app
        # took sys.stderr over, had Textual been left to swap it): his session ends (reset
        # terminal, no traceback shown), ann's goes on in the same process.
        bob.key("t")
        result = await asyncio.wait_for(bob.proc.wait(), 10)
        assert result.exit_status == 1
        assert RESET in bob.data and b"ended unexpectedly" in bob.data
        assert b"Traceback" not in bob.data and b"boom" not in bob.data
        await ann.wait(b"count 2", ann.key("c"))
        assert _session(server, "ann").pid == ann_session.pid and server.sessions_now == 1
        ann.proc.stdin.write(b"\x11")  # Ctrl+Q: Textual's quit
        assert (await asyncio.wait_for(ann.proc.wait(), 10)).exit_status == 0
        assert RESET not in ann.data[-len(RESET) - 50 :]
    text = caplog.text
    assert "RuntimeError: boom from the crash app" in text
    boom = next(r for r in caplog.records if "boom from the crash app" in r.getMessage())
    assert boom.getMessage().startswith(f"session {bob_session.number} (user 'bob'")


async def test_a_resize_reaches_only_its_own_session(tmp_path: Path) -> None:
    async with (
        serving(tmp_path, sessions_per_process=2, app_entry=CRASH) as server,
        connect(server.port, user="ann") as ann_conn,
        connect(server.port, user="bob") as bob_conn,
    ):
        ann = await _open(ann_conn, size=(90, 25))
        bob = await _open(bob_conn, size=(80, 24))
        assert _session(server, "ann").pid == _session(server, "bob").pid
        await ann.wait(b"size 90x25")
        await bob.wait(b"size 80x24")
        mark = len(bob.data)
        ann.proc.change_terminal_size(132, 43)
        await ann.wait(b"size 132x43")
        bob.proc.change_terminal_size(100, 30)
        await bob.wait(b"size 100x30", mark)
        assert b"132x43" not in bob.data and b"100x30" not in ann.data
        for screen in (ann, bob):
            screen.proc.stdin.write(b"\x11")
            await asyncio.wait_for(screen.proc.wait(), 10)


async def test_a_closed_channel_ends_its_app_and_thread_and_the_last_ends_the_worker(tmp_path: Path) -> None:
    async with serving(tmp_path, sessions_per_process=2, app_entry=CRASH) as server:
        async with connect(server.port, user="bob") as bob_conn:
            bob = await _open(bob_conn)
            async with connect(server.port, user="ann") as ann_conn:
                await _open(ann_conn)
                worker = _session(server, "ann").worker
                assert worker is not None and worker.load == 2
            # ann's client went away (connection closed): her app ends, her thread reports
            # its end (the worker's slot is free), bob's session goes on.
            await _until(lambda: worker.load == 1 and server.sessions_now == 1)
            assert set(worker.sessions) == {_session(server, "bob").number}
            await bob.wait(b"count 1", bob.key("c"))
            pid = worker.pid
            assert pid is not None and _alive(pid)
        # bob's connection closed too: no session left, the worker is retired and exits.
        await _until(lambda: not server.pool.workers and server.sessions_now == 0)  # type: ignore[union-attr]
        await _until(lambda: not _alive(pid))


@pytest.mark.parametrize("spread", [1, 2])
async def test_where_the_third_session_goes(tmp_path: Path, spread: int) -> None:
    """``spread_workers=1``, K=2: two sessions fill a worker and the third starts another.
    ``spread_workers=2`` (``unotui serve`` gives the number of cores), K=4: the first two
    get a worker each, then the third joins one of them rather than a third worker."""
    limits = SshLimits(spread_workers=spread)
    async with serving(tmp_path, limits=limits, sessions_per_process=2 * spread) as server:
        conns = [await connect(server.port, user=f"p{n}").__aenter__() for n in range(3)]
        try:
            procs = []
            for conn in conns:
                proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
                await read_until(proc.stdout, b"SPEC ")
                procs.append(proc)
            pids = [_session(server, f"p{n}").pid for n in range(3)]
            if spread == 1:
                assert pids[0] == pids[1] != pids[2]
            else:
                assert pids[0] != pids[1] and pids[2] in pids[:2]
            assert len(server.pool.workers) == 2  # type: ignore[union-attr]
            for proc in procs:
                proc.stdin.write(b"q")
                assert (await asyncio.wait_for(proc.wait(), 10)).exit_status == 0
            await _until(lambda: not server.pool.workers)  # type: ignore[union-attr]
        finally:
            for conn in conns:
                conn.close()


async def test_a_hard_crash_ends_every_session_of_its_worker_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The documented price of sharing: a segfault takes the worker's sessions (each
    player's terminal reset), not another worker's."""
    async with serving(tmp_path, sessions_per_process=2, app_entry=CRASH) as server:
        conns = [await connect(server.port, user=user).__aenter__() for user in ("ann", "bob", "cy")]
        try:
            ann, bob, cy = [await _open(conn) for conn in conns]
            assert _session(server, "ann").pid == _session(server, "bob").pid != _session(server, "cy").pid
            ann.key("x")  # SIGSEGV: the whole worker dies
            for screen in (ann, bob):
                result = await asyncio.wait_for(screen.proc.wait(), 10)
                assert result.exit_status == 1
                assert RESET in screen.data and b"ended unexpectedly" in screen.data
                assert b"Fatal Python error" not in screen.data
            await cy.wait(b"count 1", cy.key("c"))  # the other worker goes on
            cy.proc.stdin.write(b"\x11")
            assert (await asyncio.wait_for(cy.proc.wait(), 10)).exit_status == 0
        finally:
            for conn in conns:
                conn.close()
    assert "Fatal Python error: Segmentation fault" in caplog.text


# ----- the driver and the entries in this process (no SSH) ------------------------------------


@pytest.fixture
def keep_textual_redirects() -> Iterator[None]:
    """:func:`unotui.ui.session_driver.attach` turns Textual's print redirection off in
    the worker process; here that process is pytest's: put it back afterwards."""
    import textual.app

    saved = (textual.app.redirect_stdout, textual.app.redirect_stderr)  # type: ignore[attr-defined]
    yield
    textual.app.redirect_stdout, textual.app.redirect_stderr = saved  # type: ignore[attr-defined]


def _read_until(fd: int, needle: bytes, timeout: float = 10) -> bytes:
    import select

    data = b""
    deadline = time.monotonic() + timeout
    while needle not in data:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{needle!r} never came; got {data[-300:]!r}")
        if select.select([fd], [], [], left)[0]:
            data += os.read(fd, 65536)
    return data


def test_a_lone_esc_is_a_key_and_the_pty_closing_ends_the_app_and_its_thread(
    keep_textual_redirects: None,
) -> None:
    from tests.ssh.entries import crash_app_threaded

    master, slave = os.openpty()
    terminal = SessionTerminal(slave, 1, {"TERM": "xterm-256color"})
    spec = SessionSpec(user="ann", fingerprint=None, term="xterm-256color", size=(80, 24))
    app = crash_app_threaded(spec, terminal)
    thread = threading.Thread(target=app.run, daemon=True)
    thread.start()
    try:
        _read_until(master, b"count 0")
        os.write(master, b"\x1b")  # the input thread sleeps until input: Esc needs its tick
        _read_until(master, b"a lone escape")
    finally:
        os.close(master)  # what the server does when the SSH channel has gone
    thread.join(10)
    assert not thread.is_alive()
    terminal.close()


def test_a_banned_key_reads_its_line_on_its_own_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    from unotui.lobby.session import make_app

    master, slave = os.openpty()
    try:
        terminal = SessionTerminal(slave, 1, {"TERM": "xterm-256color"})
        spec = SessionSpec(user="eve", fingerprint="SHA256:x", term="xterm-256color", size=(80, 24),
                           extra={"banned": "spam \x1b[31m"})
        assert make_app(spec, terminal) == 1
        line = _read_until(master, b"\n")
        assert line.startswith(b"You are banned from this lobby: spam") and b"\x1b" not in line
        assert capsys.readouterr().out == ""  # nothing on the process's own stdout
    finally:
        os.close(master)
        os.close(slave)


def test_a_typed_in_band_resize_does_not_resize_the_app(keep_textual_redirects: None) -> None:
    """``ESC[48;rows;cols;0;0t`` is a terminal's answer in mode 2048, which the driver never
    asks for (the SSH window change sizes the pty): typed by a guest, even after a forged
    "mode 2048 supported" report, it is dropped, and the app keeps the pty's size."""
    from tests.ssh.entries import crash_app_threaded

    master, slave = os.openpty()
    set_size(master, 80, 24)
    terminal = SessionTerminal(slave, 1, {"TERM": "xterm-256color"})
    spec = SessionSpec(user="eve", fingerprint=None, term="xterm-256color", size=(80, 24))
    app = crash_app_threaded(spec, terminal)
    thread = threading.Thread(target=app.run, daemon=True)
    thread.start()
    try:
        seen = _read_until(master, b"size 80x24")
        os.write(master, b"\x1b[?2048;1$y\x1b[48;200;300;0;0tc")
        seen += _read_until(master, b"count 1")
        os.write(master, b"\x1b[48;50;120;0;0tc")
        seen += _read_until(master, b"count 2")
        assert b"300x200" not in seen and b"120x50" not in seen
        assert app.size == (80, 24)
    finally:
        os.close(master)
    thread.join(10)
    assert not thread.is_alive()
    terminal.close()


# ----- input a session cannot end: a flood of keys, and a hang-up behind it ---------------------


async def _paste(screen: Screen, total: int, until: bytes = b"", key: bytes = b"c") -> int:
    """Send ``total`` bytes of ``key`` as fast as the channel takes them (stopping once
    ``until`` is on the screen); the bytes sent."""
    sent, chunk = 0, key * 65536
    with contextlib.suppress(ConnectionError, asyncssh.Error):
        while sent < total and not (until and until in screen.data):
            screen.proc.stdin.write(chunk)
            await asyncio.wait_for(screen.proc.stdin.drain(), 30)
            sent += len(chunk)
    return sent


async def _latencies(screen: Screen, count: int, start: int) -> list[float]:
    """Seconds each of ``count`` keys took to show (the crash app counts ``c``)."""
    took = []
    for n in range(start + 1, start + count + 1):
        began = time.monotonic()
        await screen.wait(f"count {n}".encode(), screen.key("c"))
        took.append(time.monotonic() - began)
    return took


async def test_a_16_mib_paste_ends_its_session_and_its_neighbour_still_answers(tmp_path: Path) -> None:
    async with (
        serving(tmp_path, sessions_per_process=2, app_entry=CRASH) as server,
        connect(server.port, user="bob") as bob_conn,
        connect(server.port, user="eve") as eve_conn,
    ):
        bob, eve = await _open(bob_conn), await _open(eve_conn)
        worker = _session(server, "eve").worker
        assert worker is not None and worker is _session(server, "bob").worker and worker.pid is not None
        before = rss_mib(worker.pid)
        pasting = asyncio.ensure_future(_paste(eve, 16 << 20, until=b"Disconnected"))
        took = await _latencies(bob, 5, 0)
        sent = await asyncio.wait_for(pasting, 30)
        result = await asyncio.wait_for(eve.proc.wait(), 10)
        assert b"Disconnected: more input at once than anyone types" in eve.data
        assert result.exit_status is not None and RESET in eve.data
        assert sent < 8 << 20, f"{sent} bytes went in before the session ended"
        grown = rss_mib(worker.pid) - before
        assert grown < 16, f"the worker grew by {grown:.1f} MiB"
        took += await _latencies(bob, 5, 5)
        assert max(took) < 1.0, took
        print(f"paste: {sent >> 10} KiB sent, worker +{grown:.1f} MiB, bob's keys <={max(took) * 1e3:.0f} ms")
        bob.proc.stdin.write(b"\x11")
        await asyncio.wait_for(bob.proc.wait(), 10)


async def test_a_hang_up_ends_an_app_whatever_input_it_has_queued(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A budget wide open (4 MiB pass at once): the app's input thread waits for the app
    rather than queue whatever the tty holds (64 Ki keys grew the worker by 40 MiB, and
    the app did not end after the hang-up), so a hang-up ends it within ``kill_grace``."""
    limits = SshLimits(input_rate=64 << 20, input_burst=4 << 20, input_backlog=8 << 20, kill_grace=2.0)
    async with (
        serving(tmp_path, limits=limits, sessions_per_process=2, app_entry=CRASH) as server,
        connect(server.port, user="bob") as bob_conn,
    ):
        bob = await _open(bob_conn)
        async with connect(server.port, user="eve") as eve_conn:
            eve = await _open(eve_conn)
            session = _session(server, "eve")
            worker = session.worker
            assert worker is not None and worker.pid is not None
            before = rss_mib(worker.pid)
            sent = await _paste(eve, 4 << 20, key=b"z")  # a key the app ignores: a cheap one
            left = sent - (64 << 10)  # once 64 Ki keys have reached the app's tty (or 10 s): hang up
            with contextlib.suppress(AssertionError):
                await _until(lambda: session.input.received == sent and session.input.waiting <= left)
            grown = rss_mib(worker.pid) - before
        hung_up = time.monotonic()  # eve's connection is closed: her app must end
        await _until(lambda: worker.load == 1, timeout=limits.kill_grace + 1)
        ended = time.monotonic() - hung_up
        took = await _latencies(bob, 3, 0)
        assert "did not end" not in caplog.text
        assert grown < 16, f"the worker grew by {grown:.1f} MiB"
        print(f"hang-up: app ended in {ended:.2f} s, worker +{grown:.1f} MiB, "
              f"bob's keys <= {max(took) * 1000:.0f} ms")
        bob.proc.stdin.write(b"\x11")
        await asyncio.wait_for(bob.proc.wait(), 10)


async def test_the_forkserver_runs_the_servers_unotui_not_one_in_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -c`` put the working directory first on the path: a server started where
    another checkout of unotui lies ran that one's code in every session (a helper's lobby
    ran main's code from a tmux server whose directory was main)."""
    from unotui.ssh.forkserver import Forkserver

    fake = tmp_path / "unotui" / "ssh"
    fake.mkdir(parents=True)
    (tmp_path / "unotui" / "__init__.py").write_text("raise SystemExit('the wrong unotui')\n")
    (fake / "__init__.py").write_text("")
    monkeypatch.chdir(tmp_path)
    server = Forkserver("unotui.ssh.demo:run", [])
    await asyncio.wait_for(server.start(), 30)  # (the wrong one would never say it is ready)
    await server.close()
