"""Snapshots of the review screen at 80x24 and 120x40: a mistake, its options and the
curve (the real analysis at 16 playouts; seeded, so the same every run).

Update after a deliberate change with ``pytest tests/ui/review/test_review_snapshots.py
--snapshot-update`` and look at ``snapshot_report.html``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from unotui.ui.review_cli import review_app
from unotui.ui.screens.review import ReviewScreen

from .support import HeldJob, reviewed

SIZES = [(80, 24), (120, 40)]


async def _at_a_mistake(pilot: Pilot[Any]) -> None:
    for _ in range(300):
        screen = pilot.app.screen
        if isinstance(screen, ReviewScreen) and screen.model.result is not None:
            break
        await pilot.pause(0.02)
    await pilot.press("m", "m")
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_review_screen(snap_compare: Any, size: tuple[int, int]) -> None:
    t, result = reviewed()
    assert snap_compare(review_app(t, 0, HeldJob(result)), terminal_size=size, run_before=_at_a_mistake)
