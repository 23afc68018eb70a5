"""No card is ever falsy, and every log sentence names the card it carries (issue 7).

Red 0's code is 0: when ``Card`` was an ``int`` subclass a truthiness test once made the
log say "played a card" for it.  Every card goes through every sentence that shows one.
"""

from __future__ import annotations

import pytest

from unotui.engine import ALL_CARDS, Card, Event
from unotui.ui.words import card_name, describe, describe_card

NAMES = ["Me", "Ada", "Bob"]


def test_every_card_is_true() -> None:
    assert all(bool(card) for card in ALL_CARDS)
    red0 = Card.parse("R0")
    assert red0.code == 0 and red0  # its code is 0, yet it is never "no card"


def _events(card: Card) -> list[tuple[Event, int | None]]:
    """Every event kind that carries a card, as a viewer allowed to see it gets it."""
    return [
        (Event("dealer", 1, (card,), value=0), 0),
        (Event("flip", cards=(card,)), 0),
        (Event("play", 1, (card,)), 0),
        (Event("play", 1, (card,), value=1), 0),
        (Event("jump", 2, (card,)), 0),
        (Event("draw", 0, (card,), value=1, note="turn", to=0), 0),
        (Event("draw", 0, (card,), value=1, note="penalty", to=0), 0),
        (Event("keep", 0, (card,), to=0), 0),
        (Event("discard", 1, (card,)), 0),
        (Event("reveal", 1, (card,), target=0, to=0), 0),
    ]


@pytest.mark.parametrize("card", ALL_CARDS, ids=[c.text for c in ALL_CARDS])
def test_every_sentence_names_the_card(card: Card) -> None:
    for event, viewer in _events(card):
        text = describe(event, NAMES, viewer)
        assert card.text in text, (event.kind, text)
        assert "a card" not in text and "the drawn card" not in text and "was turned" not in text, text
        if event.kind in ("flip", "play", "jump", "keep"):
            assert describe_card(card) in text, text
    assert card_name(card) in describe_card(card)


def test_red_zero_sentences() -> None:
    r0 = Card.parse("R0")
    assert describe(Event("play", 1, (r0,)), NAMES, 0) == "Ada played red 0 (R0)."
    assert describe(Event("flip", cards=(r0,)), NAMES, 0) == "The first card is red 0 (R0)."
    assert describe(Event("dealer", 2, (r0,)), NAMES, 0) == "Bob drew R0 for the deal."
    assert describe(Event("jump", 2, (r0,)), NAMES, 0) == "Bob jumped in with red 0 (R0)!"
    assert describe(Event("keep", 0, (r0,), to=0), NAMES, 0) == "You kept red 0 (R0)."
    assert describe(Event("draw", 0, (r0,), value=1, note="turn", to=0), NAMES, 0) == "You drew 1 card: R0."


def test_hidden_cards_stay_unnamed() -> None:
    """Others see a draw and a keep without the card (the view blanks it)."""
    r0 = Card.parse("R0")
    keep = Event("keep", 0, (r0,), to=0).redacted(1)
    draw = Event("draw", 0, (r0,), value=1, note="turn", to=0).redacted(1)
    assert describe(keep, NAMES, 1) == "Me kept the drawn card."
    assert describe(draw, NAMES, 1) == "Me drew 1 card."
