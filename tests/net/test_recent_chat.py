"""A table's recent chat for whoever comes in (issue 18 item 8: chat was gone after a
rejoin): the last lines, marked ``earlier``, after the snapshot, bounded, and for every
kind of admission (a new seat, a resumed one, a spectator, a join that ran again)."""

from __future__ import annotations

from random import Random

import pytest

from unotui.engine import Rules, SeatView
from unotui.net.config import RoomConfig, config_to_dict
from unotui.net.core import TableCore
from unotui.net.journal import SavedTable
from unotui.net.remote import RemoteGame
from unotui.protocol import messages as m
from unotui.protocol.events import HelloReceived
from unotui.protocol.text import CHAT_MAX, CHAT_RECENT

from .lan_support import FAST, Player, has_view, hosted, until
from .test_core import TWO, Box, hello, two_seated

pytestmark = pytest.mark.timeout(30)


def earlier(box: Box) -> list[m.ChatLine]:
    return [x for x in box.sent if isinstance(x, m.ChatLine) and x.earlier]


def test_a_member_admitted_gets_the_recent_lines_after_its_snapshot_marked_earlier() -> None:
    core, boxes, _records = two_seated(TWO)
    core.receive("ann", m.Chat("hi"), 1.0)
    core.receive("bob", m.Chat("hello"), 2.0)
    assert not earlier(boxes["ann"])  # a line as it is said is not an earlier one
    eve = Box()
    core.admit("eve", eve, HelloReceived(m.Hello(1, 1, "Eve", spectate=True), 1), None, 3.0)
    assert earlier(eve) == [m.ChatLine(0, "Ann", "hi", True), m.ChatLine(1, "Bob", "hello", True)]
    first_view = next(i for i, x in enumerate(eve.sent) if isinstance(x, SeatView))
    assert first_view < eve.sent.index(earlier(eve)[0])  # after the snapshot
    back = Box()  # Ann again, with her token (a join killed and run again)
    core.admit("ann2", back, hello("Ann", boxes["ann"].token), None, 4.0)
    assert back.seat == 0 and [x.text for x in earlier(back)] == ["hi", "hello"]


def test_the_recent_lines_are_bounded_and_the_newest_kept() -> None:
    core, _boxes, _records = two_seated(TWO)
    for n in range(CHAT_RECENT + 15):
        core.receive("ann", m.Chat(f"{n} " + "x" * (CHAT_MAX - 4)), float(n))
    eve = Box()
    core.admit("eve", eve, HelloReceived(m.Hello(1, 1, "Eve", spectate=True), 1), None, 99.0)
    lines = earlier(eve)
    assert len(lines) == CHAT_RECENT == len(core.recent_chat)
    assert lines[0].text.startswith("15 ") and lines[-1].text.startswith(f"{CHAT_RECENT + 14} ")


def test_a_waiting_rooms_newcomer_gets_them_too_and_a_rebuilt_table_has_none() -> None:
    core: TableCore[str] = TableCore("", RoomConfig(seats=3, rules=Rules.preset("classic")))
    ann = Box()
    core.admit("ann", ann, hello("Ann"), None, 0.0)
    core.receive("ann", m.Chat("anyone?"), 1.0)
    bob = Box()
    core.admit("bob", bob, hello("Bob"), None, 2.0)
    assert earlier(bob) == [m.ChatLine(0, "Ann", "anyone?", True)]
    saved = SavedTable("", config_to_dict(core.config), None, 0.0, (), ())
    again: TableCore[str] = TableCore.restore(saved, 3.0)
    assert not again.recent_chat  # in memory only (protocol/SPEC.md, Chat and text)


async def test_over_sockets_a_resumed_seat_and_a_spectator_get_the_lines_after_their_snapshot() -> None:
    config = RoomConfig(seats=3, bots=1, autostart=True, rules=Rules.preset("classic"), **FAST)  # type: ignore[arg-type]
    async with hosted(config) as (_host, _room, port):
        a = Player(RemoteGame("127.0.0.1", port, name="Hosty"), Random(1), auto=False)
        b = Player(RemoteGame("127.0.0.1", port, name="Joey"), Random(2), auto=False)
        await a.game.start()
        await b.game.start()
        await until(lambda: has_view(a) and has_view(b))
        a.game.chat("hello Joey")
        b.game.chat("hi Hosty")
        said = [(0, "Hosty", "hello Joey"), (1, "Joey", "hi Hosty")]

        def lines(p: Player, was: bool) -> list[tuple[int | None, str, str]]:
            return [(u.seat, u.name, u.text) for u in p.updates
                    if isinstance(u, m.ChatLine) and u.earlier is was]

        def after_snapshot(p: Player) -> bool:
            kinds = [type(u).__name__ for u in p.updates]
            return kinds.index("ViewUpdated") < kinds.index("ChatLine")

        await until(lambda: lines(b, False) == said)
        assert lines(b, True) == []
        link = b.game._link
        assert link is not None
        b.updates.clear()
        link.abort("test: cable pulled")  # the same process reconnects with its token
        await until(lambda: lines(b, True) == said)
        assert after_snapshot(b) and lines(b, False) == []
        eve = Player(RemoteGame("127.0.0.1", port, name="Eve", spectate=True), Random(3), auto=False)
        await eve.game.start()
        await until(lambda: lines(eve, True) == said)
        assert after_snapshot(eve)
        for p in (a, b, eve):
            await p.game.close()
