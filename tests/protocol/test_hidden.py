"""What a seat is sent depends only on what that seat may know.

The property, tested on the *encoded bytes* (not on the view's redaction markers): build
two games that differ only in cards hidden from seat ``s`` and that, by construction,
have the same public history; every snapshot and delta sent to ``s`` (and to a
spectator) must be byte-identical in both.

How the two games are made honest.  Game A deals a fixed full deck (``deck=``, so every
card's place in the deck is known) and plays random legal actions.  Game B deals the
same deck except that the cards hidden from ``s`` at the end are permuted among
themselves: cards dealt to other seats (or given to them as penalties) that they never
played, and cards still in the draw pile.  B replays A's actions.  What is kept fixed,
and why:

* cards another seat drew on its turn: whether that card could be played is what the
  engine's phase showed until it was changed (issue 8): see the test below;
* challenges are off: a challenge verdict depends on the challenged hand *by the rules*
  (it is public information), so permuting that hand would change the public history;
* the segment stops before a reshuffle (card places are no longer tracked) and before
  the round ends (hands are laid down for scoring then).
"""

from __future__ import annotations

import random

import pytest

from tests.seeds import rng_secret
from unotui.engine import (
    Game,
    Rules,
    build_deck,
    deal_order,
    seat_view,
    seat_views,
)
from unotui.engine.actions import Action
from unotui.engine.cards import Rank
from unotui.protocol import ViewEncoder, encode
from unotui.protocol.shared import SharedDeltas

from .proto_support import random_steps

RULES = {
    "classic": Rules.preset("classic").with_(challenge=False),
    "stacking": Rules.preset("classic").with_(challenge=False, stacking="official", uno_penalty=4),
}


Frames = dict[int | None, list[bytes]]


def streams(game: Game, actions: list[tuple[int, str]], viewers: list[int | None]) -> Frames:
    """Replay ``actions`` on ``game``; every frame each viewer would be sent (checked to
    be the same one seat at a time and as a host sends them, all seats together)."""
    encoders = {v: ViewEncoder() for v in viewers}
    together = {v: ViewEncoder() for v in viewers}
    out: dict[int | None, list[bytes]] = {v: [] for v in viewers}

    def send() -> None:
        views = seat_views(game, [(v, together[v].log_from) for v in viewers])
        shared = SharedDeltas()
        for v, view in zip(viewers, views, strict=True):
            message = encoders[v].update(seat_view(game, v, encoders[v].log_from))
            host = shared.follow(together[v], view)
            if message is not None:
                out[v].append(encode(message))
                assert host is not None
                assert host == out[v][-1]
            else:
                assert host is None

    send()
    for seat, text in actions:
        game.apply(seat, Action.parse(text))
        send()
    return out


def hidden_places(game: Game, deck: list[object], viewer: int, dealer: int) -> list[int]:
    """Deck places whose cards ``viewer`` cannot know about at the end of the segment."""
    n, size = game.n, game.rules.hand_size
    owner: dict[int, tuple[int, str]] = {}
    for p in range(n * size):
        owner[p] = ((dealer + p % n + 1) % n, "deal")
    nxt = n * size + 1  # after the first discard
    for e in game.log:
        if e.kind == "draw":
            for p in range(nxt, nxt + e.value):
                owner[p] = (e.seat, e.note)
            nxt += e.value
    played: dict[int, set[object]] = {s: set() for s in range(n)}
    for e in game.log:
        if e.kind in ("play", "discard", "jump"):
            played[e.seat].update(e.cards)
    places = list(range(nxt, len(deck)))  # still in the draw pile
    for p, (seat, how) in owner.items():
        if seat != viewer and how != "turn" and deck[p] not in played[seat]:
            places.append(p)
    return places


def make_world(seed: int, rules: Rules, players: int) -> tuple[list[object], int]:
    rnd = random.Random(seed)
    deck = build_deck(rules)
    while True:
        rnd.shuffle(deck)
        if deck[players * rules.hand_size].rank is not Rank.WILD4:  # no re-flip (a reshuffle)
            return deck, rnd.randrange(players)


@pytest.mark.parametrize("rules", sorted(RULES))
@pytest.mark.parametrize("seed", range(6))
def test_permuting_hidden_cards_leaves_every_byte_sent_to_a_seat_unchanged(rules: str, seed: int) -> None:
    players = 2 + seed % 3
    deck, viewer = make_world(seed, RULES[rules], players)
    a = Game(players, RULES[rules], secret=rng_secret(seed), dealer=0, deck=deck)  # type: ignore[arg-type]
    actions: list[tuple[int, str]] = []
    probe = Game(players, RULES[rules], secret=rng_secret(seed), dealer=0, deck=deck)  # type: ignore[arg-type]
    for seat, text in random_steps(probe, seed, 60):
        if probe.phase == "round_over" or any(e.kind == "reshuffle" for e in probe.log):
            break
        actions.append((seat, text))
    for seat, text in actions:
        a.apply(seat, Action.parse(text))
    places = hidden_places(a, deck, viewer, 0)
    others = [s for s in range(players) if s != viewer]
    rnd = random.Random(seed)
    for _ in range(50):  # until the other hands really differ
        values = [deck[p] for p in places]
        rnd.shuffle(values)
        deck_b = list(deck)
        for p, v in zip(places, values, strict=True):
            deck_b[p] = v
        b = Game(players, RULES[rules], secret=rng_secret(seed), dealer=0, deck=deck_b)  # type: ignore[arg-type]
        for seat, text in actions:
            b.apply(seat, Action.parse(text))
        if any(sorted(a.hands[s]) != sorted(b.hands[s]) for s in others):
            break
    # The worlds really differ where the viewer cannot look ...
    assert any(sorted(a.hands[s]) != sorted(b.hands[s]) for s in others)
    assert a.hands[viewer] == b.hands[viewer]
    fresh_a = Game(players, RULES[rules], secret=rng_secret(seed), dealer=0, deck=deck)  # type: ignore[arg-type]
    fresh_b = Game(players, RULES[rules], secret=rng_secret(seed), dealer=0, deck=deck_b)  # type: ignore[arg-type]
    got_a = streams(fresh_a, actions, [viewer, None])
    got_b = streams(fresh_b, actions, [viewer, None])
    # ... and not one byte sent to the viewer (or a spectator) tells them apart.
    assert got_a[viewer] == got_b[viewer]
    assert got_a[None] == got_b[None]
    assert len(actions) >= 5


def _drawn_card_worlds(card: str) -> tuple[Game, list[tuple[int, str]]]:
    """Seat 1 draws ``card`` on its turn and keeps it (top card R5, colour red)."""
    hands = ["R1 R2 G3", "B4 B6 G8", "Y1 Y2 Y3"]
    deck = deal_order(hands, "R5", card + " G1 G2", dealer=2)
    game = Game(3, Rules.preset("classic").with_(hand_size=3), secret=rng_secret(1), dealer=2, deck=deck)
    return game, [(0, "R1"), (1, "draw"), (1, "keep")]


def test_others_cannot_tell_whether_a_drawn_card_was_playable() -> None:
    """At a physical table the others see only whether the drawn card is then played."""
    playable, actions = _drawn_card_worlds("R9")
    unplayable, _ = _drawn_card_worlds("Y9")
    for viewer in (0, 2, None):
        a = streams(_drawn_card_worlds("R9")[0], actions, [viewer])
        b = streams(_drawn_card_worlds("Y9")[0], actions, [viewer])
        assert a == b, viewer
    for world in (playable, unplayable):  # the two worlds really differ for seat 1
        for seat, text in actions:
            world.apply(seat, Action.parse(text))
    assert playable.hands[1] != unplayable.hands[1]
