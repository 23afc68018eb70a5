"""A game is a pure function of (players, rules, dealer, deck or seed, actions); real
games shuffle with a CSPRNG."""

from __future__ import annotations

import os
import random
import subprocess
import sys

from unotui.engine import Game, Rules

PLAYOUT = """
import random, json
from unotui.engine import Game, Rules
rules = Rules.preset("modern").with_(seven_o=True, jump_in=True, stacking="cross", target_score=200)
g = Game(4, rules, rng=random.Random(42))
pick = random.Random(7)
steps = 0
while not g.over and steps < 50000:
    moves = [(s, a) for s in range(4) for a in g.legal_actions(s)]
    g.apply(*moves[pick.randrange(len(moves))])
    steps += 1
print(json.dumps([steps, g.scores, [str(e) for e in g.log[-50:]]]))
"""


def test_seeded_games_replay_identically_across_processes() -> None:
    """Set and dict orders must not depend on the process (hash seed, addresses)."""
    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run([sys.executable, "-c", PLAYOUT], capture_output=True, text=True, env=env,
                             check=True)
        outs.append(run.stdout)
    assert outs[0] == outs[1]


def test_real_games_use_a_csprng() -> None:
    game = Game(3, Rules.preset("classic"))
    assert game.shuffler.from_secrets and game.shuffler.seed is None
    assert Game(3, Rules.preset("classic")).shuffler.secret != game.shuffler.secret


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    a = Game(4, rng=random.Random(5), dealer=0)
    b = Game(4, rng=random.Random(5), dealer=0)
    c = Game(4, rng=random.Random(6), dealer=0)
    assert a.hands == b.hands and a.draw_pile == b.draw_pile
    assert a.hands != c.hands
