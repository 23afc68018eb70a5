"""Building one moment's views together (``seat_views``) and encoding the deltas that
are alike once (``SharedDeltas``) changes nothing a seat receives: the views equal
``seat_view``'s and every byte equals what the one-seat-at-a-time path sends."""

from __future__ import annotations

import operator
import random

import pytest

from tests.seeds import rng_secret
from unotui.engine import Game, seat_view, seat_views
from unotui.protocol import Snapshot, ViewEncoder, encode
from unotui.protocol.shared import SharedDeltas
from unotui.protocol.sync import PUBLIC_VALUES

from .proto_support import RULE_SETS, random_steps


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
@pytest.mark.parametrize("seed", range(3))
def test_views_built_together_equal_views_built_one_by_one(rules: str, seed: int) -> None:
    players = 2 + seed % 4
    game = Game(players, RULE_SETS[rules], secret=rng_secret(seed))
    rnd = random.Random(seed)
    for _ in random_steps(game, seed, 300):
        viewers = [(s, rnd.randrange(len(game.log) + 1)) for s in range(players)]
        viewers += [(None, game.round_log_start), (0, game.round_log_start)]
        views = seat_views(game, viewers)
        assert views == [seat_view(game, s, f) for s, f in viewers]
        for view in views:  # MomentViews.public: each view's public values, the very objects
            assert all(map(operator.is_, views.public, PUBLIC_VALUES(view)))


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
@pytest.mark.parametrize("seed", range(3))
def test_shared_deltas_send_the_same_bytes_to_every_seat(rules: str, seed: int) -> None:
    players = 2 + seed % 4
    game = Game(players, RULE_SETS[rules], secret=rng_secret(seed))
    viewers: list[int | None] = [*range(players), None]
    alone = {v: ViewEncoder() for v in viewers}
    together = {v: ViewEncoder() for v in viewers}

    def send() -> None:
        views = seat_views(game, [(v, together[v].log_from) for v in viewers])
        shared = SharedDeltas()
        for v, view in zip(viewers, views, strict=True):
            one = alone[v].update(seat_view(game, v, alone[v].log_from))
            both = shared.follow(together[v], view)
            assert (one is None) == (both is None)
            if one is not None and both is not None:
                expected = encode(one)
                got = both
                assert got == expected

    send()
    for _ in random_steps(game, seed, 300):
        send()


def test_shared_parts_make_encodes_bytes_for_any_delta() -> None:
    """Deltas packed from shared parts (one field changed, all of them: a map 16 header,
    the same values in two deltas, an empty one) are exactly ``encode``'s bytes, and a
    delta ``encode`` refuses is refused with the same error."""

    from unotui.protocol import LocalProtocolError
    from unotui.protocol.messages import Delta
    from unotui.protocol.sync import VIEW_FIELDS

    game = Game(4, RULE_SETS["classic"], secret=rng_secret(1))
    before, after = seat_view(game, 0), None
    for _ in random_steps(game, 1, 30):
        after = seat_view(game, 0)
    assert after is not None
    every = {name: getattr(after, name) for name in VIEW_FIELDS if name != "seat"}
    assert len(every) > 15

    def sent(changes: dict[str, object], log: tuple[object, ...] = ()) -> tuple[bytes | None, Delta]:
        """What follow sends for a view ``changes`` (and ``log``) away from ``before``."""
        encoder = ViewEncoder()
        encoder.update(before)
        view = before._replace(**changes, log=before.log + log)  # type: ignore[arg-type]
        return SharedDeltas().follow(encoder, view), Delta(len(before.log), log, changes)  # type: ignore[arg-type]

    cases = [
        (every, after.log[:2]),
        ({"turn": every["turn"], "hand": after.hand}, after.log[:2]),
        ({"hand": every["hand"], "turn": every["turn"]}, after.log[:2]),
        ({"hand": every["hand"], "turn": every["turn"]}, after.log[:1]),
    ]
    for changes, log in cases:
        got, delta = sent({k: v for k, v in changes.items() if v != getattr(before, k)}, log)
        assert got == encode(delta)
    wrong_event = after.log[0]._replace(note=1.5)
    for changes, log in (({}, (wrong_event,)), ({"names": (1.5,) * 4}, ()), ({"hand": (1,)}, ()),
                         ({"names": ("a", 2**70, "b", "c")}, ())):
        with pytest.raises(LocalProtocolError) as expected:
            encode(Delta(len(before.log), log, changes))  # type: ignore[arg-type]
        with pytest.raises(LocalProtocolError) as got_error:
            sent(changes, log)
        want = expected.value
        assert (got_error.value.code, got_error.value.message) == (want.code, want.message)


def test_the_reused_packer_is_clean_after_a_refusal() -> None:
    import msgpack

    from unotui.protocol import LocalProtocolError
    from unotui.protocol.framing import pack_body

    value = {"a": [1, "b", None, True, {"c": []}]}
    for bad in ([1, (2,)], [2**70], {"k": [b"x"]}, [1.5]):
        with pytest.raises(LocalProtocolError):
            pack_body(bad)
        assert pack_body(value) == msgpack.packb(value, use_bin_type=True)


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
@pytest.mark.parametrize("seed", range(3))
def test_follow_sends_exactly_what_update_and_encode_send(rules: str, seed: int) -> None:
    """``SharedDeltas.follow`` (the public changes found and packed once a moment) puts
    the same bytes on the wire as ``ViewEncoder.update`` + ``encode`` for every viewer:
    seats, a spectator, a seat that joins late, one that misses moments (a gap: it falls
    back to a snapshot), one with a short log window (long catch-ups), and a seat's
    view sent twice in one moment."""
    players = 2 + seed % 4
    game = Game(players, RULE_SETS[rules], secret=rng_secret(seed))
    rnd = random.Random(seed)
    viewers: list[tuple[int | None, int]] = [(s, 200) for s in range(players)]
    viewers += [(None, 200), (0, 3), (1 % players, 200)]
    alone = [ViewEncoder(max_log) for _s, max_log in viewers]
    together = [ViewEncoder(max_log) for _s, max_log in viewers]
    joined = [k != len(viewers) - 1 for k in range(len(viewers))]  # the last joins later
    snapshots = deltas = 0

    def send(step: int) -> None:
        nonlocal snapshots, deltas
        if step == 40:
            joined[-1] = True
        here = [k for k in range(len(viewers)) if joined[k] and not (k == 1 and rnd.random() < 0.1)]
        views = seat_views(game, [(viewers[k][0], together[k].log_from) for k in here])
        shared = SharedDeltas(views.public if step % 2 else None)  # both ways to the public values
        for k, view in zip(here, views, strict=True):
            for _twice in range(2 if k == 0 and step % 7 == 0 else 1):
                one = alone[k].update(seat_view(game, viewers[k][0], alone[k].log_from))
                expected = None if one is None else encode(one)
                got = shared.follow(together[k], view)
                if one is not None:
                    snapshots += isinstance(one, Snapshot)
                    deltas += not isinstance(one, Snapshot)
                assert got == expected, (step, k)

    send(0)
    for step, _ in enumerate(random_steps(game, seed, 150), 1):
        send(step)
    assert snapshots >= len(viewers)  # the first view of each is a snapshot
    assert deltas > 5 * snapshots  # and most of what was sent, deltas


def test_follow_never_mixes_two_moments_in_one_shared_deltas() -> None:
    """Views of different moments through one ``SharedDeltas`` (not what a host does, but
    nothing stops it): each still gets exactly its own delta's bytes."""
    game = Game(3, RULE_SETS["classic"], secret=rng_secret(4))
    alone = [ViewEncoder() for _ in range(3)]
    together = [ViewEncoder() for _ in range(3)]
    for k in range(3):
        view = seat_view(game, k)
        assert encode(alone[k].update(view)) == encode(together[k].update(view))  # type: ignore[arg-type]
    steps = random_steps(game, 4, 200)
    for turn in range(60):
        # a moment's public values given, then views of later moments: each is told apart
        shared = SharedDeltas(seat_views(game, [(0, 0)]).public if turn % 2 else None)
        for k in range(3):
            next(steps, None)  # the game moves on between the seats' views
            one = alone[k].update(seat_view(game, k, alone[k].log_from))
            got = shared.follow(together[k], seat_view(game, k, together[k].log_from))
            assert got is not False
            assert got == (None if one is None else encode(one))


def test_pairs_are_keyed_by_the_value_object() -> None:
    """A pair packed once is reused only for the very value: an int is never taken for an
    equal bool or card."""
    from unotui.engine import ALL_CARDS

    shared = SharedDeltas()
    card = ALL_CARDS[1]
    assert card.code == 1
    assert shared._pair("version", 1) != shared._pair("top", card)
    from unotui.protocol.messages import Delta

    for name, value in (("version", 1), ("version", True), ("top", card), ("pending", 1), ("phase", "play")):
        pair = shared._pair(name, value)  # whatever was cached before under an equal key
        assert encode(Delta(0, (), {name: value})).endswith(b"\xa3set\x81" + pair), (name, value)
