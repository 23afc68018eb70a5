"""What the referee tells a host about its clocks besides the deadlines: which seats' turn
timers ran out (the table acted for them), and that an expired hold gives the seat to a
computer player for good even when one already stood in after timeouts."""

from __future__ import annotations

from tests.table.test_referee import SLOW, table
from unotui.engine import DRAW, KEEP
from unotui.table import Accepted, PresenceChange


def test_a_timeout_is_named_in_the_outcome_and_a_bot_s_move_or_an_automatic_keep_is_not() -> None:
    ref = table(["R5 R7", "B1 B2"], "G1", dealer=1, humans=[0], pacing=SLOW._replace(turn_timer=10.0),
                draws="Y2 Y3 Y4")
    ref.tick(0.0)
    out = ref.tick(10.0)
    assert out.accepted == (Accepted(-1, 0, DRAW),) and out.timeouts == (0,)
    t = ref.next_deadline()
    assert t is not None
    keep = ref.tick(t)  # the drawn card kept automatically: not a timeout
    assert keep.accepted[0] == Accepted(-1, 0, KEEP) and keep.timeouts == ()
    t = ref.next_deadline()
    assert t is not None
    bot = ref.tick(t)  # the computer player's turn
    assert bot.accepted and all(a.seat == 1 for a in bot.accepted) and bot.timeouts == ()


def test_an_expired_hold_says_bot_even_after_a_stand_in_played_for_timeouts() -> None:
    ref = table(["R5 R7 R8 R9", "B1 B2 B3 B4"], "G1", dealer=1, humans=[0],
                pacing=SLOW._replace(turn_timer=10.0, hold=100.0), draws="Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9")
    ref.tick(0.0)
    t = 0.0
    stood_in = False
    while not stood_in:  # three timeouts in a row: a stand-in plays seat 0
        t = ref.next_deadline() or t
        stood_in = PresenceChange(0, "bot") in ref.tick(t).presence
    assert ref.drop(0, t).presence == (PresenceChange(0, "away"),)
    while ref.deadlines().holds:
        t = ref.next_deadline() or t
        out = ref.tick(t)
    assert PresenceChange(0, "bot") in out.presence  # the hold is over: the seat is the computer's
