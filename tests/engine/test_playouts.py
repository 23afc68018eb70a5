"""Random playouts: whole matches at 2-10 seats under every preset and many house-rule
combinations, checking the engine's invariants after every step.

At each step one (seat, action) pair is picked uniformly among *all* seats' legal actions,
so out-of-turn actions (UNO calls, catches, jump-ins) happen as often as they are offered.
Every step checks that no card is lost or duplicated, that the views hide what they must,
and that an illegal action is refused without changing anything.  Everything is seeded:
hypothesis runs derandomized and each example carries its own seed.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.engine.uno_testkit import all_cards, full_deck
from tests.seeds import rng_secret
from unotui.engine import (
    ALL_CARDS,
    CALL_UNO,
    DRAW,
    PRESETS,
    Action,
    Card,
    Catch,
    ChooseColour,
    ChooseTarget,
    Colour,
    CustomRule,
    Discard,
    Effect,
    Game,
    IllegalActionError,
    Play,
    Rules,
    Scoring,
    Stacking,
    play,
    seat_view,
    spectator_view,
)

OVER = ("round_over", "match_over")
SIMPLE = [Action.parse(t) for t in ("draw", "keep", "challenge", "accept", "uno", "deal")]


@dataclass
class Stats:
    steps: int = 0
    rounds: int = 0
    dry: int = 0  # steps taken with both piles empty
    kinds: Counter[str] = field(default_factory=Counter)


def _state(g: Game) -> tuple[Any, ...]:
    return (
        [list(h) for h in g.hands], list(g.draw_pile), list(g.discard), g.phase, g.actor, g.pos,
        g.direction, g.colour, g.top, g.pending, g.drawn, g.uno_open, list(g.uno_called), g.wd4,
        list(g.todo), g.discard_left, g.face_up_until, list(g.scores), g.dealer, len(g.log), g.version,
    )


def check_invariants(g: Game, deck: list[Card], log_from: int) -> None:
    assert all_cards(g) == deck, "cards were lost or duplicated"
    assert g.top is g.discard[-1]
    playing = g.phase not in OVER
    if playing:
        assert g.actor in g.active and g.turn in g.active
        assert all(g.hands[s] for s in g.active), "an active seat holds no cards mid-round"
        assert g.legal_actions(g.actor), "the seat to act has no legal action"
        if g.top.colour is not None and g.phase != "colour":
            assert g.colour is g.top.colour
    for s in range(g.n):
        if s not in g.active:
            assert not g.hands[s]
    for seat in range(g.n):
        legal = g.legal_actions(seat)
        assert len(set(legal)) == len(legal), f"duplicate legal actions {legal}"
        if playing and g.uno_open >= 0 and seat in g.active:
            # Rule 16: the seat that forgot may still call; everyone else may catch it.
            assert (CALL_UNO in legal) is (seat == g.uno_open)
            assert (Catch(g.uno_open) in legal) is (seat != g.uno_open)
        else:
            assert not any(a is CALL_UNO or isinstance(a, Catch) for a in legal)
        if seat != g.actor:
            for a in legal:  # out of turn: only calls, catches and jump-ins
                assert a is CALL_UNO or isinstance(a, Catch) or (
                    g.rules.jump_in and isinstance(a, Play) and a.card is g.top), f"seat {seat}: {a}"
        v = seat_view(g, seat, log_from)
        assert v.hand == tuple(sorted(g.hands[seat]))  # sorted: arrival order stays hidden
        assert all(list(cards) == sorted(cards) for cards in v.face_up.values())
        assert v.counts == tuple(len(h) for h in g.hands)
        assert v.colour is g.colour and v.top is g.top
        assert v.legal == tuple(g.legal_actions(seat))
        if v.drawn is not None:
            assert seat == g.actor
        if v.face_up and playing:
            assert g.face_up_until >= 0
        for e in v.log:
            if e.to >= 0 and e.to != seat:
                assert e.cards == (), f"seat {seat} sees {e}"
    sv = spectator_view(g, log_from)
    assert sv.hand == () and sv.legal == () and sv.drawn is None
    for e in sv.log:
        if e.to >= 0:
            assert e.cards == ()


def try_illegal(g: Game, rng: random.Random) -> None:
    """Some action the seat may not take now must be refused with nothing changed."""
    seat = rng.randrange(-1, g.n + 1)
    pool: list[Action] = [
        *SIMPLE, ChooseColour(rng.choice(list(Colour))), ChooseTarget(rng.randrange(12)),
        Catch(rng.randrange(12)), play(rng.choice(ALL_CARDS)), Discard(rng.choice(ALL_CARDS)),
    ]
    if 0 <= seat < g.n and g.hands[seat]:
        card = rng.choice(g.hands[seat])
        pool += [play(card), play(card, True), Discard(card)]
    action = rng.choice(pool)
    if 0 <= seat < g.n:
        legal = g.legal_actions(seat)
        if action in legal:
            return
        if isinstance(action, Play) and action.uno and play(action.card) in legal:
            return  # a call riding on a legal play is accepted as that play
    before = _state(g)
    try:
        g.apply(seat, action)
    except IllegalActionError:
        pass
    else:
        raise AssertionError(f"seat {seat} was allowed {action} (legal: {g.legal_actions(seat)})")
    assert _state(g) == before, f"refusing {action} by seat {seat} changed the state"


def play_out(g: Game, seed: int, max_steps: int, uniform_steps: int = 1500, hoard: float = 0.0,
             fuzz: int = 7) -> Stats:
    """Play random actions until the match ends (or ``max_steps``); return what happened.

    For the first ``uniform_steps`` steps the pick is uniform over every seat's legal
    actions.  Uniformly random seats draw so often (above all under draw-to-match) that a
    round can last tens of thousands of steps, so afterwards the seat to act plays a card
    nine times out of ten when it can: matches then finish within the bound unless the
    engine livelocks.  ``hoard`` is the chance, during those first steps, of drawing (or
    catching) whenever that is possible, to run the piles dry.
    """
    rng = random.Random(seed)
    deck = full_deck(g)
    stats = Stats()
    check_invariants(g, deck, 0)
    while not g.over and stats.steps < max_steps:
        pairs = [(s, a) for s in range(g.n) for a in g.legal_actions(s)]
        assert pairs
        if stats.steps < uniform_steps and hoard and rng.random() < hoard:
            pairs = [(s, a) for s, a in pairs if a is DRAW or isinstance(a, Catch)] or pairs
        elif stats.steps >= uniform_steps and rng.random() < 0.9:
            pairs = [(s, a) for s, a in pairs if s == g.actor and isinstance(a, Play)] or pairs
        seat, action = pairs[rng.randrange(len(pairs))]
        if not g.draw_pile and len(g.discard) <= 1:
            stats.dry += 1
        log_from = len(g.log)
        g.apply(seat, action)
        stats.steps += 1
        last = g.log[-1]
        if last.kind == "draw" and last.note == "turn":
            # Issue 8: after a turn draw the drawer always decides (play or keep), so
            # nobody learns from the phase whether the hidden card was playable.
            assert g.phase == "drawn" and g.actor == last.seat and g.drawn is not None
        for e in g.log[log_from:]:
            stats.kinds[e.kind] += 1
        stats.rounds += g.phase in OVER
        check_invariants(g, deck, log_from)
        if stats.steps % fuzz == 0:
            try_illegal(g, rng)
    return stats


# ----- strategies ----------------------------------------------------------------------------------


@dataclass
class Table:
    """A generated table; the repr says how to rebuild it."""

    players: int
    rules: Rules
    seed: int
    dealer: int | None

    def game(self) -> Game:
        return Game(self.players, self.rules, secret=rng_secret(self.seed), dealer=self.dealer)

    def __repr__(self) -> str:
        base = PRESETS.get(self.rules.name, Rules()).to_mapping()
        changed = " ".join(f"{k}={v}" for k, v in self.rules.to_mapping().items() if base[k] != v)
        return (f"Table({self.players} players, {self.rules.name} {changed}, "
                f"seed={self.seed}, dealer={self.dealer})")


@st.composite
def tables(draw: st.DrawFn, players: int | None = None) -> Table:
    n = players if players is not None else draw(st.integers(2, 10))
    base = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    scoring = draw(st.sampled_from(list(Scoring)))
    teams = n % 2 == 0 and n >= 4 and scoring is not Scoring.ELIMINATION and draw(st.booleans())
    effects = draw(st.lists(st.sampled_from(list(Effect)), max_size=3))
    changes: dict[str, Any] = {
        "stacking": draw(st.sampled_from(list(Stacking))),
        "seven_o": draw(st.booleans()),
        "jump_in": draw(st.booleans()),
        "draw_to_match": draw(st.booleans()),
        "forced_play": draw(st.booleans()),
        "no_bluffing": draw(st.booleans()),
        "challenge": draw(st.booleans()),
        "uno_penalty": draw(st.integers(0, 4)),
        "target_score": draw(st.sampled_from([1, 40, 150])),
        "scoring": scoring,
        "teams": teams,
        "swap_hands": draw(st.integers(0, 2)),
        "shuffle_hands": draw(st.integers(0, 2)),
        "custom_wilds": draw(st.integers(0, 3)),
        "custom": CustomRule(tuple(effects)),
    }
    rules = base.with_(**changes)
    most = min(15, (rules.deck_size - 1) // n)
    rules = rules.with_(hand_size=draw(st.integers(1, min(most, 9))))
    seed = draw(st.integers(0, 2**32 - 1))
    dealer = draw(st.none() | st.integers(0, n - 1))
    return Table(n, rules, seed, dealer)


# Derandomized (the same examples on every run) and without shrinking: shrinking a
# thousand-step playout takes minutes, and the failing Table's repr rebuilds it exactly.
PLAYOUT = settings(derandomize=True, database=None, deadline=None,
                   phases=[Phase.explicit, Phase.generate], suppress_health_check=[HealthCheck.too_slow])


@settings(PLAYOUT, max_examples=40)
@given(tables())
def test_random_playouts_keep_the_invariants(table: Table) -> None:
    g = table.game()
    stats = play_out(g, table.seed, max_steps=8000)
    assert g.over, f"no winner after {stats.steps} steps"
    assert g.winner in range(g.n)


@settings(PLAYOUT, max_examples=len(PRESETS) * 3)
@given(st.sampled_from(sorted(PRESETS)), st.integers(2, 10), st.integers(0, 2**32 - 1))
def test_every_preset_plays_to_the_end(preset: str, players: int, seed: int) -> None:
    g = Game(players, PRESETS[preset].with_(target_score=100), secret=rng_secret(seed))
    play_out(g, seed, max_steps=5000)
    assert g.over


@settings(PLAYOUT, max_examples=6)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_both_piles_run_dry_and_the_match_still_ends(seed: int, catches: bool) -> None:
    # Ten seats of ten cards leave eight to draw; hoarding (draw-to-match, or drawing and
    # catching whenever possible with a big UNO penalty) empties both piles.
    rules = Rules.preset("classic").with_(hand_size=10, draw_to_match=not catches, target_score=1,
                                          uno_penalty=10 if catches else 2)
    g = Game(10, rules, secret=rng_secret(seed), dealer=seed % 10)
    stats = play_out(g, seed, max_steps=4000, uniform_steps=400, hoard=0.7)
    assert stats.dry > 0, "the piles never ran dry"
    assert stats.kinds["pass"] > 0
    assert g.over


@settings(PLAYOUT, max_examples=10)
@given(tables(players=4))
def test_partners_playouts(table: Table) -> None:
    if table.rules.scoring is Scoring.ELIMINATION:
        return
    g = Game(4, table.rules.with_(teams=True), secret=rng_secret(table.seed))
    play_out(g, table.seed, max_steps=4000)
    assert g.over
    if g.rules.scoring is Scoring.STANDARD:
        assert g.scores[0] == g.scores[2] and g.scores[1] == g.scores[3]


@settings(PLAYOUT, max_examples=12)
@given(st.lists(st.sampled_from(list(Effect)), min_size=1, max_size=4), st.integers(2, 6),
       st.integers(0, 2**32 - 1))
def test_custom_wild_effect_combinations(effects: list[Effect], players: int, seed: int) -> None:
    # Many customizable wilds (plus swap and shuffle cards) so the effects fire often.
    rules = Rules.preset("giant").with_(custom=CustomRule(tuple(effects)), swap_hands=4, shuffle_hands=4,
                                        target_score=60)
    g = Game(players, rules, secret=rng_secret(seed))
    stats = play_out(g, seed, max_steps=5000)
    assert g.over
    assert stats.steps > 0


def test_playouts_reach_every_kind_of_event() -> None:
    """The uniform pick over all seats' actions does exercise the out-of-turn paths."""
    seen: Counter[str] = Counter()
    tables_ = [
        (4, Rules.preset("modern").with_(shuffle_hands=1, seven_o=True, jump_in=True, target_score=200,
                                         custom=CustomRule((Effect.NEXT_TO_SEVEN, Effect.HANDS_FACE_UP)))),
        (3, Rules.preset("giant").with_(stacking=Stacking.CROSS, scoring=Scoring.ELIMINATION, target_score=60,
                                        custom=CustomRule((Effect.DISCARD_WILDS, Effect.ALL_TO_THREE)))),
        (10, Rules.preset("classic").with_(hand_size=10, draw_to_match=True, target_score=1)),
    ]
    for seed in range(3):
        for players, rules in tables_:
            g = Game(players, rules, secret=rng_secret(seed), dealer=0)
            seen += play_out(g, seed, max_steps=6000, fuzz=50).kinds
    expected = {"play", "jump", "draw", "keep", "pass", "skip", "reverse", "colour", "challenge", "reveal",
                "accept", "uno", "catch", "swap", "rotate", "shuffle", "effect", "discard", "reshuffle",
                "round", "eliminated", "match", "deal"}
    assert expected <= set(seen), expected - set(seen)


def test_a_match_replays_exactly_from_its_seed_and_actions() -> None:
    rules = Rules.preset("modern").with_(shuffle_hands=2, seven_o=True, jump_in=True, target_score=100)
    first = Game(5, rules, secret=rng_secret(42))
    actions: list[tuple[int, Action]] = []
    rng = random.Random(42)
    while not first.over and len(actions) < 3000:
        pairs = [(s, a) for s in range(first.n) for a in first.legal_actions(s)]
        seat, action = pairs[rng.randrange(len(pairs))]
        first.apply(seat, action)
        actions.append((seat, action))
    again = Game(5, rules, secret=rng_secret(42))
    for seat, action in actions:
        again.apply(seat, Action.parse(str(action)))
    assert again.log == first.log
    assert again.hands == first.hands and again.scores == first.scores
