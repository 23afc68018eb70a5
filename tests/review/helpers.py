"""Matches to review: played by seeded bots through the referee, written as transcripts."""

from __future__ import annotations

from random import Random

from unotui.bots import make_bot
from unotui.engine import Game, Rules
from unotui.table import Pacing, Referee
from unotui.transcript import Transcript, transcript_of


def played(seed: int, players: int = 2, levels: tuple[str, ...] = ("hard", "medium"),
           rules: Rules | None = None) -> Game:
    """A whole match (to the rules' target) between seeded bots, with no waiting."""
    rules = rules or Rules.preset("giant").with_(target_score=150)
    bots = {s: make_bot(levels[s % len(levels)], Random(seed * 10 + s), deadline=None)
            for s in range(players)}
    game = Game(players, rules, dealer=0, seed=seed)
    Referee(game, bots=bots, humans=[], pacing=Pacing.instant()).tick(0.0)
    return game


def match(seed: int, **kwargs: object) -> Transcript:
    """The transcript of :func:`played`."""
    return transcript_of(played(seed, **kwargs))  # type: ignore[arg-type]
