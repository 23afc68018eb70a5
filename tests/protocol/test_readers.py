"""The readers of a view's fields, events and delta ``set`` maps against ``SPEC.md``.

There is one reader per field (no fast copy beside a plain one).  Here each is held to
what the specification says: every field of the view table has a reader and a writer in
the table's order, every ``int a..b`` range is exactly the reader's, an event is read
back from the array it is written as, values one step off what the spec allows are
refused with ``bad_message``, and the view's cross-field rule ("every seat number below
*n*, every per-seat list *n* items") holds.  ``ViewDecoder.apply``'s rebuild is compared
with ``SeatView._replace``.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.seeds import rng_secret
from unotui.engine import Game, SeatView, seat_view
from unotui.protocol import ProtocolError, RemoteProtocolError, ViewDecoder, ViewEncoder, sync
from unotui.protocol.codec import decode_host, encode
from unotui.protocol.sync import FIELD_CODECS, VIEW_FIELDS, changes_in
from unotui.protocol.values import CARD_BY_TEXT, EVENT_KINDS, cards_in, event_in, event_out

from .proto_support import RULE_SETS, random_steps

FAST = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
SPEC = Path(__file__).resolve().parents[2] / "protocol" / "SPEC.md"


def view_table() -> list[tuple[str, str]]:
    """``(key, type)`` of each row of SPEC.md's view table, in order."""
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("### view") : text.index("### event")]
    rows = re.findall(r"^\| `([a-z][a-z0-9_]*)` \| ([^|]+) \|", section, re.MULTILINE)
    return [(key, kind.strip()) for key, kind in rows]


def test_the_view_table_of_the_spec_is_the_wire_schema() -> None:
    """The view's keys on the wire, in order, are SPEC.md's table: the fields of
    ``SeatView`` (the schema) and then ``log_start`` and ``log``; each has its codec."""
    keys = [key for key, _kind in view_table()]
    assert keys == [*VIEW_FIELDS, "log_start", "log"]
    assert set(FIELD_CODECS) == set(VIEW_FIELDS)
    assert set(VIEW_FIELDS) | {"log", "log_start"} == set(SeatView._fields)


def spec_form(annotation: object) -> str:
    """The start of SPEC.md's type for a ``SeatView`` field of this type (``int`` stands
    for ``seat`` too: the spec names seat numbers so)."""
    from types import UnionType

    from unotui.engine import Action, Card, Colour, Event, Phase, Rules

    names = {int: "int", str: "str", bool: "bool", Card: "card", Colour: "colour", Rules: "rules",
             Action: "action", Event: "event", Phase: "str"}
    if annotation in names:
        return names[annotation]  # type: ignore[index]
    args = typing.get_args(annotation)
    if isinstance(annotation, UnionType) and len(args) == 2 and args[1] is type(None):
        return spec_form(args[0]) + "?"
    if typing.get_origin(annotation) is tuple and args[1:] == (...,):
        return f"[{spec_form(args[0])}"
    if typing.get_origin(annotation) is dict:  # a map by seat travels as [[seat, value]]
        return f"[[{spec_form(args[0])}, {spec_form(args[1])}"
    raise AssertionError(f"no wire form for {annotation}")


def test_the_specs_view_types_are_the_value_types() -> None:
    """Each row's type in SPEC.md's view table is what the field's type says it is."""
    hints = typing.get_type_hints(SeatView)
    for key, kind in view_table():
        want = spec_form(hints[key])
        got = kind.replace("seat", "int").replace("(64)", "")
        assert got.startswith(want.replace("seat", "int")), (key, kind, want)


RANGE = re.compile(r"^int `(-?\d+)\.\.(\d+|2\^62)`$")


def spec_ranges() -> dict[str, tuple[int, int]]:
    out = {}
    for key, kind in view_table():
        found = RANGE.match(kind)
        if found and key in FIELD_CODECS:
            hi = 2**62 if found[2] == "2^62" else int(found[2])
            out[key] = (int(found[1]), hi)
    return out


def refused(read: Any, value: object) -> bool:
    try:
        read(value)
    except RemoteProtocolError as exc:
        assert exc.code == "bad_message"
        return True
    return False


@pytest.mark.parametrize("name", sorted(spec_ranges()))
def test_every_number_field_reads_exactly_its_spec_range(name: str) -> None:
    lo, hi = spec_ranges()[name]
    read = FIELD_CODECS[name][1]
    assert read(lo) == lo and read(hi) == hi
    for wrong in (lo - 1, hi + 1, True, False, str(lo), None, float(lo)):
        assert refused(read, wrong), wrong


def test_the_spec_states_a_range_for_most_number_fields() -> None:
    assert len(spec_ranges()) >= 10


cards = sorted(CARD_BY_TEXT)


class Sub(str):
    """A ``str`` subclass: equal to a card text, but not a wire string."""


valid_event = st.tuples(
    st.sampled_from(sorted(EVENT_KINDS)),
    st.integers(-1, 9),
    st.lists(st.sampled_from(cards), max_size=3),
    st.integers(-1, 9),
    st.integers(-(2**31 - 1), 2**31 - 1),
    st.text(max_size=32),
).map(list)
#: for each of the event's 6 places, values just outside what SPEC.md allows there
OFF = [
    ["nope", "", 1, None, Sub("play")],
    [-2, 10, True, "1", None, 1.0],
    ["R5", ["r5"], ["R5", 1], [Sub("R5")], ["R5"] * 129, None],
    [-2, 10, False, None],
    [2**31, -(2**31), True, None, 1.0],
    ["x" * 33, "é" * 33, 1, None],
]


@FAST
@given(valid_event)
def test_an_event_reads_back_from_the_array_it_is_written_as(event: list[object]) -> None:
    assert event_out(event_in(event)) == event


@FAST
@given(valid_event, st.data())
def test_an_event_one_place_off_the_spec_is_refused(event: list[object], data: st.DataObject) -> None:
    at = data.draw(st.integers(0, 5))
    event[at] = data.draw(st.sampled_from(OFF[at]))
    assert refused(event_in, event)
    assert refused(event_in, event[:5]) and refused(event_in, [*event, 0]) and refused(event_in, tuple(event))


@FAST
@given(st.lists(st.sampled_from(cards), max_size=128), st.sampled_from([None, 1, "r5", Sub("R5"), "R 5"]))
def test_cards_read_only_canonical_texts(hand: list[str], wrong: object) -> None:
    assert [c.text for c in cards_in(hand, "hand")] == hand
    assert refused(lambda v: cards_in(v, "hand"), [*hand, wrong])
    assert refused(lambda v: cards_in(v, "hand"), (hand * 129 or ["R5"] * 129)[:129])


def test_a_set_map_takes_only_settable_fields_each_by_its_reader() -> None:
    assert changes_in({"turn": 3, "pending": 0}) == {"turn": 3, "pending": 0}
    for wrong in ({"seat": 1}, {"log": []}, {"nope": 1}, {"turn": 10}, {"colour": "r"}, [], None):
        assert refused(changes_in, wrong), wrong


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
            want = before._replace(**changes, log=log[drop:], log_start=before.log_start + drop)
            assert got == want
        assert got == seat_view(game, 1)._replace(log=got.log, log_start=got.log_start)


#: the view's per-seat lists, and its fields that name one seat (-1: nobody)
PER_SEAT = ("names", "counts", "uno_called", "scores", "round_points", "eliminated", "teams")
SEAT_REFS = ("turn", "actor", "uno_open", "wd4_by", "dealer", "round_winner", "winner")


@FAST
@given(st.data())
def test_the_views_cross_field_rule_is_the_specs(data: st.DataObject) -> None:
    """SPEC.md: "Every seat number in a view must be below n, and every per-seat list must
    have n items, else bad_message" (and a table has 2..10 seats)."""
    game = Game(4, RULE_SETS["giant-effects"], secret=rng_secret(2))
    view = seat_view(game, data.draw(st.sampled_from([None, 0, 3])))
    per_seat = st.integers(0, 12)
    changes: dict[str, Any] = {
        "names": tuple("abcdefghijkl"[: data.draw(st.integers(1, 11))]),
        "counts": (0,) * data.draw(per_seat),
        "teams": (0,) * data.draw(per_seat),
        "active": tuple(data.draw(st.lists(st.integers(0, 12), max_size=4))),
        "face_up": dict.fromkeys(data.draw(st.lists(st.integers(0, 12), max_size=3)), ()),
    }
    for name in SEAT_REFS:
        changes[name] = data.draw(st.integers(-1, 12))
    view = view._replace(**{k: v for k, v in changes.items() if data.draw(st.booleans())})
    n = len(view.names)
    seats = [view.seat if view.seat is not None else 0, *view.active, *view.face_up]
    seats += [getattr(view, name) for name in SEAT_REFS]
    ok = 2 <= n <= 10 and all(len(getattr(view, name)) == n for name in PER_SEAT) and max(seats) < n
    try:
        sync._check(view)
    except ProtocolError as exc:
        assert not ok and exc.code == "bad_message"
    else:
        assert ok


def test_the_lasting_pair_cache_is_bounded_and_keeps_bytes_exact() -> None:
    """The per-process cache of packed ``name: value`` pairs never grows past its bound,
    and a cached pair is the bytes packing it afresh gives."""
    from unotui.protocol import shared
    from unotui.protocol.framing import pack_body
    from unotui.protocol.sync import WRITE_SET

    deltas = shared.SharedDeltas()
    for version in range(shared._LASTING_MAX + 50):
        fresh = shared._NAMES["version"] + pack_body(WRITE_SET["version"](version))
        assert deltas._pair("version", version) == fresh
        assert len(shared._LASTING) <= shared._LASTING_MAX
