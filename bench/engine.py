"""Engine throughput: unotui and RLCard's UNO playing the same random policy.

Plays two-player hands (a "game" here is one hand, as in RLCard).  Both engines follow
one policy, the one RLCard's legal actions imply: **a uniformly random playable card;
draw only when no card can be played; a playable drawn card is played**.  Colours are
uniform.  So both sides do the same work per hand and "moves per second" and "hands per
second" compare like with like.

* unotui runs the official rules (``classic`` preset: challenges, UNO calls, first-card
  rules, reshuffles) with ``Game.apply``, the one way to change a game (it finds the
  action in the ``legal_actions`` just asked for).  A wild is one move and its colour
  another; a challenge is answered uniformly; a drawn card that cannot be played is kept
  (one more move).
* RLCard (``pip install -e '.[bench]'``) runs its raw ``UnoGame``: a wild and its colour
  are one action, a drawn card is played (or kept) within the ``draw`` move, and a Wild
  Draw Four is legal only when nothing else is (it has no challenge).  Its four colour
  actions of one wild count as one card for the policy.

The moves per hand therefore differ a little (unotui counts colours, kept cards and
challenges as moves); hands per second is the figure to compare across engines, and
across versions of this engine.  Times are CPU seconds of this process
(``time.process_time``) and the two engines alternate over several rounds, so other load
on the machine disturbs both sides alike.

Usage: ``python bench/engine.py [--seconds S] [--rounds R] [--players N]``.  The
line before last is ``engine_hands_per_s=N rlcard_hands_per_s=N hands_ratio=R``; the last
line is exactly ``engine_moves_per_s=N rlcard_moves_per_s=N ratio=R``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from unotui.engine import CallUno, Catch, Draw, Game, Keep, Rules

# Actions the policy takes only when nothing else is offered (draw, keep) or never
# (UNO calls and catches are out-of-turn extras, not a choice of card).
_PASSIVE = frozenset({Draw, Keep, CallUno, Catch})


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
    passive = _PASSIVE

    def play_hand() -> int:
        game = Game(players, rules, dealer=0, seed=int(rand() * 2**53))
        legal_actions, apply = game.legal_actions, game.apply
        moves = 0
        while game.round_winner < 0:  # the hand is on
            seat = game.actor
            legal = legal_actions(seat)
            options = [a for a in legal if type(a) not in passive]
            if options:
                action = options[int(rand() * len(options))]
            else:  # nothing to play: draw, or keep the unplayable drawn card
                action = next(a for a in legal if type(a) is Draw or type(a) is Keep)
            apply(seat, action)
            moves += 1
        return moves

    return _timed(seconds, play_hand)


def bench_rlcard(seconds: float, players: int, seed: int = 1) -> tuple[int, float, int] | None:
    """The same policy on RLCard's raw UnoGame, or None when RLCard is not installed."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=players)
    rng = random.Random(seed)
    rand = rng.random

    def play_hand() -> int:
        game.np_random = np.random.RandomState(rng.randrange(2**31))
        game.init_game()
        moves = 0
        while not game.is_over():
            legal = game.get_legal_actions()
            # A wild is offered once per colour: pick a card uniformly, then its colour.
            cards = [a for a in legal if "wild" not in a]
            wilds = len(legal) - len(cards)
            pick = int(rand() * (len(cards) + wilds // 4))
            if pick < len(cards):
                action = cards[pick]
            else:
                k = pick - len(cards)  # which wild (W or W+4), then a uniform colour
                action = [a for a in legal if "wild" in a][4 * k + int(rand() * 4)]
            game.step(action)
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
    e_rate, e_hands = ours[0] / ours[1], ours[2] / ours[1]
    print(
        f"unotui: {ours[0]} moves in {ours[2]} hands, {ours[1]:.1f} s, "
        f"{1e6 / e_rate:.2f} us/move, {ours[0] / ours[2]:.1f} moves/hand, {e_hands:.0f} hands/s"
    )
    if have_rlcard:
        r_rate, r_hands = theirs[0] / theirs[1], theirs[2] / theirs[1]
        print(
            f"rlcard: {theirs[0]} moves in {theirs[2]} hands, {theirs[1]:.1f} s, "
            f"{1e6 / r_rate:.2f} us/move, {theirs[0] / theirs[2]:.1f} moves/hand, {r_hands:.0f} hands/s"
        )
        print(
            f"engine_hands_per_s={e_hands:.0f} rlcard_hands_per_s={r_hands:.0f} "
            f"hands_ratio={e_hands / r_hands:.2f}"
        )
        print(f"engine_moves_per_s={e_rate:.0f} rlcard_moves_per_s={r_rate:.0f} ratio={e_rate / r_rate:.2f}")
    else:
        print("rlcard not installed: pip install -e '.[bench]'")
        print(f"engine_hands_per_s={e_hands:.0f} rlcard_hands_per_s=0 hands_ratio=nan")
        print(f"engine_moves_per_s={e_rate:.0f} rlcard_moves_per_s=0 ratio=nan")


if __name__ == "__main__":
    main()
