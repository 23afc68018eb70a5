"""What the review screen shows, worked out without Textual: a match's decisions, seat by
seat, each with the table as that seat saw it, and (once the analysis is done) its
options' chances, costs and marks.

The decisions and their views come from :func:`unotui.review.decisions` (the same replay
the analysis makes, so a decision here is the decision the estimates are about); the
estimates from the ``unotui-review/1`` dict of :func:`unotui.review.run.review`, matched
by step.  Before the analysis is done (or when it was refused) the moments are there
without estimates, so the screen can already step through the match.

The hindsight hands (every hand at a moment) are kept apart from the seat's view: the
view is what the analysis used, and what the screen shows by default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import Card, Game, SeatView
from ..engine.cards import by_code
from ..review import Decision, decisions, option_key
from ..review.judge import MARKS, mark_of
from ..transcript import Transcript, replay

__all__ = ["COSTLY", "Moment", "OptionRow", "ReviewModel", "costliest", "curve", "first_seat", "rounds"]

COSTLY = tuple(name for name, _limit in MARKS[1:])
"""The marks ``m`` jumps between: inaccuracy or worse."""


@dataclass(frozen=True, slots=True)
class OptionRow:
    """One option of a decision: its chance of winning the round (0-1), what taking it
    would have cost against the best (points of chance) and the mark that cost earns."""

    key: str
    chance: float
    cost: float
    mark: str
    chosen: bool
    best: bool


@dataclass(frozen=True, slots=True)
class Moment:
    """One decision of the reviewed seat.

    Attributes:
        index: its place among the seat's decisions.
        view: the table as the seat saw it (its hand, the pile, the counts, this round's log).
        action: the action taken, as the transcript has it; ``chosen`` its option's key.
        best: the option the analysis prefers (``None``: no estimates).
        cost / mark: what the move cost and its mark (``mark`` is ``""`` until estimated).
        chance: the chosen option's chance (``None``: no estimates).
        options: every option with its estimate, best first.
        note: why it was not analysed, when it was not.
    """

    index: int
    step: int
    seat: int
    round: int
    phase: str
    view: SeatView
    action: str
    chosen: str
    best: str | None = None
    cost: float = 0.0
    mark: str = ""
    chance: float | None = None
    options: tuple[OptionRow, ...] = ()
    note: str = ""

    @property
    def costly(self) -> bool:
        """Whether it is an inaccuracy or worse."""
        return self.mark in COSTLY


def first_seat(names: Sequence[str]) -> int:
    """The seat to show first: the first that does not look like a computer player (not
    one of the names solo play gives them, :data:`unotui.bots.BOT_NAMES`, nor "Bot ..."
    or "CPU ..."), else 0."""
    from ..bots import BOT_NAMES

    bots = {n.casefold() for n in BOT_NAMES}
    for seat, name in enumerate(names):
        if name.casefold() not in bots and not name.lower().startswith(("bot", "cpu", "computer")):
            return seat
    return 0


def _moment(index: int, d: Decision, estimate: dict[str, Any] | None) -> Moment:
    base = Moment(index, d.step, d.seat, d.round, d.phase, d.view, str(d.action),
                  estimate["chosen"] if estimate else _key(d))
    if estimate is None:
        return base
    if not estimate.get("options"):
        return Moment(base.index, base.step, base.seat, base.round, base.phase, base.view, base.action,
                      base.chosen, None, 0.0, str(estimate.get("mark", "")), None, (),
                      str(estimate.get("note", "")))
    opts = [(str(o["option"]), float(o["chance"])) for o in estimate["options"]]
    top = max(c for _k, c in opts)
    best = str(estimate.get("best") or "")
    chosen_cost = float(estimate.get("cost", 0.0))

    def cost(key: str, chance: float) -> float:
        # The move made keeps the review's own cost (worked out before the chances were
        # rounded to four places), so its row and its mark never differ by a rounding.
        return chosen_cost if key == base.chosen else max(0.0, round((top - chance) * 100, 2))

    rows = tuple(sorted(
        (OptionRow(k, c, cost(k, c), mark_of(cost(k, c)), k == base.chosen, k == best) for k, c in opts),
        key=lambda r: (-r.chance, not r.chosen, r.key),
    ))
    chance = next((r.chance for r in rows if r.chosen), None)
    return Moment(base.index, base.step, base.seat, base.round, base.phase, base.view, base.action,
                  base.chosen, best, float(estimate.get("cost", 0.0)), str(estimate.get("mark", "")),
                  chance, rows)


def _key(d: Decision) -> str:
    return option_key(d.action)


@dataclass
class ReviewModel:
    """A match to review, with or without its estimates (:meth:`with_review`)."""

    transcript: Transcript
    found: list[Decision] = field(default_factory=list)
    result: dict[str, Any] | None = None
    _by_step: dict[int, dict[str, Any]] = field(default_factory=dict)
    _hands: dict[int, tuple[tuple[Card, ...], ...]] | None = None

    @classmethod
    def of(cls, transcript: Transcript) -> ReviewModel:
        """The match's decisions, without estimates.

        Raises:
            TranscriptError: the transcript cannot be replayed.
        """
        return cls(transcript, list(decisions(transcript)))

    def with_review(self, result: dict[str, Any]) -> None:
        """Take the estimates of ``result`` (a ``unotui-review/1`` dict)."""
        self.result = result
        self._by_step = {int(d["step"]): d for d in result.get("decisions", ())}

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.transcript.players)

    def moments(self, seat: int) -> list[Moment]:
        """The seat's decisions in match order, with estimates where there are any."""
        mine = [d for d in self.found if d.seat == seat]
        return [_moment(i, d, self._by_step.get(d.step)) for i, d in enumerate(mine)]

    def summary(self, seat: int) -> dict[str, Any] | None:
        """The review's summary of ``seat`` (judged, matched, share, given_away,
        costliest steps, marks), ``None`` without a review."""
        if self.result is None:
            return None
        return next((s for s in self.result.get("summary", ()) if s.get("seat") == seat), None)

    def hindsight(self, step: int) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand just before history step ``step`` (worked out for all the
        decisions at the first call: one more replay of the match)."""
        if self._hands is None:
            self._hands = {}
            wanted = {d.step for d in self.found}
            game: Game = self.transcript.new_game()
            for i, (seat, action) in enumerate(replay(self.transcript).history):
                if i in wanted:
                    self._hands[i] = tuple(tuple(sorted(h, key=by_code)) for h in game.hands)
                game.apply(seat, action)
        return self._hands.get(step, ())


def rounds(moments: Sequence[Moment]) -> list[int]:
    """The index of each round's first moment."""
    return [m.index for i, m in enumerate(moments) if i == 0 or moments[i - 1].round != m.round]


def costliest(moments: Sequence[Moment], summary: dict[str, Any] | None) -> list[int]:
    """The indexes of the (up to three) costliest moments, costliest first (the review's
    own ``costliest`` steps)."""
    if summary is None:
        return []
    where = {m.step: m.index for m in moments}
    return [where[s] for s in summary.get("costliest", ()) if s in where]


def curve(moments: Sequence[Moment]) -> list[float | None]:
    """The seat's winning chance across the match: the chosen option's at each decision
    (``None`` where there is no estimate)."""
    return [m.chance for m in moments]


