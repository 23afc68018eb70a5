"""placeholder"""
from __future__ import annotations

from random import Random

from ..engine import Action, SeatView
from .knowledge import Knowledge

__all__ = ["refine"]


def refine(view: SeatView, know: Knowledge, policy: object, action: Action, rng: Random,
           rollouts: int, stop: float | None) -> Action:
    return action
