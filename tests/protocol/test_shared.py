"""Building one moment's views together (``seat_views``) and encoding the deltas that
are alike once (``SharedDeltas``) changes nothing a seat receives: the views equal
``seat_view``'s and every byte equals what the one-seat-at-a-time path sends."""

from __future__ import annotations

import random

import pytest

from unotui.engine import Game, seat_view, seat_views
from unotui.protocol import ViewEncoder, encode
from unotui.protocol.codec import SharedDeltas

from .proto_support import RULE_SETS, random_steps


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
@pytest.mark.parametrize("seed", range(3))
def test_views_built_together_equal_views_built_one_by_one(rules: str, seed: int) -> None:
    players = 2 + seed % 4
    game = Game(players, RULE_SETS[rules], rng=random.Random(seed))
    rnd = random.Random(seed)
    for _ in random_steps(game, seed, 300):
        viewers = [(s, rnd.randrange(len(game.log) + 1)) for s in range(players)]
        viewers += [(None, game.round_log_start), (0, game.round_log_start)]
        assert seat_views(game, viewers) == [seat_view(game, s, f) for s, f in viewers]


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
@pytest.mark.parametrize("seed", range(3))
def test_shared_deltas_send_the_same_bytes_to_every_seat(rules: str, seed: int) -> None:
    players = 2 + seed % 4
    game = Game(players, RULE_SETS[rules], rng=random.Random(seed))
    viewers: list[int | None] = [*range(players), None]
    alone = {v: ViewEncoder() for v in viewers}
    together = {v: ViewEncoder() for v in viewers}

    def send() -> None:
        views = seat_views(game, [(v, together[v].log_from) for v in viewers])
        shared = SharedDeltas()
        for v, view in zip(viewers, views, strict=True):
            one = alone[v].update(seat_view(game, v, alone[v].log_from))
            both = together[v].update(view)
            assert (one is None) == (both is None)
            if one is not None and both is not None:
                expected = encode(one)
                got = shared.delta(both) if type(both).__name__ == "Delta" else encode(both)
                assert got == expected

    send()
    for _ in random_steps(game, seed, 300):
        send()
