"""Computer players: legal moves everywhere, only the seat's view, reproducible, the API."""

from __future__ import annotations

import copy
import gc
import inspect
import pickle
import random
from collections import Counter

import pytest

from tests.seeds import rng_secret
from unotui.bots import LEVELS, MIN_CATCH_DELAY, Bot, Knowledge, make_bot, react, suggest
from unotui.bots.base import RandomBot
from unotui.engine import (
    CALL_UNO,
    DRAW,
    KEEP,
    PRESETS,
    Card,
    Colour,
    Game,
    Phase,
    Play,
    Rules,
    SeatView,
    parse_cards,
    play,
    seat_view,
)

HOUSE_RULES: list[dict[str, str]] = [
    {"stacking": "official"},
    {"stacking": "cross", "jump_in": "on"},
    {"seven_o": "on", "jump_in": "on"},
    {"custom": "draw_until_colour+discard_wilds+draw3_if_stuck+extra_turn", "swap_hands": "1"},
    {"custom": "next_to_seven+all_to_three+hands_face_up+swap_hands", "shuffle_hands": "1"},
    {"custom": "shuffle_hands+skip_next+next_draws_two", "draw_to_match": "on"},
    {"forced_play": "on", "no_bluffing": "on", "uno_penalty": "4"},
    {"challenge": "off", "scoring": "lowest"},
    {"teams": "on"},
]


def _bots(levels: list[str], seed: int) -> list[Bot]:
    return [
        make_bot(level, random.Random(seed * 31 + i), rollouts=12, deadline=None)
        for i, level in enumerate(levels)
    ]


def play_checked(game: Game, bots: list[Bot], max_moves: int = 4000, rounds: int = 1) -> int:
    """Play with every decision checked against the view's legal actions; moves made."""
    moves = 0
    played_rounds = 0
    while not game.over and moves < max_moves:
        if game.phase == "round_over":
            played_rounds += 1
            if played_rounds >= rounds:
                break
        for seat in range(game.n):
            if seat != game.actor and game.legal_actions(seat):
                view = seat_view(game, seat)
                action = react(bots[seat], view)
                if action is not None:
                    assert action in view.legal, (bots[seat].name, str(action), view.legal)
                    game.apply(seat, action)
                    moves += 1
                    break
        else:
            seat = game.actor
            view = seat_view(game, seat)
            action = bots[seat].choose(view)
            assert action in view.legal, (bots[seat].name, str(action), [str(a) for a in view.legal])
            game.apply(seat, action)
            moves += 1
    return moves


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 5, 10])
def test_every_level_plays_legally_under_every_preset(preset: str, players: int) -> None:
    for k in range(2):
        levels = [LEVELS[(i + k + players) % len(LEVELS)] for i in range(players)]
        game = Game(players, Rules.preset(preset), secret=rng_secret(players * 100 + k))
        play_checked(game, _bots(levels, players + k), rounds=2)


HOUSE_RULE_TABLES = [
    pytest.param(settings, players, id="+".join(f"{k}={v}" for k, v in settings.items()) + f"-{players}")
    for settings in HOUSE_RULES
    for players in (2, 4, 7)
    if not (settings.get("teams") and (players % 2 or players < 4))  # teams need an even table
]


@pytest.mark.parametrize(("settings", "players"), HOUSE_RULE_TABLES)
def test_every_level_plays_legally_under_house_rules(settings: dict[str, str], players: int) -> None:
    rules = Rules.preset("giant").with_settings(settings)
    for k in range(3):
        levels = [LEVELS[(i + k) % len(LEVELS)] for i in range(players)]
        game = Game(players, rules, secret=rng_secret(7 * players + k))
        play_checked(game, _bots(levels, k), rounds=2)


def test_hard_plays_a_whole_match_for_points() -> None:
    rules = Rules.preset("classic").with_(target_score=200)
    bots = [make_bot("hard", random.Random(i), objective="points", deadline=None) for i in range(3)]
    game = Game(3, rules, secret=rng_secret(3))
    play_checked(game, bots, max_moves=20000, rounds=1000)
    assert game.over


def _reachable_types(root: object, limit: int = 20000) -> set[type]:
    seen: set[int] = set()
    types: set[type] = set()
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        types.add(type(obj))
        stack.extend(gc.get_referents(obj))
    return types


def test_a_bot_is_given_only_a_view_with_no_path_to_the_game() -> None:
    game = Game(3, Rules.preset("modern"), secret=rng_secret(1))
    view = seat_view(game, game.actor)
    assert Game not in _reachable_types(view)
    for level in LEVELS:
        bot = make_bot(level, random.Random(0))
        assert list(inspect.signature(bot.choose).parameters) == ["view"]
        bot.choose(view)
        assert Game not in _reachable_types(bot), level


def _hidden_changed(game: Game, seat: int) -> Game:
    """A copy where another seat's hidden cards differ but ``seat``'s view is the same."""
    other = copy.deepcopy(game)
    victim = next(s for s in other.active if s != seat and other.hands[s])
    pile = other.draw_pile
    for j, card in enumerate(pile):
        if card not in other.hands[victim]:
            old = other.hands[victim][0]
            other.hands[victim][0], pile[j] = card, old
            break
    return other


def test_decisions_do_not_depend_on_hidden_cards() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        game = Game(3, Rules.preset("classic"), secret=rng_secret(seed))
        for _ in range(rng.randrange(0, 30)):
            if game.phase not in ("play", "drawn", "colour", "challenge"):
                break
            game.apply(game.actor, RandomBot(rng).choose(seat_view(game, game.actor)))
        if game.phase not in ("play", "drawn", "colour", "challenge"):
            continue
        seat = game.actor
        other = _hidden_changed(game, seat)
        assert [Counter(h) for h in other.hands] != [Counter(h) for h in game.hands]
        v1, v2 = seat_view(game, seat), seat_view(other, seat)
        assert v1 == v2
        for level in LEVELS:
            a1 = make_bot(level, random.Random(seed), deadline=None).choose(v1)
            a2 = make_bot(level, random.Random(seed), deadline=None).choose(v2)
            assert a1 == a2, level
        checked += 1
    assert checked >= 5


def test_make_bot_levels_and_errors() -> None:
    assert LEVELS == ("random", "greedy", "easy", "medium", "hard")
    for level in LEVELS:
        bot = make_bot(level)
        assert isinstance(bot, Bot)
        assert bot.name == level
        assert bot.think_delay == 0
        assert bot.catch_delay >= MIN_CATCH_DELAY
        clone = pickle.loads(pickle.dumps(bot))
        assert clone.name == level
    with pytest.raises(ValueError, match="known: random, greedy, easy, medium, hard"):
        make_bot("grandmaster")
    with pytest.raises(ValueError, match="unknown bot option"):
        make_bot("hard", speed=3)
    assert make_bot("HARD", think_delay=1.5).think_delay == 1.5
    assert make_bot("hard", catch_delay=0.1).catch_delay == MIN_CATCH_DELAY
    assert make_bot("hard").catch_delay >= 0.75
    with pytest.raises(ValueError):
        make_bot("hard", objective="fun")


def test_seeded_bots_are_reproducible() -> None:
    def run(seed: int) -> list[str]:
        game = Game(4, Rules.preset("giant"), secret=rng_secret(seed))
        bots = _bots(["hard", "medium", "easy", "random"], seed)
        play_checked(game, bots)
        return [f"{e.kind}{e.seat}{e.cards}{e.value}" for e in game.log]

    assert run(3) == run(3)


def test_bots_always_call_uno_unless_they_may_forget() -> None:
    """With ``forget_uno=0`` no level is ever caught (forgetting: tests/bots/test_bots_uno.py)."""
    for level in LEVELS:
        for seed in range(3):
            game = Game(2, Rules.preset("classic"), secret=rng_secret(seed))
            bots = [
                make_bot(level, random.Random(seed * 31 + i), rollouts=12, deadline=None, forget_uno=0)
                for i in range(2)
            ]
            play_checked(game, bots)
            plays = [e for e in game.log if e.kind == "play"]
            for i, e in enumerate(game.log):
                if e.kind == "catch":
                    pytest.fail(f"{level} was caught: {game.log[i - 3 : i + 1]}")
            assert plays


def test_suggest_gives_a_legal_hint() -> None:
    game = Game(3, Rules.preset("giant"), secret=rng_secret(2))
    for _ in range(60):
        if game.phase == "round_over":
            break
        view = seat_view(game, game.actor)
        hint = suggest(view)
        assert hint in view.legal
        game.apply(game.actor, hint)


def test_react_declines_or_calls_uno() -> None:
    game = Game(2, Rules.preset("classic"), secret=rng_secret(1))
    view = seat_view(game, 1 - game.actor)
    assert view.legal == ()
    for level in LEVELS:
        assert react(make_bot(level), view) is None
    assert react(object(), view) is None


def _tracked(view: SeatView, game: Game) -> None:
    know = Knowledge(view)
    assert Counter(know.pile) == Counter(game.discard)
    hidden = sum(view.counts[s] for s in view.active if s != view.seat) + view.draw_count
    known = sum(len(inf.known) for inf in know.info.values())
    assert know.unseen_total + known == hidden
    for s, inf in know.info.items():
        assert len(inf.known) + len(inf.slots) == view.counts[s]
        assert not Counter(inf.known) - Counter(game.hands[s])


def test_knowledge_counts_cards_and_infers_missing_colours() -> None:
    """A seat that drew on a colour held none of it then; the card it drew and kept is
    unknown (a keep does not say whether it could have been played)."""
    lacks_checked = 0
    for seed in range(20):
        game = Game(2, Rules.preset("classic"), secret=rng_secret(seed))
        bots = _bots(["random", "random"], seed)
        drew_on: Colour | None = None
        while game.phase != Phase.ROUND_OVER:
            seat = game.actor
            view = seat_view(game, seat)
            _tracked(view, game)
            action = bots[seat].choose(view)
            colour = game.colour
            game.apply(seat, action)
            if action is DRAW and game.phase == Phase.DRAWN:
                drew_on = colour
            elif action is KEEP and drew_on is not None and game.hands[seat]:
                know = Knowledge(seat_view(game, 1 - seat))
                slots = know.info[seat].slots
                bit = 1 << drew_on
                assert slots[-1] == 0  # the kept card: anything
                assert all(m & bit for m in slots[:-1])
                assert know.p_holds(seat, drew_on) < 1.0
                assert drew_on not in know.lacks(seat) or not know.unseen_of(drew_on)
                # The engine keeps arrival order: the kept card is the last one.
                assert not any(c.colour is drew_on for c in game.hands[seat][:-1])
                lacks_checked += 1
                drew_on = None
    assert lacks_checked > 20


def test_hard_search_respects_its_deadline() -> None:
    import time

    bot = make_bot("hard", random.Random(1), deadline=0.01, rollouts=100000)
    game = Game(2, Rules.preset("classic"), secret=rng_secret(4))
    worst = 0.0
    for _ in range(300):
        if game.phase == "round_over":
            break
        view = seat_view(game, game.actor)
        t = time.perf_counter()
        action = bot.choose(view)
        worst = max(worst, time.perf_counter() - t)
        game.apply(game.actor, action)
    assert worst < 0.2


def test_random_bot_plays_when_it_can() -> None:
    game = Game(2, Rules.preset("classic"), secret=rng_secret(9))
    bot = RandomBot(random.Random(1))
    for _ in range(100):
        if game.phase == "round_over":
            break
        view = seat_view(game, game.actor)
        action = bot.choose(view)
        if any(isinstance(a, Play) for a in view.legal) and view.phase == "play":
            assert isinstance(action, Play)
        assert action is not CALL_UNO or CALL_UNO in view.legal
        game.apply(game.actor, action)


def test_search_refines_only_searchable_endgames_and_stays_legal() -> None:
    from unotui.bots.hard import HardPolicy
    from unotui.bots.playout import searchable
    from unotui.bots.search import refine

    assert searchable(seat_view(Game(2, Rules.preset("classic"), secret=rng_secret(1)), 0))
    stacking = Game(2, Rules.preset("classic").with_settings({"stacking": "official"}), secret=rng_secret(1))
    assert not searchable(seat_view(stacking, 0))
    policy = HardPolicy()
    searched = 0
    for seed in range(30):
        game = Game(2, Rules.preset("classic"), secret=rng_secret(seed))
        bots = _bots(["random", "random"], seed)
        while game.phase != "round_over":
            seat = game.actor
            view = seat_view(game, seat)
            if view.phase == "play" and min(view.counts) <= 2:
                know = Knowledge(view)
                first = policy.decide(view, know)
                again = refine(view, know, policy, first, random.Random(3), 40, None)
                assert again in view.legal
                assert refine(view, know, policy, first, random.Random(3), 40, None) == again
                assert refine(view, know, policy, first, random.Random(3), 0, None) == first
                searched += 1
            game.apply(seat, bots[seat].choose(view))
    assert searched > 30


def test_bots_call_uno_for_themselves_and_catch_others() -> None:
    # Seat 1 plays its next-to-last card without calling UNO.
    deck = parse_cards("R1 B1 Y1 G7 B2 Y2 R5")  # dealt to seats 1, 2, 0, 1, 2, 0; then R5 turns up
    game = Game(3, Rules.preset("classic").with_(hand_size=2), secret=rng_secret(2), dealer=0, deck=deck)
    forgetful = 1
    game.apply(forgetful, play(Card.parse("R1")))
    assert game.uno_open == forgetful
    for level in LEVELS:
        own = seat_view(game, forgetful)
        assert CALL_UNO in own.legal
        # (levels that may forget stay quiet until their turn: tests/bots/test_bots_uno.py)
        assert react(make_bot(level, random.Random(0), forget_uno=0), own) is CALL_UNO
    other = (forgetful + 1) % 3
    view = seat_view(game, other)
    catch = react(make_bot("hard", random.Random(0)), view)
    assert catch is not None and catch in view.legal and str(catch) == f"catch {forgetful}"
    assert make_bot("hard").catch_delay >= MIN_CATCH_DELAY
