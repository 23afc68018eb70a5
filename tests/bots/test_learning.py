"""The hard bot's learning within a match (unotui.bots.memory): the estimate's prior and
updates, that it starts again each match, that it stops challenging a player whose cards
were honest, the honest variant, and that learning reads nothing but the seat's views."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys

import pytest

from tests.bots.test_bots import _hidden_changed, _reachable_types
from tests.seeds import rng_secret
from unotui.bots import VARIANTS, HardBot, HardPolicy, Knowledge, make_bot
from unotui.bots.hard import HonestBot
from unotui.bots.memory import BLUFF_PRIOR, Memory
from unotui.engine import (
    CHALLENGE,
    Action,
    Event,
    EventKind,
    Game,
    Phase,
    Play,
    Rank,
    Rules,
    SeatView,
    seat_view,
)
from unotui.table import Pacing, Referee

_MATCH = Rules.preset("giant").with_(target_score=500)


def _view(seat: int = 0, log: tuple[Event, ...] = (), log_start: int = 0, round_no: int = 1) -> SeatView:
    game = Game(2, Rules.preset("giant"), secret=rng_secret(1))
    return seat_view(game, seat)._replace(log=log, log_start=log_start, round_no=round_no)


def _challenge(challenger: int, offender: int, guilty: bool) -> Event:
    return Event(EventKind.CHALLENGE, challenger, (), offender, int(guilty))


def test_the_estimate_starts_at_the_plain_bots_assumption() -> None:
    memory = Memory()
    assert memory.bluff_rate(1) == pytest.approx(0.5)
    assert memory.bluff_factor(1) == pytest.approx(1.0)
    assert memory.challenge_rate(1) == pytest.approx(0.5)
    assert memory.challenge_factor(1) == pytest.approx(1.0)


def test_honest_and_bluffing_outcomes_move_the_estimate_each_once() -> None:
    a, b = BLUFF_PRIOR
    memory = Memory()
    honest = _view(log=(Event(EventKind.DEAL), _challenge(0, 1, False)))
    memory.observe(honest)
    memory.observe(honest)  # the same events again are not counted twice
    assert memory.record(1).innocent == 1
    assert memory.bluff_rate(1) == pytest.approx(a / (a + b + 1))
    assert memory.bluff_factor(1) < 1
    # The next round's view starts where the last one ended: its challenge is new.
    bluff = _view(log=(Event(EventKind.DEAL), _challenge(0, 1, True)), log_start=2, round_no=2)
    memory.observe(bluff)
    assert (memory.record(1).guilty, memory.record(1).innocent) == (1, 1)
    assert memory.bluff_rate(1) == pytest.approx((a + 1) / (a + b + 2))
    # Seat 1 challenged nothing; seat 0 is the bot itself and has no record.
    assert memory.record(1).challenged == 0 and 0 not in memory.records
    # An opponent who challenges every time makes bluffing dearer, one who accepts cheaper.
    often = _view(log=tuple(_challenge(1, 0, False) for _ in range(4)), log_start=4, round_no=3)
    memory.observe(often)
    assert memory.record(1).challenged == 4
    assert memory.challenge_factor(1) > 1.5
    never = Memory()
    never.observe(_view(log=tuple(Event(EventKind.ACCEPT, 1) for _ in range(4))))
    assert never.challenge_factor(1) == pytest.approx(0.25)


def test_a_new_match_starts_from_the_prior() -> None:
    memory = Memory()
    memory.observe(_view(log=(Event(EventKind.DEAL),) * 30 + (_challenge(0, 1, False),), round_no=3))
    assert memory.record(1).innocent == 1
    memory.observe(_view(log=(Event(EventKind.DEAL),), round_no=1))  # round 1 of another match
    assert memory.record(1).innocent == 0
    assert memory.bluff_factor(1) == pytest.approx(1.0)


class _Recorder(HardBot):
    """The learning hard bot, keeping each challenge decision with its view."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng, deadline=None, search=False, objective="points")
        self.decisions: list[tuple[SeatView, int, Action]] = []

    def choose(self, view: SeatView) -> Action:
        action = super().choose(view)
        if view.phase == Phase.CHALLENGE and CHALLENGE in view.legal:
            assert self.memory is not None and view.seat is not None
            self.decisions.append((view, self.memory.record(1 - view.seat).innocent, action))
        return action


def test_the_learning_bot_stops_challenging_an_opponent_whose_cards_were_honest() -> None:
    """Against ``honest`` every challenge fails.  After two failed challenges heads-up
    (the estimate then scales the plain chance of guilt by 1/5, under the 20% limit) the
    learning bot accepts every Wild Draw Four, where the plain policy, asked about the
    very same views, would still have challenged some of them."""
    later: list[SeatView] = []
    for match in range(12):
        bot = _Recorder(random.Random(match))
        honest = make_bot("honest", random.Random(100 + match), deadline=None, search=False,
                          objective="points")
        game = Game(2, _MATCH, dealer=match % 2, secret=rng_secret(match))
        Referee(game, bots={0: bot, 1: honest}, humans=[], pacing=Pacing.instant()).tick(0.0)
        assert game.over
        for view, innocent, action in bot.decisions:
            if innocent >= 2:
                assert action is not CHALLENGE, (match, innocent)
                later.append(view)
    assert len(later) >= 5
    plain = HardPolicy("points")
    assert any(plain.decide(v, Knowledge(v)) is CHALLENGE for v in later)


def test_the_honest_bot_never_bluffs_a_wild_draw_four() -> None:
    checked = 0
    for match in range(3):
        bots = {s: make_bot("honest", random.Random(match * 2 + s), deadline=None, rollouts=24,
                            objective="points") for s in (0, 1)}
        game = Game(2, _MATCH, dealer=match % 2, secret=rng_secret(50 + match))
        Referee(game, bots=bots, humans=[], pacing=Pacing.instant()).tick(0.0)
        assert game.over
        for e in game.log:
            if e.kind is EventKind.CHALLENGE:
                assert not e.value, "an honest Wild Draw Four was found guilty"
                checked += 1
    assert checked >= 3
    assert isinstance(make_bot("honest"), HonestBot) and make_bot("honest").memory is None
    assert make_bot("hard").memory is not None and make_bot("hard-nolearn").memory is None
    assert make_bot("hard", learn=False).memory is None


def test_variants_build_pickle_and_see_only_their_view() -> None:
    game = Game(3, Rules.preset("modern"), secret=rng_secret(1))
    view = seat_view(game, game.actor)
    for name in VARIANTS:
        bot = make_bot(name, random.Random(0), deadline=None)
        bot.choose(view)
        assert Game not in _reachable_types(bot), name
        assert pickle.loads(pickle.dumps(bot)).name == bot.name


def test_what_was_learnt_holds_no_hidden_card_and_decisions_do_not_depend_on_them() -> None:
    """Mid-match, a learning bot with a record of its opponent decides the same when the
    opponent's hidden cards differ (same view); its memory reaches no game."""
    checked = 0
    for match in range(8):
        bot = make_bot("hard", random.Random(match), deadline=None, search=False, objective="points")
        other = make_bot("random", random.Random(match + 50))
        game = Game(2, _MATCH, dealer=0, secret=rng_secret(200 + match))
        checks = 0
        for _ in range(3000):
            if game.over:
                break
            seat = game.actor
            view = seat_view(game, seat, game.round_log_start)
            brain = bot if seat == 0 else other
            ready = bot.memory is not None and bot.memory.records and checks < 10
            if seat == 0 and view.phase in (Phase.PLAY, Phase.CHALLENGE) and ready:
                checks += 1
                twin = _hidden_changed(game, 0)
                assert seat_view(twin, 0, twin.round_log_start) == view
                a1 = copy.deepcopy(bot).choose(view)
                a2 = copy.deepcopy(bot).choose(seat_view(twin, 0, twin.round_log_start))
                assert a1 == a2
                checked += 1
            game.apply(seat, brain.choose(view))
        assert Game not in _reachable_types(bot)
    assert checked >= 20


def test_a_bluff_is_dearer_against_a_frequent_challenger() -> None:
    """The same bluffing Wild Draw Four scores lower once the next player is known to
    challenge, and higher against one who always accepts."""
    for seed in range(400):
        game = Game(2, Rules.preset("giant"), secret=rng_secret(seed))
        view = seat_view(game, game.actor)
        if view.phase != Phase.PLAY:
            continue
        bluff = next((a.card for a in view.legal if isinstance(a, Play) and a.card.rank is Rank.WILD4), None)
        if bluff is None or not any(c.colour is view.colour for c in view.hand):
            continue
        me, nxt = view.seat, 1 - view.actor
        assert me is not None
        know = Knowledge(view)
        plain = HardPolicy().card_score(view, know, bluff)
        wary, bold = Memory(), Memory()
        wary.observe(_view(me, tuple(_challenge(nxt, me, False) for _ in range(6))))
        bold.observe(_view(me, tuple(Event(EventKind.ACCEPT, nxt) for _ in range(6))))
        assert HardPolicy(memory=wary).card_score(view, know, bluff) < plain
        assert HardPolicy(memory=bold).card_score(view, know, bluff) > plain
        assert HardPolicy(memory=Memory()).card_score(view, know, bluff) == plain
        return
    pytest.fail("no deal with a bluffing Wild Draw Four in 400 seeds")


def test_sim_still_runs_hard_against_random_and_the_variants() -> None:
    for bots in ("hard,random", "honest,hard-nolearn"):
        run = subprocess.run(
            [sys.executable, "-m", "unotui", "sim", "--games", "8",
             "--bots", bots, "--players", "2", "--seed", "1"],
            capture_output=True, text=True, timeout=300,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        assert bots.split(",")[0] in run.stdout
