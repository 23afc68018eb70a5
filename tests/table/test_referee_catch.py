"""The table referee's catch grace, by a fake clock: a person who forgot UNO may still
call it, a catch too early is told when catching opens, and computer players catch no
sooner than a person reacts (each level at its documented window).  The tables and their
scripted bots are :mod:`tests.table.test_referee`'s.
"""

from __future__ import annotations

import random

import pytest

from tests.table.test_referee import SLOW, P, Plain, accepted, forgot_uno, table
from unotui.bots import MIN_CATCH_DELAY, make_bot
from unotui.engine import CALL_UNO, Action, Catch
from unotui.table import MIN_CATCH_GRACE, TOO_EARLY, Deadlines, Pacing, Referee, Refusal
from unotui.table.outcome import CATCH_REACTION


def test_a_catch_within_the_grace_is_too_early_and_the_offender_may_still_call() -> None:
    ref = forgot_uno()
    assert ref.deadlines().catch == (0, 11.0)
    early = ref.receive(1, Catch(0), 0, 10.0)  # a script sniping at t=0
    assert early.refusals == (Refusal(1, 0, TOO_EARLY, early.refusals[0].message),)
    assert "catching opens in 1.0 s" in early.refusals[0].message and not early.accepted and not early.changed
    again = ref.receive(1, Catch(0), 1, 10.99)
    assert again.refusals[0].code == TOO_EARLY
    late_call = ref.receive(0, CALL_UNO, 1, 10.5)
    assert accepted(late_call) == [(1, 0, "uno")] and late_call.changed
    assert ref.game.uno_open == -1 and late_call.deadlines == Deadlines()


def test_a_catch_after_the_grace_is_accepted() -> None:
    ref = forgot_uno()
    out = ref.receive(1, Catch(0), 0, 11.0)
    assert accepted(out) == [(0, 1, "catch 0")] and not out.refusals
    assert len(ref.game.hands[0]) == 3


def test_a_bot_catches_at_its_own_catch_delay_never_before_the_grace() -> None:
    catcher = Plain(catches=True, catch_delay=2.5)
    ref = table(["R5 R7", "B1 B2", "G1 G2"], "R1", dealer=2, humans=[0, 1], bots={2: catcher})
    ref.tick(0.0)
    ref.receive(0, P("R5"), 0, 10.0)
    assert ref.next_deadline() == 12.5  # max(grace 1.0, its catch delay 2.5) after the play
    assert not ref.tick(12.49).accepted
    out = ref.tick(12.5)
    assert accepted(out) == [(-1, 2, "catch 0")]


def test_bots_catch_a_persons_reaction_after_the_grace_at_the_soonest() -> None:
    """A bot with no delay of its own at a real table's shortest grace: it waits the
    grace and then a person's reaction (CATCH_REACTION) more."""
    assert (MIN_CATCH_GRACE, CATCH_REACTION, MIN_CATCH_DELAY) == (0.75, 1.0, 2.0)
    ref = table(["R5 R7", "B1 B2", "G1 G2"], "R1", dealer=2, humans=[0, 1], bots={2: Plain(catches=True)},
                pacing=SLOW._replace(catch_grace=MIN_CATCH_GRACE))
    ref.tick(0.0)
    ref.receive(0, P("R5"), 0, 10.0)
    assert not ref.tick(11.74).accepted
    assert accepted(ref.tick(11.75)) == [(-1, 2, "catch 0")]


def level_table(level: str, grace: float) -> Referee:
    """Me (seat 0) and three computer players of ``level`` at a real table's pacing, the
    defaults a solo game has; seat 1 plays its second-to-last card without calling UNO
    (its bot always forgets) at t=10, with the chance to catch it on every screen then."""
    pacing = Pacing(catch_grace=grace)  # bot delays honoured, as at every real table
    bots = {s: make_bot(level, random.Random(s), forget_uno=1.0) if level != "hard"
            else make_bot(level, random.Random(s)) for s in (1, 2, 3)}
    forgetful = ScriptedForget(Action.parse("R5"))
    bots[1] = forgetful  # type: ignore[assignment]
    ref = table(["R7 R9", "R5 R8", "G1 G2", "B1 B2"], "R1", dealer=0, humans=[0], bots=bots,  # type: ignore[arg-type]
                pacing=pacing)
    ref.tick(0.0)
    out = ref.tick(10.0)  # seat 1 (after the dealer) plays, late: the window opens now
    assert (-1, 1, "R5") in accepted(out) and ref.game.uno_open == 1
    return ref


class ScriptedForget(Plain):
    """Plays its one card without calling UNO, then passively; catches nobody, and is
    asked about its own late call only long after everyone else."""

    def __init__(self, card: Action) -> None:
        super().__init__([str(card)], catch_delay=30.0)


@pytest.mark.parametrize("level", ["random", "greedy", "easy", "medium", "hard"])
def test_a_persons_catch_at_one_and_a_half_seconds_beats_every_level(level: str) -> None:
    """Issue 19: pressing c 1.5 s after "X did not call UNO: catch (c)!" appeared found a
    computer player had caught first, every time.  The driver ticks at every deadline up
    to the key press (a solo game's loop does), and the person's catch still wins."""
    ref = level_table(level, grace=1.0)
    t = 10.0
    while (due := ref.next_deadline()) is not None and due <= 11.5:
        t = due
        assert not [a for a in ref.tick(t).accepted if isinstance(a.action, Catch)], (level, t)
    assert ref.game.uno_open == 1
    out = ref.receive(0, Catch(1), 1, 11.5)
    assert accepted(out) == [(1, 0, "catch 1")], (level, out)


@pytest.mark.parametrize(("level", "window"), [("easy", 3.0), ("medium", 2.5), ("hard", 2.0)])
def test_each_level_catches_at_its_documented_window(level: str, window: float) -> None:
    """The windows docs/bots.md gives, after the chance appeared: a catch is then made
    (hard always catches; the others at their rate, so the test asks when they are asked)."""
    bot = make_bot(level, random.Random(0))
    assert bot.catch_delay == window
    ref = level_table(level, grace=1.0)
    assert ref.next_deadline() == pytest.approx(10.0 + window)


def test_with_a_long_grace_bots_wait_a_persons_reaction_after_it() -> None:
    """A settings file may set a 3 s grace: hard's 2 s window would then catch the moment
    catching opens, before any person could; it waits CATCH_REACTION more."""
    ref = level_table("hard", grace=3.0)
    assert ref.next_deadline() == pytest.approx(14.0)
    assert ref.receive(0, Catch(1), 1, 12.99).refusals[0].code == TOO_EARLY
    assert not ref.tick(13.9).accepted
    assert accepted(ref.receive(0, Catch(1), 2, 13.5)) == [(2, 0, "catch 1")]


def test_too_early_says_when_catching_opens_rounded_up_never_0_0() -> None:
    """Every refusal from the window's opening to its end names a time of at least 0.1 s,
    rounded up (0.9 s left reads 0.9, 0.01 s left reads 0.1); the exact moment is in time."""
    ref = forgot_uno()  # grace 1.0: catching opens at 11.0
    seen = []
    for i in range(1000):
        now = 10.0 + i / 1000
        out = ref.receive(1, Catch(0), i, now)
        assert out.refusals and out.refusals[0].code == TOO_EARLY, now
        message = out.refusals[0].message
        assert "0.0 s" not in message, (now, message)
        seen.append(message)
    assert "catching opens in 1.0 s" in seen[0] and "catching opens in 0.9 s" in seen[100]
    assert "catching opens in 0.1 s" in seen[999] and "catching opens in 0.1 s" in seen[901]
    assert accepted(ref.receive(1, Catch(0), 1000, 11.0)) == [(1000, 1, "catch 0")]
