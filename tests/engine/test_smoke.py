"""The engine plays whole matches under every preset without breaking its invariants."""

import random

import pytest

from tests.engine.uno_testkit import all_cards, full_deck
from tests.seeds import rng_secret
from unotui.engine import PRESETS, Game


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 4, 7])
def test_random_match_conserves_cards(preset: str, players: int) -> None:
    rules = PRESETS[preset]
    deck = full_deck(Game(players, rules))
    rng = random.Random(players)
    g = Game(players, rules, secret=rng_secret(7 * players))
    steps = 0
    while not g.over and steps < 200_000:
        actions = g.legal_actions(g.actor)
        g.apply(g.actor, actions[rng.randrange(len(actions))])
        steps += 1
        if g.phase != "round_over":
            assert all_cards(g) == deck
    assert g.over
    assert max(g.scores) >= rules.target_score


def test_a_view_can_start_at_this_rounds_log() -> None:
    """Bots read only the current round's log: ``round_log_start`` marks its 'deal'."""
    from unotui.engine import DEAL, Rules, seat_view

    g = Game(2, Rules.preset("classic").with_(target_score=1000), secret=rng_secret(3))
    pick = random.Random(4)
    while g.round_no < 2:
        legal = g.legal_actions(g.actor)
        g.apply(g.actor, DEAL if DEAL in legal else legal[pick.randrange(len(legal))])
    view = seat_view(g, 0, g.round_log_start)
    assert view.log_start == g.round_log_start > 0
    assert view.log[0].kind == "deal" and view.log[0].value == 2
    assert [e.kind for e in view.log].count("deal") == 1
