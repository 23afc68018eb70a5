"""What actions do: card effects, drawing, challenges, going out and scoring.

Split from :mod:`unotui.engine.game` (which validates and dispatches) so that each module
fits on a few screens.  Everything here assumes the action was already found legal.

Multi-step cards (a wild needs a colour, a swap needs a target, a custom wild may need
discards from several seats) push their remaining steps onto ``todo`` and wait for the
decision; :meth:`TurnMixin._run` resumes them when it arrives.  The phases and the
step types live in :mod:`unotui.engine.flow`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import ALL_CARDS, Card, Colour, Rank
from .events import Event
from .flow import (
    ADVANCE_0,
    ADVANCE_1,
    ADVANCE_2,
    ASK_COLOUR,
    HIT,
    Advance,
    AskColour,
    Begin,
    Hit,
    Phase,
    Resize,
    RunEffect,
    Step,
    seat_after,
)
from .rules import Effect, Rules, Scoring, Stacking
from .shuffle import Label, ShuffleSource

__all__ = ["Phase", "TurnMixin"]


# The four events of every turn (play, turn draw, keep, colour) are built with the tuple
# constructor instead of ``Event(...)``, whose generated ``__new__`` is a Python call:
# bench/engine.py measured 80 ms instead of 85 ms for 300 hands (best of 7), about 6%.
# Every field is written out in Event's order; tests/engine/test_flow.py checks these
# events against ``Event(...)``, so a new field cannot misalign them silently.
_event = tuple.__new__


_SOLO: list[tuple[Card]] = [(c,) for c in ALL_CARDS]  # one-card tuples for the log, shared

_W4 = Rank.WILD4
_D2 = Rank.DRAW2
# Phase members as module globals: on Python 3.11 reading ``Phase.PLAY`` goes through
# the enum metaclass and costs about 130 ns, a global read about 10 ns.
_PLAY = Phase.PLAY
_DRAWN = Phase.DRAWN
_COLOUR = Phase.COLOUR
_TARGET = Phase.TARGET
_DISCARD = Phase.DISCARD
_CHALLENGE = Phase.CHALLENGE


class TurnMixin:
    """State transitions of :class:`~unotui.engine.game.Game` (see there for the fields)."""

    __slots__ = (
        "_commit",
        "_deal_order",
        "_deck",
        "_lc",
        "_lc_seat",
        "_lc_version",
        "_ordinals",
        "_special_legal",
        "active",
        "actor",
        "colour",
        "dealer",
        "direction",
        "discard",
        "discard_left",
        "draw_pile",
        "drawn",
        "eliminated",
        "face_up_until",
        "first_dealer",
        "first_deck",
        "hands",
        "history",
        "log",
        "n",
        "names",
        "pending",
        "phase",
        "pos",
        "round_log_start",
        "round_no",
        "round_points",
        "round_winner",
        "rules",
        "score_history",
        "scores",
        "shuffler",
        "todo",
        "top",
        "uno_called",
        "uno_open",
        "version",
        "wd4",
        "winner",
    )

    # Declared here for the type checker; Game.__init__ and _start_round set them.
    rules: Rules
    n: int
    names: tuple[str, ...]
    scores: list[int]
    eliminated: list[bool]
    active: list[int]
    hands: list[list[Card]]
    draw_pile: list[Card]
    discard: list[Card]
    top: Card
    colour: Colour
    direction: int
    pos: int
    phase: Phase
    actor: int
    pending: int
    drawn: Card | None
    uno_open: int
    uno_called: list[bool]
    wd4: tuple[int, Colour, tuple[Card, ...]] | None
    todo: list[Step]
    discard_left: int
    face_up_until: int
    dealer: int
    round_no: int
    round_winner: int
    round_points: list[int]
    round_log_start: int
    score_history: list[tuple[int, ...]]
    shuffler: ShuffleSource
    history: list[tuple[int, Any]]
    first_dealer: int | None
    first_deck: tuple[Card, ...] | None
    _ordinals: dict[str, int]
    _deal_order: tuple[Card, ...]
    _commit: str
    winner: int
    log: list[Event]
    version: int
    _deck: tuple[Card, ...]
    _lc: tuple[Any, ...]
    _lc_seat: int
    _lc_version: int
    _special_legal: bool

    def team_of(self, seat: int) -> int:
        raise NotImplementedError

    def playable(self, card: Card) -> bool:
        raise NotImplementedError

    def _shuffled(self, label: str, cards: Sequence[Card]) -> list[Card]:
        raise NotImplementedError

    # ----- turn flow ----------------------------------------------------------------------

    def _await(self, phase: Phase, seat: int) -> None:
        self.phase = phase
        self.actor = seat

    def _advance(self, steps: int) -> None:
        """Pass the turn ``steps`` seats on and wait for that seat to play."""
        na = len(self.active)
        self.pos = (self.pos + steps * self.direction) % na
        seat = self.active[self.pos]
        if self.face_up_until == seat:
            self.face_up_until = -1
        self.phase = _PLAY
        self.actor = seat

    def next_seat(self, seat: int | None = None, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` (default: the turn) in the direction of play."""
        pos = self.pos if seat is None else self.active.index(seat)
        return seat_after(self.active, pos, self.direction, steps)

    def _run(self) -> None:
        """Carry out queued steps until one waits for a decision or the queue is empty."""
        todo = self.todo
        while todo:
            step = todo.pop(0)
            match step:
                case Advance(steps):
                    self._advance(steps)
                case AskColour():
                    self._await(_COLOUR, self.active[self.pos])
                    return
                case Hit():
                    self._hit()
                case Begin():
                    self._await(_PLAY, self.active[self.pos])
                case Resize(seat, size):
                    if self._resize(seat, size):
                        return
                case RunEffect(index):
                    if self._effect(Effect(self.rules.custom.effects[index])):
                        return

    # ----- drawing ------------------------------------------------------------------------

    def _pull(self) -> Card | None:
        """Top card of the draw pile, reshuffling the discards (all but the top) if needed."""
        pile = self.draw_pile
        if not pile:
            if len(self.discard) <= 1:
                return None
            rest = self._shuffled(Label.RESHUFFLE, self.discard[:-1])  # top first
            del self.discard[:-1]
            rest.reverse()
            pile.extend(rest)
            self.log.append(Event("reshuffle", value=len(rest)))
        return pile.pop()

    def _draw(self, seat: int, count: int, note: str) -> list[Card]:
        """Seat draws up to ``count`` cards (fewer if both piles run out)."""
        got: list[Card] = []
        for _ in range(count):
            card = self._pull()
            if card is None:
                break
            got.append(card)
        self._take(seat, got, note)
        return got

    def _take(self, seat: int, got: list[Card], note: str) -> None:
        if got:
            self.hands[seat] += got
            self.log.append(Event("draw", seat, tuple(got), -1, len(got), note, seat))
            self.uno_called[seat] = False
            if self.uno_open == seat:
                self.uno_open = -1

    def _can_play_drawn(self, seat: int, card: Card) -> bool:
        """Whether the card just drawn may be played (it matches; no-bluffing allows it)."""
        if not (card.is_wild or card.colour is self.colour or card.rank is self.top.rank):
            return False
        if card.rank is _W4 and self.rules.no_bluffing:
            colour = self.colour
            return not any(c.colour is colour for c in self.hands[seat])
        return True

    def _on_draw(self, seat: int, action: object = None) -> None:
        """Draw on one's turn (rule 10), or take the stacked penalty that is due.

        After a turn draw the drawer is *always* in phase ``drawn``, whether or not the
        hidden card can be played (if it cannot, ``keep`` is the only legal action).  So
        the others learn only whether the drawn card is then played, as at a real table.
        Only when both piles are empty does the turn pass at once (a public ``pass``).
        """
        pile = self.draw_pile
        if pile and not self.pending and not self.rules.draw_to_match:
            # The common case, kept short: draw exactly one card.
            card = pile.pop()
            self.hands[seat].append(card)
            self.log.append(_event(Event, ("draw", seat, _SOLO[card], -1, 1, "turn", seat)))
            self.uno_called[seat] = False
            if self.uno_open == seat:
                self.uno_open = -1
            self.drawn = card
            self.phase = _DRAWN
            return
        if self.pending:
            count, self.pending, self.wd4 = self.pending, 0, None
            self._draw(seat, count, "penalty")
            self.log.append(Event("skip", seat))
            self._advance(1)
            return
        got: list[Card] = []
        while True:
            pulled = self._pull()
            if pulled is None:
                break
            got.append(pulled)
            if not self.rules.draw_to_match or self._can_play_drawn(seat, pulled):
                break
        if not got:
            self.log.append(Event("pass", seat))
            self._advance(1)
            return
        self._take(seat, got, "turn")
        self.drawn = got[-1]  # under draw-to-match unplayable only if the piles ran out
        self.phase = _DRAWN

    def _on_keep(self, seat: int, action: object = None) -> None:
        drawn = self.drawn
        assert drawn is not None
        # Public: that seat kept the card.  The card itself only to that seat (``to``).
        self.log.append(_event(Event, ("keep", seat, _SOLO[drawn], -1, 0, "", seat)))
        self.drawn = None
        self._advance(1)

    # ----- playing ------------------------------------------------------------------------

    def _on_play(self, seat: int, action: Any) -> None:
        card: Card = action.card
        uno: bool = action.uno
        hand = self.hands[seat]
        hand.remove(card)
        if seat != self.actor:
            self.pos = self.active.index(seat)
            self.actor = seat
            if self.face_up_until == seat:  # jumping in is the player's next turn
                self.face_up_until = -1
            self.log.append(Event("jump", seat, (card,)))
        else:
            self.log.append(_event(Event, ("play", seat, _SOLO[card], -1, 1 if uno else 0, "", -1)))
        self.discard.append(card)
        self.top = card
        if card.colour is not None:
            self.colour = card.colour
        self.drawn = None
        left = len(hand)
        if left == 1:
            self.uno_called[seat] = uno
            if not uno:
                self.uno_open = seat
        rank = card.rank
        if not left:
            self._go_out(seat, card)
            return
        if rank <= 9:
            if not self.rules.seven_o:  # the commonest play of all: inline _advance(1)
                self.pos = pos = (self.pos + self.direction) % len(self.active)
                self.actor = nxt = self.active[pos]
                self.phase = _PLAY
                if self.face_up_until == nxt:
                    self.face_up_until = -1
                return
            if rank is Rank.N7:
                self.todo = [ADVANCE_1]
                self._await(_TARGET, seat)
                return
            if rank is Rank.N0:
                self._rotate_hands()
            self._advance(1)
        elif rank is Rank.SKIP:
            self.log.append(Event("skip", self.next_seat()))
            self._advance(2)
        elif rank is Rank.REVERSE:
            self.direction = -self.direction
            self.log.append(Event("reverse", value=self.direction))
            if len(self.active) == 2:
                self.log.append(Event("skip", self.next_seat()))
                self._advance(2)
            else:
                self._advance(1)
        elif rank is _D2:
            self.wd4 = None
            if self.rules.stacking is not Stacking.OFF:
                self.pending += 2
                self._advance(1)
            else:
                victim = self.next_seat()
                self._draw(victim, 2, "penalty")
                self.log.append(Event("skip", victim))
                self._advance(2)
        else:
            self._play_wild(seat, card, hand, self.colour)  # a wild leaves the colour as it was

    def _play_wild(self, seat: int, card: Card, hand: list[Card], prev_colour: Colour) -> None:
        rank = card.rank
        if rank is _W4:
            # The hand as it was, for a challenge (sorted: its order would tell which
            # card arrived when).
            self.wd4 = (seat, prev_colour, tuple(sorted(hand)))
            self.todo = [HIT]
        elif rank is Rank.SWAP:
            self.todo = [ASK_COLOUR, ADVANCE_1]
            self._await(_TARGET, seat)
            return
        elif rank is Rank.SHUFFLE:
            self._shuffle_hands(seat)
            self.todo = [ADVANCE_1]
        elif rank is Rank.CUSTOM:
            effects = self.rules.custom.effects
            self.todo = [*map(RunEffect, range(len(effects))), ADVANCE_1]
        else:
            self.todo = [ADVANCE_1]
        self._await(_COLOUR, seat)

    def _on_colour(self, seat: int, action: Any) -> None:
        self.colour = colour = action.colour
        self.log.append(_event(Event, ("colour", seat, (), -1, int(colour), "", -1)))
        todo = self.todo
        if len(todo) == 1 and todo[0] is ADVANCE_1:  # a plain wild: the next player's turn
            todo.clear()
            self._advance(1)
        else:
            self._run()

    def _hit(self) -> None:
        """A Wild Draw Four landed and its colour is named: the next player faces it."""
        self.pending += 4
        self._advance(1)
        if not self.rules.challenge and self.rules.stacking is Stacking.OFF:
            victim = self.actor
            count, self.pending, self.wd4 = self.pending, 0, None
            self._draw(victim, count, "penalty")
            self.log.append(Event("skip", victim))
            self._advance(1)
        else:
            self.phase = _CHALLENGE

    def _on_challenge(self, seat: int, challenged: bool) -> None:
        count, self.pending = self.pending, 0
        wd4, self.wd4 = self.wd4, None
        if challenged and wd4 is not None:
            offender, colour, snapshot = wd4
            guilty = any(c.colour is colour for c in snapshot)
            self.log.append(Event("challenge", seat, target=offender, value=int(guilty)))
            self.log.append(Event("reveal", offender, snapshot, target=seat, to=seat))
            if guilty:
                self._draw(offender, count, "challenge")
                self.phase = _PLAY  # the challenger plays on
                return
            count += 2
        else:
            self.log.append(Event("accept", seat))
        self._draw(seat, count, "penalty")
        self.log.append(Event("skip", seat))
        self._advance(1)

    # ----- hands changing places ----------------------------------------------------------

    def _on_target(self, seat: int, target: int) -> None:
        hands = self.hands
        hands[seat], hands[target] = hands[target], hands[seat]
        self.uno_called[seat] = self.uno_called[target] = False
        if self.uno_open in (seat, target):
            self.uno_open = -1
        self.log.append(Event("swap", seat, target=target))
        self._run()

    def _rotate_hands(self) -> None:
        """Seven-o zero: every hand passes to the next seat in the direction of play."""
        old = [self.hands[s] for s in self.active]
        na = len(self.active)
        for i, seat in enumerate(self.active):
            self.hands[self.active[(i + self.direction) % na]] = old[i]
            self.uno_called[seat] = False
        self.uno_open = -1
        self.log.append(Event("rotate", value=self.direction))

    def _shuffle_hands(self, seat: int) -> None:
        """Rule 25: gather all hands, shuffle, deal out evenly from the player's left."""
        pool = self._shuffled(Label.HANDS, [c for s in self.active for c in self.hands[s]])
        for s in self.active:
            self.hands[s] = []
            self.uno_called[s] = False
        self.uno_open = -1
        na = len(self.active)
        start = self.active.index(seat)
        for i, card in enumerate(pool):  # from the left (seat numbers rising), whatever the direction
            self.hands[self.active[(start + i + 1) % na]].append(card)
        self.log.append(Event("shuffle", seat))

    # ----- the customizable wild ------------------------------------------------------------

    def _effect(self, effect: Effect) -> bool:
        """Apply one custom wild effect; True if it now waits for a decision."""
        seat = self.active[self.pos]
        victim = self.next_seat()
        self.log.append(Event("effect", seat, note=effect.value))
        if effect is Effect.DRAW_UNTIL_COLOUR:
            got: list[Card] = []
            while (card := self._pull()) is not None:
                got.append(card)
                if card.colour is self.colour:
                    break
            self._take(victim, got, "effect")
        elif effect is Effect.DISCARD_WILDS:
            for s in self.active:
                if s == seat:
                    continue
                wilds = [c for c in self.hands[s] if c.is_wild]
                if wilds:
                    self.hands[s] = [c for c in self.hands[s] if not c.is_wild]
                    self.discard[0:0] = wilds
                    self.log.append(Event("discard", s, tuple(wilds)))
                    if not self.hands[s]:
                        self._draw(s, 1, "effect")
        elif effect is Effect.DRAW3_IF_STUCK:
            if not any(self.playable(c) for c in self.hands[victim]):
                self._draw(victim, 3, "effect")
                self._skip_next()
        elif effect is Effect.EXTRA_TURN:
            self.todo[-1] = ADVANCE_0
        elif effect is Effect.SKIP_NEXT:
            self._skip_next()
        elif effect is Effect.NEXT_DRAWS_TWO:
            self._draw(victim, 2, "effect")
        elif effect is Effect.NEXT_TO_SEVEN:
            self.todo.insert(0, Resize(victim, 7))
        elif effect is Effect.ALL_TO_THREE:
            na = len(self.active)
            order = [self.active[(self.pos + k * self.direction) % na] for k in range(na)]
            self.todo[0:0] = [Resize(s, 3) for s in order]
        elif effect is Effect.HANDS_FACE_UP:
            self.face_up_until = seat
        elif effect is Effect.SWAP_HANDS:
            self._await(_TARGET, seat)
            return True
        elif effect is Effect.SHUFFLE_HANDS:
            self._shuffle_hands(seat)
        return False

    def _skip_next(self) -> None:
        # A custom wild's queue ends with its Advance; an extra turn already won stays.
        if self.todo[-1] != ADVANCE_0:
            self.todo[-1] = ADVANCE_2
            self.log.append(Event("skip", self.next_seat()))

    def _resize(self, seat: int, size: int) -> bool:
        """Seat draws or discards to exactly ``size`` cards; True if it must discard."""
        have = len(self.hands[seat])
        if have < size:
            self._draw(seat, size - have, "effect")
        elif have > size:
            self.discard_left = have - size
            self._await(_DISCARD, seat)
            return True
        return False

    def _on_discard(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        self.discard.insert(0, card)  # under the pile: the top card and colour stay
        self.log.append(Event("discard", seat, (card,)))
        self.discard_left -= 1
        if not self.discard_left:
            self._run()

    # ----- end of a round -------------------------------------------------------------------

    def _go_out(self, seat: int, card: Card) -> None:
        """Rule 15: the next player still draws for a Draw Two / Wild Draw Four; then score."""
        if card.rank is _D2 or card.rank is _W4:
            count = self.pending + (2 if card.rank is _D2 else 4)
            self._draw(self.next_seat(), count, "penalty")
        self.pending = 0
        self.wd4 = None
        self.uno_open = -1
        self.todo = []
        self.round_winner = seat
        self.round_points = [sum(c.points for c in h) for h in self.hands]
        self._score(seat)
        self.score_history.append(tuple(self.scores))

    def _score(self, winner: int) -> None:
        rules, scores, held = self.rules, self.scores, self.round_points
        if rules.scoring is Scoring.STANDARD:
            side = self.team_of(winner)
            gained = sum(held[s] for s in self.active if self.team_of(s) != side)
            for s in range(self.n):
                if self.team_of(s) == side:
                    scores[s] += gained
            self.log.append(Event("round", winner, value=gained))
            done = max(scores) >= rules.target_score
            best = winner
        else:
            for s in self.active:
                team = [t for t in self.active if self.team_of(t) == self.team_of(s)]
                scores[s] += sum(held[t] for t in team)
            self.log.append(Event("round", winner))
            if rules.scoring is Scoring.LOWEST:
                done = max(scores) >= rules.target_score
                best = min(self.active, key=lambda s: (scores[s], s != winner, s))
            else:
                for s in self.active:
                    if scores[s] >= rules.target_score:
                        self.eliminated[s] = True
                        self.log.append(Event("eliminated", s, value=scores[s]))
                standing = [s for s in range(self.n) if not self.eliminated[s]]
                done = len(standing) <= 1
                best = standing[0] if standing else winner
        if done:
            self.winner = best
            self.log.append(Event("match", best))
            self._await(Phase.MATCH_OVER, -1)
            return
        d = self.dealer
        for _ in range(self.n):
            d = (d + 1) % self.n
            if not self.eliminated[d]:
                break
        self.dealer = d
        self._await(Phase.ROUND_OVER, d)
