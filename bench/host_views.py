"""What a host spends bringing one table's seats up to date, per action, with no sockets.

Plays seeded matches of random legal moves (4 seats, classic rules, the target raised so
the match goes on) and after every move does what ``Room._send_views`` does: builds the
moment's views (``seat_views``), turns each into its seat's snapshot or delta
(``HostSession.send_view`` with one ``SharedDeltas``) and takes the queued bytes.

Reports CPU microseconds per action (``process_time``, best of ``--rounds``); the last
line is exactly ``actions=N views_us=X send_us=X total_us=X``.
Usage: ``python bench/host_views.py [--actions 3000] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unotui.engine import DEAL, Game, Rules, seat_views  # noqa: E402
from unotui.protocol import Hello, encode  # noqa: E402
from unotui.protocol.events import HelloReceived  # noqa: E402
from unotui.protocol.framing import frame  # noqa: E402
from unotui.protocol.session import HostSession  # noqa: E402
from unotui.protocol.shared import SharedDeltas  # noqa: E402


def play(actions: int, seed: int) -> list[tuple[int, object]]:
    """The (seat, action) moves of a seeded random game, ``actions`` long."""
    rules = Rules.preset("classic").with_(target_score=100_000)
    game = Game(4, rules, seed=seed)
    rnd = random.Random(seed)
    moves: list[tuple[int, object]] = []
    while len(moves) < actions:
        seat = game.actor
        legal = list(game.legal_actions(seat))
        action = DEAL if DEAL in legal else rnd.choice(legal)
        game.apply(seat, action)  # type: ignore[arg-type]
        moves.append((seat, action))
    return moves


def sessions(n: int) -> list[HostSession]:
    out = []
    for seat in range(n):
        s = HostSession(0.0)
        events = s.receive_data(frame(encode(Hello(1, 1, "p")), 4096), 0.0)
        assert isinstance(events[0], HelloReceived)
        s.accept(seat=seat, token=None, table="t", table_name="t", seats=n, rules=Rules.preset("classic"))
        s.data_to_send()
        out.append(s)
    return out


def run(moves: list[tuple[int, object]], seed: int) -> tuple[float, float, int]:
    """(CPU s building views, CPU s sending them, bytes) over one replay of ``moves``."""
    rules = Rules.preset("classic").with_(target_score=100_000)
    game = Game(4, rules, seed=seed)
    peers = sessions(4)
    build = send = 0.0
    sent = 0
    clock = time.process_time
    for seat, action in moves:
        game.apply(seat, action)  # type: ignore[arg-type]
        t0 = clock()
        start = game.round_log_start
        views = seat_views(game, [(s.seat, max(s.log_from, start)) for s in peers])
        t1 = clock()
        shared = SharedDeltas(views.public)
        for s, v in zip(peers, views, strict=True):
            s.send_view(v, shared)
            sent += len(s.data_to_send())
        t2 = clock()
        build += t1 - t0
        send += t2 - t1
    return build, send, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    moves = play(args.actions, args.seed)
    results = [run(moves, args.seed) for _ in range(args.rounds)]
    build = min(r[0] for r in results) / len(moves) * 1e6
    send = min(r[1] for r in results) / len(moves) * 1e6
    total = min(r[0] + r[1] for r in results) / len(moves) * 1e6
    print(f"bytes per action {results[0][2] / len(moves):.0f}")
    print(f"actions={len(moves)} views_us={build:.1f} send_us={send:.1f} total_us={total:.1f}")


if __name__ == "__main__":
    main()
