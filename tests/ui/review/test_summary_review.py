"""``r`` on the match summary reviews the match just played (solo: the real analysis on
this machine, its cache 0600 under the matches directory, or beside the saved file); at
a joined seat it reviews the record the host handed over, from that seat; ``n`` is the
rematch."""

from __future__ import annotations

import os
import stat
from functools import partial
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.net.lan_support import FAST, hosted
from tests.ui import tui_support
from tests.ui.test_save_match import ONE_ROUND, _hint, _solo, _summary, _until
from unotui.net.config import RoomConfig
from unotui.ui import review_job
from unotui.ui.cli import table_app
from unotui.ui.lan import joined
from unotui.ui.screens.results import MatchOverScreen, matches_dir
from unotui.ui.screens.review import ReviewScreen
from unotui.ui.screens.table import TableScreen
from unotui.ui.settings import GameOptions

pytestmark = [pytest.mark.usefixtures("fast_keys", "fewer_playouts"), pytest.mark.timeout(180)]


@pytest.fixture
def fewer_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real analysis, in its processes, at 32 playouts an option instead of 256: these
    tests are of the summary's ``r``, not of the estimates (tests/review has those)."""
    monkeypatch.setattr(review_job, "local_job", partial(review_job.local_job, playouts=32))


async def _estimates(pilot: Pilot[Any]) -> ReviewScreen:
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    for _ in range(3000):  # (the real analysis of one round, every core)
        if screen.model.result is not None or screen.failed:
            break
        await pilot.pause(0.05)
    assert screen.failed == "" and screen.model.result is not None
    return screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_r_reviews_the_solo_match_then_escape_returns_and_n_rematches(size: tuple[int, int]) -> None:
    app = _solo()
    async with app.run_test(size=size) as pilot:
        screen = await _summary(pilot)
        assert "r: review   n: rematch" in _hint(screen)
        await pilot.press("r")
        review = await _estimates(pilot)
        record = app.controller.record  # type: ignore[union-attr]
        assert record is not None and review.seat == record.seat == 0
        assert [m.step for m in review.model.moments(0)] and review.model.result["players"] == list(  # type: ignore[index]
            record.transcript.players)
        await _until(pilot, "Options (chance of winning the round)")
        caches = list(matches_dir().glob("unsaved-*.review.json"))
        assert len(caches) == 1
        assert stat.S_IMODE(os.stat(caches[0]).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(matches_dir()).st_mode) == 0o700
        await pilot.press("escape")
        await _until(pilot, "Final standings")
        assert isinstance(app.screen, MatchOverScreen)
        await pilot.press("n")
        for _ in range(200):
            if isinstance(app.screen, TableScreen):
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen, TableScreen)


async def test_after_s_the_review_is_cached_beside_the_saved_file() -> None:
    app = _solo()
    async with app.run_test(size=(120, 40)) as pilot:
        await _summary(pilot)
        await pilot.press("s")
        await _until(pilot, "Saved. Replay it with")
        await pilot.press("r")
        await _estimates(pilot)
    saved = [p for p in matches_dir().glob("*.json") if not p.name.endswith(".review.json")]
    assert len(saved) == 1
    beside = saved[0].with_name(saved[0].name + ".review.json")
    assert beside.exists() and stat.S_IMODE(os.stat(beside).st_mode) == 0o600
    assert not list(matches_dir().glob("unsaved-*"))


async def _settle_remote(pilot: Pilot[Any]) -> None:
    await pilot.pause(0.01)


async def test_r_at_a_joined_seat_reviews_the_hosts_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real host on loopback, one person joined and a computer player: at the match's
    end the host hands its record over, and ``r`` opens the review of that seat."""
    monkeypatch.setattr(tui_support, "settle", _settle_remote)
    room = RoomConfig(seats=2, bots=1, autostart=True, rules=ONE_ROUND, **FAST)
    async with hosted(room) as (_host, _room, port):
        app = table_app(joined("127.0.0.1", port, name="Joey"), "Joey")
        app.options = GameOptions(name="Joey", summary_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(1000):
                if isinstance(app.screen, TableScreen):
                    break
                await pilot.pause(0.02)
            await _summary(pilot)
            for _ in range(500):  # (the record comes just after the match-over view)
                if app.controller.record is not None:  # type: ignore[union-attr]
                    break
                await pilot.pause(0.02)
            record = app.controller.record  # type: ignore[union-attr]
            assert record is not None
            assert record.transcript.players[record.seat] == "Joey"
            await pilot.press("r")
            review = await _estimates(pilot)
            assert review.seat == record.seat
            await pilot.press("escape")
            await _until(pilot, "Final standings")
            assert isinstance(app.screen, MatchOverScreen)
