"""Helpers for the rules tests: stacked decks, actions by text, state snapshots.

(Named ``uno_testkit`` rather than ``helpers`` so it cannot clash with another test
directory's helper module: pytest puts each test directory on ``sys.path``.)
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter
from typing import Any

from tests.seeds import rng_secret
from unotui.engine import Action, Card, Event, Game, Rules, build_deck, deal_order, parse_cards

CLASSIC = Rules.preset("classic")


def stacked_game(
    hands: list[str],
    first: str,
    draws: str = "",
    rules: Rules = CLASSIC,
    dealer: int = 0,
    seed: int = 1,
    **changes: Any,
) -> Game:
    """A game whose first round deals exactly ``hands`` (seat 0 first), flips ``first``
    and then draws ``draws``; ``hand_size`` is set from the hands, ``changes`` go to
    :meth:`Rules.with_`."""
    size = len(hands[0].split())
    rules = rules.with_(hand_size=size, **changes)
    g = Game(len(hands), rules, secret=rng_secret(seed), dealer=dealer,
             deck=deal_order(hands, first, draws, dealer))
    for seat, want in enumerate(hands):
        assert g.hands[seat][:size] == parse_cards(want), (seat, g.hands[seat])
    return g


def act(g: Game, seat: int, *texts: str) -> None:
    """Apply one or more actions, given in their text form, all by ``seat``."""
    for text in texts:
        g.apply(seat, Action.parse(text))


def legal(g: Game, seat: int) -> set[str]:
    """The seat's legal actions as text (a set: the order is not part of the contract)."""
    texts = [str(a) for a in g.legal_actions(seat)]
    assert len(set(texts)) == len(texts), f"duplicate legal actions: {texts}"
    return set(texts)


def hand(g: Game, seat: int) -> str:
    return " ".join(c.text for c in g.hands[seat])


def top_draws(g: Game, k: int) -> list[Card]:
    """The next ``k`` cards of the draw pile (the top is the end of the list)."""
    return list(reversed(g.draw_pile[-k:])) if k else []


def kinds(g: Game, since: int = 0) -> list[str]:
    return [e.kind for e in g.log[since:]]


def events(g: Game, kind: str, since: int = 0) -> list[Event]:
    return [e for e in g.log[since:] if e.kind == kind]


def snapshot(g: Game) -> dict[str, Any]:
    """Everything an illegal action must leave untouched."""
    return {
        "hands": [list(h) for h in g.hands],
        "draw_pile": list(g.draw_pile),
        "discard": list(g.discard),
        "phase": g.phase,
        "actor": g.actor,
        "pos": g.pos,
        "direction": g.direction,
        "colour": g.colour,
        "top": g.top,
        "pending": g.pending,
        "drawn": g.drawn,
        "uno_open": g.uno_open,
        "uno_called": list(g.uno_called),
        "wd4": g.wd4,
        "todo": list(g.todo),
        "discard_left": g.discard_left,
        "face_up_until": g.face_up_until,
        "scores": list(g.scores),
        "dealer": g.dealer,
        "log": len(g.log),
        "version": g.version,
    }


_CODE = attrgetter("code")


def all_cards(g: Game) -> list[Card]:
    """Every card in the game (both piles and every hand) in the order of their codes:
    equal to :func:`full_deck` when none was lost or made.  Sorted lists, because the
    random playouts check this after every step: sorting by code and comparing cards
    (identity) run in C, where a Counter of cards calls ``Card.__hash__`` for each."""
    return sorted(chain(g.draw_pile, g.discard, *g.hands), key=_CODE)


def full_deck(g: Game) -> list[Card]:
    """The game's deck in the order of the cards' codes (see :func:`all_cards`)."""
    return sorted(build_deck(g.rules), key=_CODE)
