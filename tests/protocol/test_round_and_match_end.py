"""What the view says at the end of a round (``protocol/SPEC.md``, the view's ``dealer``).

At ``round_over`` the view's ``dealer`` is still this round's (the one the ``deal`` event
names), so a verifier recomputing the deal from it is right; who deals next is the
``actor``, and the screen's "X deals next" names the actor.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from tests.seeds import rng_secret
from unotui.engine import DEAL, Catch, Game, Phase, Rules, seat_view, verify_round
from unotui.engine.events import EventKind
from unotui.ui.widgets import prompt

pytestmark = pytest.mark.timeout(60)


def play_to(game: Game, phase: Phase, rng: Random) -> None:
    """Seeded legal moves (never a catch, so the round ends) until ``phase``."""
    while game.phase != phase:
        options = [a for a in game.legal_actions(game.actor) if not isinstance(a, Catch)]
        game.apply(game.actor, rng.choice(options))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_at_round_over_the_view_names_this_rounds_dealer_and_the_actor_deals_next(players: int) -> None:
    game = Game([f"P{i}" for i in range(players)], Rules.preset("classic"), secret=rng_secret(players))
    rng = Random(players)
    dealt_by = game.log[game.round_log_start]
    assert dealt_by.kind == EventKind.DEAL
    play_to(game, Phase.ROUND_OVER, rng)
    for seat in range(players):
        view = seat_view(game, seat, game.round_log_start)
        assert view.dealer == dealt_by.seat  # this round's, as SPEC says
        assert (DEAL in view.legal) == (seat == view.actor)  # the next dealer is the actor
    view = seat_view(game, 0, game.round_log_start)
    assert view.actor == (dealt_by.seat + 1) % players
    verdict = verify_round(view)
    assert verdict.ok is True, verdict.reason
    lying = verify_round(view._replace(dealer=view.actor))  # a view naming another dealer
    assert lying.ok is False and "dealer" in lying.reason
    names = view.names
    who = "You deal" if view.actor == 0 else f"{names[view.actor]} deals"
    assert prompt(view) == f"Round over. {who} next."
    game.apply(view.actor, DEAL)
    assert seat_view(game, 0).dealer == view.actor  # and from the deal on, the new one


def test_the_round_over_vector_names_this_rounds_dealer() -> None:
    """``vectors/host.json``'s snapshot at round_over: its ``dealer`` is the seat its
    ``deal`` event names, and the next dealer is the actor, whose only action is deal."""
    path = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "host.json"
    [case] = [c for c in json.loads(path.read_text(encoding="utf-8"))["valid"] if "round_over" in c["name"]]
    view = case["value"]["view"]
    [deal] = [e for e in view["log"] if e[0] == "deal"]
    assert view["phase"] == "round_over" and view["dealer"] == deal[1]
    assert view["actor"] != view["dealer"] and view["legal"] == ["deal"]
    assert view["revealed_key"] == ""  # (a stacked deck: nothing committed, nothing revealed)
