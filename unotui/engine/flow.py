"""The turn structure: the phases a game waits in, and the steps a multi-step card queues.

:class:`Phase` says what kind of decision the game awaits (``Game.phase``; who decides is
``Game.actor``).  It is a :class:`enum.StrEnum`, so a phase compares equal to its text
(``Phase.PLAY == "play"``) and serialises as that text; code everywhere compares members
(or :data:`ENDED_PHASES`), never literals, so the vocabulary is stated here once.

A card that needs several decisions (a wild needs a colour, a swap needs a target, a
custom wild may need discards from several seats) queues what is left to do as typed
steps on ``Game.todo`` and waits; :func:`~unotui.engine.steps.run` carries
them out when the decision arrives.  Steps are small frozen values: the ones without
arguments, and the common ``Advance`` steps, are shared constants, so queueing them
allocates nothing.  A step with arguments is a frozen dataclass (equal to its like only,
never to a tuple or another kind of step); one without is a plain class with one value,
which needs no generated methods (a dataclass compiles them when the engine loads).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

__all__ = [
    "ADVANCE_0",
    "ADVANCE_1",
    "ADVANCE_2",
    "ASK_COLOUR",
    "BEGIN",
    "ENDED_PHASES",
    "HIT",
    "Advance",
    "AskColour",
    "Begin",
    "Hit",
    "Phase",
    "Resize",
    "RunEffect",
    "Step",
    "seat_after",
]


class Phase(enum.StrEnum):
    """What the game is waiting for (see :mod:`unotui.engine.game` for each phase)."""

    PLAY = "play"
    DRAWN = "drawn"
    COLOUR = "colour"
    TARGET = "target"
    DISCARD = "discard"
    CHALLENGE = "challenge"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"


#: The phases in which nobody is to decide: the round (or the match) is over.  Every other
#: phase has an actor; the referee, the host and the screens all ask this one set.
ENDED_PHASES = frozenset({Phase.ROUND_OVER, Phase.MATCH_OVER})


class _OneValue:
    """A step without arguments: its one value (``_name`` in this module) stays the one
    value when pickled or copied (a game goes to review's worker processes)."""

    __slots__ = ()
    _name: ClassVar[str]

    def __reduce__(self) -> str:
        return self._name


@dataclass(frozen=True, slots=True)
class Advance:
    """Pass the turn ``steps`` seats on (0: the same player again, 2: skip one)."""

    steps: int


class AskColour(_OneValue):
    """Wait for the player whose turn it is to name the colour (after a swap's target)."""

    __slots__ = ()
    _name = "ASK_COLOUR"


class Hit(_OneValue):
    """A Wild Draw Four's colour is named: the next player faces it."""

    __slots__ = ()
    _name = "HIT"


class Begin(_OneValue):
    """The first card's colour is named: the player whose turn it is plays."""

    __slots__ = ()
    _name = "BEGIN"


@dataclass(frozen=True, slots=True)
class Resize:
    """``seat`` draws or discards to exactly ``size`` cards (custom wild)."""

    seat: int
    size: int


@dataclass(frozen=True, slots=True)
class RunEffect:
    """Carry out effect number ``index`` of the table's custom wild."""

    index: int


Step = Advance | AskColour | Hit | Begin | Resize | RunEffect
"""One queued step of a multi-step card."""

ADVANCE_0 = Advance(0)
ADVANCE_1 = Advance(1)
ADVANCE_2 = Advance(2)
ASK_COLOUR = AskColour()
HIT = Hit()
BEGIN = Begin()


def seat_after(active: Sequence[int], pos: int, direction: int, steps: int = 1) -> int:
    """The seat ``steps`` places after position ``pos`` of ``active`` in ``direction``.

    The one definition of "the next seat", shared by the game, its transitions and the
    seat view.
    """
    return active[(pos + steps * direction) % len(active)]
