"""Kept matches and review slots over real loopback sockets (protocol version 2): a
keyed player's finished match is listed and its transcript comes back in parts; anyone
else asking for that id is told what a missing id is told; requests are rate-limited; a
review slot is one per key and is released by review_done or a closed connection."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

from tests.lobby.test_lobby_net import lobby_host, visit
from tests.net.lan_support import Player, has_view, until
from unotui.engine import Rules
from unotui.lobby import review_slots
from unotui.lobby.kept import GUEST_NOTE, NO_SUCH_MATCH, OFF_NOTE, SLOW_DOWN, parts_of
from unotui.lobby.lobby import Lobby, LobbySettings
from unotui.lobby.store import Retention
from unotui.net.lobby_client import KeptError
from unotui.net.remote import RemoteGame
from unotui.protocol import messages as m
from unotui.protocol.codec import KEPT_CHUNK, KEPT_CHUNKS, encode_frame
from unotui.protocol.framing import HOST_LIMITS
from unotui.transcript import replay

pytestmark = pytest.mark.timeout(60)

SETTINGS = LobbySettings(bot_delay=0.0, catch_grace=0.0, auto_keep=0.0, reap_every=0.2, over_grace=0.3,
                         empty_grace=0.3)
ANN, BOB = "SHA256:annsKeyAAAAAAAA", "SHA256:bobsKeyBBBBBBBB"


async def play_a_short_match(lobby: Lobby, port: int, key: str = ANN) -> None:
    """``key``'s player creates a two-seat table (one bot, a match to 1 point, four cards each), plays it
    to its end by random legal moves, and leaves; the lobby has recorded it."""
    ann = await visit(port, "Ann", lobby.credentials.issue(key))
    short = Rules.preset("classic").with_(target_score=1, hand_size=4)
    ann.client.create("Short", 2, 1, short, "random", 30.0, False)
    await until(lambda: ann.created())
    code = ann.created()[0]
    await ann.client.close()
    game = RemoteGame("127.0.0.1", port, name="Ann", table=code, identity=lobby.credentials.issue(key))
    player = Player(game, Random(3))
    await game.start()
    await until(lambda: has_view(player) and game.view.phase == "match_over", timeout=40)
    await until(lambda: code not in lobby.tables or lobby.tables[code].recorded)
    await game.close()


async def test_a_finished_match_is_kept_listed_and_reviewable_by_its_player_only(tmp_path: Path) -> None:
    async with lobby_host(tmp_path, SETTINGS) as (lobby, port):
        await play_a_short_match(lobby, port)
        ann = await visit(port, "Ann", lobby.credentials.issue(ANN))

        listed = await ann.client.matches()
        assert listed.note == "" and len(listed.rows) == 1
        row = listed.rows[0]
        assert row.names[row.seat] == "Ann" and len(row.names) == 2 and row.rounds >= 1
        transcript = await ann.client.kept(row.id)
        final = replay(transcript)  # the whole match, every step checked again
        assert final.winner == row.winner and list(final.scores) == list(row.scores)

        bob = await visit(port, "Bob", lobby.credentials.issue(BOB))
        assert (await bob.client.matches()).rows == ()
        for asked in (row.id, row.id + 1000):  # someone else's match reads as a missing one
            with pytest.raises(KeptError) as info:
                await bob.client.kept(asked)
            assert str(info.value) == NO_SUCH_MATCH
        guest = await visit(port, "Cy")
        assert await guest.client.matches() == m.KeptList((), GUEST_NOTE)
        with pytest.raises(KeptError, match=NO_SUCH_MATCH):
            await guest.client.kept(row.id)
        for v in (ann, bob, guest):
            await v.client.close()


async def test_nothing_is_kept_when_the_operator_turned_it_off(tmp_path: Path) -> None:
    async with lobby_host(tmp_path, replace(SETTINGS, retention=Retention(per_key=0))) as (lobby, port):
        ann = await visit(port, "Ann", lobby.credentials.issue(ANN))
        assert await ann.client.matches() == m.KeptList((), OFF_NOTE)
        await ann.client.close()


async def test_requests_are_rate_limited_across_connections(tmp_path: Path) -> None:
    """One key's two terminals share one rate: the burst is spent between them; and one
    address's other keys share it too (every client here is 127.0.0.1)."""
    async with lobby_host(tmp_path, SETTINGS) as (lobby, port):
        first = await visit(port, "Ann", lobby.credentials.issue(ANN))
        second = await visit(port, "Ann", lobby.credentials.issue(ANN))
        for i in range(8):
            await (first if i % 2 else second).client.matches()
        with pytest.raises(KeptError, match=SLOW_DOWN):
            await first.client.matches()
        with pytest.raises(KeptError, match=SLOW_DOWN):
            await second.client.kept(1)
        other = await visit(port, "Bob", lobby.credentials.issue(BOB))
        with pytest.raises(KeptError, match=SLOW_DOWN):
            await other.client.matches()
        with pytest.raises(KeptError, match=SLOW_DOWN):
            await other.client.review_slot()
        for v in (first, second, other):
            await v.client.close()


async def test_one_review_per_key_released_by_done_or_disconnect(tmp_path: Path) -> None:
    async with lobby_host(tmp_path, replace(SETTINGS, review_slots=2)) as (lobby, port):
        first = await visit(port, "Ann", lobby.credentials.issue(ANN))
        second = await visit(port, "Ann", lobby.credentials.issue(ANN))
        assert await first.client.review_slot() == m.ReviewSlot(True, "")
        assert await second.client.review_slot() == m.ReviewSlot(False, review_slots.MINE)
        first.client.review_done()
        assert await second.client.review_slot() == m.ReviewSlot(True, "")
        bob = await visit(port, "Bob", lobby.credentials.issue(BOB))
        guest = await visit(port, "Cy")
        assert (await bob.client.review_slot()).granted  # two slots: Ann's and Bob's
        # (every client here is 127.0.0.1: its two reviews are the address's two)
        assert await guest.client.review_slot() == m.ReviewSlot(False, review_slots.ADDRESS.format(n=2))
        await second.client.close()  # its slot goes with the connection
        await until(lambda: lobby.desk.slots.busy(lobby.loop.time()) == 1)
        assert (await guest.client.review_slot()).granted
        for v in (first, bob, guest):
            await v.client.close()


async def test_review_slots_zero_turns_reviews_off_with_a_sentence(tmp_path: Path) -> None:
    async with lobby_host(tmp_path, replace(SETTINGS, review_slots=0)) as (_lobby, port):
        guest = await visit(port, "Cy")
        assert await guest.client.review_slot() == m.ReviewSlot(False, review_slots.OFF)
        await guest.client.close()


def test_a_transcripts_parts_fit_the_host_frame_and_join_back() -> None:
    text = "".join(chr(33 + i % 90) for i in range(KEPT_CHUNK * KEPT_CHUNKS * 2 + 5))
    parts = parts_of(text)
    assert len(parts) == 3 and "".join("".join(p) for p in parts) == text
    biggest = encode_frame(m.KeptText(2**53, 63, 64, parts[0]), HOST_LIMITS.frame)
    assert len(biggest) <= HOST_LIMITS.frame + 4


def test_slots_server_wide_per_address_and_expiry() -> None:
    """The slots' rules with distinct addresses (the sockets above all share 127.0.0.1)."""
    slots = review_slots.ReviewSlots(2, hold=60.0)
    def ask(link: int, key: str | None, origin: str, now: float = 0.0) -> str:
        return slots.ask(review_slots.SlotHolder(link, key, origin), now)
    assert ask(1, None, "10.0.0.1") == ""
    assert ask(1, None, "10.0.0.1") == ""  # asking again keeps the same slot
    assert ask(2, None, "10.0.0.4") == ""
    assert ask(3, None, "10.0.0.5") == review_slots.BUSY  # two slots in all: both taken
    assert slots.done(1) and not slots.done(1)
    assert ask(3, "k", "10.0.0.2") == ""
    assert ask(4, None, "10.0.0.3") == review_slots.BUSY
    assert ask(4, None, "10.0.0.3", now=61.0) == ""  # a slot nobody gave back expires
    wide = review_slots.ReviewSlots(5)
    assert [wide.ask(review_slots.SlotHolder(i, None, "10.0.0.9"), 0.0) for i in range(3)] == [
        "", "", review_slots.ADDRESS.format(n=2)]


async def test_kept_matches_asked_at_a_table_are_refused_not_in_lobby(tmp_path: Path) -> None:
    async with lobby_host(tmp_path, SETTINGS) as (lobby, port):
        ann = await visit(port, "Ann", lobby.credentials.issue(ANN))
        ann.client.create("T", 2, 1, Rules(), "easy", None, True)
        await until(lambda: ann.created())
        table = RemoteGame("127.0.0.1", port, name="Ann", table=ann.created()[0])
        await table.start()
        seen: list[object] = []
        table.listen(seen.append)
        assert table._link is not None
        for request in (m.Matches(), m.Kept(1), m.Review()):  # what a hostile client could send
            table._link.session._queue(request)  # type: ignore[attr-defined]
        table._link.flush()
        await until(lambda: sum(getattr(u, "code", "") == "not_in_lobby" for u in seen) == 3)
        assert all(u.message == "That is asked from a lobby." for u in seen if isinstance(u, m.Refused))
        await table.close()
        await ann.client.close()
