"""Engine throughput: full-rule games between uniformly random legal players.

Plays two-player hands (a "game" here is one hand, as in RLCard) under the official
rules (``classic`` preset: challenges, UNO calls and catches, first-card rules,
reshuffles).  At every step the seat whose decision is awaited picks uniformly among
its legal actions, and the engine applies it with ``Game.push`` (the unchecked apply,
for actions just taken from ``legal_actions``).

In the same run, when ``rlcard`` is installed (``pip install -e '.[bench]'``), RLCard's
raw ``UnoGame`` is played the same way (a random legal action each step, ``init_game``
included) and the ratio is reported.  Times are CPU seconds of this process
(``time.process_time``) and the two engines alternate over several rounds, so other
load on the machine disturbs both sides alike.

Usage: ``python bench/engine.py [--seconds S] [--players N]``.  The last line is exactly
``engine_moves_per_s=N rlcard_moves_per_s=N ratio=R``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from unotui.engine import Game, Rules


def _timed(seconds: float, play_hand: Callable[[], int]) -> tuple[int, float, int]:
    """Play hands until ``seconds`` of CPU time are spent: (moves, seconds, hands)."""
    moves = hands = 0
    start = time.process_time()
    while time.process_time() < start + seconds:
        for _ in range(20):
            moves += play_hand()
            hands += 1
    return moves, time.process_time() - start, hands


def bench_engine(seconds: float, players: int, seed: int = 1) -> tuple[int, float, int]:
    """Moves, elapsed seconds and hands played by the unotui engine."""
    rules = Rules.preset("classic")
    rand = random.Random(seed).random

    def play_hand() -> int:
        game = Game(players, rules, rng=random.Random(rand()), dealer=0)
        legal_actions, push = game.legal_actions, game.push
        moves = 0
        while game.round_winner < 0:  # the hand is on
            seat = game.actor
            legal = legal_actions(seat)
            push(seat, legal[int(rand() * len(legal))])
            moves += 1
        return moves

    return _timed(seconds, play_hand)


def bench_rlcard(seconds: float, players: int, seed: int = 1) -> tuple[int, float, int] | None:
    """The same loop on RLCard's raw UnoGame, or None when RLCard is not installed."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=players)
    rng = random.Random(seed)

    def play_hand() -> int:
        game.np_random = np.random.RandomState(rng.randrange(2**31))
        game.init_game()
        moves = 0
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[int(rng.random() * len(legal))])
            moves += 1
        return moves

    return _timed(seconds, play_hand)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="CPU seconds per engine, split over the rounds"
    )
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=6, help="alternating measurement rounds")
    args = parser.parse_args()
    ours = [0, 0.0, 0]
    theirs = [0, 0.0, 0]
    have_rlcard = True
    # Alternate the two so that machine noise hits both alike.
    for r in range(args.rounds):
        m, s, h = bench_engine(args.seconds / args.rounds, args.players, seed=r + 1)
        ours = [ours[0] + m, ours[1] + s, ours[2] + h]
        got = bench_rlcard(args.seconds / args.rounds, args.players, seed=r + 1)
        if got is None:
            have_rlcard = False
        else:
            theirs = [theirs[0] + got[0], theirs[1] + got[1], theirs[2] + got[2]]
    e_rate = ours[0] / ours[1]
    print(
        f"unotui: {ours[0]} moves in {ours[2]} hands, {ours[1]:.1f} s, "
        f"{1e6 / e_rate:.2f} us/move, {ours[0] / ours[2]:.1f} moves/hand"
    )
    if have_rlcard:
        r_rate = theirs[0] / theirs[1]
        print(
            f"rlcard: {theirs[0]} moves in {theirs[2]} hands, {theirs[1]:.1f} s, "
            f"{1e6 / r_rate:.2f} us/move, {theirs[0] / theirs[2]:.1f} moves/hand"
        )
        print(f"engine_moves_per_s={e_rate:.0f} rlcard_moves_per_s={r_rate:.0f} ratio={e_rate / r_rate:.2f}")
    else:
        print("rlcard not installed: pip install -e '.[bench]'")
        print(f"engine_moves_per_s={e_rate:.0f} rlcard_moves_per_s=0 ratio=nan")


if __name__ == "__main__":
    main()
