"""The schedule on its own: pure functions of a game and a plain RefereeState."""

from __future__ import annotations

import copy
import random
from dataclasses import fields

from unotui.bots import RandomBot
from unotui.engine import Game, Rules
from unotui.table import Pacing
from unotui.table.schedule import KEEP_DUE, REACT, TURN, RefereeState, deadlines, next_due, pauses
from unotui.table.seats import HumanSeat


def _state(game: Game, pacing: Pacing, **kw: object) -> RefereeState:
    brains = [RandomBot(random.Random(s)) for s in range(game.n)]
    delays = [pauses(b, pacing) for b in brains]
    state = RefereeState(
        pacing,
        brains=list(brains),
        think=[t for t, _ in delays],
        catch=[c for _, c in delays],
        jump_in=game.rules.jump_in,
        win_seat=game.uno_open,
        started=True,
    )
    for name, value in kw.items():
        setattr(state, name, value)
    return state


def _snapshot(state: RefereeState) -> dict[str, object]:
    return {f.name: copy.copy(getattr(state, f.name)) for f in fields(state)}


def test_a_bots_turn_is_due_its_pause_after_the_decision_became_due() -> None:
    game = Game(3, Rules.preset("classic"), seed=3)
    pacing = Pacing(bot_delay=0.5, catch_grace=1.0, bot_delays=False)
    state = _state(game, pacing, since=7.0)
    due = next_due(game, state)
    assert due is not None and due[0] == 7.5 and due[1] in (TURN, KEEP_DUE) and due[3] == game.actor


def test_the_schedule_changes_neither_the_state_nor_the_game() -> None:
    game = Game(4, Rules.preset("classic").with_(jump_in=True), seed=5)
    pacing = Pacing(bot_delay=0.5, catch_grace=1.0, hold=30.0, turn_timer=10.0, bot_delays=False)
    away = HumanSeat(1, connected=False, away_since=2.0)
    state = _state(game, pacing, since=1.0, away=[away], asked={2}, asked_version=game.version)
    before, version = _snapshot(state), game.version
    first = next_due(game, state), deadlines(game, state)
    assert (next_due(game, state), deadlines(game, state)) == first
    assert _snapshot(state) == before and game.version == version
    assert first[1].holds == ((1, 32.0),)


def test_a_reaction_is_asked_once_then_the_next_thing_is_due() -> None:
    game = Game(3, Rules.preset("classic").with_(jump_in=True), seed=2)  # seat 1 may jump in
    state = _state(game, Pacing.instant()._replace(bot_delay=0.5))
    due = next_due(game, state)
    assert due == (0.5, REACT, 1, 1)  # reactions before the turn at equal times
    state.asked, state.asked_version = {1}, game.version
    after = next_due(game, state)
    assert after is not None and after[0] == 0.5 and after[3] != 1
    state.asked_version = game.version - 1  # asked in an older state: asked again now
    assert next_due(game, state) == due
