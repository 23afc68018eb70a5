"""Wire cost of a seat's updates: a delta versus the whole view, after a long match.

Plays one seeded match of random legal moves (4 seats, ``giant`` rules, the target raised
so it does not end) until the log holds ``--events`` events, keeping seat 0's view after
each of the last ``--steps`` moves.  Then, for the same moves, measures both ways of
bringing a client up to date:

* **delta**: ``ViewEncoder.update`` + ``encode`` on the host, ``decode_host`` +
  ``ViewDecoder.apply`` on the client (what the protocol does);
* **full**: ``encode(Snapshot(view))`` and the same strict parsing of the whole view
  with its whole log (what sending the view as it is would cost; past ~4,000 events such
  a frame is over the protocol's limits, so the parse here skips only the size caps).

Reports mean bytes per update and mean CPU microseconds per update (``process_time``,
the best of ``--rounds`` alternating rounds, so other load inflates neither side).  The last line is exactly
``delta_bytes=N full_bytes=N delta_us=X full_us=X``.

Usage: ``python bench/codec.py [--events 5000] [--steps 100] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import random
import time

import msgpack

from unotui.engine import Game, Rules, SeatView, seat_view
from unotui.protocol import Snapshot, ViewDecoder, ViewEncoder, decode_host, encode
from unotui.protocol.sync import FIELD_CODECS, VIEW_FIELDS
from unotui.protocol.values import event_in


def parse_full(body: bytes) -> SeatView:
    """``decode_host`` of a snapshot without the frame and log caps (the baseline only)."""
    wire = msgpack.unpackb(body, raw=False, strict_map_key=True, max_ext_len=0)["view"]
    fields = {name: FIELD_CODECS[name][1](wire[name]) for name in VIEW_FIELDS}
    return SeatView(**fields, log=tuple(event_in(e) for e in wire["log"]), log_start=wire["log_start"])


def long_match(events: int, steps: int, seed: int = 7) -> list[SeatView]:
    """Seat 0's views after each of the last ``steps`` moves of a match ``events`` long."""
    game = Game(4, Rules.preset("giant").with_(target_score=100_000), seed=seed)
    rnd = random.Random(seed)
    views: list[SeatView] = []
    while len(game.log) < events or len(views) < steps + 1:
        seat = game.actor
        game.apply(seat, rnd.choice(list(game.legal_actions(seat))))
        if len(game.log) >= events:
            views.append(seat_view(game, 0))
    return views[-(steps + 1) :]


def run_delta(views: list[SeatView]) -> tuple[int, float]:
    """Total bytes and seconds for the deltas between successive views."""
    enc, dec = ViewEncoder(), ViewDecoder()
    dec.apply(decode_host(encode(enc.snapshot(views[0]))))
    total = 0
    start = time.process_time()
    for view in views[1:]:
        message = enc.update(view)
        if message is None:
            continue
        body = encode(message)
        total += len(body)
        dec.apply(decode_host(body))
    return total, time.process_time() - start


def run_full(views: list[SeatView]) -> tuple[int, float]:
    """Total bytes and seconds for sending each whole view."""
    total = 0
    start = time.process_time()
    for view in views[1:]:
        body = encode(Snapshot(view))
        total += len(body)
        parse_full(body)
    return total, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=5000, help="log length of the match")
    parser.add_argument("--steps", type=int, default=100, help="updates measured")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; the best counts")
    args = parser.parse_args()
    views = long_match(args.events, args.steps)
    n = len(views) - 1
    best_delta = best_full = float("inf")
    delta_bytes = full_bytes = 0
    for _ in range(args.rounds):  # alternate, so that noise hits both alike
        delta_bytes, t = run_delta(views)
        best_delta = min(best_delta, t)
        full_bytes, t = run_full(views)
        best_full = min(best_full, t)
    d_us, f_us = best_delta / n * 1e6, best_full / n * 1e6
    print(f"match log: {views[-1].log_start + len(views[-1].log)} events; {n} updates of seat 0")
    print(f"delta: {delta_bytes / n:.0f} bytes, {d_us:.1f} us per update")
    print(f"full:  {full_bytes / n:.0f} bytes, {f_us:.1f} us per update ({f_us / d_us:.0f}x the time)")
    sizes = f"delta_bytes={delta_bytes // n} full_bytes={full_bytes // n}"
    print(f"{sizes} delta_us={d_us:.1f} full_us={f_us:.1f}")


if __name__ == "__main__":
    main()
