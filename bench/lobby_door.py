"""The public lobby's door under attack: the chaos benchmark's ``unotui serve`` phase.

A real ``unotui serve`` (default limits, its own data directory) runs while honest people
use it from 127.0.0.1: SSH players in the lobby, one of whom presses ``?`` (the lobby's
help) now and then and times the help's first appearance on its screen, and TCP players
at quick-match tables playing against computer players.  After a quiet phase the
attacks of issue 16 come from other loopback addresses (127.66.0.0/16), each at the most
its limits allow, while the honest people go on:

* SSH: ``env`` requests by the thousand, a paste of many MiB, a typed in-band resize to
  4000x4000, silent TCP connections before any handshake, a logged-in connection that
  never opens a session, a ``TERM`` with a newline in it;
* TCP lobby: private tables until refused, trap tables (a 2-seat table with teams, a
  1 ms turn timer), lobby connections until the address is refused, table-code guesses,
  and a chat flood from many connections of one address.

Each attack is a fault with a defined outcome (counted as the chaos table counts its
own); the figures: the honest SSH player's key latency p95 in the quiet phase and under
attack, the peak memory of the server process (``VmHWM``: it runs every table, the
journal and the store) and of the session workers, and the honest people dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.ssh_load import _descendants, percentile, start_lobby  # noqa: E402
from tests.hostile.arena import RawPeer, Recorder  # noqa: E402
from tests.net.lan_support import hello_frame  # noqa: E402
from tests.ssh.ssh_support import Screen  # noqa: E402
from unotui.engine import Rules  # noqa: E402
from unotui.net.lobby_client import LobbyClient, LobbyClosed  # noqa: E402
from unotui.net.remote import RemoteGame  # noqa: E402
from unotui.protocol import messages as m  # noqa: E402

__all__ = ["DoorFigures", "run"]

#: what only the lobby's help shows, and what the lobby's header shows
HELP_MARK, LOBBY_MARK = b"say something", b"online"
SIZE = (100, 30)

Count = Callable[[str, bool], None]
#: honest lobby connections the server closed
LOBBY_CLOSED: list[LobbyClosed] = []


@dataclass
class DoorFigures:
    """What the phase measured (see the module docstring)."""

    quiet_ms: list[float] = field(default_factory=list)
    attack_ms: list[float] = field(default_factory=list)
    server_peak_mib: float = 0.0
    workers_peak_mib: float = 0.0
    dropped: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def line(self) -> str:
        """The fields this phase adds to the chaos benchmark's last line."""
        quiet = percentile(self.quiet_ms, 0.95) if self.quiet_ms else float("nan")
        attack = percentile(self.attack_ms, 0.95) if self.attack_ms else float("nan")
        return (f"ssh_key_p95_ms_under_attack={attack:.0f} ssh_key_p95_ms_quiet={quiet:.0f} "
                f"server_peak_mib={self.server_peak_mib:.0f}")


def _status_kib(pid: int, field_name: str) -> int:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    found = re.search(rf"^{field_name}:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) if found else 0


# ----- honest people ---------------------------------------------------------------------------


class Lobbyist(Screen):
    """An SSH client with a pty (its output read all along, as the SSH tests read it),
    connecting from ``source``."""

    def __init__(self, conn: Any, proc: Any) -> None:
        super().__init__(proc)
        self.conn = conn

    @classmethod
    async def open(cls, port: int, source: str = "127.0.0.1", user: str = "honest", *,
                   term: str = "xterm-256color", env: dict[str, str] | None = None,
                   wait_for: bytes | None = LOBBY_MARK, timeout: float = 30) -> Lobbyist:
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", port, username=user, known_hosts=None, agent_path=None, encoding=None,
            client_keys=[asyncssh.generate_private_key("ssh-ed25519")], local_addr=(source, 0)), timeout)
        proc = await asyncio.wait_for(conn.create_process(term_type=term, term_size=SIZE, env=env or {}),
                                      timeout)
        screen = cls(conn, proc)
        if wait_for is not None:
            await screen.wait(wait_for, timeout=timeout)
        return screen

    async def probe(self) -> float:
        """Press ``?`` and time the help's appearance; close it again (Escape)."""
        sent = time.perf_counter()
        await self.wait(HELP_MARK, self.key("?"), 20)
        took = time.perf_counter() - sent
        await self.wait(LOBBY_MARK, self.key("\x1b"), 20)
        return took * 1000

    def close(self) -> None:
        self.conn.close()


async def _table_player(tcp_port: int, k: int) -> tuple[LobbyClient, Recorder]:
    """A TCP player: a quick match from the lobby, then the table against computer players."""
    lobby = LobbyClient("127.0.0.1", tcp_port, name=f"Tess{k}")
    created: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def heard(update: object) -> None:
        if isinstance(update, LobbyClosed):
            LOBBY_CLOSED.append(update)
        if isinstance(update, m.Created) and not created.done():
            created.set_result(update.code)

    lobby.listen(heard)
    await lobby.start()
    lobby.quick()
    code = await asyncio.wait_for(created, 10)
    player = Recorder(RemoteGame("127.0.0.1", tcp_port, name=f"Tess{k}", table=code), Random(k), pace=0.3)
    await player.game.start()
    return lobby, player


# ----- attacks ---------------------------------------------------------------------------------


_source = iter(f"127.66.{a}.{b}" for a in range(256) for b in range(1, 255))


async def _lobby_peer(port: int, source: str, name: str = "Mallory") -> RawPeer:
    peer = await RawPeer.connect(port, source)
    peer.write(hello_frame(name, lobby=True))
    return peer


async def _ended(coro: Coroutine[Any, Any, Any], timeout: float) -> bool:
    """Whether ``coro`` finished (the server closed) within ``timeout``."""
    try:
        await asyncio.wait_for(coro, timeout)
        return True
    except (TimeoutError, AssertionError):
        return False


async def ssh_env(port: int, count: Count, quick: bool) -> None:
    """Connections sending thousands of ``env`` requests (only a few variables are kept)."""
    source = next(_source)
    names, size = (2000, 1024) if quick else (20000, 5120)
    env = {f"V{n}": "x" * size for n in range(names)}
    for _ in range(2 if quick else 3):
        try:
            screen = await Lobbyist.open(port, source, env=env, timeout=60)
            count("ssh_env", True)  # let in, the variables not kept (the peak memory says)
            screen.close()
        except (OSError, asyncssh.Error, TimeoutError, AssertionError):
            count("ssh_env", True)  # refused outright: as defined too
        except Exception:  # anything else is not a defined outcome
            count("ssh_env", False)


async def ssh_paste(port: int, count: Count, quick: bool) -> None:
    """A paste of many MiB into the lobby: the session ends with a line once its input
    backlog is full, long before the paste is through."""
    screen = await Lobbyist.open(port, next(_source), timeout=60)
    chunk = b"a" * 65536
    with contextlib.suppress(Exception):
        for _ in range((4 if quick else 16) * 16):
            if screen.ended:
                break
            screen.proc.stdin.write(chunk)
            await asyncio.wait_for(screen.proc.stdin.drain(), 10)
    with contextlib.suppress(AssertionError):  # raised once the session ends (or after 30 s)
        await screen.wait(b"\x00never", timeout=30)
    count("ssh_paste", screen.ended and b"more input at once" in screen.data)
    screen.close()


async def ssh_resize(port: int, count: Count) -> None:
    """A typed in-band resize to 4000x4000: ignored (never negotiated)."""
    screen = await Lobbyist.open(port, next(_source), timeout=60)
    before = screen.key("\x1b[48;4000;4000;0;0t")
    await asyncio.sleep(6)  # a 4000x4000 screen is 16 million cells: megabytes at once
    count("ssh_inband_resize", len(screen.data) - before < 256 << 10)
    screen.close()


async def ssh_silent(port: int, count: Count, how_many: int, cap: int) -> list[asyncio.StreamWriter]:
    """TCP connections that never start the handshake, from one address: past the cap,
    each is closed as it arrives."""
    source = next(_source)
    held: list[asyncio.StreamWriter] = []
    closing: list[Coroutine[Any, Any, bool]] = []
    for k in range(how_many):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            count("ssh_silent", k >= cap)
            continue
        held.append(writer)
        if k >= cap:
            closing.append(_ended(reader.read(), 5))
        else:
            count("ssh_silent", True)
    for closed in await asyncio.gather(*closing):
        count("ssh_silent", closed)
    return held


async def ssh_no_session(port: int, count: Count, timeout: float) -> None:
    """Logged in, and no session ever opened: closed after a short while."""
    conn = await asyncssh.connect("127.0.0.1", port, username="idle", known_hosts=None, agent_path=None,
                                  client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                  local_addr=(next(_source), 0))
    count("ssh_no_session", await _ended(conn.wait_closed(), timeout + 10))
    conn.close()


async def ssh_term(port: int, count: Count) -> None:
    """A ``TERM`` with a newline and a forged log line in it."""
    with contextlib.suppress(Exception):
        screen = await Lobbyist.open(port, next(_source), term="xterm\nERROR unotui.ssh: forged", timeout=30)
        screen.close()
    count("ssh_term", True)  # the log is read at the end of the phase


async def table_flood(port: int, count: Count, max_tables: int, per_creator: int) -> None:
    """One connection opens private tables until it is refused: at its own cap, long
    before the lobby is full."""
    peer = await _lobby_peer(port, next(_source))
    await peer.wait(lambda x: isinstance(x, m.Welcome))
    for created in range(max_tables + 5):
        peer.send(m.Create(f"Trap {created}", 4, 3, Rules.preset("classic"), "easy", None, True))
        got = await _answer(peer)
        if isinstance(got, m.Refused):
            count("lobby_table_flood", created <= per_creator)
            break
        await asyncio.sleep(0.13)  # under the message rate: only the table caps refuse
    else:
        count("lobby_table_flood", False)
    peer.close()


async def _answer(peer: RawPeer) -> object:
    """The lobby's answer to the last request (``created`` or ``refused``), then forgotten."""
    got = await peer.wait(lambda x: isinstance(x, m.Created | m.Refused), 10)
    peer.heard.clear()
    return got


async def trap_tables(port: int, count: Count, min_timer_ms: int) -> None:
    """Tables whose start would fail are refused at ``create``; a 1 ms turn timer gets
    the floor instead (the table as listed says so)."""
    peer = await _lobby_peer(port, next(_source))
    await peer.wait(lambda x: isinstance(x, m.Welcome))
    peer.send(m.Create("Teams of one", 2, 0, Rules.preset("classic").with_(teams=True), "easy", 30000, False))
    count("lobby_trap_table", isinstance(await _answer(peer), m.Refused))
    peer.send(m.Create("Blink", 4, 0, Rules.preset("classic"), "easy", 1, False))
    got = await _answer(peer)
    if isinstance(got, m.Created):
        listed = await peer.wait(lambda x: isinstance(x, m.LobbyState)
                                 and any(t.code == got.code for t in x.tables), 10)
        assert isinstance(listed, m.LobbyState)
        timer = next(t.turn_timer_ms for t in listed.tables if t.code == got.code)
        count("lobby_trap_timer", timer is not None and timer >= min_timer_ms)
    else:
        count("lobby_trap_timer", isinstance(got, m.Refused))
    peer.close()


async def door_fill(port: int, count: Count, how_many: int) -> list[RawPeer]:
    """Lobby connections from one address until the address is refused."""
    source = next(_source)
    held: list[RawPeer] = []
    for k in range(how_many):
        peer = await _lobby_peer(port, source, f"Fill{k}")
        got = await peer.wait(lambda x: isinstance(x, m.Welcome | m.Error), 10)
        if isinstance(got, m.Error):
            count("lobby_door_fill", got.code.startswith("too_many"))
            peer.close()
            return held
        held.append(peer)
        await asyncio.sleep(0.25)  # under the new-connection rate: only the cap refuses
    count("lobby_door_fill", False)
    return held


async def guesses(port: int, count: Count, how_many: int) -> None:
    """Table codes guessed from one address: refused for a while after a few wrong ones."""
    source = next(_source)
    for _ in range(how_many):
        peer = await RawPeer.connect(port, source)
        peer.write(hello_frame("Guess", table=secrets.token_hex(2).upper()))
        code = await peer.error(10)
        if code != "no_such_table":
            count("code_guessing", code.startswith("too_many"))
            return
        await asyncio.sleep(0.25)
    count("code_guessing", False)


async def chat_flood(port: int, count: Count, listener: list[float], connections: int,
                     seconds: float, allowed: Callable[[float], float]) -> None:
    """Many lobby connections of one address chatting as fast as each may."""
    source = next(_source)
    peers = []
    for k in range(connections):
        peer = await _lobby_peer(port, source, f"Chat{k}")
        got = await peer.wait(lambda x: isinstance(x, m.Welcome | m.Error), 10)
        if isinstance(got, m.Error):
            break
        peers.append(peer)
        await asyncio.sleep(0.25)
    began = time.perf_counter()
    sent = 0
    while time.perf_counter() - began < seconds:
        for peer in peers:
            with contextlib.suppress(Exception):
                peer.send(m.Chat(f"spam {sent}"))
                sent += 1
        await asyncio.sleep(0.2)
    heard = sum(1 for t in listener if t >= began)
    count("lobby_chat_flood", heard <= allowed(time.perf_counter() - began))
    for peer in peers:
        peer.close()


# ----- the phase -------------------------------------------------------------------------------


async def _probe(screen: Lobbyist, into: list[float], until: float, rng: Random) -> None:
    while time.perf_counter() < until and not screen.ended:
        await asyncio.sleep(rng.uniform(0.5, 1.5))
        with contextlib.suppress(AssertionError):
            into.append(await screen.probe())


async def run(quick: bool, count: Count, scale: float = 1.0) -> DoorFigures:
    """The phase: start ``unotui serve``, measure quiet, attack, measure again (``scale``
    shortens the phases and shrinks the counts of the attacks that are many)."""
    figures = DoorFigures()
    # (at least a second each: the prober times a key once before it looks at the clock)
    quiet_s, attack_s = (max(1.0, s * scale) for s in ((10.0, 25.0) if quick else (30.0, 60.0)))
    with tempfile.TemporaryDirectory() as tmp:
        server, ssh_port, tcp_port = start_lobby(0, Path(tmp), 8, raise_limits=False)
        try:
            await _phase(figures, server, ssh_port, tcp_port, quick, quiet_s, attack_s, count, scale)
            log = (Path(tmp) / "ssh.log").read_text(errors="replace")
            count("ssh_term_log", not re.search(r"^ERROR unotui\.ssh: forged", log, re.M))
            pids = [server.pid, *_descendants(server.pid)]
            figures.server_peak_mib = _status_kib(server.pid, "VmHWM") / 1024
            figures.workers_peak_mib = sum(_status_kib(p, "VmHWM") for p in pids[1:]) / 1024
        finally:
            server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(20)
            if server.poll() is None:
                server.kill()
    return figures


async def _phase(figures: DoorFigures, server: subprocess.Popen[str], ssh_port: int, tcp_port: int,
                 quick: bool, quiet_s: float, attack_s: float, count: Count, scale: float) -> None:
    from unotui.lobby.lobby import LobbySettings
    from unotui.ssh import SshLimits

    limits, settings = SshLimits(), LobbySettings()
    screens = [await Lobbyist.open(ssh_port, user=f"honest{k}") for k in range(2 if quick else 4)]
    tables = []
    for k in range(2 if quick else 6):  # two connections each, under the door's 5 a second
        tables.append(await _table_player(tcp_port, k))
        await asyncio.sleep(0.5)
    chat_heard: list[float] = []
    ear = LobbyClient("127.0.0.1", tcp_port, name="Ear")
    ear.listen(lambda u: chat_heard.append(time.perf_counter()) if isinstance(u, m.ChatLine) else None)
    await ear.start()
    rng = Random(7)
    await _probe(screens[0], figures.quiet_ms, time.perf_counter() + quiet_s, rng)
    attack_end = time.perf_counter() + attack_s
    prober = asyncio.ensure_future(_probe(screens[0], figures.attack_ms, attack_end, rng))
    held_open = limits.per_ip + limits.per_ip_refused  # past these, closed as they arrive
    attacks = await asyncio.gather(
        ssh_env(ssh_port, count, quick),
        ssh_paste(ssh_port, count, quick),
        ssh_resize(ssh_port, count),
        ssh_silent(ssh_port, count, max(held_open + 4, round((30 if quick else 250) * scale)), held_open),
        ssh_no_session(ssh_port, count, limits.no_session_timeout),
        ssh_term(ssh_port, count),
        table_flood(tcp_port, count, settings.max_tables, settings.tables_per_creator),
        trap_tables(tcp_port, count, round(settings.min_turn_timer * 1000)),
        door_fill(tcp_port, count, 80 if quick else 300),
        guesses(tcp_port, count, 40),
        chat_flood(tcp_port, count, chat_heard, 12 if quick else 40, max(4.0, (5 if quick else 15) * scale),
                   lambda took: settings.chat_burst + settings.chat_per_s * took + 1),
        return_exceptions=True,
    )
    for result in attacks:
        if isinstance(result, BaseException):
            count("attack_failed", False)
            figures.notes.append(f"a lobby attack stopped early: {result!r}")
        elif isinstance(result, list):
            for held in result:
                held.close()
    # An honest quick match while the attackers' private tables stand.
    try:
        lobby, player = await _table_player(tcp_port, 99)
        tables.append((lobby, player))
        count("quick_match_under_attack", True)
    except Exception as exc:  # a refusal is the fault
        count("quick_match_under_attack", False)
        figures.notes.append(f"quick match under attack failed: {exc!r}")
    await prober
    figures.dropped = sum(1 for s in screens if s.ended) + sum(1 for _l, p in tables if p.closed)
    figures.dropped += len(LOBBY_CLOSED)
    if server.poll() is not None:
        figures.notes.append("unotui serve died during the attack")
    for screen in screens:
        screen.close()
    for lobby, player in tables:
        with contextlib.suppress(Exception):
            await player.game.close()
        await lobby.close()
    await ear.close()


if __name__ == "__main__":  # a run of this phase alone
    faults: dict[str, list[bool]] = {}
    scale = float(sys.argv[sys.argv.index("--scale") + 1]) if "--scale" in sys.argv else 1.0
    result = asyncio.run(run("--quick" in sys.argv, lambda k, ok: faults.setdefault(k, []).append(ok), scale))
    for kind, oks in sorted(faults.items()):
        print(f"{kind:<26}{len(oks):>10}{sum(oks):>12}")
    for note in result.notes:
        print(f"note: {note}")
    print(f"dropped={result.dropped} workers_peak_mib={result.workers_peak_mib:.0f} {result.line}")
