"""Snapshots and deltas rebuild the host's view exactly, and frames stay small forever."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.seeds import rng_secret
from unotui.engine import Event, Game, Rules, SeatView, seat_view
from unotui.protocol import (
    Delta,
    LocalProtocolError,
    RemoteProtocolError,
    Snapshot,
    ViewDecoder,
    ViewEncoder,
    decode_host,
    encode,
)
from unotui.protocol.framing import HOST_LIMITS
from unotui.protocol.sync import FIELD_CODECS, VIEW_FIELDS
from unotui.protocol.values import EVENT_KINDS, PRIVATE_KINDS

from .proto_support import RULE_SETS, random_steps

KINDS = frozenset(EVENT_KINDS.values())  # every EventKind, as the wire knows them


def same_view(host: SeatView, client: SeatView) -> None:
    """The client's view equals the host's, and both logs agree where they overlap (each
    is a window onto the same match log; they end at the same event)."""
    for name in VIEW_FIELDS:
        assert getattr(client, name) == getattr(host, name), name
    assert client.log_start + len(client.log) == host.log_start + len(host.log)
    start = max(client.log_start, host.log_start)
    assert client.log[start - client.log_start :] == host.log[start - host.log_start :]


def test_the_field_list_is_exactly_the_views_fields() -> None:
    """A new SeatView field must be added to VIEW_FIELDS (one line) and to SPEC.md."""
    names = set(SeatView._fields) - {"log", "log_start"}
    assert set(VIEW_FIELDS) == names
    assert set(VIEW_FIELDS) <= set(FIELD_CODECS)
    assert len(VIEW_FIELDS) == len(set(VIEW_FIELDS))


@settings(max_examples=6, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10**6),
    rules=st.sampled_from(sorted(RULE_SETS)),
    players=st.integers(2, 6),
    keep=st.sampled_from([10, 1000]),
    partial=st.booleans(),
)
def test_decoded_views_equal_the_hosts_over_random_games(
    seed: int, rules: str, players: int, keep: int, partial: bool
) -> None:
    game = Game(players, RULE_SETS[rules], secret=rng_secret(seed))
    seats: list[int | None] = [*range(players), None]
    encoders = {s: ViewEncoder(max_log=50) for s in seats}
    decoders = {s: ViewDecoder(keep=keep) for s in seats}
    kinds: set[type] = set()

    def sync() -> None:
        for s in seats:
            enc = encoders[s]
            # Either the whole log each time, or only what this connection lacks.
            view = seat_view(game, s, enc.log_from if partial else 0)
            message = enc.update(view)
            if message is None:
                continue
            kinds.add(type(message))
            body = encode(message)
            assert len(body) < HOST_LIMITS.frame
            # Compared with the whole-log view, whatever window was sent.
            same_view(seat_view(game, s), decoders[s].apply(decode_host(body)))

    sync()
    for _ in random_steps(game, seed, 300):
        sync()
    assert kinds == {Snapshot, Delta}


def test_frames_stay_small_over_a_5000_event_match() -> None:
    game = Game(4, Rules.preset("giant").with_(target_score=100_000), secret=rng_secret(11))
    enc, dec = ViewEncoder(), ViewDecoder(keep=300)
    biggest = 0
    steps = random_steps(game, 11, 20_000)
    while len(game.log) < 5000:
        next(steps)
        message = enc.update(seat_view(game, 2, enc.log_from))
        if message is not None:
            body = encode(message)
            biggest = max(biggest, len(body))
            dec.apply(decode_host(body))
    full = len(encode(Snapshot(seat_view(game, 2))))
    resume = len(encode(ViewEncoder().snapshot(seat_view(game, 2))))
    assert full > HOST_LIMITS.frame  # why deltas exist: the whole log no longer fits one frame
    assert biggest < 4096 and resume < 16_384
    assert dec.view is not None and len(dec.view.log) == 300


def test_a_log_gap_or_a_large_delta_becomes_a_snapshot() -> None:
    game = Game(3, Rules.preset("classic"), secret=rng_secret(5))
    enc = ViewEncoder(max_log=20)
    enc.update(seat_view(game, 0))
    steps = random_steps(game, 5, 500)
    for _ in range(40):
        next(steps)
    assert isinstance(enc.update(seat_view(game, 0)), Snapshot)  # more than max_log new events
    next(steps)
    assert isinstance(enc.update(seat_view(game, 0, enc.log_from)), Delta)
    next(steps)  # every action logs at least one event: a view starting after it has a gap
    assert isinstance(enc.update(seat_view(game, 0, len(game.log))), Snapshot)


def test_encoder_refuses_another_seat_or_a_shrinking_log() -> None:
    game = Game(3, Rules.preset("classic"), secret=rng_secret(5))
    enc = ViewEncoder()
    enc.update(seat_view(game, 0))
    with pytest.raises(LocalProtocolError):
        enc.update(seat_view(game, 1))
    with pytest.raises(LocalProtocolError):
        enc.update(seat_view(game, 0)._replace(log=()))


def test_nothing_changed_sends_nothing() -> None:
    game = Game(3, Rules.preset("classic"), secret=rng_secret(5))
    enc = ViewEncoder()
    assert enc.update(seat_view(game, 0)) is not None
    assert enc.update(seat_view(game, 0)) is None


def test_decoder_refuses_deltas_out_of_step() -> None:
    game = Game(3, Rules.preset("classic"), secret=rng_secret(5))
    dec = ViewDecoder()
    with pytest.raises(RemoteProtocolError):
        dec.apply(Delta(0))
    view = dec.apply(Snapshot(seat_view(game, 0)))
    end = view.log_start + len(view.log)
    with pytest.raises(RemoteProtocolError):
        dec.apply(Delta(end + 1, (Event("uno", 1),)))
    assert dec.apply(Delta(end, (Event("uno", 1),))).log[-1] == Event("uno", 1)


def test_an_unredacted_event_is_never_encoded() -> None:
    """The last line of defence: seat 1's drawn card in a view for seat 0 is refused."""
    game = Game(3, Rules.preset("classic"), secret=rng_secret(5))
    view = seat_view(game, 0)
    leaked = Event("draw", 1, (game.hands[1][0],), value=1, note="turn", to=1)
    with pytest.raises(LocalProtocolError):
        encode(Snapshot(view._replace(log=(*view.log, leaked))))
    enc = ViewEncoder()
    enc.update(view)
    with pytest.raises(LocalProtocolError):
        enc.update(view._replace(log=(*view.log, leaked), version=view.version + 1))
    own = leaked._replace(seat=0, to=0)  # one's own draw is fine
    assert enc.update(view._replace(log=(*view.log, own), version=view.version + 1))


def test_event_kinds_and_private_kinds_match_what_the_engine_writes() -> None:
    """Every kind the engine logs is known, and ``to`` is exactly what the kind implies
    (the wire restores it from the kind instead of sending it)."""
    seen: set[str] = set()
    for name, rules in RULE_SETS.items():
        for seed in range(3):
            game = Game(4, rules, secret=rng_secret(seed))
            for _ in random_steps(game, seed, 1500):
                pass
            for e in game.log:
                seen.add(e.kind)
                who = PRIVATE_KINDS.get(e.kind)
                assert e.to == (-1 if who is None else getattr(e, who)), (name, e)
    assert seen <= KINDS
    assert {"draw", "reveal", "play", "challenge", "catch", "round"} <= seen
