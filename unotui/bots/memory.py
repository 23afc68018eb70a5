"""What the hard bot learns of each opponent within one match: Wild Draw Four honesty.

A bot sees only its seat's view, and a host gives it this round's log at most
(:func:`unotui.table.seats.bot_view`), so what happened in earlier rounds is gone from
the view by the next deal.  The outcome of a challenge is public (every seat's log has
the ``challenge`` event: who challenged, whose card, guilty or not), as is every
``accept``.  :class:`Memory` keeps, per opponent seat, across the rounds of one match:

* how its **challenged Wild Draw Fours** turned out (guilty or innocent), as a Beta
  posterior on the share that were bluffs.  The prior's mean is the fixed assumption the
  plain hard bot makes (a player is as likely to play the card holding the colour as not,
  so the chance it bluffed is the chance it held the colour: ``Knowledge.p_holds``); its
  weight is half an observation (Beta(1/4, 1/4)), so two or three honest cards are enough
  to stop challenging a player who never bluffs;
* how often it **challenged** a Wild Draw Four played on it (Beta(1/2, 1/2) on the rate),
  so the bot bluffs less against a player who challenges often (the bluff's penalty goes
  with the odds that it is challenged, and a challenged bluff is always caught).

Each event is counted once: events are numbered by their index in the match's log
(``view.log_start`` + position), and the memory remembers how far it has read.  A view
whose log ends before that point, or of an earlier round, is a new match: the memory
starts again from the prior.  One memory per bot, one bot per seat per match (the
simulator and every table build them so); a new match's bot starts from the prior.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import EventKind, SeatView

__all__ = ["BLUFF_PRIOR", "CHALLENGE_PRIOR", "Memory", "Record"]

BLUFF_PRIOR = (0.25, 0.25)
"""Beta prior (bluffs, honest cards) on the share of an opponent's challenged Wild Draw
Fours that were bluffs: mean 1/2 (the plain bot's fixed assumption), weight half a card."""

CHALLENGE_PRIOR = (0.5, 0.5)
"""Beta prior (challenged, accepted) on how often an opponent challenges a Wild Draw Four:
even odds (the plain bot's bluff penalty), weight one card."""

_CHALLENGE = EventKind.CHALLENGE
_ACCEPT = EventKind.ACCEPT


@dataclass(slots=True)
class Record:
    """One opponent's public Wild Draw Four record this match.

    Attributes:
        guilty / innocent: its challenged Wild Draw Fours found a bluff / honest.
        challenged / accepted: Wild Draw Fours played on it that it challenged / accepted.
    """

    guilty: int = 0
    innocent: int = 0
    challenged: int = 0
    accepted: int = 0


class Memory:
    """Per-opponent estimates over one match, read from the seat's views (module docstring)."""

    __slots__ = ("read", "records", "round_no")

    def __init__(self) -> None:
        self.records: dict[int, Record] = {}
        self.read = 0  # match-log index up to which events have been counted
        self.round_no = -1

    def reset(self) -> None:
        """Forget everything: back to the priors (a new match)."""
        self.records.clear()
        self.read = 0
        self.round_no = -1

    def observe(self, view: SeatView) -> None:
        """Count the challenge outcomes and accepts of ``view``'s log not counted yet."""
        end = view.log_start + len(view.log)
        if end < self.read or view.round_no < self.round_no:
            self.reset()
        self.round_no = view.round_no
        me = view.seat
        first = max(0, self.read - view.log_start)
        for e in view.log[first:]:
            kind = e.kind
            if kind is _CHALLENGE:
                if e.target != me:
                    rec = self._record(e.target)
                    if e.value:
                        rec.guilty += 1
                    else:
                        rec.innocent += 1
                if e.seat != me:
                    self._record(e.seat).challenged += 1
            elif kind is _ACCEPT and e.seat != me:
                self._record(e.seat).accepted += 1
        self.read = max(self.read, end)

    def _record(self, seat: int) -> Record:
        rec = self.records.get(seat)
        if rec is None:
            rec = self.records[seat] = Record()
        return rec

    def record(self, seat: int) -> Record:
        """``seat``'s record so far (all zero when nothing was seen)."""
        return self.records.get(seat) or Record()

    def bluff_rate(self, seat: int) -> float:
        """Posterior mean share of ``seat``'s challenged Wild Draw Fours that were bluffs."""
        rec = self.record(seat)
        a, b = BLUFF_PRIOR
        return (a + rec.guilty) / (a + b + rec.guilty + rec.innocent)

    def bluff_factor(self, seat: int) -> float:
        """How much more (over 1) or less likely than the prior assumes ``seat`` bluffs:
        the plain bot's chance of guilt is multiplied by this."""
        a, b = BLUFF_PRIOR
        return self.bluff_rate(seat) / (a / (a + b))

    def challenge_rate(self, seat: int) -> float:
        """Posterior mean of how often ``seat`` challenges a Wild Draw Four."""
        rec = self.record(seat)
        a, b = CHALLENGE_PRIOR
        return (a + rec.challenged) / (a + b + rec.challenged + rec.accepted)

    def challenge_factor(self, seat: int) -> float:
        """The bluff penalty's multiplier against ``seat``: the odds that it challenges
        over the prior's odds, kept within [1/4, 8] (a bluff is never free).

        Odds, not the rate: a bluff that is challenged is always caught, so what it costs
        against what it gains goes as challenged : accepted."""
        a, b = CHALLENGE_PRIOR
        rate = self.challenge_rate(seat)
        return min(8.0, max(0.25, (rate / (1.0 - rate)) / (a / b)))
