"""Each legal option's chance of winning the round, estimated from one seat's view.

The estimate is the hard bot's endgame search run over every option instead of its top
three (one path: :func:`unotui.bots.search.score_candidates`, which samples with
:func:`~unotui.bots.search.sample_world` from the seat's
:class:`~unotui.bots.knowledge.Knowledge`): the unseen cards are dealt into the other
hands and the draw pile consistently with what the seat knew (its hand, the public log,
who drew on which colour, hands a challenge showed it), each option is played, and the
round is played out on the playout model with its policy for every seat.  Every option
is played on the same sampled worlds with the same playout seed (common random numbers),
so the *differences* between options, which the marks are made of, are much less noisy
than the chances themselves.

**The honesty rule.**  Only the :class:`~unotui.engine.SeatView` reaches this module: it
never holds the game, so it cannot read the other hands or the order of the draw pile,
even where the round's revealed key would make them known after the match
(``tests/review/test_honest.py`` permutes the hidden cards and finds the same estimates).

A Wild Draw Four played while holding the colour in play (a bluff) is scored as
challenged and found guilty: the playouts never challenge, so an unchallenged bluff would
look like free luck.

What is not analysed, honestly marked with the reason instead of a guess: decisions
other than playing, drawing and keeping (naming a colour, challenging, targets,
discards: the playout model always names its policy's colour and never challenges), and
tables whose house rules the playout model does not play
(:func:`~unotui.bots.playout.searchable`).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from ..bots import HardPolicy, Knowledge
from ..bots.base import with_uno
from ..bots.playout import searchable
from ..bots.search import score_candidates
from ..engine import DRAW, KEEP, Action, Phase, Play, Rank, SeatView

__all__ = ["Analysis", "Option", "analyse", "option_key", "preferred"]

_WD4 = Rank.WILD4

ANALYSED_PHASES = (Phase.PLAY, Phase.DRAWN)
"""The decisions the playout model can play: a card, a draw, keeping the drawn card."""


@dataclass(frozen=True, slots=True)
class Option:
    """One legal option and its estimated chance of winning the round (0-1)."""

    key: str
    chance: float


@dataclass(frozen=True, slots=True)
class Analysis:
    """The estimates for one decision.

    Attributes:
        options: every distinct option, in the order of the legal actions (empty when
            not analysed).
        samples: sampled worlds each option was played on (0: not analysed).
        note: why it was not analysed ("" when it was).
    """

    options: tuple[Option, ...]
    samples: int
    note: str = ""

    @property
    def analysed(self) -> bool:
        """Whether there are estimates."""
        return bool(self.options)

    def chance_of(self, key: str) -> float | None:
        """The estimate of the option ``key`` (``None``: no such option)."""
        for o in self.options:
            if o.key == key:
                return o.chance
        return None


def option_key(action: Action) -> str:
    """The option an action takes: a card's text (with or without the UNO call, which the
    playout model makes for everyone), ``draw`` or ``keep``."""
    return action.card.text if isinstance(action, Play) else str(action)


def _options(view: SeatView) -> list[Action]:
    out: list[Action] = []
    seen: set[str] = set()
    for a in view.legal:
        if isinstance(a, Play) or a is DRAW or a is KEEP:
            key = option_key(a)
            if key not in seen:
                seen.add(key)
                out.append(with_uno(a.card, view.legal) if isinstance(a, Play) else a)
    return out


def not_analysed_reason(view: SeatView) -> str:
    """Why this decision cannot be analysed ("" when it can)."""
    if view.phase not in ANALYSED_PHASES:
        return f"{view.phase} decisions are not modelled by the playouts"
    if not searchable(view):
        return "house rules the playout model does not play"
    if view.seat is None or view.seat != view.actor:
        return "not this seat's decision"
    return ""


def analyse(
    view: SeatView, playouts: int, rng: Random, objective: str = "hands", bluffs_caught: bool = True
) -> Analysis:
    """Estimate every option of ``view``'s decision over ``playouts`` sampled worlds each.

    Args:
        view: the deciding seat's view (nothing else is read).
        playouts: sampled worlds per option (each option is played on all of them; a
            forced move, with nothing to compare, gets a quarter of them).
        rng: the source of the samples; the same seed gives the same estimates.
        objective: the hard policy's objective, which names the colour of a wild option.
        bluffs_caught: score a bluffing Wild Draw Four as challenged (the default; False
            plays it as accepted, as the playouts do every other one).
    """
    reason = not_analysed_reason(view)
    if reason:
        return Analysis((), 0, reason)
    options = _options(view)
    if not options:
        return Analysis((), 0, "no option to play")
    if len(options) == 1:
        playouts = max(1, playouts // 4)  # forced: its chance is only for the curve, no cost to judge
    know = Knowledge(view)
    policy = HardPolicy(objective)
    colours: dict[Action, int] = {}
    for a in options:
        if isinstance(a, Play) and a.card.is_wild:
            rest = list(view.hand)
            rest.remove(a.card)
            colours[a] = int(policy.best_colour(view, know, rest))
    # A bluff (a Wild Draw Four while holding the colour in play, which the seat knows) is
    # scored as challenged: the playouts never challenge, and would credit it with luck.
    holds_colour = bluffs_caught and any(c.colour is view.colour for c in view.hand)
    bluffs = frozenset(a for a in options if holds_colour and isinstance(a, Play) and a.card.rank is _WD4)
    wins, samples = score_candidates(view, know, options, colours, rng, playouts, caught=bluffs)
    return Analysis(
        tuple(Option(option_key(a), w / samples) for a, w in zip(options, wins, strict=True)), samples
    )


def preferred(view: SeatView, playouts: int, rng: Random, objective: str = "hands") -> Action | None:
    """The option the analysis rates best for ``view``'s decision (``None``: not analysed).

    The player that takes it is what "strong enough to trust" measures
    (``bench/review.py --strength``).  A forced move is returned without playouts; ties go
    to the earlier option in the legal order, so a seed gives one answer.  A wild's colour
    is named later, in the colour decision, which the analysis leaves to the hard policy.
    """
    if not_analysed_reason(view):
        return None
    options = _options(view)
    if len(options) <= 1:
        return options[0] if options else None
    found = analyse(view, playouts, rng, objective)
    if not found.analysed:
        return None
    best = max(range(len(options)), key=lambda i: (found.options[i].chance, -i))
    return options[best]
