"""The search's playout model against the engine, move by move.

Each hand is dealt by the engine (its public constructor, seeded), copied into a
:class:`~unotui.bots.playout.World`, and played out by the playout policy
(:func:`~unotui.bots.playout.turn`); every turn is replayed on the engine as the actions a
player would send.  After each turn both must agree on the legal cards, every hand, the
top card, the colour, the direction, the next seat and, at the end, the winner, for
every house-rule set :func:`~unotui.bots.playout.searchable` accepts.

A reshuffle orders the pile by each side's own random source (the engine's keyed
shuffle, the playout's ``Random``), so a hand is compared until the turn where the pile
could run out (fewer than 5 cards: one drawn, then a Wild Draw Four's four); until then
``World.discard`` equals the engine's discards under the top card, which are the cards
both reshuffle.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from tests.seeds import rng_secret
from unotui.bots.playout import World, searchable, turn
from unotui.engine import (
    ACCEPT,
    DRAW,
    KEEP,
    Colour,
    CustomRule,
    Effect,
    Game,
    Phase,
    Play,
    Rules,
    Scoring,
    Stacking,
    most_held_colour,
    play,
    seat_view,
)
from unotui.engine import ChooseColour as Name

_CLASSIC = Rules.preset("classic")
_GIANT = Rules.preset("giant")
SUPPORTED = {
    "classic": _CLASSIC,
    "classic-2001": Rules.preset("classic-2001"),
    "giant": _GIANT,
    "no challenge": dataclasses.replace(_CLASSIC, challenge=False),
    "forced play": dataclasses.replace(_GIANT, forced_play=True),
    "short hands, lowest": dataclasses.replace(_CLASSIC, hand_size=3, scoring=Scoring.LOWEST),
    "elimination": dataclasses.replace(_GIANT, scoring=Scoring.ELIMINATION, uno_penalty=4),
    "teams": dataclasses.replace(_CLASSIC, teams=True),
}
UNSUPPORTED = {
    "stacking": dataclasses.replace(_CLASSIC, stacking=Stacking.OFFICIAL),
    "cross stacking": dataclasses.replace(_CLASSIC, stacking=Stacking.CROSS),
    "seven-o": dataclasses.replace(_CLASSIC, seven_o=True),
    "jump-in": dataclasses.replace(_CLASSIC, jump_in=True),
    "draw to match": dataclasses.replace(_CLASSIC, draw_to_match=True),
    "no bluffing": dataclasses.replace(_CLASSIC, no_bluffing=True),
    "swap hands": Rules.preset("modern"),
    "shuffle hands": dataclasses.replace(_CLASSIC, shuffle_hands=1),
    "custom effects": dataclasses.replace(_GIANT, custom=CustomRule((Effect.SKIP_NEXT,))),
}


def _world(g: Game) -> World:
    """The engine's round as a world (reading its public fields)."""
    return World(
        [h[:] for h in g.hands], g.draw_pile[:], g.discard[:-1], g.top, int(g.colour),
        list(g.active), g.pos, g.direction,
    )


def _replay(g: Game, seat: int, drew: bool, card: Play | None, colour: int) -> None:
    """The turn the model played, as the actions a player sends (always calling UNO)."""
    if drew:
        g.apply(seat, DRAW)
        if g.phase is Phase.DRAWN:
            g.apply(seat, KEEP if card is None else card)
    else:
        assert card is not None
        g.apply(seat, card)
    if g.phase is Phase.COLOUR:
        g.apply(seat, Name(Colour(colour)))
    if g.phase is Phase.CHALLENGE:
        g.apply(g.actor, ACCEPT)


_MOST_DRAWN = 5
"""The most cards one turn can draw here: a card drawn and played as a Wild Draw Four."""


def _agree(g: Game, world: World) -> None:
    assert world.hands == g.hands
    assert world.top == g.top
    assert world.colour == g.colour
    assert world.direction == g.direction
    if world.winner < 0:
        assert g.phase is Phase.PLAY and world.active[world.pos] == g.actor
        assert world.pile == g.draw_pile and world.discard == g.discard[:-1]
    else:
        assert g.round_winner == world.winner


def _play_side_by_side(g: Game, rng: random.Random) -> bool:
    """Compare one hand turn by turn; True if it was compared to its end."""
    if g.phase is Phase.COLOUR:  # a wild was flipped: its first player names a colour
        g.apply(g.actor, Name(most_held_colour(g.hands[g.actor])))
    world = _world(g)
    while world.winner < 0:
        if len(g.draw_pile) < _MOST_DRAWN:
            return False
        seat = world.active[world.pos]
        legal = g.legal_actions(seat)
        playable = set(world.hands[seat]) & world.matching()
        assert playable == {a.card for a in legal if isinstance(a, Play)}
        drew, card, colour = turn(world, rng)
        _replay(g, seat, drew, None if card is None else play(card, True), colour)
        _agree(g, world)
    return True


@pytest.mark.parametrize("name", SUPPORTED)
def test_the_model_plays_every_supported_table_as_the_engine_does(name: str) -> None:
    rules = SUPPORTED[name]
    ended = hands = 0
    for players in (2, 3, 4, 6, 10) if not rules.teams else (4, 6, 8):
        for seed in range(8):
            g = Game(players, rules, secret=rng_secret(seed * 11 + players))
            assert searchable(seat_view(g, 0))
            ended += _play_side_by_side(g, random.Random(seed))
            hands += 1
    assert ended >= hands // 2  # most hands were compared to their winner


@pytest.mark.parametrize("name", UNSUPPORTED)
def test_search_refuses_the_tables_the_model_does_not_play(name: str) -> None:
    assert not searchable(seat_view(Game(4, UNSUPPORTED[name], secret=rng_secret(1)), 0))
