"""Every sentence the UI shows about a card or a player, for every kind of sentence and
every point of view (issue 7 items 2 and 3).

Red 0 is the card whose code is 0: when a card was an ``int`` any ``if card`` in a
sentence wrote it as "a card", so red 0 is the card these sentences carry (every card
through every sentence is ``tests/client/test_text.py``).  And the viewer is "You" as a
subject, "you" as an object and "your" as a possessive.
"""

from __future__ import annotations

import re

import pytest

from unotui.engine import (
    ALL_CARDS,
    DRAW,
    Card,
    Event,
    EventKind,
    Game,
    Play,
    Rules,
    deal_order,
    play,
    seat_view,
)
from unotui.ui.screens.table_keys import describe_action
from unotui.ui.widgets import prompt
from unotui.ui.words import card_name, describe, describe_card, refusal

NAMES = ("Zoe", "Ada", "Blaise")
RED_0 = Card.parse("R0")
#: one card of each shape a hint or a prompt names: a number (red 0), an action, a wild
SHAPES = (RED_0, Card.parse("G+2"), Card.parse("W+4"))

#: every kind of log event (the table in unotui/engine/events.py)
KINDS = list(EventKind)
#: the kinds whose sentence names the card they carry
CARD_KINDS = (
    EventKind.DEALER, EventKind.FLIP, EventKind.PLAY, EventKind.JUMP, EventKind.DRAW, EventKind.DISCARD,
    EventKind.REVEAL,
)


def test_a_card_is_a_value_of_its_own() -> None:
    for card in ALL_CARDS:
        assert not isinstance(card, int) and bool(card) is True
        assert card != card.code and card.code != card
    assert RED_0.code == 0 and RED_0 != 0 and RED_0


@pytest.mark.parametrize("kind", CARD_KINDS)
@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_the_card_is_named_in_every_sentence_that_carries_it(kind: str, viewer: int | None) -> None:
    card = RED_0
    event = Event(kind, seat=0, cards=(card,), target=1 if kind == "reveal" else -1, value=1, note="turn")
    line = describe(event, NAMES, viewer)
    assert card.text in line, line
    assert "a card" not in line and "was turned" not in line, line
    if kind in ("flip", "play", "jump"):
        assert describe_card(card) in line


@pytest.mark.parametrize("card", SHAPES, ids=lambda c: c.text)
def test_the_card_in_a_hint(card: Card) -> None:
    view = _drawn_view(card)
    assert card_name(card) in describe_action(play(card), view)
    assert card.text in describe_action(play(card), view)


def _drawn_view(card: Card) -> object:
    """A real game where seat 0 has just drawn ``card`` and may play it."""
    colour = card.colour.letter if card.colour is not None else "R"
    first = colour + ("2" if card.text.endswith("1") else "1")
    other = "G" if colour != "G" else "Y"
    rules = Rules.preset("modern").with_(hand_size=2, shuffle_hands=1)
    deck = deal_order([f"{other}5 {other}6", "G7 G8"], first, draws=card.text, dealer=1)
    game = Game(2, rules, dealer=1, deck=deck)
    assert not any(isinstance(a, Play) for a in game.legal_actions(0)), "nothing to play before the draw"
    game.apply(0, DRAW)
    return seat_view(game, 0)


@pytest.mark.parametrize("card", SHAPES, ids=lambda c: c.text)
def test_the_drawn_card_prompt_names_the_card(card: Card) -> None:
    view = _drawn_view(card)
    assert view.phase == "drawn" and view.drawn is card  # type: ignore[attr-defined]
    assert f"You drew {card.text}: play it (Enter)" in prompt(view)  # type: ignore[arg-type]


# ----- "you" as subject, object and possessive -------------------------------------------


_BAD = [
    re.compile(r"\byou's\b", re.IGNORECASE),  # "challenged you's Wild Draw Four"
    re.compile(r"\bYou (is|has|was|loses|reaches|calls|draws|plays|wins)\b"),
    re.compile(r"\byou (is|has|was|loses)\b"),
    re.compile(r"[^.!:] You\b"),  # "You" in the middle of a sentence (the object is "you")
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_sentences_read_right_from_every_seat(kind: str, viewer: int | None) -> None:
    event = Event(kind, seat=0, cards=(RED_0,), target=1, value=1, note="turn")
    line = describe(event, NAMES, viewer)
    for bad in _BAD:
        assert not bad.search(line), f"{line!r} ({bad.pattern})"
    assert line[0].isupper() and line[-1] in ".!", line
    if viewer == 0 and kind not in ("deal", "flip", "reflip", "reverse", "rotate", "effect", "reshuffle"):
        assert line.startswith("You "), line
    if viewer == 1 and kind in ("challenge", "reveal", "catch", "swap"):
        assert re.search(r"\byour?\b", line), line
    if viewer == 2:  # a third party sees both names
        assert "Zoe" in line or kind in ("flip", "reflip", "reverse", "rotate", "effect", "reshuffle")


def test_challenge_and_reveal_possessives() -> None:
    challenge = Event("challenge", seat=0, target=1, value=1)
    assert describe(challenge, NAMES, 1) == "Zoe challenged your Wild Draw Four: guilty!"
    assert describe(challenge, NAMES, 0) == "You challenged Ada's Wild Draw Four: guilty!"
    assert describe(challenge, NAMES, 2) == "Zoe challenged Ada's Wild Draw Four: guilty!"
    shown = Event("reveal", seat=1, target=0)
    assert describe(shown, NAMES, 1) == "You showed your hand to Zoe."
    assert describe(shown, NAMES, 0) == "Ada showed their hand to you."


# ----- refusals ----------------------------------------------------------------------------


def _codes() -> list[str]:
    from unotui.engine import errors

    return sorted(
        {
            cls.code
            for cls in vars(errors).values()
            if isinstance(cls, type) and issubclass(cls, errors.IllegalActionError)
        }
    )


@pytest.mark.parametrize("code", _codes())
def test_every_refusal_code_reads_as_a_sentence_without_the_code(code: str) -> None:
    line = refusal(code, "seat 1 does not hold R5")
    assert code not in line and "_" not in line and "(" not in line[:20], line
    assert line[0].isupper() and line.endswith("."), line


def test_refusals_keep_the_useful_detail() -> None:
    assert refusal("unplayable", "R5 does not match G7 (green)") == (
        "You can't play that: R5 does not match G7 (green)."
    )
    assert refusal("not_your_turn", "it is seat 2's decision", "Ada") == "It's not your turn: wait for Ada."
    phase = refusal("wrong_phase", "now is the time to name a colour")
    assert phase == "Not now: it is time to name a colour."
    assert refusal("some_new_code", "") == "Not allowed."


def test_too_early_is_the_referees_own_sentence_of_when_catching_opens() -> None:
    """Issue 19: "Not allowed: too early: wait 0.0 s more" said neither when nor why."""
    line = refusal("too_early", "Too early: catching opens in 0.9 s; Ada may still call UNO")
    assert line == "Too early: catching opens in 0.9 s; Ada may still call UNO."
    older_host = refusal("too_early", "too early: wait 0.2 s more")
    assert older_host == "Too early: wait 0.2 s more."
