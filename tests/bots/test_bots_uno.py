"""Computer players below hard sometimes forget to call UNO, at a documented rate per
level, drawn from their own seeded rng; catching them (``c``) then works in solo play."""

from __future__ import annotations

import random

import pytest

from tests.seeds import rng_secret
from tests.ui.tui_support import screen_text, scripted_app, settle
from unotui.bots import LEVELS, make_bot
from unotui.engine import CALL_UNO, Action, Game, Play, Rules, deal_order, seat_view

CLASSIC = Rules.preset("classic")
#: the documented chances (docs/bots.md)
RATES = {"random": 0.3, "greedy": 0.3, "easy": 0.3, "medium": 0.1, "hard": 0.0}


def _two_cards() -> Game:
    """Seat 0 to play, holding R5 and R6 on R1: any play leaves one card."""
    rules = CLASSIC.with_(hand_size=2, target_score=1000)
    deck = deal_order(["R5 R6", "B1 B7"], "R1", dealer=1)
    return Game(2, rules, secret=rng_secret(0), dealer=1, deck=deck)


def test_levels_are_documented() -> None:
    assert set(RATES) == set(LEVELS)
    for level in LEVELS:
        assert make_bot(level).forget_uno == RATES[level]


@pytest.mark.parametrize("level", [lv for lv in LEVELS if lv != "hard"])
def test_forgetting_uno_happens_at_the_level_rate(level: str) -> None:
    view = seat_view(_two_cards(), 0)
    n = 1500
    forgot = 0
    for seed in range(n):
        action = make_bot(level, random.Random(seed)).choose(view)
        assert isinstance(action, Play) and action in view.legal
        forgot += not action.uno
    assert abs(forgot / n - RATES[level]) < 0.04, (level, forgot / n)


def test_hard_never_forgets_and_forgetting_is_seeded() -> None:
    view = seat_view(_two_cards(), 0)
    for seed in range(30):
        action = make_bot("hard", random.Random(seed), search=False).choose(view)
        assert isinstance(action, Play) and action.uno
    runs = [[make_bot("easy", random.Random(s)).choose(view) for s in range(50)] for _ in range(2)]
    assert runs[0] == runs[1]
    assert make_bot("easy", random.Random(1), forget_uno=0).forget_uno == 0


def test_a_bot_that_forgot_does_not_call_late_out_of_turn() -> None:
    game = _two_cards()
    game.apply(0, Action.parse("R5"))  # without calling UNO
    view = seat_view(game, 0)
    assert view.uno_open == 0 and CALL_UNO in view.legal
    assert make_bot("easy", random.Random(1)).react(view) is None
    assert make_bot("hard", random.Random(1)).react(view) is CALL_UNO


async def test_catching_a_forgetful_computer_player_in_solo_play() -> None:
    rules = CLASSIC.with_(hand_size=2, target_score=1000)
    deck = deal_order(["R9 B2", "R5 G5"], "R1", dealer=0)
    ada = make_bot("easy", random.Random(4), forget_uno=1.0)
    app = scripted_app(["Me", "Ada"], rules, {1: ada}, dealer=0, deck=deck, catch_grace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.view is not None and app.view.uno_open == 1
        assert "catch (c)" in screen_text(app)
        await pilot.press("c")
        await settle(pilot)
        assert app.view.counts[1] == 3
