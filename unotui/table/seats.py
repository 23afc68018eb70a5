"""Bookkeeping for the seats people hold: connection, stand-ins, readiness, intents seen;
who stands in for a person, and what a computer player sees.

Kept apart from the referee's timing rules so that each is short enough to read whole.
Nothing here knows about time beyond storing the moments the referee passes in.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from random import Random

from ..bots import Bot, make_bot
from ..engine import Game, Phase, SeatView, seat_view
from .outcome import BAD_SEQ, STALE_SEQ, Refusal

__all__ = ["ANSWERS_KEPT", "STANDIN_LEVEL", "TIMEOUTS_TO_BOT", "HumanSeat", "Replay", "bot_view", "readers",
           "standin"]

STANDIN_LEVEL = "medium"
"""The level of the computer player that stands in for a person who is away or timed out."""

ANSWERS_KEPT = 64
"""Answers remembered per seat for retried intents (far more than a client has in flight)."""

TIMEOUTS_TO_BOT = 3
"""Turn timeouts in a row after which a computer player stands in for the person."""


class Replay:
    """The remembered answer to a retried intent: ``refusal`` is ``None`` if it was accepted."""

    __slots__ = ("refusal",)

    def __init__(self, refusal: Refusal | None) -> None:
        self.refusal = refusal


@dataclass(slots=True)
class HumanSeat:
    """One person's seat.

    Attributes:
        seat: the seat number.
        connected: False between :meth:`Referee.drop` and :meth:`Referee.resume`.
        away_since: when the connection dropped (``None`` while connected).
        standin: the computer player playing for the person, if any.
        lost: the hold expired: ``standin`` has the seat for good.
        timeouts: turn timeouts in a row.
        ready: has read this round's result (reset at every deal).
        last_seq: the highest sequence number seen (-1: none yet).
        answers: the last :data:`ANSWERS_KEPT` answers by sequence number.
    """

    seat: int
    connected: bool = True
    away_since: float | None = None
    standin: Bot | None = None
    lost: bool = False
    timeouts: int = 0
    ready: bool = False
    last_seq: int = -1
    answers: OrderedDict[int, Refusal | None] = field(default_factory=OrderedDict)

    @property
    def in_control(self) -> bool:
        """The person decides for this seat (connected, no stand-in)."""
        return self.connected and self.standin is None

    def check_seq(self, seq: int) -> Replay | None:
        """``None`` for a fresh sequence number; else how to answer the retried or stale one.

        Sequence numbers are per seat and increase; a number seen before gets the answer it
        got then, so a retry after a lost acknowledgement is applied once.
        """
        if seq < 0:
            return Replay(Refusal(self.seat, seq, BAD_SEQ, "sequence numbers start at 0"))
        if seq > self.last_seq:
            return None
        if seq in self.answers:
            return Replay(self.answers[seq])
        return Replay(
            Refusal(self.seat, seq, STALE_SEQ, f"intent {seq} is older than the last {ANSWERS_KEPT} answered")
        )

    def remember(self, seq: int, refusal: Refusal | None) -> None:
        """Record the answer to the fresh intent ``seq``."""
        self.last_seq = seq
        self.answers[seq] = refusal
        while len(self.answers) > ANSWERS_KEPT:
            self.answers.popitem(last=False)


def readers(game: Game, humans: Iterable[HumanSeat]) -> list[HumanSeat]:
    """People whose readiness the next deal waits for (connected, in control, not the
    dealer: a person who deals says so by dealing)."""
    dealer = game.dealer if game.phase == Phase.ROUND_OVER else -1
    return [h for h in humans if h.in_control and h.seat != dealer]


def standin(rng: Random | None) -> Bot:
    """The computer player that stands in for a person (seeded from ``rng`` if given)."""
    seed = rng.getrandbits(64) if rng is not None else None
    return make_bot(STANDIN_LEVEL, Random(seed))


def bot_view(game: Game, seat: int, brain: Bot | None) -> SeatView:
    """What a computer player sees: this round's log at most (none if it reads none)."""
    reads_log = getattr(brain, "uses_log", True)
    return seat_view(game, seat, game.round_log_start if reads_log else len(game.log))
