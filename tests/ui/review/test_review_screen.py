"""The review screen through its keys, at 80x24 and 120x40: stepping, rounds, mistakes,
the costliest moments, the options' chart, the summary, switching seats, the hindsight
label, progress before estimates, and a refusal.  The estimates are the real analysis's
(16 playouts, computed once); the job hands them over when the test lets it."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from tests.ui.tui_support import full_text
from unotui.ui.review_cli import review_app
from unotui.ui.review_model import ReviewModel
from unotui.ui.review_panels import move_words
from unotui.ui.screens.review import ReviewScreen

from .support import HeldJob, reviewed

pytestmark = [pytest.mark.timeout(120)]
SIZES = [(80, 24), (120, 40)]
IDS = ["80x24", "120x40"]


def _text(pilot: Pilot[Any]) -> str:
    return " ".join(full_text(pilot.app).split())


async def _until(pilot: Pilot[Any], words: str) -> str:
    for _ in range(300):
        text = _text(pilot)
        if words in text:
            return text
        await pilot.pause(0.02)
    raise AssertionError(f"never on screen: {words!r} in {text!r}")


def _screen(pilot: Pilot[Any]) -> ReviewScreen:
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    return screen


def _model() -> ReviewModel:
    t, result = reviewed()
    model = ReviewModel.of(t)
    model.with_review(result)
    return model


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_stepping_rounds_and_ends(size: tuple[int, int]) -> None:
    t, result = reviewed()
    ms = _model().moments(0)
    app = review_app(t, 0, HeldJob(result))
    async with app.run_test(size=size) as pilot:
        await _until(pilot, f"decision 1/{len(ms)} round 1")
        for _ in range(3):
            await pilot.press("right")
        text = await _until(pilot, f"decision 4/{len(ms)}")
        assert move_words(ms[3]) in text and "Hand" in text and "Top" in text
        await pilot.press("left")
        await _until(pilot, f"decision 3/{len(ms)}")
        await pilot.press("right_square_bracket")
        second = next(m for m in ms if m.round == 2)
        await _until(pilot, f"decision {second.index + 1}/{len(ms)} round 2")
        await pilot.press("left_square_bracket")
        await _until(pilot, f"decision 1/{len(ms)} round 1")
        await pilot.press("end")
        await _until(pilot, f"decision {len(ms)}/{len(ms)} round {ms[-1].round}")
        await pilot.press("home")
        await _until(pilot, f"decision 1/{len(ms)}")


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_mistakes_costliest_and_the_chart(size: tuple[int, int]) -> None:
    t, result = reviewed()
    model = _model()
    ms = model.moments(0)
    costly = [m for m in ms if m.costly]
    app = review_app(t, 0, HeldJob(result))
    async with app.run_test(size=size) as pilot:
        await _until(pilot, "Options (chance of winning the round)")
        await pilot.press("m")
        text = await _until(pilot, f"decision {costly[0].index + 1}/{len(ms)}")
        assert move_words(costly[0]) in text and f"{costly[0].mark} (-{costly[0].cost:.1f}" in text
        await pilot.press("m")
        await _until(pilot, f"decision {costly[1].index + 1}/{len(ms)}")
        await pilot.press("M")
        text = await _until(pilot, f"decision {costly[0].index + 1}/{len(ms)}")
        for o in costly[0].options:  # every option's bar, with its chance
            assert f"{100 * o.chance:5.1f}%".strip() in text
        assert "best" in text and "Preferred:" in text
        top = model.summary(0)["costliest"]  # type: ignore[index]
        await pilot.press("1")
        worst = next(m for m in ms if m.step == top[0])
        await _until(pilot, f"decision {worst.index + 1}/{len(ms)}")
        await pilot.press("3")
        third = next(m for m in ms if m.step == top[2])
        await _until(pilot, f"decision {third.index + 1}/{len(ms)}")
        await pilot.press("pagedown")  # (below the fold at 80x24: the body scrolls)
        text = await _until(pilot, "^ here")
        assert "Chance of winning the round, move by move" in text


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_summary_seat_switch_and_hindsight(size: tuple[int, int]) -> None:
    t, result = reviewed()
    model = _model()
    app = review_app(t, 0, HeldJob(result))
    async with app.run_test(size=size) as pilot:
        text = await _until(pilot, "Options")
        assert "HINDSIGHT" not in text  # off by default
        await pilot.press("t")
        text = await _until(pilot, "Summary")
        s0 = model.summary(0)
        assert s0 is not None
        assert f"Player 1 (reviewed): {s0['matched']}/{s0['judged']} best" in text
        assert f"{s0['given_away']:.1f} points of chance given away" in text and "Costliest moments" in text
        await pilot.press("escape")  # (back to the decision, not out)
        await _until(pilot, "decision 1/")
        await pilot.press("s")
        ms1 = model.moments(1)
        text = await _until(pilot, f"Review: Player 2 decision 1/{len(ms1)}")
        await pilot.press("right")
        await pilot.press("h")
        text = await _until(pilot, "the analysis never uses them")  # (scrolled into sight)
        assert "HINDSIGHT the other hands at this moment" in text
        other = model.hindsight(ms1[1].step)[0]
        assert "Player 1: " + " ".join(c.text for c in other) in text
        await pilot.press("h")
        await pilot.pause(0.05)
        assert "HINDSIGHT" not in _text(pilot)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_it_steps_during_the_analysis_then_shows_the_estimates(size: tuple[int, int]) -> None:
    t, result = reviewed()
    job = HeldJob(result, hold=True)
    total = len(result["decisions"])
    app = review_app(t, None, job)
    async with app.run_test(size=size) as pilot:
        text = await _until(pilot, f"Analysing: {total // 2}/{total} decisions")
        assert "Options" not in text and "estimates when the analysis is done" in text
        await pilot.press("right")
        await _until(pilot, "decision 2/")  # (the event loop is not waiting for the job)
        job.go.set()
        text = await _until(pilot, "Options (chance of winning the round)")
        assert "Analysing" not in text and "decision 2/" in text
    assert job.texts and job.texts[0].startswith("{")


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_a_refusal_is_said_and_stepping_still_works(size: tuple[int, int]) -> None:
    t, result = reviewed()
    app = review_app(t, 0, HeldJob(result, refuse="The server is busy reviewing; try again in a minute."))
    async with app.run_test(size=size) as pilot:
        await _until(pilot, "The server is busy reviewing; try again in a minute.")
        await pilot.press("right")
        text = await _until(pilot, "decision 2/")
        assert "Options" not in text
        await pilot.press("t")
        await _until(pilot, "The server is busy")
        await pilot.press("question_mark")
        text = await _until(pilot, "Reviewing a match")
        assert "HINDSIGHT on or off" in text


async def test_leaving_during_the_analysis_stops_it_and_nothing_breaks() -> None:
    from textual.app import App
    from textual.screen import Screen
    from textual.widgets import Static

    from unotui.ui.review_launch import open_review

    t, result = reviewed()
    job = HeldJob(result, hold=True)

    class Base(Screen[None]):
        def compose(self) -> Any:
            yield Static("the summary underneath")

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Base())
            open_review(self, t, 0, job)

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, "Analysing:")
        await pilot.press("escape")
        await _until(pilot, "the summary underneath")
        job.go.set()  # the job's next progress call finds the screen gone and stops
        await pilot.pause(0.3)
        assert not isinstance(app.screen, ReviewScreen) and app.is_running


async def test_resizing_relays_the_panels_and_keeps_the_decision() -> None:
    t, result = reviewed()
    app = review_app(t, 0, HeldJob(result))
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, "Options (chance")
        await pilot.press("right", "right")
        screen = _screen(pilot)
        assert screen.has_class("wide")
        wide = full_text(app).splitlines()
        assert any("Top " in line and "This round so far" in line for line in wide)  # side by side
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        assert not screen.has_class("wide")
        text = await _until(pilot, "decision 3/")
        assert "Options (chance" in text
        for line in full_text(app).splitlines():
            assert len(line.rstrip()) <= 80
        bars = [line for line in full_text(app).splitlines() if "%" in line and "#" in line]
        assert bars and all(line.rstrip().endswith(("best", "good", "inaccuracy", "mistake", "blunder"))
                            for line in bars)  # (each bar's mark on its own line, not wrapped)
