"""A joined seat outlives its process: the token kept on disk takes the seat back.

The file itself (a fake clock for its expiry), then real joins over loopback: a player
whose process "died" (its connection cut with no goodbye and no retry) joins again and
gets the same seat and hand; a token the host no longer knows is forgotten and the
join is refused as it always was; a table still waiting seats the player afresh.
"""

from __future__ import annotations

import json
import random
import stat
from pathlib import Path

import pytest

from tests.net.lan_support import FAST, Player, has_view, hosted, until
from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.remote import JoinError, RemoteGame
from unotui.net.seat_memory import KEEP_S, MOST, SeatMemory

pytestmark = pytest.mark.timeout(60)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_remember_recall_forget_and_expiry_on_a_fake_clock(tmp_path: Path) -> None:
    clock = Clock()
    memory = SeatMemory(tmp_path / "d" / "seats.json", clock=clock)
    assert memory.recall("h:1/") is None
    memory.remember("h:1/", "tok1", "Ann")
    memory.remember("h:2/T", "tok2", "Ann")
    assert memory.recall("h:1/") == ("tok1", "Ann")
    assert stat.S_IMODE((tmp_path / "d" / "seats.json").stat().st_mode) == 0o600  # tokens are secrets
    memory.remember("h:1/", "tok3", "Ann")  # a resume rotated it
    assert memory.recall("h:1/") == ("tok3", "Ann")
    memory.forget("h:1/")
    assert memory.recall("h:1/") is None and memory.recall("h:2/T") == ("tok2", "Ann")
    clock.now += KEEP_S + 1
    assert memory.recall("h:2/T") is None  # too old: the host gave that seat away long ago


def test_a_damaged_file_is_empty_and_the_file_stays_small(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    memory = SeatMemory(path)
    for text in ("{not json", "[1, 2]", '{"seats": {"h:1/": {"token": 5}}}', '{"seats": 3}'):
        path.write_text(text)
        assert memory.recall("h:1/") is None
    memory.remember("h:1/", "tok", "Ann")  # and a damaged file is simply replaced
    assert memory.recall("h:1/") == ("tok", "Ann")
    for k in range(MOST + 10):
        memory.remember(f"h:{k}/", "t", "Ann")
    assert len(json.loads(path.read_text())["seats"]) == MOST


def _crash(player: Player) -> None:
    """As if the process died: the socket goes, with no goodbye and no retry."""
    game = player.game
    game._closing = True
    link = game._link
    assert link is not None
    link.abort("killed")


async def test_joining_again_after_the_process_died_takes_the_same_seat_back(tmp_path: Path) -> None:
    memory = SeatMemory(tmp_path / "seats.json")
    rules = Rules.preset("classic").with_(target_score=1000)
    config = RoomConfig(seats=3, bots=1, autostart=True, rules=rules, **FAST)
    async with hosted(config) as (_host, room, port):
        ann = Player(RemoteGame("127.0.0.1", port, name="Ann", memory=memory), random.Random(1), auto=False)
        bob = Player(RemoteGame("127.0.0.1", port, name="Bob"), random.Random(2), auto=False)
        await ann.game.start()
        await bob.game.start()
        await until(lambda: has_view(ann) and has_view(bob))
        seat, hand = ann.game.seat, ann.game.view.hand
        _crash(ann)
        await until(lambda: room.book.seats[seat].away_since is not None)

        eve = RemoteGame("127.0.0.1", port, name="Eve")  # a newcomer is refused, as ever
        with pytest.raises(JoinError) as refused:
            await eve.start()
        assert refused.value.code == "table_full"

        again = Player(RemoteGame("127.0.0.1", port, name="Ann", memory=memory), random.Random(1), auto=False)
        await again.game.start()
        await until(lambda: has_view(again))
        assert again.game.seat == seat and again.game.view.hand == hand
        assert room.book.seats[seat].connected
        token = memory.recall(again.game.place)
        assert token is not None and token[0] == again.game.token  # the rotated token, kept
        await again.game.close()
        await bob.game.close()


async def test_a_token_the_host_no_longer_knows_is_forgotten_and_the_join_refused(tmp_path: Path) -> None:
    memory = SeatMemory(tmp_path / "seats.json")
    rules = Rules.preset("classic").with_(target_score=1000)
    config = RoomConfig(seats=2, bots=1, autostart=True, rules=rules, **FAST)
    async with hosted(config) as (_host, _room, port):
        first = Player(RemoteGame("127.0.0.1", port, name="Bob"), random.Random(2), auto=False)
        await first.game.start()  # the match starts with Bob
        await until(lambda: has_view(first))
        place = f"127.0.0.1:{port}/"
        memory.remember(place, "not-a-token-this-host-gave", "Ann")
        late = RemoteGame("127.0.0.1", port, name="Ann", memory=memory)
        with pytest.raises(JoinError) as refused:
            await late.start()
        assert refused.value.code == "table_full"  # what a newcomer hears
        assert memory.recall(place) is None
        await first.game.close()


async def test_a_table_still_waiting_seats_the_player_afresh(tmp_path: Path) -> None:
    memory = SeatMemory(tmp_path / "seats.json")
    config = RoomConfig(seats=3, bots=0, autostart=True, rules=Rules.preset("classic"), **FAST)
    async with hosted(config) as (_host, room, port):
        place = f"127.0.0.1:{port}/"
        memory.remember(place, "an-old-token", "Ann")
        ann = RemoteGame("127.0.0.1", port, name="Ann", memory=memory)
        await ann.start()
        assert ann.seat == 0 and room.status == "waiting"
        saved = memory.recall(place)
        assert saved is not None and saved[0] == ann.token != "an-old-token"
        spectator = RemoteGame("127.0.0.1", port, name="Sam", spectate=True, memory=memory)
        await spectator.start()
        assert memory.recall(place) == saved  # a spectator's chair is not a seat to keep
        await spectator.close()
        await ann.close()


async def test_a_seat_is_forgotten_when_its_match_is_over(tmp_path: Path) -> None:
    memory = SeatMemory(tmp_path / "seats.json")
    rules = Rules.preset("classic").with_(target_score=1)  # one round is the match
    config = RoomConfig(seats=2, bots=1, autostart=True, rules=rules, **FAST)
    async with hosted(config) as (_host, _room, port):
        ann = Player(RemoteGame("127.0.0.1", port, name="Ann", memory=memory), random.Random(3))
        await ann.game.start()
        place = ann.game.place
        assert memory.recall(place) is not None
        await until(lambda: has_view(ann) and ann.game.view.phase == "match_over", timeout=30)
        assert memory.recall(place) is None
        await ann.game.close()
