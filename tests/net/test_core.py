"""The table core on its own: no sockets, no event loop, a clock that is a number.

Members are in-memory outboxes; every call says what time it is.  What a host's room and
solo play add around this is I/O only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from unotui.engine import Rules, SeatView
from unotui.net.config import RoomConfig
from unotui.net.core import TableCore
from unotui.net.effects import ActionsApplied, MatchStarted, SeatsSaved, TableOpened
from unotui.net.journal import SavedTable
from unotui.protocol import messages as m
from unotui.protocol.events import HelloReceived

FAST = dict(bot_delay=0.0, catch_grace=0.0, auto_keep=0.0)
TWO = RoomConfig(seats=2, autostart=True, rules=Rules.preset("classic"), **FAST)  # type: ignore[arg-type]


class Box:
    """A member's outbox in memory: everything it was sent, in order."""

    closed = False
    log_from = 0
    version = 1

    def __init__(self) -> None:
        self.sent: list[Any] = []
        self.seat: int | None = None
        self.token: str | None = None

    def accept(self, *, seat: int | None, token: str | None, **_table: object) -> None:
        self.seat, self.token = seat, token

    def reject(self, code: str, message: str) -> None:
        self.closed = True
        self.sent.append(m.Error(code, message))

    def send(self, message: m.Message) -> None:
        self.sent.append(message)

    def send_view(self, view: SeatView, shared: object = None) -> bool:
        self.sent.append(view)
        return True

    def close(self, code: str, message: str) -> None:
        self.closed = True
        self.sent.append(m.Closed(code, message))

    def last_view(self) -> SeatView:
        return next(x for x in reversed(self.sent) if isinstance(x, SeatView))


def hello(name: str, token: str | None = None) -> HelloReceived:
    return HelloReceived(m.Hello(1, 1, name, token=token), 1)


def two_seated(config: RoomConfig, now: float = 0.0) -> tuple[TableCore[str], dict[str, Box], list[Any]]:
    core: TableCore[str] = TableCore("", config)
    boxes = {"ann": Box(), "bob": Box()}
    records = list(core.drain().records)
    for name, box in boxes.items():
        records += core.admit(name, box, hello(name.title()), None, now).records
    return core, boxes, records


def test_two_people_start_a_match_and_an_intent_is_answered_once_even_when_retried() -> None:
    core, boxes, records = two_seated(TWO)
    assert core.status == "playing" and core.game is not None
    assert isinstance(records[0], TableOpened) and any(isinstance(r, MatchStarted) for r in records)
    game = core.game
    actor = game.actor
    member = next(k for k, b in boxes.items() if b.seat == actor)
    action = game.legal_actions(actor)[0]
    effects = core.receive(member, m.Intent(7, action), 1.0)
    assert member in effects.dirty and m.Accepted(7) in boxes[member].sent
    assert any(isinstance(r, ActionsApplied) and (7, actor, str(action)) in r.rows for r in effects.records)
    version, sent = game.version, len(boxes[member].sent)
    core.receive(member, m.Intent(7, action), 2.0)  # the same intent again
    assert game.version == version and boxes[member].sent[sent:] == [m.Accepted(7)]


def test_a_turn_timer_is_a_deadline_in_the_cores_time_and_acts_when_ticked_past() -> None:
    core, boxes, _records = two_seated(replace(TWO, turn_timer=5.0), now=100.0)
    game = core.game
    assert game is not None
    turns = [d for d in boxes["ann"].sent if isinstance(d, m.Deadline) and d.kind == "turn"]
    assert turns and turns[-1].ms == 5000 and turns[-1].seat == game.actor
    due = core.next_deadline()
    assert due == 105.0
    version = game.version
    core.tick(104.9)
    assert game.version == version  # not yet
    core.tick(105.0)
    assert game.version > version  # the table acted for the person who let it run out


def test_a_table_restored_from_its_records_is_the_same_table_with_everyone_away() -> None:
    core, boxes, records = two_seated(TWO)
    game = core.game
    assert game is not None
    for seq in range(1, 30):
        actor = game.actor
        member = next(k for k, b in boxes.items() if b.seat == actor)
        records += core.receive(member, m.Intent(seq, game.legal_actions(actor)[0]), float(seq)).records
    records += core.tick(50.0).records  # what is due by then (a drawn card kept) is done, as a restart does
    seats = next(r for r in reversed(records) if isinstance(r, SeatsSaved)).seats
    secret = next(r for r in records if isinstance(r, MatchStarted)).secret
    config = next(r for r in records if isinstance(r, TableOpened)).config
    rows = tuple(row for r in records if isinstance(r, ActionsApplied) for row in r.rows)
    again: TableCore[str] = TableCore.restore(SavedTable("", config, secret, 0.0, seats, rows), 50.0)
    assert again.game is not None and again.game.history == game.history
    assert all(not again.book.seats[s].connected for s in again.book.humans())
    box = Box()
    token = boxes["ann"].token
    again.admit("ann", box, hello("Ann", token), None, 51.0)  # back with the token
    assert box.seat == boxes["ann"].seat and box.token != token  # rotated
    assert sorted(box.last_view().hand) == sorted(again.game.hands[box.seat])


def test_a_spectators_chat_line_carries_the_name_it_watches_under() -> None:
    """Not "spectator": the name the watcher said hello with (seat None says it watches)."""
    core, boxes, _records = two_seated(TWO)
    eve = Box()
    core.admit("eve", eve, HelloReceived(m.Hello(1, 1, "Eve", spectate=True), 1), None, 1.0)
    assert eve.seat is None
    core.receive("eve", m.Chat("nice play"), 2.0)
    assert m.ChatLine(None, "Eve", "nice play") in boxes["ann"].sent
    core.receive("ann", m.Chat("thanks"), 3.0)
    assert m.ChatLine(0, "Ann", "thanks") in eve.sent
    core.gone("eve", 4.0)
    assert "eve" not in core.audience.watchers
