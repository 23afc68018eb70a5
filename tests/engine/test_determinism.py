"""A game is a pure function of (players, rules, dealer, deck or seed, actions); real
games shuffle with a CSPRNG."""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys

import pytest

import unotui.engine.shuffle as seam
from tests.seeds import rng_secret
from unotui.engine import Game, Rules
from unotui.net.local import LocalGame

PLAYOUT = """
import random, json
from unotui.engine import Game, Rules
rules = Rules.preset("modern").with_(seven_o=True, jump_in=True, stacking="cross", target_score=200)
g = Game(4, rules, secret=random.Random(42).getrandbits(256).to_bytes(32, "big"))
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
    a = Game(4, secret=rng_secret(5), dealer=0)
    b = Game(4, secret=rng_secret(5), dealer=0)
    c = Game(4, secret=rng_secret(6), dealer=0)
    assert a.hands == b.hands and a.draw_pile == b.draw_pile
    assert a.hands != c.hands


# ----- the paths players use never seed the deal ------------------------------------------


def _spy_on_secrets(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Record every secret the seam draws from the secrets module."""
    made: list[bytes] = []
    real = seam.secrets.token_bytes

    def spy(n: int | None = None) -> bytes:
        out = real(n)
        made.append(out)
        return out

    monkeypatch.setattr(seam.secrets, "token_bytes", spy)
    return made


def _dealt_from_secrets(game: Game, made: list[bytes]) -> None:
    source = game.shuffler
    assert source.from_secrets and source.seed is None
    assert source.secret in made  # this very secret came from secrets.token_bytes


def test_solo_play_from_the_command_line_deals_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """``unotui play`` without --seed: options as the CLI builds them, the app's factory."""
    from unotui.ui.app import local_game
    from unotui.ui.cli import add_arguments, build_options

    made = _spy_on_secrets(monkeypatch)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    games = []
    for _ in range(2):
        _config, options = build_options(parser.parse_args([]))
        controller = local_game(options)
        assert isinstance(controller, LocalGame)
        _dealt_from_secrets(controller.game, made)
        games.append(controller.game)
    assert games[0].shuffler.secret != games[1].shuffler.secret
    # --seed (tests, replays) is the one way to a repeatable deal
    _config, options = build_options(parser.parse_args(["--seed", "5"]))
    seeded = local_game(options)
    assert isinstance(seeded, LocalGame) and seeded.game.shuffler.seed is not None


def test_hosted_tables_deal_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """A LAN or lobby table: Room.start, as the host calls it."""
    from unotui.net.config import RoomConfig
    from unotui.net.room import Room

    made = _spy_on_secrets(monkeypatch)

    async def start() -> list[Game]:
        games = []
        for _ in range(2):
            room = Room("", RoomConfig(seats=3), on_event=lambda _text: None)
            room.start()
            assert room.game is not None
            games.append(room.game)
        return games

    a, b = asyncio.run(start())
    _dealt_from_secrets(a, made)
    _dealt_from_secrets(b, made)
    assert a.shuffler.secret != b.shuffler.secret
