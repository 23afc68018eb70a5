"""A joined seat outlives its process: the token kept on disk takes the seat back.

The file itself (a fake clock for its expiry), then real joins over loopback: a player
whose process "died" (its connection cut with no goodbye and no retry) joins again and
gets the same seat and hand; a token the host no longer knows is forgotten and the
join is refused as it always was; a table still waiting seats the player afresh.
"""

from __future__ import annotations

import asyncio
import json
import random
import stat
import time
from pathlib import Path

import pytest

from tests.net.lan_support import FAST, Player, has_view, hosted, until
from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.remote import JoinError, RemoteGame
from unotui.net.seat_memory import KEEP_S, MOST, MOST_BYTES, Place, SeatMemory, place_of

pytestmark = pytest.mark.timeout(60)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_remember_recall_forget_and_expiry_on_a_fake_clock(tmp_path: Path) -> None:
    clock = Clock()
    memory = SeatMemory(tmp_path / "d" / "seats.json", clock=clock)
    one, other = Place("10.0.0.1", 1, "", "Ann"), Place("10.0.0.1", 2, "T", "Ann")
    assert memory.recall(one) is None
    memory.remember(one, "tok1")
    memory.remember(other, "tok2")
    assert memory.recall(one) == "tok1"
    assert stat.S_IMODE((tmp_path / "d" / "seats.json").stat().st_mode) == 0o600  # tokens are secrets
    assert stat.S_IMODE((tmp_path / "d").stat().st_mode) == 0o700
    memory.remember(one, "tok3")  # a resume rotated it
    assert memory.recall(one) == "tok3"
    memory.forget(one)
    assert memory.recall(one) is None and memory.recall(other) == "tok2"
    clock.now += KEEP_S + 1
    assert memory.recall(other) is None  # too old: the host gave that seat away long ago


def test_a_seat_belongs_to_the_name_it_was_taken_with(tmp_path: Path) -> None:
    """Two seats of one account at one table: each name finds its own, a third finds none
    (keyed by the address alone, the latest welcome's token answered every name)."""
    memory = SeatMemory(tmp_path / "seats.json")
    bob, cleo = (Place("127.0.0.1", 2500, "", name) for name in ("Bob", "Cleo"))
    memory.remember(bob, "bobs")
    memory.remember(cleo, "cleos")
    assert memory.recall(bob) == "bobs" and memory.recall(cleo) == "cleos"
    assert memory.recall(Place("127.0.0.1", 2500, "", "Dan")) is None
    assert memory.recall(Place("127.0.0.1", 2500, "", "bob")) is None  # the host tells them apart
    memory.forget(bob)
    assert memory.recall(bob) is None and memory.recall(cleo) == "cleos"


@pytest.mark.parametrize(("peer", "host"), [
    (("127.0.0.1", 7), "127.0.0.1"),
    (("::ffff:127.0.0.1", 7), "127.0.0.1"),  # IPv4 through a dual-stack socket
    (("0:0:0:0:0:0:0:1", 7), "::1"),
    (("fe80:0::1%lo", 7), "fe80::1%lo"),
])
def test_the_place_is_the_connected_address_made_canonical(peer: tuple[str, int], host: str) -> None:
    assert place_of(peer, "T", "Ann") == Place(host, 7, "T", "Ann")


def test_a_first_version_file_loads_empty_and_its_entries_are_dropped(tmp_path: Path) -> None:
    """Version 1 keyed a seat by the address as typed (``localhost:7777/``), with no way
    to know the address it reached: its entries are dropped, never matched to a name."""
    path = tmp_path / "seats.json"
    now = time.time()
    old = {"version": 1, "seats": {f"127.0.0.1:{port}/": {"token": "old", "name": "Ann", "at": now}
                                   for port in (2500, 7777)}}
    path.write_text(json.dumps(old))
    memory = SeatMemory(path)
    assert memory.recall(Place("127.0.0.1", 2500, "", "Ann")) is None
    memory.remember(Place("127.0.0.1", 2501, "", "Ann"), "new")
    data = json.loads(path.read_text())
    assert data["version"] == 2
    assert [(e["port"], e["name"], e["token"]) for e in data["seats"]] == [(2501, "Ann", "new")]


def test_a_damaged_file_is_empty_and_the_file_stays_small(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    memory = SeatMemory(path)
    place = Place("127.0.0.1", 1, "", "Ann")
    entry = {"host": "127.0.0.1", "port": 1, "table": "", "name": "Ann", "token": "t", "at": time.time()}
    for text in ("{not json", "[1, 2]", '{"version": 2, "seats": [{"token": 5}]}',
                 '{"version": 2, "seats": 3}',
                 json.dumps({"version": 2, "seats": [entry | {"port": 70000}]}),
                 json.dumps({"version": 2, "seats": [entry | {"name": "N" * 65}]}),
                 json.dumps({"version": 2, "seats": [entry | {"token": ""}]}),
                 json.dumps({"version": 2, "seats": [entry | {"at": True}]}),
                 json.dumps({"version": 2, "seats": [entry], "pad": "x" * MOST_BYTES})):
        path.write_text(text)
        assert memory.recall(place) is None, text[:80]
    path.write_text(json.dumps({"version": 2, "seats": [entry]}))
    assert memory.recall(place) == "t"  # (the same entry, well formed and small, is read)
    memory.remember(place, "tok")  # and a damaged file is simply replaced
    assert memory.recall(place) == "tok"
    for k in range(MOST + 10):
        memory.remember(Place("127.0.0.1", 1, "", f"N{k}"), "t")
    assert len(json.loads(path.read_text())["seats"]) == MOST
    assert path.stat().st_size < MOST_BYTES


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
        place = again.game.place
        assert place is not None and memory.recall(place) == again.game.token  # the rotated token, kept
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
        place = Place("127.0.0.1", port, "", "Ann")
        memory.remember(place, "not-a-token-this-host-gave")
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
        place = Place("127.0.0.1", port, "", "Ann")
        memory.remember(place, "an-old-token")
        ann = RemoteGame("127.0.0.1", port, name="Ann", memory=memory)
        await ann.start()
        assert ann.seat == 0 and room.status == "waiting"
        saved = memory.recall(place)
        assert saved is not None and saved == ann.token != "an-old-token"
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
        assert place is not None and memory.recall(place) is not None
        await until(lambda: has_view(ann) and ann.game.view.phase == "match_over", timeout=30)
        assert memory.recall(place) is None
        await ann.game.close()


async def test_two_seats_of_one_account_each_come_back_to_their_own_name(tmp_path: Path) -> None:
    """The seams bug: Bob and Cleo share one settings directory (one memory); Bob joined
    first, so Cleo's token was the latest written.  Bob's process dies and he joins again
    as Bob: he gets his own seat and hand, and Cleo keeps hers, connected; Dan, with no
    seat remembered, is refused as a newcomer, and nobody is thrown out."""
    memory = SeatMemory(tmp_path / "seats.json")
    rules = Rules.preset("classic").with_(target_score=1000)
    config = RoomConfig(seats=3, bots=1, autostart=True, rules=rules, **FAST)
    async with hosted(config) as (_host, room, port):
        bob = Player(RemoteGame("127.0.0.1", port, name="Bob", memory=memory), random.Random(1), auto=False)
        await bob.game.start()
        cleo = Player(RemoteGame("127.0.0.1", port, name="Cleo", memory=memory), random.Random(2), auto=False)
        await cleo.game.start()
        await until(lambda: has_view(bob) and has_view(cleo))
        bob_seat, bob_hand, cleo_seat = bob.game.seat, bob.game.view.hand, cleo.game.seat
        assert bob_seat is not None and cleo_seat is not None and bob_seat != cleo_seat
        _crash(bob)
        await until(lambda: room.book.seats[bob_seat].away_since is not None)

        again = Player(RemoteGame("127.0.0.1", port, name="Bob", memory=memory), random.Random(1), auto=False)
        await again.game.start()
        await until(lambda: has_view(again))
        assert again.game.seat == bob_seat and again.game.view.hand == bob_hand
        assert room.book.seats[bob_seat].connected and room.book.seats[cleo_seat].connected
        assert cleo.closed == []  # Cleo was not thrown out

        dan = RemoteGame("127.0.0.1", port, name="Dan", memory=memory)
        with pytest.raises(JoinError) as refused:
            await dan.start()
        assert refused.value.code == "table_full"  # a newcomer's answer, not anyone's seat
        await asyncio.sleep(0.2)  # (anything Dan could have caused has arrived by now)
        assert cleo.closed == [] and again.closed == []
        assert room.book.seats[bob_seat].connected and room.book.seats[cleo_seat].connected
        await again.game.close()
        await cleo.game.close()


async def test_localhost_and_127_0_0_1_are_one_host(tmp_path: Path) -> None:
    """A seat taken through ``localhost`` is found again through ``127.0.0.1``: the memory
    keys it by the address the socket reached, not by the text typed."""
    memory = SeatMemory(tmp_path / "seats.json")
    rules = Rules.preset("classic").with_(target_score=1000)
    config = RoomConfig(seats=2, bots=0, autostart=True, rules=rules, **FAST)
    async with hosted(config) as (_host, room, port):
        ann = Player(RemoteGame("localhost", port, name="Ann", memory=memory), random.Random(1), auto=False)
        bob = Player(RemoteGame("127.0.0.1", port, name="Bob"), random.Random(2), auto=False)
        await ann.game.start()
        await bob.game.start()
        await until(lambda: has_view(ann) and has_view(bob))
        assert ann.game.place == Place("127.0.0.1", port, "", "Ann")
        seat, hand = ann.game.seat, ann.game.view.hand
        assert seat is not None
        _crash(ann)
        await until(lambda: room.book.seats[seat].away_since is not None)
        again = Player(RemoteGame("127.0.0.1", port, name="Ann", memory=memory), random.Random(1), auto=False)
        await again.game.start()
        await until(lambda: has_view(again))
        assert again.game.seat == seat and again.game.view.hand == hand
        await again.game.close()
        await bob.game.close()
