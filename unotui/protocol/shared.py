"""The bytes of one moment's views for every connection at a table: the host's one way
of turning a :class:`~unotui.engine.SeatView` into the snapshot or delta its client gets.

After every action a host brings each seat (and spectator) at the table up to date, and
that is most of its CPU.  The moment's views come from :func:`~unotui.engine.seat_views`,
which shares every object the seats see alike; a :class:`SharedDeltas` for that moment
then finds what changed in those public fields and packs it **once**, for every seat that
was sent the same moment before, and each seat adds only its own fields (hand, drawn
card, legal actions) and its log.  ``bench/host_path.py`` (4 seats, no spectators: 113
against 131 µs of host CPU per action for the plain field-by-field delta and ``encode``)
and the sending alone (35 against 59 µs per action at 4 seats, 50 against 132 at 10, 77
against 261 at 4 seats and 20 spectators) are why this is the one way, not a plain one.

The bytes are exactly ``encode`` of the message :meth:`ViewEncoder.update
<unotui.protocol.sync.ViewEncoder.update>` makes of the same view (both find the changes
with :func:`~unotui.protocol.sync.changed_public` / :func:`~unotui.protocol.sync.changed_own`;
a test compares the bytes move by move over every rule set): msgpack packs a map as its
header and then each key and value in turn, so a delta's body is its parts joined under
their map headers, each part packed by the writers and checks ``encode`` uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import Card, Colour, Phase, SeatView
from ..engine.views import PUBLIC_FIELDS
from .codec import SCHEMAS, encode
from .framing import pack_body
from .messages import Delta, Snapshot
from .sync import (
    OWN_SENT,
    POSITION,
    PUBLIC_VALUES,
    SETTABLE,
    WRITE_SET,
    ViewEncoder,
    changed_own,
    changed_public,
)
from .values import check_redacted

__all__ = ["SharedDeltas"]


class SharedDeltas:
    """The wire bytes of one moment's views, packed once for the seats they are alike for.

    A host sending one moment to several connections passes one of these to each
    connection's :meth:`HostSession.send_view <unotui.protocol.session.HostSession.send_view>`
    (which makes one of its own when given none).

    Bytes are reused only for the *identical* objects (the same log events, the same
    field values: the cache holds them, so no other object can take over their
    identity), never for an equal-looking one.  A seat's own hand or private event is its
    own object, so no seat is ever sent bytes made from another seat's value.  Use one
    for one moment only (it keeps what it encoded alive).
    """

    __slots__ = ("_bodies", "_canon", "_diffs", "_logs", "_pairs")

    def __init__(self, public: tuple[object, ...] | None = None) -> None:
        """``public``: the moment's public values as :func:`~unotui.engine.seat_views`
        gives them (``MomentViews.public``), so that :meth:`follow` need not take them
        from each view (a view of another moment is still recognised and handled)."""
        # ids of the new log events -> (the events, kept alive; the log's bytes)
        self._logs: dict[tuple[int, ...], tuple[object, bytes]] = {}
        # (field, id(value)) -> (the value, kept alive; its ``set`` pair's bytes)
        self._pairs: dict[tuple[object, ...], tuple[object, bytes]] = {}
        self._canon: tuple[object, ...] | None = public  # the moment's public values
        # (id(diff), id(new events), log index) -> (what the key names, kept alive; the body)
        self._bodies: dict[tuple[int, int, int], tuple[object, bytes]] = {}
        # (id(before), id(after)) -> (before, after, the changed pairs' bytes, how many)
        self._diffs: dict[tuple[int, int], tuple[object, object, tuple[bytes, ...], int]] = {}

    def follow(self, encoder: ViewEncoder, view: SeatView) -> bytes | None:
        """The body of the snapshot or delta that brings ``encoder``'s client to ``view``
        (None: nothing changed).

        Raises:
            LocalProtocolError: what ``encode(encoder.update(view))`` would raise: another
                seat's view, a shorter log, an unredacted event, a value of the wrong type.
        """
        step = encoder.follow(view)
        if isinstance(step, Snapshot):
            return encode(step)
        last, before, new, end = step
        canon = self._canon  # counts is a new tuple every moment: a view of this one holds it
        public = canon if canon is not None and view.counts is canon[_COUNTS] else self._public(view)
        key = (id(before), id(public))
        diff = self._diffs.get(key)
        if diff is None:
            diff = self._diffs[key] = (before, public, *self._public_parts(before, public))
        segments, count = diff[2], diff[3]
        mine = changed_own(last, view)
        if not count and not mine and not new:
            encoder.advance(view, public, end)
            return None
        check_redacted(new, view.seat)
        if not mine:  # nothing of the seat's own: the body another seat got, if any
            made = self._bodies.get((id(diff), id(new), end))
            if made is not None:
                encoder.advance(view, public, end)
                return made[1]
        own: Sequence[bytes] = _NO_OWN
        if mine:
            own = [self._pair(name, getattr(view, name)) if name in mine else b"" for name in OWN_SENT]
        log_ids = tuple(map(id, new))
        log = self._logs.get(log_ids)
        if log is None:
            log = self._logs[log_ids] = (new, pack_body(_LOG.out(new)))
        body = b"".join(
            (
                _DELTA_HEAD,
                pack_body(_LOG_AT.out(end - len(new))),
                _LOG_KEY,
                log[1],
                _SET_KEY,
                _map_header(count + len(mine)),
                segments[0],
                own[0],
                segments[1],
                own[1],
                segments[2],
                own[2],
                segments[3],
            )
        )
        if not mine:
            self._bodies[id(diff), id(new), end] = ((diff, new), body)
        encoder.advance(view, public, end)
        return body

    def _public(self, view: SeatView) -> tuple[object, ...]:
        """The view's public values, as the moment's very tuple when they are its objects
        (so that every seat of the moment meets the same cached diff)."""
        canon = self._canon
        public: tuple[object, ...] = PUBLIC_VALUES(view)
        if canon is None:
            self._canon = public
        elif len(public) == len(canon) and all(a is b for a, b in zip(public, canon, strict=True)):
            return canon
        return public

    def _pair(self, name: str, value: object) -> bytes:
        """``name: value`` as a delta's ``set`` packs it, once per value object.

        Values whose bytes follow from the value alone and that recur from move to move
        (exact ints and strings; the interned cards, colours and phases; None and bools)
        are packed once per process, in :data:`_LASTING` (bounded); containers once per
        moment, by identity (the cache keeps the value alive, so no other object takes
        its id).  ``bench/host_path.py``: the lasting cache saves about a quarter of the
        packing a moment's views cost."""
        kind = type(value)
        cache = self._pairs
        key: tuple[object, ...]
        if kind is int or kind is str:
            cache, key = _LASTING, (name, value)
        elif kind in _SINGLETONS:  # by identity (a 3-tuple: never equal to a value's key)
            cache, key = _LASTING, (name, id(value), kind)
        else:
            key = (name, id(value))
        pair = cache.get(key)
        if pair is None:
            if len(_LASTING) >= _LASTING_MAX:
                _LASTING.clear()
            pair = cache[key] = (value, _NAMES[name] + pack_body(WRITE_SET[name](value)))
        return pair[1]

    def _public_parts(self, before: tuple[Any, ...], after: tuple[Any, ...]) -> tuple[tuple[bytes, ...], int]:
        """The changed public fields' pairs, joined in the four runs that the seat's own
        fields (hand, drawn, legal) separate in view order; and how many changed."""
        runs: list[list[bytes]] = [[], [], [], []]
        changed = changed_public(before, after)
        for i in changed:
            runs[_RUN[i]].append(self._pair(PUBLIC_FIELDS[i], after[i]))
        return tuple(b"".join(run) for run in runs), len(changed)


def _map_header(n: int) -> bytes:
    """msgpack's header of a map of ``n`` entries (a fixmap up to 15, then a map 16)."""
    return bytes([0x80 | n]) if n < 16 else b"\xde" + n.to_bytes(2, "big")


_LOG_AT, _LOG, _SET = SCHEMAS[Delta]
if (_LOG_AT.key, _LOG.key, _SET.key) != ("log_at", "log", "set"):
    raise AssertionError("SharedDeltas packs a delta's fields in the order of SCHEMAS[Delta]")
# "t": "delta" and the key of the first field, as encode() packs them (a map of 4 entries)
_DELTA_HEAD = _map_header(4) + pack_body("t") + pack_body(Delta.TYPE) + pack_body("log_at")
_LOG_KEY, _SET_KEY = pack_body("log"), pack_body("set")
_NAMES = {name: pack_body(name) for name in SETTABLE}
_COUNTS = PUBLIC_FIELDS.index("counts")
#: (field, value) -> (the value, kept alive; its pair's bytes), for the values of
#: :data:`_SINGLETONS` and exact ints and strings: the same bytes in every moment
_LASTING: dict[tuple[object, ...], tuple[object, bytes]] = {}
_LASTING_MAX = 4096
_SINGLETONS = frozenset({Card, Colour, Phase, type(None), bool})
_NO_OWN = (b"", b"", b"")
#: public field i -> the run it is packed in: how many of the seat's own fields precede it
_RUN = tuple(sum(POSITION[own] < POSITION[name] for own in OWN_SENT) for name in PUBLIC_FIELDS)
if len(OWN_SENT) != 3:
    raise AssertionError("SharedDeltas.follow packs hand, drawn and legal between four runs")
