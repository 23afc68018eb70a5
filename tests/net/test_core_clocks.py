"""The table core's clocks as its members are told them: the hold of a dropped seat, a
turn timer that ran out, and the clocks already running when someone is admitted.

No sockets and no loop: the core's time is a number each call carries (the wire's side is
``tests/net/test_clocks_wire.py``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.net.test_core import TWO, Box, hello, two_seated
from unotui.engine import SeatView
from unotui.protocol import messages as m
from unotui.protocol.session import HelloReceived


def clocks(box: Box, kind: str, since: int = 0) -> list[m.Deadline]:
    return [d for d in box.sent[since:] if isinstance(d, m.Deadline) and d.kind == kind]


def test_a_dropped_seat_s_hold_is_a_deadline_the_others_hear_until_a_computer_player_takes_it() -> None:
    core, boxes, _ = two_seated(replace(TWO, hold=120.0), now=0.0)
    bob = boxes["bob"].seat
    core.gone("bob", 10.0)
    assert clocks(boxes["ann"], "hold") == [m.Deadline("hold", bob, 120_000)]
    sent = len(boxes["ann"].sent)
    core.tick(129.9)
    assert clocks(boxes["ann"], "hold", sent) == []  # not yet
    core.tick(130.0)
    after = boxes["ann"].sent[sent:]
    assert m.Deadline("hold", None, 0) in after  # the hold is over ...
    assert m.Presence(bob, "bot", "Bob") in after  # ... and a computer player has the seat


def test_a_hold_ends_when_its_person_comes_back_and_the_others_hold_on() -> None:
    three = replace(TWO, seats=3, hold=120.0)
    core, boxes, _ = two_seated(three, now=0.0)
    cleo = Box()
    core.admit("cleo", cleo, hello("Cleo"), None, 0.0)
    assert core.status == "playing"
    token = boxes["bob"].token
    core.gone("bob", 10.0)
    core.gone("cleo", 20.0)
    ann = boxes["ann"]
    bob_seat, cleo_seat = boxes["bob"].seat, cleo.seat
    assert clocks(ann, "hold")[-1] == m.Deadline("hold", cleo_seat, 120_000)
    sent = len(ann.sent)
    back = Box()
    core.admit("bob2", back, HelloReceived(m.Hello(1, 1, "Bob", token=token), 1), None, 50.0)
    # every hold is cancelled, then the ones still running are said again: Cleo's, 90 s left
    assert clocks(ann, "hold", sent) == [m.Deadline("hold", None, 0), m.Deadline("hold", cleo_seat, 90_000)]
    assert bob_seat is not None and m.Deadline("hold", bob_seat, 80_000) not in clocks(ann, "hold", sent)


def test_a_turn_timer_that_ran_out_is_said_with_ms_0_after_the_view_of_what_the_table_did() -> None:
    core, boxes, _ = two_seated(replace(TWO, turn_timer=5.0), now=100.0)
    game = core.game
    assert game is not None
    actor = game.actor
    ann = boxes["ann"]
    sent = len(ann.sent)
    core.tick(105.0)
    after: list[Any] = ann.sent[sent:]
    ran_out = after.index(m.Deadline("turn", actor, 0))
    assert any(isinstance(x, SeatView) for x in after[:ran_out])  # the draw came first
    assert [d for d in clocks(ann, "turn", sent + ran_out + 1)]  # then the clock that runs now
    assert all(d.ms > 0 or d.seat is None for d in clocks(ann, "turn", sent + ran_out + 1))


def test_someone_admitted_mid_turn_is_told_the_clocks_running_now() -> None:
    core, boxes, _ = two_seated(replace(TWO, turn_timer=30.0, hold=120.0), now=100.0)
    game = core.game
    assert game is not None
    core.gone("bob", 105.0)
    watcher = Box()
    core.admit("eve", watcher, HelloReceived(m.Hello(1, 1, "Eve", spectate=True), 1), None, 110.0)
    turn = clocks(watcher, "turn")
    assert turn and turn[0].seat == game.actor and turn[0].ms == 20_000  # 30 s from 100, at 110
    assert clocks(watcher, "hold") == [m.Deadline("hold", boxes["bob"].seat, 115_000)]
    first_view = next(i for i, x in enumerate(watcher.sent) if isinstance(x, SeatView))
    assert watcher.sent.index(turn[0]) > first_view  # after the view it is about


def test_a_seat_whose_turns_ran_out_is_told_a_computer_player_plays_for_it_and_when_it_is_back() -> None:
    """Three timeouts in a row: ``bot`` goes to the idle seat's own connection too (not only
    to the others) and to anyone admitted while it lasts; ``ready`` (the table's ``b``)
    gives the seat back, whoever's turn it is, with ``back`` to it as well; a ``joined``
    or ``away`` is still never sent to the connection it is about."""
    core, boxes, _ = two_seated(replace(TWO, turn_timer=5.0), now=100.0)
    game = core.game
    assert game is not None
    seats = {box.seat: name for name, box in boxes.items()}
    now = 100.0
    told: dict[int, m.Presence] = {}
    while not told and now < 400.0:
        now += 5.0
        core.tick(now)
        core.tick(now + 0.01)  # (a drawn card kept by the table)
        for box in boxes.values():
            told.update({p.seat: p for p in box.sent if isinstance(p, m.Presence) and p.seat == box.seat})
    assert told, "no seat was ever told a computer player plays for it"
    [(seat, presence)] = told.items()
    assert presence.state == "bot"
    other = seats[1 - seat]
    assert m.Presence(seat, "bot", presence.name) in boxes[other].sent  # the others, as before
    eve = Box()  # someone arriving now is told too, after the view (no presence snapshot else)
    core.admit("eve", eve, HelloReceived(m.Hello(1, 1, "Eve", spectate=True), 1), None, now)
    first_view = next(i for i, x in enumerate(eve.sent) if isinstance(x, SeatView))
    assert eve.sent.index(m.Presence(seat, "bot", presence.name)) > first_view
    me = boxes[seats[seat]]
    sent = len(me.sent)
    core.receive(seats[seat], m.Ready(), now + 0.1)  # the person is here (the table's b): whoever's turn
    assert m.Presence(seat, "back", presence.name) in me.sent[sent:]
    cy = Box()  # and once it is back, nobody arriving is told of a stand-in
    core.admit("cy", cy, HelloReceived(m.Hello(1, 1, "Cy", spectate=True), 1), None, now + 0.2)
    assert not [p for p in cy.sent if isinstance(p, m.Presence) and p.seat == seat]
    assert not [p for p in me.sent if isinstance(p, m.Presence) and p.seat == seat
                and p.state in ("joined", "away", "left")]
