"""The finished match's record (protocol version 2 ``transcript``), sans I/O: the host's
parts, the peer session's strict order and its bound on what it holds of a record (no more
than the match the seat saw could have had), and a seat refusing a record that does not
match what it saw (a tampered key, a tampered action, a record that stops short or runs
on)."""

from __future__ import annotations

import re
from random import Random
from typing import TYPE_CHECKING

import pytest

from tests.seeds import rng_secret
from unotui.bots import make_bot
from unotui.engine import Game, Rules, seat_view
from unotui.net.controller import RecordArrived, RecordRefused
from unotui.net.handover import MISMATCH, RecordMismatch, Witness, check_record, record_parts
from unotui.net.remote import RemoteGame
from unotui.protocol import messages as m
from unotui.protocol.codec import encode_frame
from unotui.protocol.events import ConnectionClosed, RecordReceived, RecordTooLong, ViewUpdated, record_bound
from unotui.protocol.framing import HOST_LIMITS
from unotui.protocol.peer_session import PeerSession
from unotui.protocol.sync import ViewEncoder
from unotui.table import Pacing, Referee
from unotui.transcript import final_state, replay

if TYPE_CHECKING:
    from unotui.net.controller import Update

RULES = Rules.preset("classic").with_(target_score=150)


def _match(seed: int = 3, seats: int = 3) -> Game:
    """A whole match played by computer players, from a secret (as a host's: a fixed one,
    so that the match, and how many parts its record takes, is the same each run)."""
    game = Game([f"P{s}" for s in range(seats)], RULES, secret=rng_secret(seed))
    bots = {s: make_bot("medium", Random(seed * 10 + s)) for s in range(seats)}
    Referee(game, bots=bots, humans=(), pacing=Pacing.instant()).tick(0.0)
    assert game.over
    return game


def _seen(game: Game, seat: int | None) -> tuple[Witness, list[ViewUpdated]]:
    """What ``seat`` would have been shown of ``game``: a view at every moment, as the host
    sends them (from the round's start on)."""
    witness, views = Witness(), []

    def watch(g: Game) -> None:
        view = seat_view(g, seat, g.round_log_start)
        witness.observe(view)
        views.append(ViewUpdated(view))

    from unotui.transcript import transcript_of

    replay(transcript_of(game), watch=watch)
    return witness, views


def _received(game: Game) -> RecordReceived:
    parts = record_parts(game)
    return RecordReceived(parts[0].names, parts[0].dealer, tuple(k for p in parts for k in p.keys),
                          tuple(a for p in parts for a in p.actions))


def test_the_hosts_record_replays_to_the_match_and_never_holds_the_secret() -> None:
    game = _match()
    parts = record_parts(game)
    assert parts and all(encode_frame(p, HOST_LIMITS.frame) for p in parts)  # each fits a host frame
    assert all(game.shuffler.secret.hex() not in repr(p) for p in parts)
    witness, _ = _seen(game, 1)
    record = check_record(_received(game), witness, RULES, 1)
    assert record.seat == 1
    assert record.transcript.to_mapping()["format"] == "unotui-transcript/3"
    assert final_state(replay(record.transcript)) == final_state(game)
    spectator, _ = _seen(game, None)
    assert check_record(_received(game), spectator, RULES, None).seat == game.winner


def _flip(hexkey: str) -> str:
    return hexkey[:-1] + ("0" if hexkey[-1] != "0" else "1")


def test_a_tampered_key_an_action_or_a_short_record_is_refused() -> None:
    game = _match()
    witness, _ = _seen(game, 0)
    good = _received(game)
    keys = list(good.keys)
    keys[1] = _flip(keys[1])
    with pytest.raises(RecordMismatch, match="round 1's key does not fit"):
        check_record(good._replace(keys=tuple(keys)), witness, RULES, 0)
    # Round 0's key drew for the first dealer: another key that draws another dealer
    # deals round 1 from another seat: the steps no longer replay, or the log differs.
    def first_dealer(keys: tuple[str, ...]) -> int:
        return Game(game.names, RULES, keys={r: bytes.fromhex(k) for r, k in enumerate(keys[:2])}).dealer

    other = next(k for k in (format(i, "064x") for i in range(1, 99))
                 if first_dealer((k, *good.keys[1:])) != first_dealer(good.keys))
    with pytest.raises(RecordMismatch, match=re.escape(MISMATCH)):
        check_record(good._replace(keys=(other, *good.keys[1:])), witness, RULES, 0)
    # An action changed: the first play another legal play, or failing that a draw.
    steps = list(good.actions)
    for i, (seat, action) in enumerate(steps):
        if str(action)[0] in "RYGB" and seat != 0:
            from unotui.protocol.values import ACTION_BY_TEXT

            steps[i] = (seat, ACTION_BY_TEXT["draw"])
            break
    with pytest.raises(RecordMismatch, match=re.escape(MISMATCH)):
        check_record(good._replace(actions=tuple(steps)), witness, RULES, 0)
    with pytest.raises(RecordMismatch, match=r"does not end|final scores|log differs"):
        check_record(good._replace(actions=good.actions[:-1]), witness, RULES, 0)
    # A record far longer than the log the seat saw is refused before it is replayed.
    padded = good.actions + ((0, good.actions[0][1]),) * (2 * len(game.log) + 101 - len(good.actions))
    with pytest.raises(RecordMismatch, match="more than the match had"):
        check_record(good._replace(actions=padded), witness, RULES, 0)


def _peer(version: int, game: Game | None = None) -> PeerSession:
    """A client's session, welcomed at seat 0 (and shown ``game`` at its end: the record's
    bound is what the seat saw of the match)."""
    peer = PeerSession(m.Hello(1, 2, "Ann"), 0.0)
    welcome = m.Welcome(version, 0, "A" * 43, "", "t", 3, RULES)
    peer.receive_data(encode_frame(welcome, HOST_LIMITS.frame), 0.0)
    if game is not None:
        (shown,) = peer.receive_data(encode_frame(ViewEncoder().snapshot(seat_view(game, 0, 0)),
                                                  HOST_LIMITS.frame), 0.0)
        assert isinstance(shown, ViewUpdated) and shown.view.winner == game.winner
    return peer


def test_the_peer_session_takes_the_parts_in_order_once() -> None:
    game = _match()
    parts = record_parts(game)
    one = m.TranscriptPart(0, 2, parts[0].names, None, parts[0].keys, parts[0].actions[:5])
    two = m.TranscriptPart(1, 2, (), None, (), parts[0].actions[5:])
    frames = [encode_frame(p, HOST_LIMITS.frame) for p in (one, two)]
    peer = _peer(2, game)
    assert peer.receive_data(frames[0], 0.1) == []
    (got,) = peer.receive_data(frames[1], 0.2)
    assert isinstance(got, RecordReceived) and got.actions == parts[0].actions and got.keys == parts[0].keys
    (again,) = peer.receive_data(frames[0], 0.3)  # a second copy: a protocol error
    assert isinstance(again, ConnectionClosed) and again.code == "bad_message" and peer.closed
    (skipped,) = _peer(2).receive_data(frames[1], 0.1)  # part 1 before part 0
    assert isinstance(skipped, ConnectionClosed) and "where part 0 was due" in skipped.message
    (old,) = _peer(1).receive_data(frames[0], 0.1)  # a version 1 connection has no such message
    assert isinstance(old, ConnectionClosed) and old.code == "bad_message"


@pytest.mark.parametrize("padded", ["steps", "keys"])
def test_the_peer_session_refuses_a_record_longer_than_the_match_as_its_parts_arrive(padded: str) -> None:
    """A hostile host's record of 60 full parts (180,000 steps, or 15,360 keys) for a match
    whose log had 293 events: the session refuses it at the part that passes its bound,
    never holds more than the bound, drops the rest and stays open (still strict)."""
    from unotui.protocol.codec import RECORD_ACTIONS, RECORD_KEYS
    from unotui.protocol.values import ACTION_BY_TEXT

    game = _match()
    peer = _peer(2, game)
    limit = peer.record_limit
    assert limit == 2 * len(game.log) + 100 == record_bound(len(game.log))
    count, per = 60, RECORD_KEYS if padded == "keys" else RECORD_ACTIONS
    keys = ("ab" * 32,) * RECORD_KEYS if padded == "keys" else ()
    steps = ((0, ACTION_BY_TEXT["draw"]),) * RECORD_ACTIONS if padded == "steps" else ()
    frames = [encode_frame(m.TranscriptPart(i, count, game.names if i == 0 else (), None, keys, steps),
                           HOST_LIMITS.frame) for i in range(count)]
    heard, held = [], []
    for i, data in enumerate(frames):
        heard += [(i, event) for event in peer.receive_data(data, 0.1)]
        held.append(peer.record_held)
    first = limit // per  # the part whose keys (or steps) pass the bound
    assert first < 5
    got = (per * (first + 1), 0) if padded == "keys" else (0, per * (first + 1))
    assert heard == [(first, RecordTooLong(*got, limit))]
    assert max(max(h) for h in held) <= limit and held[first:] == [(0, 0)] * (count - first)
    assert not peer.closed
    (again,) = peer.receive_data(frames[0], 0.2)  # the whole record came: a second is an error
    assert isinstance(again, ConnectionClosed) and again.code == "bad_message"
    assert "came already" in again.message
    # Parts dropped after the refusal are still held to their order.
    other = _peer(2, game)
    assert [e for d in frames[:first + 1] for e in other.receive_data(d, 0.1)] == [RecordTooLong(*got, limit)]
    (skipped,) = other.receive_data(frames[first + 2], 0.2)
    assert isinstance(skipped, ConnectionClosed) and f"where part {first + 1} was due" in skipped.message


def test_a_record_with_more_keys_than_the_match_had_rounds_for_is_refused_unreplayed() -> None:
    game = _match()
    witness, _ = _seen(game, 0)
    good = _received(game)
    many = good.keys + ("ab" * 32,) * (2 * len(game.log) + 101 - len(good.keys))
    with pytest.raises(RecordMismatch, match="round keys or more, more than the match had"):
        check_record(good._replace(keys=many), witness, RULES, 0)


def test_a_remote_seat_keeps_a_matching_record_and_refuses_a_tampered_one() -> None:
    game = _match()
    for tamper, arrives in ((False, True), (True, False)):
        seat = RemoteGame("127.0.0.1", 9, name="P1")
        heard: list[Update] = []
        seat.listen(heard.append)
        seat._event(m.Welcome(2, 1, "A" * 43, "", "t", 3, RULES, name="P1"))
        _, views = _seen(game, 1)
        for view in views:
            seat._event(view)
        got = _received(game)
        if tamper:
            got = got._replace(keys=(got.keys[0], _flip(got.keys[1]), *got.keys[2:]))
        seat._event(got)
        if arrives:
            assert seat.record is not None and seat.record.seat == 1 and not seat.record_refused
            assert isinstance(heard[-1], RecordArrived) and heard[-1].record is seat.record
        else:
            assert seat.record is None and seat.record_refused.startswith(MISMATCH)
            assert isinstance(heard[-1], RecordRefused) and heard[-1].reason == seat.record_refused


def test_the_largest_part_the_codec_allows_fits_a_host_frame() -> None:
    """256 keys, 3000 of the longest steps and ten 64-character names: within 64 KB, so
    every part :func:`record_parts` makes can be sent."""
    from unotui.protocol.codec import RECORD_ACTIONS, RECORD_KEYS, decode_host
    from unotui.protocol.values import ACTION_BY_TEXT

    longest = max(ACTION_BY_TEXT.values(), key=lambda a: len(str(a)))
    part = m.TranscriptPart(0, 256, tuple(chr(65 + s) * 64 for s in range(10)), 9,
                            ("ab" * 32,) * RECORD_KEYS, ((9, longest),) * RECORD_ACTIONS)
    body = encode_frame(part, HOST_LIMITS.frame)
    assert len(body) <= HOST_LIMITS.frame and decode_host(body[4:]) == part


def test_a_long_record_goes_in_several_parts_and_comes_back_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    import unotui.protocol.codec as codec

    game = _match()
    monkeypatch.setattr(codec, "RECORD_ACTIONS", 40)  # (a match of 40-step parts)
    monkeypatch.setattr(codec, "RECORD_KEYS", 2)
    parts = record_parts(game)
    assert len(parts) == -(-len(game.history) // 40) > 2
    peer = _peer(2, game)
    events = [e for p in parts for e in peer.receive_data(encode_frame(p, HOST_LIMITS.frame), 0.1)]
    assert events == [_received(game)] and not peer.closed
    (got,) = events
    assert isinstance(got, RecordReceived) and len(got.keys) == game.round_no + 1
