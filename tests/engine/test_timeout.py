"""The turn timer's default action (the host applies it): never a double turn."""

from __future__ import annotations

import random

from tests.seeds import rng_secret
from unotui.engine import Game, Play, Rules


def test_timeouts_pass_the_turn_and_never_give_a_second_one() -> None:
    rules = Rules.preset("modern").with_(target_score=150, seven_o=True)
    timeouts = 0
    for seed in range(20):
        g = Game(3, rules, secret=rng_secret(seed))
        pick = random.Random(seed)
        while not g.over:
            due = g.timeout_action()
            assert due is not None
            seat, action = due
            assert action in g.legal_actions(seat)
            if pick.random() < 0.7:  # otherwise the seat plays a card when it can
                legal = g.legal_actions(seat)
                plays = [a for a in legal if isinstance(a, Play)] or legal
                g.apply(seat, plays[pick.randrange(len(plays))])
                continue
            turn_before, phase_before = g.turn, g.phase
            g.apply(seat, action)
            timeouts += 1
            if phase_before == "play" and g.phase == "play" and g.round_winner < 0:
                # A timed-out plain turn ends that player's turn: the next seat is up.
                assert g.turn != turn_before
            if phase_before == "drawn":
                assert g.turn != turn_before or g.phase != "play"
        assert g.timeout_action() is None
    assert timeouts > 500
