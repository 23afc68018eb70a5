"""``m`` in the lobby, by keyboard (Textual's pilot) against a real lobby on loopback:
the recent matches list, Enter opening the review screen (reviewed on the server),
a guest's text, and the server's review admission (a second review for the key refused)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.lobby.test_kept_net import ANN, SETTINGS, play_a_short_match
from tests.lobby.test_lobby_app import lobby_ready, screen_is
from tests.ui.tui_support import words
from unotui.lobby import review_slots
from unotui.ui import lobby_review
from unotui.ui.lobby_home import lobby_app
from unotui.ui.screens.lobby import LobbyScreen
from unotui.ui.screens.lobby_matches import GUEST_TEXT, LobbyMatchesScreen, matches_text
from unotui.ui.screens.review import ReviewScreen

from .test_lobby_net import lobby_host, visit

pytestmark = [pytest.mark.timeout(90), pytest.mark.usefixtures("fewer_playouts")]


@pytest.fixture
def fewer_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby's real review job (a slot, one process reniced under its CPU limit) at
    32 playouts an option instead of 256: these tests are of the flow, not the estimates."""
    monkeypatch.setattr(lobby_review, "local_job", partial(lobby_review.local_job, playouts=32))


async def matches_listed(pilot: Pilot[Any]) -> LobbyMatchesScreen:
    await pilot.press("m")
    await screen_is(pilot, LobbyMatchesScreen)
    screen = pilot.app.screen
    assert isinstance(screen, LobbyMatchesScreen)
    for _ in range(100):
        if screen.listed is not None:
            break
        await pilot.pause(0.05)
    assert screen.listed is not None
    await pilot.pause(0.05)
    return screen


async def review_outcome(pilot: Pilot[Any]) -> ReviewScreen:
    """The review screen once its analysis ended: estimates, or the sentence why none."""
    await screen_is(pilot, ReviewScreen)
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    for _ in range(600):
        if screen.model.result is not None or screen.failed:
            return screen
        await pilot.pause(0.1)
    raise AssertionError("the review never ended")


async def slot_given_back(pilot: Pilot[Any], lobby: Any) -> None:
    """The review's slot is free again. ``review_done`` is a message without an answer,
    sent as the review ends: the screen can show the result before the lobby has read it
    (CI once asserted in between), so wait for it, bounded (5 s)."""
    for _ in range(100):
        if lobby.desk.slots.busy(lobby.loop.time()) == 0:
            return
        await pilot.pause(0.05)
    busy = lobby.desk.slots.busy(lobby.loop.time())
    raise AssertionError(f"the review slot was never given back: {busy} busy")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_m_lists_the_match_and_enter_reviews_it(tmp_path: Path, size: tuple[int, int]) -> None:
    async with lobby_host(tmp_path, SETTINGS) as (lobby, port):
        await play_a_short_match(lobby, port)
        app = lobby_app("127.0.0.1", port, "Ann", identity=lobby.credentials.issue(ANN), keyed=True)
        async with app.run_test(size=size) as pilot:
            await lobby_ready(pilot)
            screen = await matches_listed(pilot)
            assert screen.listed is not None and len(screen.listed.rows) == 1
            [row] = screen.listed.rows
            assert f"you, {row.names[1 - row.seat]}" in matches_text(screen.listed)
            text = words(app)
            assert "Your recent matches" in text and "won" in text and "Review" in text
            assert "Save" not in text  # nothing saves on the server (the results.py rule)
            await pilot.press("enter")
            review = await review_outcome(pilot)
            assert review.failed == "" and review.model.result is not None
            assert review.model.result["players"][review.seat] == "Ann"
            await slot_given_back(pilot, lobby)  # review_done reached the server
            await pilot.press("escape")
            await screen_is(pilot, LobbyMatchesScreen)
            await pilot.press("escape")
            await screen_is(pilot, LobbyScreen)


async def test_a_guest_is_told_nothing_is_kept(tmp_path: Path) -> None:
    async with lobby_host(tmp_path, SETTINGS) as (_lobby, port):
        app = lobby_app("127.0.0.1", port, "Cy")
        async with app.run_test(size=(80, 24)) as pilot:
            await lobby_ready(pilot)
            screen = await matches_listed(pilot)
            assert screen.listed is not None and screen.listed.rows == ()
            assert " ".join(GUEST_TEXT.split()[:6]) in words(app)
            await pilot.press("enter")  # nothing to review: said, nothing opens
            await pilot.pause(0.1)
            assert isinstance(app.screen, LobbyMatchesScreen)


async def test_a_second_review_for_the_same_key_is_refused_with_the_sentence(tmp_path: Path) -> None:
    async with lobby_host(tmp_path, replace(SETTINGS, review_slots=3)) as (lobby, port):
        await play_a_short_match(lobby, port)
        other_terminal = await visit(port, "Ann", lobby.credentials.issue(ANN))
        assert (await other_terminal.client.review_slot()).granted  # Ann reviews elsewhere
        app = lobby_app("127.0.0.1", port, "Ann", identity=lobby.credentials.issue(ANN), keyed=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await lobby_ready(pilot)
            await matches_listed(pilot)
            await pilot.press("enter")
            review = await review_outcome(pilot)
            assert review.failed == review_slots.MINE
            assert review_slots.MINE[:40] in words(app)
        await other_terminal.client.close()
