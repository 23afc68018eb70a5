"""The hidden-information audit: every byte a host sends is decoded and checked against
the truth of that moment.

:class:`TappedSession` is the host's real :class:`~unotui.protocol.session.HostSession`
with a tap where bytes are queued for a connection (``_queue`` and ``send_view``, the only
two places a frame enters its outbox): the frames just queued are decoded with plain
``msgpack`` (not the project's decoder, so a decoder bug cannot hide a leak) and checked
by :class:`Auditor` against the table's :class:`~unotui.engine.Game` *at that instant*.
The game cannot move between queueing and checking (one loop callback), so there are no
timing false positives; the bytes are then written to a real socket as usual.

What a seat may know is modelled here from the rules, independently of the view builder
(``unotui/engine/views.py``, the choke point under test):

* ``hand`` is exactly the seat's own hand (as a multiset); a spectator's is empty;
* ``drawn`` is the card the seat itself just drew, only while it is the actor;
* ``top`` is the top discard; ``legal`` names only cards the seat holds;
* ``face_up`` only while the rules lay hands open (the end of a round, "hands face up"),
  and then each entry is that seat's true hand;
* a log event carries cards only if its kind is public (``dealer``, ``flip``, ``reflip``,
  ``play``, ``jump``, ``discard``) or private to this seat by the rules: a ``draw`` or
  ``keep`` to the seat that drew, a ``reveal`` to the challenger (``target``); its cards
  equal the true event's;
* no list anywhere in a frame holds the next four cards of the draw pile in order;
* no string anywhere is another seat's resume token, the match secret, or the key of a
  round that is not over (the key is revealed at the round's end, by design: with it the
  round's shuffles can be checked, and recomputed);
* card names in free text (refusals, errors) are the seat's own, public (the discard
  pile), or ones the seat itself named in an intent.

Anything else counts as a leak, with the frame's type and a reason.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgpack

from unotui.engine import ENDED_PHASES, Action, Game
from unotui.engine.actions import Discard, Play
from unotui.net.room import Room
from unotui.protocol import messages as m
from unotui.protocol.session import HostSession
from unotui.protocol.shared import SharedDeltas

__all__ = ["Auditor", "Leak", "TappedSession"]

PUBLIC_KINDS = {"dealer", "flip", "reflip", "play", "jump", "discard"}
_CARD_WORD = re.compile(r"(?<![A-Za-z0-9+])(?:[RYGB](?:\d|S|R|\+2)|W\+4|W[XHC]?)(?![A-Za-z0-9+])")


@dataclass(frozen=True)
class Leak:
    """One thing a seat was sent that it may not know."""

    table: str
    viewer: int | None
    frame: str
    reason: str


@dataclass
class Auditor:
    """Checks frames against the truth (see the module docstring); counts what it saw."""

    rooms: dict[str, Room]
    frames: int = 0
    bytes: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    leaks: list[Leak] = field(default_factory=list)

    def check(self, session: TappedSession, data: bytes) -> None:
        self.bytes += len(data)
        at = 0
        while at < len(data):
            size = int.from_bytes(data[at:at + 4], "big")
            body = data[at + 4:at + 4 + size]
            at += 4 + size
            message = msgpack.unpackb(body, raw=False)
            self.frames += 1
            kind = str(message.get("t"))
            self.kinds[kind] += 1
            room = self.rooms.get(session.table or "")
            viewer = message.get("seat") if kind == "welcome" else session.seat
            for reason in _problems(message, viewer, room, session.named):
                self.leaks.append(Leak(session.table or "", viewer, kind, reason))


class TappedSession(HostSession):
    """A host session whose every queued frame goes past an :class:`Auditor` first."""

    def __init__(self, now: float, auditor: Auditor, **kwargs: Any) -> None:
        super().__init__(now, **kwargs)
        self.auditor = auditor
        self.table: str | None = None
        self.named: set[str] = set()  # cards this connection named in its intents
        self._depth = 0

    def accept(self, **kwargs: Any) -> None:  # type: ignore[override]
        self.table = kwargs["table"]
        super().accept(**kwargs)

    def _queue(self, message: m.Message) -> None:
        self._tap(super()._queue, message)

    def send_view(self, view: Any, shared: SharedDeltas | None = None) -> bool:
        return bool(self._tap(super().send_view, view, shared))

    def _receive(self, body: bytes, now: float) -> list[Any]:
        events = super()._receive(body, now)
        for event in events:
            if isinstance(event, m.Intent) and isinstance(event.action, Play | Discard):
                self.named.add(event.action.card.text)
        return events

    def _tap(self, send: Any, *args: Any) -> Any:
        start = len(self._out)
        self._depth += 1
        try:
            return send(*args)
        finally:
            self._depth -= 1
            if self._depth == 0 and len(self._out) > start:
                self.auditor.check(self, bytes(self._out[start:]))


# ----- the model of what a seat may know ---------------------------------------------------------


def _problems(msg: dict[str, Any], viewer: int | None, room: Room | None, named: set[str]) -> Iterator[str]:
    game = room.game if room is not None else None
    kind = msg.get("t")
    if room is not None:
        others = {e.token for s, e in enumerate(room.book.seats) if s != viewer and e.token}
        for text in _strings(msg):
            if text in others:
                yield "another seat's resume token"
    if kind == "welcome" and room is not None and msg.get("token") is not None and (
            viewer is None or msg["token"] != room.book.seats[viewer].token):
        yield "a token that is not the seat's own"
    if game is None:
        if kind in ("snapshot", "delta"):
            yield "a view with no game"
        return
    ended = game.phase in ENDED_PHASES
    for text in _strings(msg):
        if text in _secrets(game, ended):
            yield "the match secret or a round key before its round ended"
    own = Counter(c.text for c in game.hands[viewer]) if viewer is not None else Counter()
    if kind == "snapshot":
        yield from _fields(msg["view"], viewer, game, own)
        yield from _log(msg["view"]["log"], msg["view"]["log_start"], viewer, game)
    elif kind == "delta":
        yield from _fields(msg["set"], viewer, game, own)
        yield from _log(msg["log"], msg["log_at"], viewer, game)
    elif kind in ("refused", "error", "closed"):
        public = {c.text for c in game.discard} | set(own) | named
        for word in _CARD_WORD.findall(msg.get("message", "")):
            if word not in public:
                yield f"card {word} named in a {kind}"
    yield from _pile_order(msg, game)


def _secrets(game: Game, ended: bool) -> set[str]:
    """What would tell the order of every shuffle: the match secret, and the keys of this
    round (unless it is over: then it is revealed, by design) and of the rounds to come."""
    source = game.shuffler
    first = game.round_no + 1 if ended else game.round_no
    return {source.secret.hex(), *(source.round_key(r).hex() for r in range(first, first + 3))}


def _fields(fields: dict[str, Any], viewer: int | None, game: Game, own: Counter[str]) -> Iterator[str]:
    if "hand" in fields and Counter(fields["hand"]) != own:
        extra = Counter(fields["hand"]) - own
        yield f"hand holds {sorted(extra.elements())} beyond the seat's own" if extra else "hand short"
    if fields.get("drawn") is not None and (viewer != game.actor or game.drawn is None
                                            or fields["drawn"] != game.drawn.text):
        yield f"drawn card {fields['drawn']} is not the viewer's own"
    if "top" in fields and fields["top"] != game.top.text:
        yield "top is not the top discard"
    for text in fields.get("legal", ()):
        action = Action.parse(text)
        if isinstance(action, Play | Discard) and action.card.text not in own:
            yield f"legal names {text}, not in the seat's hand"
    face_up = fields.get("face_up", ())
    if face_up and not (game.phase in ENDED_PHASES or game.face_up_until >= 0):
        yield "hands face up while the rules keep them hidden"
    for seat, cards in face_up:
        if Counter(cards) != Counter(c.text for c in game.hands[seat]):
            yield f"face_up hand of seat {seat} is not its hand"


def _log(events: list[Any], start: int, viewer: int | None, game: Game) -> Iterator[str]:
    for i, (kind, seat, cards, target, _value, _note) in enumerate(events):
        index = start + i
        if index >= len(game.log):
            yield f"log event {index} the game does not have"
            continue
        truth = game.log[index]
        if kind != truth.kind or seat != truth.seat or target != truth.target:
            yield f"log event {index} is not the game's"
        if not cards:
            continue
        if kind in ("draw", "keep"):
            owner: int | None = truth.seat
        elif kind == "reveal":
            owner = truth.target
        elif kind in PUBLIC_KINDS:
            owner = None
        else:
            yield f"cards in a {kind!r} event, a kind the audit does not know as public"
            continue
        if owner is not None and owner != viewer:
            yield f"seat {owner}'s private {kind} cards {cards} sent to {viewer}"
        if cards != [c.text for c in truth.cards]:
            yield f"log event {index} cards differ from the game's"


def _pile_order(msg: dict[str, Any], game: Game) -> Iterator[str]:
    pile = [c.text for c in reversed(game.draw_pile[-4:])]  # the next cards drawn, in order
    if len(pile) < 4:
        return
    for run in _card_lists(msg):
        for k in range(len(run) - 3):
            if run[k:k + 4] == pile:
                yield "the draw pile's next cards, in order"


def _card_lists(value: Any, key: str = "") -> Iterator[list[Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k != "hand":  # checked exactly above: it may hold those cards by chance
                yield from _card_lists(v, k)
    elif isinstance(value, list):
        if len(value) >= 4 and all(isinstance(x, str) for x in value):
            yield value
        for x in value:
            yield from _card_lists(x, key)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for x in value:
            yield from _strings(x)
