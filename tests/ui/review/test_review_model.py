"""The review screen's model: a seat's decisions with its view, the estimates matched by
step, rounds, the costliest moments, the curve and the hindsight hands."""

from __future__ import annotations

from unotui.review import decisions
from unotui.transcript import replay
from unotui.ui.review_model import ReviewModel, costliest, curve, first_seat, rounds

from .support import reviewed


def _model() -> ReviewModel:
    t, result = reviewed()
    model = ReviewModel.of(t)
    model.with_review(result)
    return model


def test_moments_are_the_seats_decisions_with_its_own_view() -> None:
    t, _ = reviewed()
    model = _model()
    for seat in (0, 1):
        ms = model.moments(seat)
        want = [d for d in decisions(t) if d.seat == seat]
        assert [m.step for m in ms] == [d.step for d in want] and ms
        assert all(m.view.seat == seat and m.view.actor == seat for m in ms)
        assert [m.index for m in ms] == list(range(len(ms)))


def test_estimates_are_matched_by_step_and_options_sorted_best_first() -> None:
    _, result = reviewed()
    by_step = {d["step"]: d for d in result["decisions"]}
    ms = _model().moments(0)
    analysed = [m for m in ms if m.options]
    assert analysed
    for m in analysed:
        d = by_step[m.step]
        assert m.mark == d["mark"] and m.cost == d["cost"] and m.best == d["best"]
        chances = [o.chance for o in m.options]
        assert chances == sorted(chances, reverse=True)
        assert sum(o.chosen for o in m.options) == 1 and m.options[0].cost == 0
        assert next(o for o in m.options if o.chosen).cost == m.cost  # (the row agrees with the mark)
        assert m.chance == next(o.chance for o in m.options if o.chosen)
    assert curve(ms) == [m.chance for m in ms]
    assert any(v is None for v in curve(ms))  # (naming a colour is not analysed)


def test_without_a_review_the_moments_are_there_without_estimates() -> None:
    t, _ = reviewed()
    ms = ReviewModel.of(t).moments(0)
    assert ms and all(m.mark == "" and m.chance is None and not m.options for m in ms)


def test_rounds_costliest_and_costly() -> None:
    model = _model()
    ms = model.moments(0)
    starts = rounds(ms)
    assert starts[0] == 0 and all(ms[i].round != ms[i - 1].round for i in starts[1:])
    assert len({m.round for m in ms}) == len(starts)
    top = costliest(ms, model.summary(0))
    assert len(top) == 3 and [ms[i].cost for i in top] == sorted((ms[i].cost for i in top), reverse=True)
    assert ms[top[0]].cost == max(m.cost for m in ms if m.mark not in ("forced", "not analysed"))
    assert all(m.costly == (m.mark in ("inaccuracy", "mistake", "blunder")) for m in ms)


def test_hindsight_is_every_hand_at_that_moment() -> None:
    t, _ = reviewed()
    model = _model()
    m = model.moments(1)[5]
    hands = model.hindsight(m.step)
    assert tuple(hands[1]) == tuple(m.view.hand)
    game = replay(t)
    assert len(hands) == len(game.names) and len(hands[0]) == m.view.counts[0]


def test_first_seat_skips_computer_looking_names() -> None:
    assert first_seat(["Bot Ada", "Lin"]) == 1
    assert first_seat(["Player 1", "Player 2"]) == 0
    assert first_seat(["CPU", "bot"]) == 0
    from unotui.bots import BOT_NAMES

    assert first_seat([BOT_NAMES[0], BOT_NAMES[1], "Tester"]) == 2  # (a saved solo match)
