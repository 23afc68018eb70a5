"""Who holds each seat, as a remote seat works it out from the room's ``table`` message,
the ``presence`` updates since and the running ``hold`` deadlines (the Players panel's
marks).  A pure function: each case is the messages a seat was sent, in order."""

from __future__ import annotations

from unotui.engine import Rules
from unotui.net.room_info import RoomInfo, SeatInfo, SeatMark, seat_marks
from unotui.table import PresenceState as P


def room(*seats: SeatInfo) -> RoomInfo:
    return RoomInfo("t", "playing", seats, Rules(), 0, False, 0, 30.0)


ANN, BOB = SeatInfo("Ann", "human"), SeatInfo("Bob", "human")
BOB_AWAY, ADA = SeatInfo("Bob", "human", away=True), SeatInfo("Ada", "bot")


def test_people_computer_players_and_no_room() -> None:
    assert seat_marks(None, {}) == ()
    assert seat_marks(room(ANN, BOB, ADA), {}) == (SeatMark.PERSON, SeatMark.PERSON, SeatMark.BOT)


def test_a_dropped_player_is_away_while_held_even_when_a_stand_in_plays_for_timeouts() -> None:
    assert seat_marks(room(ANN, BOB_AWAY), {1: P.AWAY}, {1})[1] is SeatMark.AWAY
    assert seat_marks(room(ANN, BOB_AWAY), {1: P.BOT}, {1})[1] is SeatMark.AWAY  # three timeouts
    assert seat_marks(room(ANN, BOB_AWAY), {1: P.BOT}, set())[1] is SeatMark.BOT  # the hold ran out
    assert seat_marks(room(ANN, BOB), {1: P.BACK}, set())[1] is SeatMark.PERSON  # back in time


def test_a_stand_in_for_a_player_still_here_is_idle_until_they_act() -> None:
    assert seat_marks(room(ANN, BOB), {1: P.BOT})[1] is SeatMark.IDLE
    assert seat_marks(room(ANN, BOB), {1: P.BACK})[1] is SeatMark.PERSON


def test_a_seat_opened_in_the_waiting_room_is_nobody_s() -> None:
    assert seat_marks(room(ANN, SeatInfo("", "open")), {1: P.LEFT})[1] is SeatMark.PERSON
