"""The authoritative game state of one match, and the only code that changes it.

A :class:`Game` is a match of several rounds.  Callers ask which actions a seat may take
(:meth:`Game.legal_actions`, out-of-turn ones included) and :meth:`Game.apply` one; an
illegal action raises a specific :class:`~unotui.engine.errors.IllegalActionError` and
leaves the state untouched.  Between rounds the next dealer's only action is ``deal``.

Every random outcome (the deal, a re-flip, a reshuffle, shuffled hands, the draw for the
first dealer) comes from one :class:`~unotui.engine.shuffle.ShuffleSource`, keyed by a
per-match secret from :mod:`secrets` (the default, and what real games use); a seed or a
given secret makes a game replay exactly from (players, rules, dealer, deck, secret,
actions).  :attr:`Game.history` holds the accepted actions, for a transcript.

Hidden information: this object holds every hand.  Never hand it to a bot, a peer or a
widget; give them :func:`unotui.engine.views.seat_view` instead.

Turn structure (``phase``; ``actor`` is the seat whose decision is awaited)::

    play       actor plays a card or draws (under stacking, ``pending`` cards are due)
    drawn      actor drew on their turn: play the drawn card if it can be played, or keep
               it (only ``keep`` when it cannot: others never learn which it was)
    colour     actor names the colour of the wild just played
    target     actor chooses a seat (swap hands, seven-o 7)
    discard    actor discards down to a size a custom wild demanded
    challenge  actor (hit by a Wild Draw Four) challenges, accepts or stacks
    round_over the next dealer deals
    match_over nothing more

Out of turn, at any phase but the last two: a seat that went down to one card without
calling may ``uno``; anyone else may ``catch`` it until the next player acts; under
jump-in, a seat holding the card identical to the top discard may play it.

The phases are the :class:`~unotui.engine.flow.Phase` enum; the steps a multi-step card
queues are in :mod:`unotui.engine.flow` too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from . import turns
from .actions import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    COLOUR_CHOICES,
    DEAL,
    DRAW,
    KEEP,
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    ChooseTarget,
    Deal,
    Discard,
    Draw,
    Keep,
    Play,
    play,
)
from .cards import ALL_CARDS, Card, Colour, Rank, most_held_colour
from .deck import build_deck, cached_deck, deal_order
from .errors import (
    BadChoiceError,
    CardNotInHandError,
    NoSuchSeatError,
    NotYourTurnError,
    RulesError,
    UnplayableCardError,
    WrongPhaseError,
)
from .events import Event
from .flow import BEGIN, Phase, Step
from .rules import Rules, Stacking
from .shuffle import Label, ShuffleSource, commitment

__all__ = ["Game", "Phase", "build_deck", "deal_order"]


_W4 = Rank.WILD4
_D2 = Rank.DRAW2
# Phase members as module globals (a global read is ~10x cheaper than ``Phase.PLAY``
# on Python 3.11, and legal_actions runs on every move).
_PLAY = Phase.PLAY
_DRAWN = Phase.DRAWN
_COLOUR = Phase.COLOUR
_TARGET = Phase.TARGET
_DISCARD = Phase.DISCARD
_CHALLENGE = Phase.CHALLENGE
_ROUND_OVER = Phase.ROUND_OVER
_MATCH_OVER = Phase.MATCH_OVER


class Game(turns.TurnMixin):
    """One match: seats, scores, and the state of the current round.

    Its fields are slots (declared in :class:`~unotui.engine.turns.TurnMixin`): that keeps
    attribute access on the hot path uniform and fast (CPython's shared-key instance
    dicts stop at 30 keys; this state has more).

    Args:
        players: the number of seats, or the players' names (2-10).
        rules: the table's rules (validated for this table size).
        dealer: the first dealer; by default the seats draw for it (highest number deals).
        deck: the first round's deck from the top down (or just its top cards; the rest
            of the deck follows, shuffled).  For tests and replays.
        seed: derive the match secret from this seed (simulations, tests, replays).
        secret: the match secret itself (32 bytes; replaying a saved game).

    With neither ``seed`` nor ``secret`` the secret comes from
    :func:`secrets.token_bytes`: the way every real game (solo, LAN, lobby) is dealt.
    """

    __slots__ = ()  # the fields are declared (as slots) in TurnMixin

    def __init__(
        self,
        players: int | Sequence[str],
        rules: Rules | None = None,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
        seed: int | None = None,
        secret: bytes | None = None,
    ) -> None:
        self.names: tuple[str, ...] = (
            tuple(f"Player {i + 1}" for i in range(players))
            if isinstance(players, int)
            else tuple(players)
        )
        self.n = len(self.names)
        self.rules = (rules or Rules()).validate(self.n)
        try:
            self.shuffler = ShuffleSource(secret, seed=seed)
        except ValueError as exc:
            raise RulesError(str(exc)) from None
        self.history = []  # accepted (seat, action), in order
        self.first_dealer = dealer  # as given (None: drawn), for a transcript
        self.first_deck = tuple(deck) if deck is not None else None
        self._ordinals = {}
        self._deal_order = ()
        self._commit = ""
        self.scores = [0] * self.n
        self.eliminated: list[bool] = [False] * self.n
        self.round_no = 0
        self.winner = -1  # match winner
        self.round_winner = -1
        self.round_points: list[int] = [0] * self.n  # points each hand held at round end
        self.score_history: list[tuple[int, ...]] = []  # scores after each finished round
        self.log: list[Event] = []
        self.version = 0  # bumps on every change; views and caches key on it
        # legal_actions() cache, valid while version and seat match.  A tuple: callers get
        # the cached value itself, so it must be immutable (apply checks against it).
        self._lc_version, self._lc_seat = -1, -1
        self._lc: tuple[Action, ...] = ()
        # Rules that add actions outside the hot path of _legal
        self._special_legal = self.rules.jump_in or self.rules.no_bluffing
        self._deck = cached_deck(self.rules)
        if dealer is None:
            dealer = self._draw_for_dealer()
        elif not 0 <= dealer < self.n:
            raise RulesError(f"dealer must be a seat 0-{self.n - 1}, not {dealer}")
        self.dealer = dealer
        self._start_round(list(deck) if deck is not None else None)

    # ----- setup ------------------------------------------------------------------------

    def _draw_for_dealer(self) -> int:
        """Rule 1: everyone draws; the highest number deals (symbols count 0); ties redraw."""
        contenders = list(range(self.n))
        attempt = 0
        while True:
            attempt += 1
            pile = iter(self.shuffler.shuffled(0, Label.DEALER, attempt, self._deck))
            values = {}
            for seat in contenders:
                card = next(pile)
                values[seat] = int(card.rank) if card.rank <= Rank.N9 else 0
                self.log.append(Event("dealer", seat, (card,), value=values[seat]))
            best = max(values.values())
            contenders = [s for s in contenders if values[s] == best]
            if len(contenders) == 1:
                return contenders[0]

    def _start_round(self, order: list[Card] | None = None) -> None:
        self.round_no += 1
        self.active: list[int] = [s for s in range(self.n) if not self.eliminated[s]]
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        self._ordinals = {}
        self._commit = ""
        pile = self._shuffled(Label.DEAL, self._deck)  # top first
        # The commitment covers the order the round key deals.  A stacked deck (tests,
        # replays, tutorials) was not shuffled: nothing is committed to or revealed.
        self._deal_order = () if order else tuple(pile)
        if order:
            rest = Counter(pile)
            rest.subtract(order)
            if min(rest.values(), default=0) < 0:
                bad = [c.text for c, k in rest.items() if k < 0]
                raise RulesError(f"the given deck has more of {', '.join(bad)} than the rules' deck")
            tail = [c for c in pile if rest[c] > 0 and not rest.subtract([c])]
            pile = order + tail
        pile.reverse()  # internally the top of the pile is the end of the list
        self.draw_pile: list[Card] = pile
        self.discard: list[Card] = []
        self.direction = 1
        self.pending = 0
        self.drawn: Card | None = None
        self.uno_open = -1  # seat that can be caught for not calling UNO
        self.uno_called = [False] * self.n
        self.wd4: tuple[int, Colour, tuple[Card, ...]] | None = None
        self.todo: list[Step] = []
        self.discard_left = 0
        self.face_up_until = -1
        self.round_winner = -1
        self.round_points = [0] * self.n
        self.round_log_start = len(self.log)  # this round's events start here (its "deal")
        self.log.append(Event("deal", self.dealer, value=self.round_no))
        na = len(self.active)
        start = self.active.index(self.dealer)
        for _ in range(self.rules.hand_size):
            for k in range(1, na + 1):
                self.hands[self.active[(start + k) % na]].append(self.draw_pile.pop())
        self.pos = (start + 1) % na
        self.phase = _PLAY
        self.actor = self.active[self.pos]
        self._flip_first(start)
        self.version += 1

    def _flip_first(self, dealer_pos: int) -> None:
        """Rules 2-7: the first discard and what it does (nobody "played" it).

        A Wild Draw Four goes back and the pile is reshuffled; if nothing but Wild Draw
        Fours is left to flip (a crowded table), it stays and counts as a plain Wild
        (docs/rules.md, "The first card").
        """
        while True:
            card = self.draw_pile.pop()
            if card.rank is not _W4 or all(c.rank is _W4 for c in self.draw_pile):
                break
            self.log.append(Event("reflip", cards=(card,)))
            self.draw_pile.append(card)
            again = self._shuffled(Label.REFLIP, self.draw_pile)
            again.reverse()
            self.draw_pile[:] = again
        self.discard.append(card)
        self.top = card
        self.log.append(Event("flip", cards=(card,)))
        first = self.actor
        if card.is_wild:
            self.colour = Colour.RED  # placeholder until named (see colour_unnamed)
            self._await(_COLOUR, first)
            self.todo = [BEGIN]
            return
        assert card.colour is not None
        self.colour = card.colour
        rank = card.rank
        if rank is _D2:
            self._draw(first, 2, "first")
            self.log.append(Event("skip", first))
            self._advance(1)
        elif rank is Rank.REVERSE:
            self.direction = -1
            self.log.append(Event("reverse", value=-1))
            if len(self.active) == 2:
                self.log.append(Event("skip", first))
                self._advance(1)  # two players: reverse acts as skip
            else:
                self.pos = dealer_pos
                self._await(_PLAY, self.dealer)
        elif rank is Rank.SKIP:
            self.log.append(Event("skip", first))
            self._advance(1)

    # ----- randomness -------------------------------------------------------------------

    def _shuffled(self, label: str, cards: Sequence[Card]) -> list[Card]:
        """The next shuffle of kind ``label`` this round (top first): every random outcome
        of a round goes through here (:mod:`unotui.engine.shuffle`)."""
        ordinal = self._ordinals[label] = self._ordinals.get(label, 0) + 1
        return self.shuffler.shuffled(self.round_no, label, ordinal, cards)

    @property
    def deck_commit(self) -> str:
        """This round's commitment (public from the deal on): SHA-256 of the round key
        and the deck order it deals, in hex (:func:`~unotui.engine.shuffle.commitment`);
        ``""`` for a round dealt from a stacked deck (``deck=``: tests and replays)."""
        if not self._commit and self._deal_order:
            self._commit = commitment(self.shuffler.round_key(self.round_no), self._deal_order)
        return self._commit

    @property
    def revealed_key(self) -> str:
        """The finished round's key in hex, once the round is over; ``""`` while it is on
        (revealing it earlier would tell every hand and the order of the pile); ``""``
        too for a round dealt from a stacked deck, which has no commitment."""
        if (self.phase is _ROUND_OVER or self.phase is _MATCH_OVER) and self._deal_order:
            return self.shuffler.round_key(self.round_no).hex()
        return ""

    # ----- queries ----------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The seat whose turn it is (it may be waiting on another seat's decision)."""
        return self.active[self.pos]

    @property
    def over(self) -> bool:
        """True once the match has a winner."""
        return self.phase is _MATCH_OVER

    @property
    def colour_unnamed(self) -> bool:
        """True while the first card of the round is a wild whose colour nobody has named
        yet: ``colour`` then holds a placeholder, not a colour in play."""
        return self.phase is _COLOUR and len(self.discard) == 1 and self.top.is_wild

    def team_of(self, seat: int) -> int:
        """Team number of a seat (partners sit across); the seat itself without teams."""
        return seat % (self.n // 2) if self.rules.teams else seat

    def playable(self, card: Card) -> bool:
        """Whether ``card`` matches the discard pile now (ignoring stacking and bluff rules)."""
        return card.is_wild or card.colour is self.colour or card.rank is self.top.rank

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, out-of-turn ones included.

        The answer is an immutable tuple, cached until the next change: :meth:`apply`
        checks actions against that same cached value.

        Raises:
            NoSuchSeatError: ``seat`` is not a seat at this table.
        """
        if self._lc_version == self.version and self._lc_seat == seat:
            return self._lc
        if self.phase is _PLAY and seat == self.actor and not self.pending and not self._special_legal:
            # The hot path, inlined: a plain turn at a table without jump-in or no-bluffing.
            hand = self.hands[seat]
            # Set intersection dedupes and runs in C; cards hash as their codes, so the
            # order is the same in every process.
            ok = _MATCH[self.colour, self.top.rank].intersection(hand)
            if len(hand) == 2:
                out: tuple[Action, ...] = (*self._plays(sorted(ok), hand), DRAW)
            else:
                out = (*map(_PLAY_BY_CODE.__getitem__, ok), DRAW)
            if self.uno_open >= 0:  # e.g. two players: going again after one's own Skip
                out += (CALL_UNO if seat == self.uno_open else Catch(self.uno_open),)
        elif self.phase is _DRAWN and seat == self.actor:
            # Second hot path: after most draws the card cannot be played and "keep" is all
            # there is (no UNO window is open: the draw closed it).
            drawn = self.drawn
            assert drawn is not None
            out = tuple(self._legal(seat)) if self._can_play_drawn(seat, drawn) else _KEEP_ONLY
        else:
            if not 0 <= seat < self.n:
                raise NoSuchSeatError(f"there is no seat {seat} at this {self.n}-seat table")
            out = tuple(self._legal(seat))
        self._lc_version, self._lc_seat, self._lc = self.version, seat, out
        return out

    def _legal(self, seat: int) -> list[Action]:
        """The general case of :meth:`legal_actions` (every phase, every house rule)."""
        phase = self.phase
        hand = self.hands[seat]
        out: list[Action] = []
        if seat == self.actor:
            if phase is _DRAWN:
                drawn = self.drawn
                assert drawn is not None
                if self._can_play_drawn(seat, drawn):
                    out = self._plays([drawn], hand)
                    if not self.rules.forced_play:
                        out.append(KEEP)
                else:
                    out = [KEEP]  # the only choice; others cannot tell it from a keep by choice
            elif phase is _COLOUR:
                out = list(COLOUR_CHOICES)
            elif phase is _PLAY:
                if self.pending:
                    out = self._plays(self._stackable(hand), hand)
                else:
                    ok = sorted(_MATCH[self.colour, self.top.rank].intersection(hand))
                    if self.rules.no_bluffing and self._holds_colour(hand):
                        ok = [c for c in ok if c.rank is not _W4]
                    out = self._plays(ok, hand)
                out.append(DRAW)
            elif phase is _CHALLENGE:
                out = [CHALLENGE, ACCEPT] if self.rules.challenge else [ACCEPT]
                if self.rules.stacking is not Stacking.OFF:
                    out += self._plays(self._stackable(hand), hand)
            elif phase is _TARGET:
                out = [ChooseTarget(s) for s in self.active if s != seat]
            elif phase is _DISCARD:
                out = [Discard(c) for c in _unique(hand)]
            elif phase is _ROUND_OVER:
                return [DEAL] if seat == self.dealer else []
        elif phase is _ROUND_OVER:
            return [DEAL] if seat == self.dealer else []
        elif phase is _MATCH_OVER:
            return []
        elif self.rules.jump_in and phase is _PLAY and not self.pending:
            top = self.top
            if not top.is_wild and top in hand and seat in self.active:
                out += self._plays([top], hand)
        uno_open = self.uno_open
        if uno_open >= 0:
            if seat == uno_open:
                out.append(CALL_UNO)
            elif seat in self.active:
                out.append(Catch(uno_open))
        return out

    @staticmethod
    def _plays(cards: list[Card], hand: list[Card]) -> list[Action]:
        """Play actions for ``cards``.  With two cards in hand each play is offered plain
        and with the UNO call attached (forgetting to call is legal, and punishable)."""
        if len(hand) == 2:
            return [p for c in cards for p in (play(c), play(c, True))]
        return [play(c) for c in cards]

    def _holds_colour(self, hand: list[Card]) -> bool:
        colour = self.colour
        return any(c.colour is colour for c in hand)

    def timeout_action(self) -> tuple[int, Action] | None:
        """What the host applies for ``actor`` when their turn timer runs out.

        Always the least a player could do: draw, keep the drawn card (play it only when
        forced play demands), accept a Wild Draw Four, name the colour they hold most of,
        choose the next seat, discard their first card, deal.  It is one ordinary action
        of the seat that is due, so a timeout can never give anyone a second turn; a
        timed-out turn takes two of them (``draw``, then ``keep``).  ``None`` when
        nothing is awaited.
        """
        seat, phase = self.actor, self.phase
        if phase is _MATCH_OVER or seat < 0:
            return None
        legal = self.legal_actions(seat)
        if phase is _PLAY:
            return seat, DRAW
        if phase is _DRAWN:
            return seat, KEEP if KEEP in legal else legal[0]
        if phase is _CHALLENGE:
            return seat, ACCEPT
        if phase is _COLOUR:
            return seat, COLOUR_CHOICES[most_held_colour(self.hands[seat])]
        if phase is _TARGET:
            return seat, ChooseTarget(self.next_seat(seat))
        return seat, legal[0]  # discard the first card; deal

    def _stackable(self, hand: list[Card]) -> list[Card]:
        """Cards of ``hand`` that may be stacked on the pending penalty (no bluffing applies
        to a stacked Wild Draw Four as to any other)."""
        ok = [c for c in _unique(hand) if self._stacks(c)]
        if self.rules.no_bluffing and self._holds_colour(hand):
            ok = [c for c in ok if c.rank is not _W4]
        return ok

    def _stacks(self, card: Card) -> bool:
        """Whether ``card`` may be stacked on the pending draw penalty."""
        mode = self.rules.stacking
        if mode is Stacking.OFF:
            return False
        top = self.top.rank
        if mode is Stacking.OFFICIAL:
            return card.rank is top and (top is _D2 or top is _W4)
        if card.rank is _W4:
            return True
        return card.rank is _D2 and (top is _D2 or card.colour is self.colour)

    # ----- apply --------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Validate and apply ``action`` by ``seat``.

        Raises:
            IllegalActionError: a subclass saying why; the state is unchanged.
        """
        if self._lc_version == self.version and self._lc_seat == seat:
            legal: tuple[Action, ...] | None = self._lc
        else:
            legal = self.legal_actions(seat) if 0 <= seat < self.n else None
        if legal is None or action not in legal:
            if isinstance(action, Play) and action.uno and legal is not None:
                # Calling UNO with a play that doesn't leave one card is just a play.
                plain = play(action.card)
                if plain in legal:
                    action = plain
                else:
                    self._refuse(seat, action)
            else:
                self._refuse(seat, action)
        self.version += 1
        self.history.append((seat, action))
        if self.uno_open >= 0 and self.uno_open != seat and type(action) in _BEGINS_TURN:
            self.uno_open = -1  # the next player acted: the catch window closes
        if type(action) is Play:  # the commonest action skips the table lookup
            self._on_play(seat, action)
        else:
            _DISPATCH[type(action)](self, seat, action)

    def _on_uno(self, seat: int, action: Action) -> None:
        self.uno_open = -1
        self.uno_called[seat] = True
        self.log.append(Event("uno", seat))

    def _on_catch(self, seat: int, action: Action) -> None:
        assert isinstance(action, Catch)
        self.uno_open = -1
        self.log.append(Event("catch", seat, target=action.seat))
        self._draw(action.seat, self.rules.uno_penalty, "uno")

    def _on_deal(self, seat: int, action: Action) -> None:
        self.dealer = seat
        self._start_round()

    def _refuse(self, seat: int, action: Action) -> None:
        """Raise the most specific error for an action that is not legal now."""
        if not 0 <= seat < self.n:
            raise NoSuchSeatError(f"there is no seat {seat} at this {self.n}-seat table")
        if self.phase is _MATCH_OVER:
            raise WrongPhaseError("the match is over")
        if isinstance(action, Deal):
            if self.phase is not _ROUND_OVER:
                raise WrongPhaseError("the round is still being played")
            raise NotYourTurnError(f"seat {self.dealer} deals the next round")
        if self.phase is _ROUND_OVER:
            raise WrongPhaseError(f"the round is over; seat {self.dealer} deals next")
        if isinstance(action, (ChooseTarget, Catch)) and not 0 <= action.seat < self.n:
            raise NoSuchSeatError(f"there is no seat {action.seat}")
        if isinstance(action, CallUno):
            raise WrongPhaseError("UNO can only be called right after going down to one card")
        if isinstance(action, Catch):
            raise BadChoiceError(f"seat {action.seat} cannot be caught now")
        if isinstance(action, (Play, Discard)) and action.card not in self.hands[seat]:
            raise CardNotInHandError(f"seat {seat} does not hold {action.card}")
        if seat != self.actor:
            if isinstance(action, Play) and self.rules.jump_in:
                raise UnplayableCardError(
                    f"{action.card} is not identical to the top card {self.top}; no jump-in"
                )
            raise NotYourTurnError(f"it is seat {self.actor}'s decision, not seat {seat}'s")
        expected = _PHASE_ACTIONS[self.phase]
        if not isinstance(action, expected):
            raise WrongPhaseError(f"now is the time to {_PHASE_WORDS[self.phase]}")
        if isinstance(action, Play):
            if self.phase is _DRAWN and action.card is not self.drawn:
                raise UnplayableCardError(f"only the card just drawn ({self.drawn}) may be played")
            if action.card.rank is _W4 and self.rules.no_bluffing and self._holds_colour(self.hands[seat]):
                raise UnplayableCardError(
                    f"no bluffing: Wild Draw Four only without a {self.colour.name.lower()} card"
                )
            if self.pending:
                raise UnplayableCardError(f"{action.card} cannot be stacked on the draw penalty")
            raise UnplayableCardError(
                f"{action.card} does not match {self.top} ({self.colour.name.lower()})"
            )
        if isinstance(action, Keep) and self.rules.forced_play:
            raise WrongPhaseError("forced play: a playable drawn card must be played")
        if isinstance(action, Challenge):
            raise WrongPhaseError("challenges are off at this table")
        raise BadChoiceError(f"{action} is not one of the choices now")


def _unique(hand: list[Card]) -> list[Card]:
    """Distinct cards of a hand in first-held order (duplicates give the same action)."""
    return list(dict.fromkeys(hand)) if len(hand) > 1 else hand


def _build_match() -> dict[tuple[Colour, Rank], frozenset[Card]]:
    """For each (colour in play, top rank): the cards that may be played on it."""
    table = {}
    for colour in Colour:
        for rank in Rank:
            table[colour, rank] = frozenset(
                c
                for c in ALL_CARDS
                if c.is_wild or c.colour is colour or (c.rank is rank and not rank.is_wild)
            )
    return table


_MATCH = _build_match()
_PLAY_BY_CODE: list[Play] = [play(c) for c in ALL_CARDS]
_KEEP_ONLY: tuple[Action, ...] = (KEEP,)
_DISPATCH: dict[type, Callable[[Game, int, Any], None]] = {
    Play: Game._on_play,
    Draw: Game._on_draw,
    Keep: Game._on_keep,
    ChooseColour: Game._on_colour,
    ChooseTarget: lambda g, seat, a: g._on_target(seat, a.seat),
    Challenge: lambda g, seat, a: g._on_challenge(seat, True),
    Accept: lambda g, seat, a: g._on_challenge(seat, False),
    CallUno: Game._on_uno,
    Catch: Game._on_catch,
    Discard: lambda g, seat, a: g._on_discard(seat, a.card),
    Deal: Game._on_deal,
}

# Rule 16: a catch is possible until the next player "begins their turn (draws or plays)".
_BEGINS_TURN = frozenset({Play, Draw, Keep, Challenge, Accept})
_PHASE_ACTIONS: dict[Phase, type | tuple[type, ...]] = {
    Phase.PLAY: (Play, Draw),
    Phase.DRAWN: (Play, Keep),
    Phase.COLOUR: ChooseColour,
    Phase.TARGET: ChooseTarget,
    Phase.DISCARD: Discard,
    Phase.CHALLENGE: (Challenge, Accept, Play),
}
_PHASE_WORDS = {
    Phase.PLAY: "play a card or draw",
    Phase.DRAWN: "play the card just drawn or keep it",
    Phase.COLOUR: "name a colour",
    Phase.TARGET: "choose a player",
    Phase.DISCARD: "discard a card",
    Phase.CHALLENGE: "challenge or accept the Wild Draw Four",
}
