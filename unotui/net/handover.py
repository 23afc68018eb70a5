"""A finished match's record, handed over to its seats (protocol version 2, ``transcript``).

The host holds the game; a seat saw its own hand, the public log and each round's key
once the round was over, never the match secret.  When the match is over every round's
key may be told (round 0's too, which drew for the first dealer), and with the keys and
every action in order a seat can replay the whole match: its transcript
(``unotui-transcript/3``), which ``s`` saves and ``unotui review`` reviews.

Host side: :func:`record_parts` cuts the record into ``transcript`` parts that each fit a
host's frame (:mod:`unotui.protocol.codec`'s per-part bounds), and :func:`send_record`
sends them to a member that speaks version 2 (the table core calls it once at the match's
end for everyone there, and for each member admitted after it).

Seat side: a :class:`Witness` keeps what the seat saw (fed every view), and
:func:`check_record` holds the host's record against it: each round key against the deck
commitment the seat saw at that round's start and the key revealed at its end, then the
replayed match against the seat's own hand at each round's first view, every log event it
was shown (as the replay redacts it for that seat), and the final scores.  A mismatch is
:class:`RecordMismatch`, and the record is refused, never used.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from ..engine import Event, Game, Rules, SeatView, seat_view
from ..engine.cards import Card, by_code
from ..engine.deck import cached_deck
from ..engine.shuffle import Label, commitment, shuffled
from ..protocol.events import record_bound
from .effects import Outbox
from .record import MatchRecord

if TYPE_CHECKING:  # (the table core imports this module: solo play loads no wire format)
    from ..protocol import messages as m
    from ..protocol.events import RecordReceived

__all__ = [
    "MISMATCH",
    "RecordMismatch",
    "Witness",
    "check_record",
    "record_parts",
    "send_record",
    "too_long",
]

log = logging.getLogger("unotui.host")

#: what the player is told when the host's record is refused (then why, in a second sentence)
MISMATCH = "The host's record does not match what you saw, so it was not kept"


class RecordMismatch(Exception):
    """The host's record contradicts what this seat saw; the message is a sentence."""


def too_long(keys: int, steps: int, limit: int) -> str:
    """What the player is told of a record refused for its length: ``keys`` round keys and
    ``steps`` steps (at least: the peer session refuses one as its parts arrive), where
    the match the seat watched could have had at most ``limit``
    (:func:`~unotui.protocol.events.record_bound`)."""
    if steps > limit:
        return f"{MISMATCH}: it has {steps} steps or more, more than the match had."
    return f"{MISMATCH}: it has {keys} round keys or more, more than the match had."


# ----- the host's side ---------------------------------------------------------------------------


def record_parts(game: Game) -> tuple[m.TranscriptPart, ...]:
    """``game``'s record (over) as ``transcript`` parts, in order; ``()`` when it cannot be
    sent: a match dealt from a stacked deck (tests: nothing to replay its first deal
    from) or one too long for :data:`MAX_RECORD_PARTS` parts."""
    from ..protocol import messages as m
    from ..protocol.codec import MAX_RECORD_PARTS, RECORD_ACTIONS, RECORD_KEYS

    if game.first_deck is not None or game.shuffler.known_keys:
        return ()
    keys = [game.shuffler.round_key(r).hex() for r in range(game.round_no + 1)]
    steps = game.history
    count = max(1, -(-len(keys) // RECORD_KEYS), -(-len(steps) // RECORD_ACTIONS))
    if count > MAX_RECORD_PARTS:
        log.warning("the match's record is too long to send: %d steps, %d rounds", len(steps), len(keys))
        return ()
    return tuple(
        m.TranscriptPart(
            i, count, game.names if i == 0 else (), game.first_dealer,
            tuple(keys[i * RECORD_KEYS:(i + 1) * RECORD_KEYS]),
            tuple(steps[i * RECORD_ACTIONS:(i + 1) * RECORD_ACTIONS]),
        )
        for i in range(count)
    )


def send_record(outboxes: list[Outbox], game: Game) -> int:
    """Once ``game`` is over, queue its record on every open outbox that speaks version 2
    (a version 1 client is sent nothing new); returns how many were sent it."""
    if not game.over:
        return 0
    wanting = [box for box in outboxes if not box.closed and box.version >= 2]
    parts = record_parts(game) if wanting else ()
    if not parts:
        return 0
    for box in wanting:
        for part in parts:
            box.send(part)
    return len(wanting)


# ----- the seat's side ---------------------------------------------------------------------------


class _Round(NamedTuple):
    """The first view a seat had of one round: when (the game's change counter), its
    hand then, and the deck commitment."""

    version: int
    hand: tuple[Card, ...]
    commit: str


@dataclass
class Witness:
    """What one seat saw of a match: every log event it was shown (by its index in the
    match log), its first view of each round, each revealed round key and the last view.

    Bounded: a match's log beyond :attr:`MAX_EVENTS` events, or rounds beyond
    :attr:`MAX_ROUNDS`, are not kept (and so not checked)."""

    MAX_EVENTS = 1_000_000
    MAX_ROUNDS = 100_000

    events: dict[int, Event] = field(default_factory=dict)
    rounds: dict[int, _Round] = field(default_factory=dict)
    keys: dict[int, str] = field(default_factory=dict)
    last: SeatView | None = None
    _next: int = 0  # the first log index not taken in yet

    @property
    def log_length(self) -> int:
        """How long the match's log was, as far as the seat was shown it."""
        return self._next

    def observe(self, view: SeatView) -> None:
        """Take in a view (every view the seat is given, in order)."""
        base = view.log_start
        end = base + len(view.log)
        for i in range(max(base, self._next), end):
            if len(self.events) < self.MAX_EVENTS:
                self.events[i] = view.log[i - base]
        self._next = max(self._next, end)
        r = view.round_no
        if view.deck_commit and r not in self.rounds and len(self.rounds) < self.MAX_ROUNDS:
            self.rounds[r] = _Round(view.version, view.hand, view.deck_commit)
        if view.revealed_key:
            self.keys.setdefault(r, view.revealed_key)
        self.last = view


def check_record(got: RecordReceived, witness: Witness, rules: Rules, seat: int | None) -> MatchRecord:
    """The host's record as this seat's :class:`MatchRecord`, once it matches what the
    seat saw (``seat`` ``None``: a spectator's, kept from the winner's seat).

    Raises:
        RecordMismatch: a sentence saying what did not match.
    """
    from ..transcript import Transcript, TranscriptError, replay

    last = witness.last
    if last is None or last.winner < 0:
        raise RecordMismatch(f"{MISMATCH}: the match is not over here.")
    limit = record_bound(witness.log_length)
    if len(got.actions) > limit or len(got.keys) > limit:
        # (every step logs about one event: a record far longer than the match's log is
        # not this match, and replaying it would cost the seat what the host chose; the
        # peer session already refused one that passed this as it arrived)
        raise RecordMismatch(too_long(len(got.keys), len(got.actions), limit))
    transcript = Transcript(got.names, rules, got.dealer, 0, None,
                            tuple((s, str(a)) for s, a in got.actions), None, 3, got.keys)
    _check_keys(got.keys, witness, rules)
    hands = {r.version: r.hand for r in witness.rounds.values()}
    wrong: list[str] = []

    def watch(game: Game) -> None:
        hand = hands.get(game.version)
        if hand is not None and not wrong:
            held = tuple(sorted(game.hands[seat], key=by_code)) if seat is not None else ()
            if held != hand:
                wrong.append(f"your hand in round {game.round_no} was not the one you were dealt")

    try:
        game = replay(transcript, watch=watch)
    except TranscriptError as exc:
        raise RecordMismatch(f"{MISMATCH}: it does not replay ({exc}).") from None
    if wrong:
        raise RecordMismatch(f"{MISMATCH}: {wrong[0]}.")
    if not game.over:
        raise RecordMismatch(f"{MISMATCH}: its match does not end.")
    if tuple(game.scores) != last.scores or game.winner != last.winner:
        raise RecordMismatch(
            f"{MISMATCH}: its final scores are {list(game.scores)}, you saw {list(last.scores)}.")
    public = seat_view(game, seat, 0).log
    for i, event in witness.events.items():
        if i >= len(public) or public[i] != event:
            raise RecordMismatch(f"{MISMATCH}: the game's log differs at entry {i + 1}.")
    return MatchRecord(transcript, seat if seat is not None else game.winner)


def _check_keys(keys: tuple[str, ...], witness: Witness, rules: Rules) -> None:
    """Each round's key against the commitment the seat saw at its deal (and the key shown
    at its end): the deck the key deals must be the one committed to."""
    deck = cached_deck(rules)
    for r, seen in sorted(witness.rounds.items()):
        if r >= len(keys):
            raise RecordMismatch(f"{MISMATCH}: it has no key for round {r}.")
        key = bytes.fromhex(keys[r])
        if commitment(key, shuffled(key, Label.DEAL, 1, deck)) != seen.commit:
            raise RecordMismatch(
                f"{MISMATCH}: round {r}'s key does not fit the deck committed to at its deal.")
    for r, shown in witness.keys.items():
        if r >= len(keys) or keys[r] != shown:
            raise RecordMismatch(f"{MISMATCH}: round {r}'s key is not the one shown when it ended.")
