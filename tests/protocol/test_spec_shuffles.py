"""``protocol/SPEC.md``'s statements about shuffles and the log, checked against the code.

Each test holds one statement a client written from the spec relies on to recompute a
round: the deck a rules map makes, the ranges a rules map may take, where ``reshuffle``
sits in the log, how a first-card Wild Draw Four is logged, how Shuffle Hands deals
(the spec's own example), and that round 0 (the draw for the first dealer) never reaches
a client.
"""

from __future__ import annotations

from collections import Counter
from random import Random

import msgpack
import pytest

from tests.engine.uno_testkit import act, stacked_game
from tests.net.lan_support import FAST, hosted
from tests.protocol.test_host_agrees import hello
from tests.seeds import rng_secret
from unotui.engine import Card, Catch, Game, Rules, build_deck, seat_view
from unotui.engine.cards import by_code
from unotui.engine.events import EventKind
from unotui.engine.shuffle import Label, shuffled
from unotui.net.config import RoomConfig
from unotui.protocol import ProtocolError, decode_host, encode
from unotui.protocol import messages as m

pytestmark = pytest.mark.timeout(60)


def spec_deck(rules: Rules) -> Counter[str]:
    """The deck as SPEC's "The deck" writes it, from the rules map's three counts."""
    deck: Counter[str] = Counter()
    for colour in "RYGB":
        deck[f"{colour}0"] += 1
        for rank in [*map(str, range(1, 10)), "S", "R", "+2"]:
            deck[f"{colour}{rank}"] += 2
    deck["W"] += 4
    deck["W+4"] += 4
    deck["WX"] += rules.swap_hands
    deck["WH"] += rules.shuffle_hands
    deck["WC"] += rules.custom_wilds
    return deck


@pytest.mark.parametrize(("preset", "size", "counts"), [
    ("classic", 108, (0, 0, 0)), ("classic-2008", 108, (0, 0, 0)), ("classic-2001", 108, (0, 0, 0)),
    ("giant", 111, (0, 0, 3)), ("modern", 112, (1, 0, 3)),
])
def test_the_deck_is_the_specs_from_the_rules_map_alone(preset: str, size: int,
                                                        counts: tuple[int, ...]) -> None:
    rules = Rules.preset(preset)
    assert (rules.swap_hands, rules.shuffle_hands, rules.custom_wilds) == counts
    deck = build_deck(rules)
    assert len(deck) == size == 108 + sum(counts)
    assert Counter(c.text for c in deck) == spec_deck(rules)
    odd = rules.with_(swap_hands=4, shuffle_hands=2, custom_wilds=1)
    assert Counter(c.text for c in build_deck(odd)) == spec_deck(odd)


@pytest.mark.parametrize(("key", "good", "bad"), [
    ("custom_wilds", (0, 3), (-1, 4)), ("swap_hands", (0, 4), (-1, 5)), ("shuffle_hands", (0, 4), (-1, 5)),
    ("uno_penalty", (0, 10), (-1, 11)), ("hand_size", (1, 15), (0, 16)),
    ("target_score", (1, 100_000), (0, 100_001)),
])
def test_a_rules_map_outside_the_specs_ranges_is_bad_message(key: str, good: tuple[int, int],
                                                             bad: tuple[int, int]) -> None:
    welcome = msgpack.unpackb(encode(m.Welcome(1, 0, None, "", "", 2, Rules.preset("classic"))))
    for value in good:
        decode_host(msgpack.packb({**welcome, "rules": {**welcome["rules"], key: value}}))
    for value in bad:
        with pytest.raises(ProtocolError) as info:
            decode_host(msgpack.packb({**welcome, "rules": {**welcome["rules"], key: value}}))
        assert info.value.code == "bad_message"


def test_a_reshuffle_is_logged_just_before_the_draw_that_needed_it() -> None:
    seen = 0
    for seed in range(40):
        game = Game(["A", "B", "C"], Rules.preset("classic").with_(hand_size=15), secret=rng_secret(seed))
        rng = Random(seed)
        while game.phase not in ("round_over", "match_over") and seen < 5:
            before = len(game.draw_pile)
            options = [a for a in game.legal_actions(game.actor) if not isinstance(a, Catch)]
            start = len(game.log)
            game.apply(game.actor, rng.choice(options))
            new = game.log[start:]
            kinds = [e.kind for e in new]
            if EventKind.RESHUFFLE in kinds:
                seen += 1
                at = kinds.index(EventKind.RESHUFFLE)
                after = [k for k in kinds[at:] if k != EventKind.RESHUFFLE]
                assert after[0] == EventKind.DRAW, kinds  # the draw that needed it comes next
                draw = new[at + kinds[at:].index(EventKind.DRAW)]
                assert draw.value > before  # one draw event: the old pile's cards, then the new
        if seen >= 5:
            return
    pytest.fail("no reshuffle in 40 seeded rounds")


def test_a_first_card_wild_draw_four_is_a_reflip_then_the_flip_of_the_card_that_stays() -> None:
    game = stacked_game(["R1 R2 R3", "B1 B2 B3"], "W+4")
    kinds = [e.kind for e in game.log[game.round_log_start:]]
    assert kinds[:1] == [EventKind.DEAL]
    flips = [e for e in game.log[game.round_log_start:] if e.kind in (EventKind.REFLIP, EventKind.FLIP)]
    assert [e.kind for e in flips[:-1]] == [EventKind.REFLIP] * (len(flips) - 1) and len(flips) >= 2
    assert all(e.cards == (Card.parse("W+4"),) for e in flips[:-1])
    assert flips[-1].kind == EventKind.FLIP and flips[-1].cards != (Card.parse("W+4"),)


def test_shuffle_hands_deals_from_the_players_left_as_the_spec_says() -> None:
    """The rule of SPEC's example (Shuffles, step 6), with 10 cards: seat 2 plays it, so
    item i goes to seat (2 + 1 + i) mod 4 and seats 3 and 0, nearest its left, get one more."""
    rules = Rules.preset("classic").with_(shuffle_hands=1)
    game = stacked_game(["R1 R2 R3", "R4 Y2 Y3", "G1 WH G3", "B1 B2 B3"], "R5", rules=rules, dealer=0)
    act(game, 1, "R4")  # seat 1 plays: seat 2 is next
    pool = [c for s in game.active for c in game.hands[s] if c != Card.parse("WH")]
    act(game, 2, "WH")
    key = game.shuffler.round_key(game.round_no)
    expect: dict[int, list[Card]] = {s: [] for s in game.active}
    for i, card in enumerate(shuffled(key, Label.HANDS, 1, pool)):
        expect[(2 + 1 + i) % 4].append(card)
    assert {s: sorted(game.hands[s], key=by_code) for s in game.active} == {
        s: sorted(cards, key=by_code) for s, cards in expect.items()}
    assert [len(game.hands[s]) for s in range(4)] == [3, 2, 2, 3]


async def test_round_0_never_reaches_a_client_the_first_snapshot_starts_at_the_deal() -> None:
    async with hosted(RoomConfig(seats=2, autostart=True, **FAST)) as (_host, room, port):
        a, b = await hello(port, "A"), await hello(port, "B")
        for w in (a, b):
            await w.until(lambda _got, w=w: bool(w.of(m.Snapshot)))
            view = w.of(m.Snapshot)[0].view
            assert view.log[0].kind == EventKind.DEAL and view.log_start > 0
            assert all(e.kind != EventKind.DEALER for e in view.log)
        game = room.game
        assert game is not None and game.log[0].kind == EventKind.DEALER  # (it happened)
        assert all(e.kind != EventKind.DEALER for e in seat_view(game, None, game.round_log_start).log)
