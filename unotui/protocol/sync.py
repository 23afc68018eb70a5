"""Keeping a client's copy of its seat's view up to date: one snapshot, then deltas.

A :class:`~unotui.engine.SeatView` carries the match log, which grows without bound (tens
of KiB after a long match, past the 64 KiB frame limit after ~5,000 events).  So the host
sends a *snapshot* when a connection joins or resumes (the view with only the newest log
entries) and after that *deltas*: the new log entries with their absolute index, plus
only the view fields that changed.

* :class:`ViewEncoder` (host side, one per connection) turns successive views of one seat
  into :class:`~unotui.protocol.messages.Snapshot` / :class:`~unotui.protocol.messages.Delta`.
* :class:`ViewDecoder` (client side) applies them and rebuilds a ``SeatView`` equal to
  the host's, except that it keeps only the newest ``keep`` log entries (``log_start``
  says where they begin in the match log).

The view's fields travel by name, in the order of :data:`VIEW_FIELDS`: ``SeatView``'s
fields, in its order (the value type is the schema).  A new ``SeatView`` field takes its
codec in :data:`FIELD_CODECS` and its line in ``protocol/SPEC.md``'s view table, which a
test parses and compares with :data:`VIEW_FIELDS`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from ..engine import Action, Card, SeatView
from ..engine.views import PUBLIC_FIELDS
from .errors import LocalProtocolError, RemoteProtocolError
from .messages import Delta, Snapshot
from .values import (
    MAX_SEATS,
    action_in,
    action_out,
    bad,
    bool_in,
    card_in,
    card_out,
    cards_in,
    cards_out,
    check_redacted,
    colour_in,
    colour_out,
    event_in,
    event_out,
    int_in,
    list_in,
    phase_in,
    phase_out,
    rules_in,
    rules_out,
    str_in,
)

__all__ = [
    "FIELD_CODECS",
    "VIEW_FIELDS",
    "ViewDecoder",
    "ViewEncoder",
    "changes_in",
    "changes_out",
    "view_in",
    "view_out",
]

_BIG = 10**9  # scores, counters: far above anything a match reaches, well inside int64
_SEAT = MAX_SEATS - 1


def _seat_or_none(v: object) -> int | None:
    return None if v is None else int_in(v, "seat", 0, _SEAT)


def _ints(lo: int, hi: int) -> Callable[[object], tuple[int, ...]]:
    return lambda v: list_in(v, "per-seat numbers", lambda x: int_in(x, "number", lo, hi), MAX_SEATS)


def _bools(v: object) -> tuple[bool, ...]:
    return list_in(v, "per-seat flags", lambda x: bool_in(x, "flag"), MAX_SEATS)


def _int(lo: int, hi: int) -> Callable[[object], int]:
    return lambda v: int_in(v, "number", lo, hi)


def _face_up_out(face_up: dict[int, tuple[Card, ...]]) -> list[object]:
    return [[seat, cards_out(face_up[seat])] for seat in sorted(face_up)]


def _face_up_in(v: object) -> dict[int, tuple[Card, ...]]:
    def pair(p: object) -> tuple[int, tuple[Card, ...]]:
        if type(p) is not list or len(p) != 2:
            raise bad("face_up entry", p)
        return int_in(p[0], "face_up seat", 0, _SEAT), cards_in(p[1], "face_up cards")

    pairs = list_in(v, "face_up", pair, MAX_SEATS)
    out = dict(pairs)
    if len(out) != len(pairs) or list(out) != sorted(out):
        raise RemoteProtocolError("bad_message", "face_up: seats must be distinct and in order")
    return out


def _opt_card_out(card: Card | None) -> str | None:
    return None if card is None else card_out(card)


def _opt_card_in(v: object) -> Card | None:
    return None if v is None else card_in(v)


def _hand_in(v: object) -> tuple[Card, ...]:
    return cards_in(v, "hand")


def _legal_in(v: object) -> tuple[Action, ...]:
    return list_in(v, "legal", action_in, 512)


def _history_out(history: tuple[tuple[int, ...], ...]) -> list[object]:
    return [list(row) for row in history]


def _history_in(v: object) -> tuple[tuple[int, ...], ...]:
    return list_in(v, "history", _ints(-_BIG, _BIG), 1000)


def _hex_in(what: str) -> Callable[[object], str]:
    """Empty, or 64 lowercase hex digits (a SHA-256 digest or a round key)."""

    def read(v: object) -> str:
        text = str_in(v, what, 64)
        if text and (len(text) != 64 or text.strip("0123456789abcdef")):
            raise RemoteProtocolError("bad_message", f"{what}: not 64 lowercase hex digits")
        return text

    return read


def _plain(v: Any) -> Any:
    return v


def _plain_ints(v: tuple[int, ...]) -> list[int]:
    return list(map(int, v))


def _plain_bools(v: tuple[bool, ...]) -> list[bool]:
    return list(map(bool, v))


Codec = tuple[Callable[[Any], object], Callable[[object], Any]]

#: how each view field goes out and comes back (fields not yet in SeatView included)
FIELD_CODECS: dict[str, Codec] = {
    "seat": (_plain, _seat_or_none),
    "names": (list, lambda v: list_in(v, "names", lambda x: str_in(x, "name", 64, 1), MAX_SEATS)),
    "rules": (rules_out, rules_in),
    "hand": (cards_out, _hand_in),
    "counts": (_plain_ints, _ints(0, 200)),
    "face_up": (_face_up_out, _face_up_in),
    "top": (card_out, card_in),
    "colour": (colour_out, colour_in),
    "direction": (int, lambda v: int_in(v, "direction", -1, 1)),
    "turn": (int, _int(-1, _SEAT)),
    "actor": (int, _int(-1, _SEAT)),
    "phase": (phase_out, phase_in),
    "pending": (int, _int(0, 1000)),
    "drawn": (_opt_card_out, _opt_card_in),
    "discard_left": (int, _int(0, 200)),
    "draw_count": (int, _int(0, 200)),
    "discard_count": (int, _int(0, 200)),
    "uno_called": (_plain_bools, _bools),
    "uno_open": (int, _int(-1, _SEAT)),
    "wd4_by": (int, _int(-1, _SEAT)),
    "scores": (_plain_ints, _ints(-_BIG, _BIG)),
    "round_points": (_plain_ints, _ints(-_BIG, _BIG)),
    "round_no": (int, _int(0, _BIG)),
    "dealer": (int, _int(-1, _SEAT)),
    "round_winner": (int, _int(-1, _SEAT)),
    "winner": (int, _int(-1, _SEAT)),
    "eliminated": (_plain_bools, _bools),
    "teams": (_plain_ints, _ints(0, _SEAT)),
    "active": (_plain_ints, _ints(0, _SEAT)),
    "legal": (lambda v: [action_out(a) for a in v], _legal_in),
    "version": (int, _int(0, 2**62)),
    "history": (_history_out, _history_in),
    "challenge_colour": (
        lambda c: None if c is None else colour_out(c),
        lambda v: None if v is None else colour_in(v),
    ),
    "deck_commit": (str, _hex_in("deck_commit")),
    "revealed_key": (str, _hex_in("revealed_key")),
}

#: the view's fields on the wire, in :class:`~unotui.engine.SeatView`'s order (``log_start``
#: and ``log`` follow them): the value type is the schema, ``protocol/SPEC.md``'s table
#: states it for other implementations, and a test parses that table and compares
VIEW_FIELDS: tuple[str, ...] = tuple(
    name for name in SeatView._fields if name not in ("log", "log_start")
)
SETTABLE = frozenset(VIEW_FIELDS) - {"seat"}
#: a seat's own fields (every other field, :data:`PUBLIC_FIELDS`, is alike for every viewer)
OWN_FIELDS = tuple(name for name in VIEW_FIELDS if name not in PUBLIC_FIELDS)
#: a seat's own fields that a delta may set, in view order
OWN_SENT = tuple(name for name in OWN_FIELDS if name != "seat")
_OWN_VALUES = operator.attrgetter(*OWN_SENT)
PUBLIC_VALUES = operator.attrgetter(*PUBLIC_FIELDS)
# Every field of a view, in the order SeatView takes them: ViewDecoder.apply rebuilds a
# view from these, with the delta's fields replaced.
_ALL_FIELDS = SeatView._fields
_ALL_VALUES = operator.attrgetter(*_ALL_FIELDS)
_INDEX = {name: i for i, name in enumerate(_ALL_FIELDS)}
_LOG, _LOG_START = _INDEX["log"], _INDEX["log_start"]
#: the most log events a snapshot or delta may carry
MAX_LOG = 4096


def _events_in(v: object) -> tuple[Any, ...]:
    return list_in(v, "log", event_in, MAX_LOG)


def view_out(view: SeatView) -> dict[str, object]:
    """The wire map of a whole view (fields in :data:`VIEW_FIELDS` order, then the log)."""
    if type(view) is not SeatView:
        raise LocalProtocolError("bad_message", f"expected a SeatView, got {type(view).__name__}")
    check_redacted(view.log, view.seat)
    out: dict[str, object] = {name: FIELD_CODECS[name][0](getattr(view, name)) for name in VIEW_FIELDS}
    out["log_start"] = view.log_start
    out["log"] = [event_out(e) for e in view.log]
    return out


def view_in(v: object) -> SeatView:
    """A view from its wire map: every field present, nothing else, all consistent."""
    if type(v) is not dict:
        raise bad("view", v)
    if len(v) != len(VIEW_FIELDS) + 2 or any(k not in v for k in VIEW_FIELDS) or "log" not in v:
        raise RemoteProtocolError("bad_message", "view: wrong set of fields")
    kwargs = {name: FIELD_CODECS[name][1](v[name]) for name in VIEW_FIELDS}
    kwargs["log_start"] = int_in(v.get("log_start"), "log_start", 0, 2**62)
    kwargs["log"] = _events_in(v["log"])
    view = SeatView(**kwargs)
    _check(view)
    return view


def changes_out(changes: dict[str, Any]) -> dict[str, object]:
    """The ``set`` map of a delta, in :data:`VIEW_FIELDS` order."""
    if not changes.keys() <= SETTABLE:
        unknown = set(changes) - SETTABLE
        raise LocalProtocolError("bad_message", f"not settable in a delta: {sorted(unknown)}")
    return {name: WRITE_SET[name](changes[name]) for name in sorted(changes, key=POSITION.__getitem__)}


#: settable field -> its writer
WRITE_SET: dict[str, Callable[[Any], object]] = {name: FIELD_CODECS[name][0] for name in SETTABLE}
#: view field -> its place in :data:`VIEW_FIELDS`
POSITION = {name: i for i, name in enumerate(VIEW_FIELDS)}


def changes_in(v: object) -> dict[str, Any]:
    """The changed fields of a delta, as engine values."""
    if type(v) is not dict:
        raise bad("set", v)
    if not v.keys() <= SETTABLE:
        raise RemoteProtocolError("bad_message", "set: unknown or unsettable field")
    return {name: FIELD_CODECS[name][1](value) for name, value in v.items()}


#: the view's per-seat lists (as long as ``names``), and its fields naming one seat
_PER_SEAT = ("counts", "uno_called", "scores", "round_points", "eliminated", "teams")
_SEAT_REFS = ("turn", "actor", "uno_open", "wd4_by", "dealer", "round_winner", "winner")


def _check(view: SeatView) -> None:
    """Cross-field sanity: per-seat lists as long as the table, seats inside it."""
    n = len(view.names)
    if not 2 <= n <= MAX_SEATS:
        raise RemoteProtocolError("bad_message", f"view: {n} seats")
    if any(len(getattr(view, name)) != n for name in _PER_SEAT):
        raise RemoteProtocolError("bad_message", "view: a per-seat list has the wrong length")
    # Every seat number the readers let through is >= -1, and -1 ("nobody") is < n.
    seats = [*(getattr(view, name) for name in _SEAT_REFS), *view.active, *view.face_up]
    if view.seat is not None:
        seats.append(view.seat)
    if any(s >= n for s in seats):
        raise RemoteProtocolError("bad_message", "view: a seat number outside the table")


def changed_public(before: tuple[Any, ...], after: tuple[Any, ...]) -> tuple[int, ...]:
    """The places in :data:`PUBLIC_FIELDS` whose values differ between two views' public
    values (``PUBLIC_VALUES``); identical objects are not compared further."""
    if before is after:
        return ()
    pairs = enumerate(zip(before, after, strict=True))
    return tuple(i for i, (old, new) in pairs if new is not old and new != old)


def changed_own(last: SeatView, view: SeatView) -> tuple[str, ...]:
    """The fields of :data:`OWN_SENT` that differ between the seat's last view and ``view``."""
    before, after = _OWN_VALUES(last), _OWN_VALUES(view)
    if before == after:  # a spectator's, and a seat's while another acts
        return ()
    changed: tuple[str, ...] = ()
    for name, old, new in zip(OWN_SENT, before, after, strict=True):
        if new is not old and new != old:
            changed += (name,)
    return changed


class ViewEncoder:
    """Host side: successive views of one seat in, snapshot or delta messages out.

    Args:
        max_log: the most log events a snapshot carries (the newest ones).  A delta that
            would carry more becomes a snapshot instead.

    The views may carry the whole match log or only part of it: pass
    ``log_from=encoder.log_from`` to :func:`~unotui.engine.seat_view` to build only the
    events this connection has not been sent (cheaper on a long match).
    """

    def __init__(self, max_log: int = 200) -> None:
        if not 1 <= max_log <= MAX_LOG:
            raise ValueError(f"max_log must be 1..{MAX_LOG}")
        self.max_log = max_log
        self._last: SeatView | None = None
        self._public: tuple[Any, ...] | None = None  # PUBLIC_VALUES(self._last), once known
        self._sent = 0  # absolute index of the next log event to send

    @property
    def log_from(self) -> int:
        """The first log index the next view must contain (0 before the snapshot)."""
        return self._sent if self._last is not None else 0

    def snapshot(self, view: SeatView) -> Snapshot:
        """A snapshot of ``view`` (with at most ``max_log`` of its newest log events)."""
        end = view.log_start + len(view.log)
        start = max(view.log_start, end - self.max_log)
        trimmed = view._replace(log=view.log[start - view.log_start :], log_start=start)
        check_redacted(trimmed.log, view.seat)
        self._last, self._public, self._sent = view, None, end
        return Snapshot(trimmed)

    def follow(self, view: SeatView) -> Snapshot | tuple[SeatView, tuple[Any, ...], tuple[Any, ...], int]:
        """The first step to ``view``: the snapshot it takes (the first time, when the
        view's log does not reach back to what was sent, or when the delta would carry
        more than ``max_log`` events), or what a delta builds on: (the last view, its
        public values, the new log events, the log index after them).  A delta's maker
        (:meth:`update`, or :meth:`SharedDeltas.follow
        <unotui.protocol.shared.SharedDeltas.follow>`) then calls :meth:`advance`.

        Raises:
            LocalProtocolError: the seat changed, or the log is shorter than before.
        """
        last = self._last
        if last is None:
            return self.snapshot(view)
        if view.seat != last.seat:
            raise LocalProtocolError("bad_message", "a ViewEncoder serves one seat")
        start, sent = view.log_start, self._sent
        end = start + len(view.log)
        if end < sent:
            raise LocalProtocolError("bad_message", "the log got shorter: views of another game?")
        if start > sent or end - sent > self.max_log:
            return self.snapshot(view)
        public = self._public
        if public is None:
            public = self._public = PUBLIC_VALUES(last)
        return last, public, view.log[sent - start :], end

    def advance(self, view: SeatView, public: tuple[Any, ...], end: int) -> None:
        """The client now has ``view`` (whose public values are ``public``), its log up to ``end``."""
        self._last, self._public, self._sent = view, public, end

    def update(self, view: SeatView) -> Snapshot | Delta | None:
        """The message that brings the client from the last view to ``view`` (``None``
        when nothing changed): the same step and the same changes as the host's bytes
        (:class:`~unotui.protocol.shared.SharedDeltas`), as a message.

        Raises:
            LocalProtocolError: the seat changed, or the log is shorter than before.
        """
        step = self.follow(view)
        if isinstance(step, Snapshot):
            return step
        last, before, new, end = step
        public = PUBLIC_VALUES(view)
        changed = {PUBLIC_FIELDS[i] for i in changed_public(before, public)}.union(changed_own(last, view))
        if not changed and not new:
            return None
        check_redacted(new, view.seat)
        delta = Delta(self._sent, new, {name: getattr(view, name) for name in VIEW_FIELDS if name in changed})
        self.advance(view, public, end)
        return delta


class ViewDecoder:
    """Client side: applies snapshots and deltas, rebuilding the seat's view.

    Args:
        keep: the most log events kept (the newest); ``view.log_start`` is their
            absolute index in the match log.
    """

    def __init__(self, keep: int = 1000) -> None:
        self.keep = keep
        self.view: SeatView | None = None

    def apply(self, message: Snapshot | Delta) -> SeatView:
        """Apply one message; return the view as it now stands.

        Raises:
            RemoteProtocolError: a delta before any snapshot, a gap in the log, or a
                view that is not consistent.
        """
        if isinstance(message, Snapshot):
            view = message.view
            view = self._trim(view, view.log, view.log_start)
        else:
            current = self.view
            if current is None:
                raise RemoteProtocolError("bad_message", "a delta before the first snapshot")
            end = current.log_start + len(current.log)
            if message.log_at != end:
                raise RemoteProtocolError(
                    "bad_message", f"delta log starts at {message.log_at}, expected {end}"
                )
            changes = message.changes
            if message.log or changes:
                values = list(_ALL_VALUES(current))
                for name, value in changes.items():
                    values[_INDEX[name]] = value
                if message.log:
                    log = current.log + message.log
                    drop = max(0, len(log) - self.keep)
                    values[_LOG], values[_LOG_START] = log[drop:], current.log_start + drop
                view = SeatView(*values)
                _check(view)
            else:
                view = current
        self.view = view
        return view

    def _trim(self, view: SeatView, log: tuple[Any, ...], start: int) -> SeatView:
        """``view`` with the newest ``keep`` events of ``log`` (which begins at ``start``)."""
        drop = max(0, len(log) - self.keep)
        if drop == 0 and log is view.log:
            return view
        return view._replace(log=log[drop:], log_start=start + drop)
