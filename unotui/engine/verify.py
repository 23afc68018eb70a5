"""Checking a finished round's shuffles from what one seat saw (pure; no trust in the host).

At the deal every view carries the round's commitment (``deck_commit``); once the round
is over it carries the round key (``revealed_key``).  :func:`verify_round` takes that
last view and

1. recomputes the deck from the key (:func:`~unotui.engine.shuffle.shuffled`, label
   ``deal``) and checks the commitment against it;
2. replays the round's log on a model of the table: who was dealt which cards, which
   card was turned up (and re-flipped), what every draw took off the pile, each
   reshuffle of the discard pile and each shuffle of the hands, recomputed from the key
   on their canonical (sorted) inputs, and swaps, rotations, plays and discards; the
   dealer is the one the ``deal`` event names, and the view's ``dealer`` must agree;
3. checks it against everything the seat saw: the cards turned up, its own draws (and a
   spectator's nothing private), every card anyone played or discarded (it must have
   been in that hand), the size of each reshuffle and the hands laid down at the end.

A host that stacked the deck, or dealt from anything but the committed order, fails one
of these.  The verdict is ``None`` when the view cannot tell (the round is not over, or
the start of the round is no longer in the view's log).

A seat runs the check through :class:`ShuffleWatch`, fed every view it receives: it
remembers the commitment it saw *first* in each round (a host that swapped it at the end,
to fit a key chosen afterwards, is caught there) and checks each round once its key is
revealed.  The round summary shows the verdict (``unotui.ui.words.verdict_text``).
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from .cards import Card, Rank, by_code
from .deck import cached_deck
from .events import EventKind
from .shuffle import Label, commitment, shuffled
from .views import SeatView

__all__ = ["ShuffleWatch", "Verdict", "verify_round"]


class Verdict(NamedTuple):
    """The result of checking one round.

    Attributes:
        ok: ``True`` verified, ``False`` a mismatch, ``None`` could not be checked.
        round_no: the round checked.
        reason: what did not match (or why it could not be checked); ``""`` when verified.
        shuffles: how many shuffles were recomputed.
    """

    ok: bool | None
    round_no: int
    reason: str = ""
    shuffles: int = 0


class _Mismatch(Exception):
    pass


def verify_round(view: SeatView) -> Verdict:
    """Check the shuffles of the round that ``view`` (taken once it is over) shows."""
    round_no = view.round_no
    if not view.deck_commit:
        return Verdict(None, round_no, "no commitment to a shuffle this round")
    if not view.revealed_key:
        return Verdict(None, round_no, "the round key is not revealed yet")
    try:
        key = bytes.fromhex(view.revealed_key)
    except ValueError:
        return Verdict(False, round_no, "the revealed key is not hex")
    start = _deal_index(view)
    if start < 0:
        return Verdict(None, round_no, "the start of the round is no longer in the log")
    order = shuffled(key, Label.DEAL, 1, cached_deck(view.rules))
    if commitment(key, order) != view.deck_commit:
        return Verdict(False, round_no, "the revealed key does not match the deal's commitment")
    try:
        shuffles = _replay(view, key, order, start)
    except _Mismatch as exc:
        return Verdict(False, round_no, str(exc))
    return Verdict(True, round_no, "", shuffles)


def _deal_index(view: SeatView) -> int:
    for i in range(len(view.log) - 1, -1, -1):
        e = view.log[i]
        if e.kind == EventKind.DEAL and e.value == view.round_no:
            return i
    return -1


def _replay(view: SeatView, key: bytes, order: list[Card], start: int) -> int:
    """Model the round from its log; raise :class:`_Mismatch` at the first contradiction."""
    log = view.log
    dealer = log[start].seat
    if dealer != view.dealer:  # the view names this round's dealer until the next deal
        raise _Mismatch(f"the deal names dealer {dealer} but the view {view.dealer}")
    active = list(view.active)
    if dealer not in active:
        raise _Mismatch(f"the dealer {dealer} is not at the table")
    na = len(active)
    at = active.index(dealer)
    pile = deque(order)
    hands: dict[int, list[Card]] = {s: [] for s in active}
    for _ in range(view.rules.hand_size):
        for k in range(1, na + 1):
            hands[active[(at + k) % na]].append(pile.popleft())
    discard: list[Card] = []
    count: dict[str, int] = {}
    shuffles = 1

    def reshuffle(label: Label, cards: list[Card]) -> list[Card]:
        nonlocal shuffles
        ordinal = count[label] = count.get(label, 0) + 1
        shuffles += 1
        return shuffled(key, label, ordinal, cards)

    def take(seat: int, card: Card, what: str) -> None:
        hand = hands.get(seat)
        if hand is None or card not in hand:
            raise _Mismatch(f"seat {seat} {what} {card}, which the committed deck never gave it")
        hand.remove(card)

    for e in log[start + 1 :]:
        kind = e.kind
        if kind == EventKind.ROUND:
            break
        if kind in (EventKind.FLIP, EventKind.REFLIP):
            if not pile:
                raise _Mismatch("a card was turned up from an empty pile")
            card = pile.popleft()
            if not e.cards or e.cards[0] != card:
                raise _Mismatch(f"the card turned up was {_first(e.cards)}, the deck says {card}")
            if kind == EventKind.FLIP:
                discard.append(card)
            else:
                if card.rank is not Rank.WILD4:
                    raise _Mismatch(f"{card} was turned up again, though only a Wild Draw Four is")
                pile = deque(reshuffle(Label.REFLIP, [*pile, card]))
        elif kind == EventKind.DRAW:
            if e.value > len(pile):
                raise _Mismatch(f"seat {e.seat} drew {e.value} cards from a pile of {len(pile)}")
            got = [pile.popleft() for _ in range(e.value)]
            if e.cards and list(e.cards) != got:
                raise _Mismatch(
                    f"seat {e.seat} drew {' '.join(map(str, e.cards))}; "
                    f"the shuffle says {' '.join(map(str, got))}"
                )
            hands[e.seat] += got
        elif kind == EventKind.RESHUFFLE:
            rest = discard[:-1]
            del discard[:-1]
            if e.value != len(rest):
                raise _Mismatch(f"{e.value} cards were reshuffled; the discard pile held {len(rest)}")
            pile.extend(reshuffle(Label.RESHUFFLE, rest))
        elif kind in (EventKind.PLAY, EventKind.JUMP):
            take(e.seat, e.cards[0], "played")
            discard.append(e.cards[0])
        elif kind == EventKind.DISCARD:
            for card in e.cards:
                take(e.seat, card, "discarded")
            discard[0:0] = e.cards
        elif kind == EventKind.SWAP:
            hands[e.seat], hands[e.target] = hands[e.target], hands[e.seat]
        elif kind == EventKind.ROTATE:
            old = [hands[s] for s in active]
            for i in range(na):
                hands[active[(i + e.value) % na]] = old[i]
        elif kind == EventKind.SHUFFLE:
            pool = reshuffle(Label.HANDS, [c for s in active for c in hands[s]])
            first = active.index(e.seat)
            for s in active:
                hands[s] = []
            for i, card in enumerate(pool):
                hands[active[(first + i + 1) % na]].append(card)
    else:
        raise _Mismatch("the round's end is not in the log")
    for s in active:
        shown = list(view.face_up.get(s, ()))
        dealt = sorted(hands[s], key=by_code)
        if dealt != shown:
            raise _Mismatch(f"seat {s} laid down {' '.join(map(str, shown)) or 'nothing'}; "
                            f"the shuffles say {' '.join(map(str, dealt)) or 'nothing'}")
    return shuffles


def _first(cards: tuple[Card, ...]) -> str:
    return str(cards[0]) if cards else "hidden"


class ShuffleWatch:
    """The commitments one seat saw and the verdict of each finished round."""

    def __init__(self) -> None:
        self._commits: dict[int, str] = {}
        self._verdicts: dict[int, Verdict] = {}

    def observe(self, view: SeatView) -> Verdict | None:
        """Take in a view; the round's verdict once its key is revealed, else ``None``."""
        r = view.round_no
        if view.deck_commit and r not in self._commits:
            if len(self._commits) > 64:  # a long match: forget the oldest rounds
                for old in sorted(self._commits)[:32]:
                    self._commits.pop(old)
                    self._verdicts.pop(old, None)
            self._commits[r] = view.deck_commit
        if not view.revealed_key:
            return None
        known = self._verdicts.get(r)
        if known is not None:
            return known
        if self._commits.get(r, view.deck_commit) != view.deck_commit:
            verdict = Verdict(False, r, "the deck's commitment changed during the round")
        else:
            verdict = verify_round(view)
        self._verdicts[r] = verdict
        return verdict

    def verdict(self, round_no: int) -> Verdict | None:
        """The verdict of a finished round, if it was checked."""
        return self._verdicts.get(round_no)
