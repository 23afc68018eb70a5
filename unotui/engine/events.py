"""The public log: what happened, as small immutable records.

An :class:`Event` may carry cards that only one seat may see (the cards a player drew,
the hand revealed to a challenger).  Such events name that seat in ``to``; the view
builder (:mod:`unotui.engine.views`) is the only place that decides what a seat sees,
and it blanks ``cards`` for everyone else.

Event kinds (``kind``, one :class:`EventKind` each) and their fields:

=================  ====================================================================
kind               meaning
=================  ====================================================================
``deal``           seat (dealer) dealt round ``value``
``dealer``         seat won the draw for first deal (``cards``: the card drawn)
``flip``           the first discard ``cards[0]`` was turned over
``reflip``         the first discard was a Wild Draw Four: it went back, pile reshuffled
``play``           seat played ``cards[0]`` (``value`` 1 if UNO was called with it)
``jump``           seat jumped in with ``cards[0]``
``draw``           seat drew ``value`` cards (``cards``, private to the seat);
                   ``note`` says why: turn, penalty, uno, challenge, effect, first
``keep``           seat kept the card it drew (``cards``: that card, private to the
                   seat); it ends every turn draw whose card is not played, so others
                   never learn whether the card could have been played
``pass``           seat could not draw (both piles empty); the turn passed
``skip``           seat lost its turn
``reverse``        direction of play is now ``value`` (+1 left, -1 right)
``colour``         seat named colour ``value``
``challenge``      seat challenged ``target``; ``value`` 1 guilty, 0 innocent
``reveal``         seat's hand ``cards`` as it was when the Wild Draw Four was played,
                   shown to ``target`` (private to ``target``)
``accept``         seat accepted the Wild Draw Four
``uno``            seat called UNO
``catch``          seat caught ``target``, who had not called UNO
``swap``           seat swapped hands with ``target``
``rotate``         every hand passed one seat in direction ``value`` (seven-o zero)
``shuffle``        seat's card shuffled all hands and dealt them out again
``effect``         the custom wild's effect ``note`` took place
``discard``        seat discarded ``cards`` (custom wild)
``reshuffle``      the discard pile (``value`` cards) was shuffled into a new draw pile
``round``          seat won the round and scored ``value`` points
``eliminated``     seat reached the target and is out (elimination scoring)
``match``          seat won the match
=================  ====================================================================
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from .cards import Card

__all__ = ["Event", "EventKind", "new_event"]


class EventKind(enum.StrEnum):
    """What an :class:`Event` records (the table above): the one list of the log's kinds.

    A ``str`` enum, so a kind is its text (``EventKind.PLAY == "play"``): it serialises as
    that text on the wire, in the journal and in transcripts, and the bytes do not change.
    Code everywhere mints and compares kinds through these members, never literals.
    """

    DEAL = "deal"
    DEALER = "dealer"
    FLIP = "flip"
    REFLIP = "reflip"
    PLAY = "play"
    JUMP = "jump"
    DRAW = "draw"
    KEEP = "keep"
    PASS = "pass"
    SKIP = "skip"
    REVERSE = "reverse"
    COLOUR = "colour"
    CHALLENGE = "challenge"
    REVEAL = "reveal"
    ACCEPT = "accept"
    UNO = "uno"
    CATCH = "catch"
    SWAP = "swap"
    ROTATE = "rotate"
    SHUFFLE = "shuffle"
    EFFECT = "effect"
    DISCARD = "discard"
    RESHUFFLE = "reshuffle"
    ROUND = "round"
    ELIMINATED = "eliminated"
    MATCH = "match"


class Event(NamedTuple):
    """One line of the game log.  ``to`` >= 0 means ``cards`` are private to that seat."""

    kind: EventKind
    seat: int = -1
    cards: tuple[Card, ...] = ()
    target: int = -1
    value: int = 0
    note: str = ""
    to: int = -1

    def redacted(self, viewer: int | None) -> Event:
        """The event as ``viewer`` may see it (``None`` for a spectator)."""
        if self.to < 0 or self.to == viewer or not self.cards:
            return self
        return self._replace(cards=())

    def to_json(self) -> dict[str, object]:
        """A JSON-friendly dict with only the fields that are set."""
        out: dict[str, object] = {"kind": self.kind}
        if self.seat >= 0:
            out["seat"] = self.seat
        if self.cards:
            out["cards"] = [c.text for c in self.cards]
        if self.target >= 0:
            out["target"] = self.target
        if self.value:
            out["value"] = self.value
        if self.note:
            out["note"] = self.note
        return out


new_event: Callable[[tuple[EventKind, int, tuple[Card, ...], int, int, str, int]], Event] = partial(
    tuple.__new__, Event
)
"""How the engine writes an event: all seven fields, in order (kind, seat, cards, target,
value, note, to), as one tuple.  The same value ``Event(...)`` makes, built in C:
``Event``'s generated constructor, with its keywords and defaults, cost the engine a sixth
of its speed (``bench/engine.py``: 73-77% of the previous release's hands/s with it,
82-85% with this), and the engine writes an event for nearly every action."""
