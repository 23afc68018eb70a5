"""The parsers' fast paths accept exactly what the plain field-by-field readers accept.

The readers of the fields a delta carries on every move (events, cards, actions, per-seat
numbers, the ``set`` map) take the common valid case in one pass of exact type checks
and dict lookups, and hand everything else to the plain reading, which raises the precise
error.  Here the reference is the plain reading written out once more (as it was before
the fast paths): for any value, both give the equal result, or both raise the same code
and message.  ``ViewDecoder.apply``'s rebuild and the written-out ``_check`` are compared
with ``dataclasses.replace`` and the generic check in the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.seeds import rng_secret
from unotui.engine import Event, Game, SeatView, seat_view
from unotui.protocol import ProtocolError, RemoteProtocolError, ViewDecoder, ViewEncoder, sync
from unotui.protocol.codec import decode_host, encode
from unotui.protocol.sync import FIELD_CODECS, VIEW_FIELDS, changes_in
from unotui.protocol.values import (
    ACTION_BY_TEXT,
    CARD_BY_TEXT,
    EVENT_KINDS,
    MAX_SEATS,
    PRIVATE_KINDS,
    action_in,
    bool_in,
    card_in,
    cards_in,
    colour_in,
    event_in,
    int_in,
    str_in,
)

from .proto_support import RULE_SETS, random_steps

FAST = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])

# ----- the plain readers, as they were -----------------------------------------------------

#: the view's per-seat lists, and its fields that name one seat (-1: nobody)
PER_SEAT = ("names", "counts", "uno_called", "scores", "round_points", "eliminated", "teams")
SEAT_REFS = ("turn", "actor", "uno_open", "wd4_by", "dealer", "round_winner", "winner")


def ref_list(value: object, what: str, read: Callable[[object], Any], max_len: int) -> tuple[Any, ...]:
    if type(value) is not list:
        raise RemoteProtocolError("bad_message", f"{what}: unexpected {type(value).__name__}")
    if len(value) > max_len:
        raise RemoteProtocolError("bad_message", f"{what}: {len(value)} items, at most {max_len}")
    return tuple(read(v) for v in value)


def ref_event(value: object) -> Event:
    if type(value) is not list or len(value) != 6:
        raise RemoteProtocolError("bad_message", f"event: unexpected {type(value).__name__}")
    kind = value[0]
    if type(kind) is not str or kind not in EVENT_KINDS:
        raise RemoteProtocolError("bad_message", "event: unknown kind")
    seat = int_in(value[1], "event seat", -1, MAX_SEATS - 1)
    cards = ref_list(value[2], "event cards", card_in, 128)
    target = int_in(value[3], "event target", -1, MAX_SEATS - 1)
    number = int_in(value[4], "event value", -(2**31 - 1), 2**31 - 1)
    note = str_in(value[5], "event note", 32)
    who = PRIVATE_KINDS.get(kind)
    to = -1 if who is None else (seat if who == "seat" else target)
    return Event(kind, seat, cards, target, number, note, to)


def ref_colour(value: object) -> object:
    from unotui.engine import Colour

    if type(value) is str and len(value) == 1 and value in "RYGB":
        return Colour("RYGB".index(value))
    raise RemoteProtocolError("bad_message", "colour: expected one of R, Y, G, B")


def ref_ints(lo: int, hi: int) -> Callable[[object], tuple[int, ...]]:
    return lambda v: ref_list(v, "per-seat numbers", lambda x: int_in(x, "number", lo, hi), MAX_SEATS)


REF_FIELDS: dict[str, Callable[[object], Any]] = {
    "hand": lambda v: ref_list(v, "hand", card_in, 128),
    "counts": ref_ints(0, 200),
    "scores": ref_ints(-(10**9), 10**9),
    "teams": ref_ints(0, MAX_SEATS - 1),
    "uno_called": lambda v: ref_list(v, "per-seat flags", lambda x: bool_in(x, "flag"), MAX_SEATS),
    "turn": lambda v: int_in(v, "number", -1, MAX_SEATS - 1),
    "pending": lambda v: int_in(v, "number", 0, 1000),
    "version": lambda v: int_in(v, "number", 0, 2**62),
    "colour": ref_colour,
    "legal": lambda v: ref_list(v, "legal", action_in, 512),
}


def ref_changes(v: object) -> dict[str, Any]:
    if type(v) is not dict:
        raise RemoteProtocolError("bad_message", f"set: unexpected {type(v).__name__}")
    if not set(v) <= sync._SETTABLE:
        raise RemoteProtocolError("bad_message", "set: unknown or unsettable field")
    return {name: REF_FIELDS.get(name, FIELD_CODECS[name][1])(value) for name, value in v.items()}


def ref_check(view: SeatView) -> None:
    n = len(view.names)
    if not 2 <= n <= MAX_SEATS:
        raise RemoteProtocolError("bad_message", f"view: {n} seats")
    if any(len(getattr(view, name)) != n for name in PER_SEAT):
        raise RemoteProtocolError("bad_message", "view: a per-seat list has the wrong length")
    seats = [view.seat if view.seat is not None else 0, *view.active, *view.face_up]
    seats += [s for s in (getattr(view, name) for name in SEAT_REFS) if s >= 0]
    if any(s >= n for s in seats):
        raise RemoteProtocolError("bad_message", "view: a seat number outside the table")


def outcome(read: Callable[[object], Any], value: object) -> tuple[str, object]:
    try:
        return "ok", read(value)
    except ProtocolError as exc:
        return "error", (type(exc), exc.code, exc.message)


def same(fast: Callable[[object], Any], ref: Callable[[object], Any], value: object) -> None:
    got, want = outcome(fast, value), outcome(ref, value)
    assert got == want
    if got[0] == "ok":  # equal, and of the same types (a Card is not an int)
        assert type(got[1]) is type(want[1])
        if isinstance(got[1], tuple):
            assert [type(x) for x in got[1]] == [type(x) for x in want[1]]  # type: ignore[union-attr]


# ----- values close to valid ones: the fast paths' edges -----------------------------------

cards = sorted(CARD_BY_TEXT)
actions = sorted(ACTION_BY_TEXT)


class Sub(str):
    """A ``str`` subclass: equal to a card text, but not a wire string."""


scalar = (
    st.none() | st.booleans() | st.integers(-(2**33), 2**33)
    | st.sampled_from([-2, -1, 0, 1, 9, 10, 200, 201])
    | st.text(max_size=4) | st.sampled_from(cards) | st.sampled_from(actions)
    | st.sampled_from(sorted(EVENT_KINDS)) | st.sampled_from(["R", "Y", "G", "B", "r", "RY", ""])
    | st.floats(allow_nan=False) | st.binary(max_size=2) | st.sampled_from(cards).map(Sub)
)
value = st.recursive(scalar, lambda inner: st.lists(inner, max_size=12), max_leaves=30)
card_list = st.lists(st.sampled_from(cards) | scalar, max_size=12)
event_like = st.tuples(
    st.sampled_from(sorted(EVENT_KINDS)) | scalar,
    st.integers(-2, 10) | scalar,
    card_list | scalar,
    st.integers(-2, 10) | scalar,
    st.integers(-(2**31), 2**31) | st.sampled_from([2**31 - 1, 2**31, 1 - 2**31, -(2**31)]) | scalar,
    st.text(max_size=34) | st.sampled_from(["x" * 32, "x" * 33, "é" * 32]) | scalar,
).map(list) | st.lists(scalar, max_size=7)


valid_event = st.tuples(
    st.sampled_from(sorted(EVENT_KINDS)),
    st.integers(-1, 9),
    st.lists(st.sampled_from(cards), max_size=3),
    st.integers(-1, 9),
    st.integers(-(2**31 - 1), 2**31 - 1),
    st.text(max_size=32),
).map(list)
edge = st.sampled_from(
    [-2, 10, 2**31, -(2**31), "x" * 33, "é" * 33, "x" * 32, True, None, "", [], ["R5", 1], [Sub("R5")],
     ["r5"], "nope", ["R5"] * 129, 1.0]
)


@FAST
@given(valid_event, st.integers(0, 5), edge, st.booleans())
def test_event_reader_one_field_off(event: list[object], at: int, bad: object, change: bool) -> None:
    if change:
        event[at] = bad
    same(event_in, ref_event, event)


@FAST
@given(event_like | value)
def test_event_reader(v: object) -> None:
    same(event_in, ref_event, v)


@FAST
@given(card_list | value)
def test_cards_reader(v: object) -> None:
    same(lambda x: cards_in(x, "hand"), REF_FIELDS["hand"], v)


@FAST
@given(
    st.sampled_from(sorted(REF_FIELDS)),
    card_list | st.lists(st.sampled_from(actions) | scalar, max_size=8)
    | st.lists(st.integers(-2, 202) | st.booleans(), max_size=11) | value,
)
def test_field_readers(name: str, v: object) -> None:
    same(FIELD_CODECS[name][1], REF_FIELDS[name], v)


@FAST
@given(st.dictionaries(st.sampled_from([*VIEW_FIELDS, "log", "nope"]), value, max_size=5) | value)
def test_set_reader(v: object) -> None:
    same(changes_in, ref_changes, v)


def test_colour_reader_on_every_short_string() -> None:
    for text in ["", "R", "Y", "G", "B", "r", "RY", "X", Sub("R"), 0, None]:
        same(colour_in, ref_colour, text)


# ----- rebuilding the view ------------------------------------------------------------------


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_apply_rebuilds_what_replace_would(rules: str) -> None:
    game = Game(4, RULE_SETS[rules], secret=rng_secret(5))
    enc, dec = ViewEncoder(), ViewDecoder(keep=30)
    dec.apply(decode_host(encode(enc.update(seat_view(game, 1)))))  # type: ignore[arg-type]
    for _ in random_steps(game, 5, 300):
        message = enc.update(seat_view(game, 1, enc.log_from))
        if message is None:
            continue
        before = dec.view
        got = dec.apply(decode_host(encode(message)))  # type: ignore[arg-type]
        if type(message).__name__ == "Delta":
            assert before is not None
            changes = dict(message.changes)  # type: ignore[union-attr]
            log = before.log + message.log  # type: ignore[union-attr]
            drop = max(0, len(log) - 30)
            want = dataclasses.replace(before, **changes, log=log[drop:], log_start=before.log_start + drop)
            assert got == want
        assert got == dataclasses.replace(seat_view(game, 1), log=got.log, log_start=got.log_start)


@FAST
@given(st.data())
def test_written_out_check_is_the_generic_one(data: st.DataObject) -> None:
    game = Game(4, RULE_SETS["giant-effects"], secret=rng_secret(2))
    view = seat_view(game, data.draw(st.sampled_from([None, 0, 3])))
    seat_no = st.integers(-1, 12)
    per_seat = st.integers(0, 12)
    changes: dict[str, Any] = {
        "names": tuple("abcdefghijkl"[: data.draw(st.integers(1, 11))]),
        "counts": (0,) * data.draw(per_seat),
        "teams": (0,) * data.draw(per_seat),
        "active": tuple(data.draw(st.lists(st.integers(0, 12), max_size=4))),
        "face_up": dict.fromkeys(data.draw(st.lists(st.integers(0, 12), max_size=3)), ()),
    }
    for name in SEAT_REFS:
        changes[name] = data.draw(seat_no)
    view = dataclasses.replace(view, **{k: v for k, v in changes.items() if data.draw(st.booleans())})
    same(lambda v: sync._check(v), ref_check, view)  # type: ignore[arg-type]
