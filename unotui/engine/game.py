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

The state is this object's fields, all declared below.  What reads it and what changes
it are functions of it, a module each: :mod:`~unotui.engine.legal` (the legal actions
and the reason for a refusal), :mod:`~unotui.engine.turns` (what each action does),
:mod:`~unotui.engine.steps` (the moves those are made of) and
:mod:`~unotui.engine.rounds` (dealing and scoring).  This class validates, dispatches
and answers the queries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import legal as _legal_mod
from .actions import (
    ACCEPT,
    COLOUR_CHOICES,
    DRAW,
    KEEP,
    Accept,
    Action,
    Challenge,
    ChooseTarget,
    Draw,
    Keep,
    Play,
    play,
)
from .cards import Card, Colour, most_held_colour
from .deck import build_deck, cached_deck, deal_order
from .errors import RulesError
from .events import Event
from .flow import Phase, Step
from .rounds import draw_for_dealer, start_round
from .rules import Rules
from .shuffle import ShuffleSource, commitment
from .steps import next_seat
from .turns import HANDLERS

__all__ = ["Game", "Phase", "build_deck", "deal_order"]


class Game:
    """One match: seats, scores, and the state of the current round.

    Args:
        players: the number of seats, or the players' names (2-10).
        rules: the table's rules (validated for this table size).
        dealer: the first dealer; by default the seats draw for it (highest number deals).
        deck: the first round's deck from the top down (or just its top cards; the rest
            of the deck follows, shuffled).  For tests and replays.
        seed: derive the match secret from this seed (simulations, tests, replays).
        secret: the match secret itself (32 bytes; replaying a saved game).
        keys: instead of a secret, every round's key (round -> 32 bytes; round 0 draws
            for the first dealer): replaying a match a seat saw, whose host revealed its
            keys but never its secret.

    With neither ``seed`` nor ``secret`` the secret comes from
    :func:`secrets.token_bytes`: the way every real game (solo, LAN, lobby) is dealt.
    """

    # Slots: the state has more fields than CPython's shared-key instance dicts hold
    # (30), and a subclass of the same layout may stand in for a game (tests do).
    __slots__ = (
        "_commit", "_deal_order", "_deck", "_lc", "_lc_seat", "_lc_version", "_ordinals",
        "active", "actor", "colour", "dealer", "direction", "discard", "discard_left",
        "draw_pile", "drawn", "eliminated", "face_up_until", "first_dealer", "first_deck",
        "hands", "history", "log", "n", "names", "pending", "phase", "pos",
        "round_log_start", "round_no", "round_points", "round_winner", "rules",
        "score_history", "scores", "shuffler", "todo", "top", "uno_called", "uno_open",
        "version", "wd4", "winner",
    )  # fmt: skip

    # ---- the match
    names: tuple[str, ...]
    n: int
    rules: Rules
    shuffler: ShuffleSource  # every random outcome (one per-match secret)
    history: list[tuple[int, Any]]  # accepted (seat, action), in order
    first_dealer: int | None  # as given (None: drawn), for a transcript
    first_deck: tuple[Card, ...] | None  # as given, for a transcript
    scores: list[int]
    eliminated: list[bool]
    round_no: int
    dealer: int
    winner: int  # the match winner, or -1
    score_history: list[tuple[int, ...]]  # scores after each finished round
    log: list[Event]
    version: int  # bumps on every change; views and caches key on it
    # ---- the round in play (dealt by rounds.start_round)
    active: list[int]  # seats still in the match
    hands: list[list[Card]]
    draw_pile: list[Card]  # the top is the end of the list
    discard: list[Card]  # the top is the end of the list
    top: Card
    colour: Colour
    direction: int
    pos: int  # the turn's index into active
    phase: Phase
    actor: int  # the seat whose decision is awaited (-1: none)
    pending: int  # stacked draw penalty due
    drawn: Card | None  # the card the actor just drew
    uno_open: int  # the seat that can be caught for not calling UNO (-1: none)
    uno_called: list[bool]
    wd4: tuple[int, Colour, tuple[Card, ...]] | None  # (by, colour before, hand then)
    todo: list[Step]  # steps a multi-step card still has to take
    discard_left: int
    face_up_until: int  # hands face up until this seat's turn (-1: not)
    round_winner: int
    round_points: list[int]  # points each hand held at round end
    round_log_start: int  # this round's events start here (its "deal")
    _deck: tuple[Card, ...]  # the rules' deck, in its fixed order
    _ordinals: dict[str, int]  # shuffles of each kind this round
    _deal_order: tuple[Card, ...]  # the order this round's key dealt (committed to)
    _commit: str  # that commitment, made when first asked for
    # legal_actions() cache, valid while version and seat match.  A tuple: callers get
    # the cached value itself, so it must be immutable (apply checks against it).
    _lc_version: int
    _lc_seat: int
    _lc: tuple[Action, ...]

    def __init__(
        self,
        players: int | Sequence[str],
        rules: Rules | None = None,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
        seed: int | None = None,
        secret: bytes | None = None,
        keys: Mapping[int, bytes] | None = None,
    ) -> None:
        self.names = (
            tuple(f"Player {i + 1}" for i in range(players))
            if isinstance(players, int)
            else tuple(players)
        )
        self.n = len(self.names)
        self.rules = (rules or Rules()).validate(self.n)
        try:
            self.shuffler = ShuffleSource(secret, seed=seed, keys=keys)
        except ValueError as exc:
            raise RulesError(str(exc)) from None
        self.history = []
        self.first_dealer = dealer
        self.first_deck = tuple(deck) if deck is not None else None
        self._ordinals = {}
        self._deal_order = ()
        self._commit = ""
        self.scores = [0] * self.n
        self.eliminated = [False] * self.n
        self.round_no = 0
        self.winner = -1
        self.round_winner = -1
        self.round_points = [0] * self.n
        self.score_history = []
        self.log = []
        self.version = 0
        self._lc_version, self._lc_seat = -1, -1
        self._lc = ()
        self._deck = cached_deck(self.rules)
        if dealer is None:
            dealer = draw_for_dealer(self)
        elif not 0 <= dealer < self.n:
            raise RulesError(f"dealer must be a seat 0-{self.n - 1}, not {dealer}")
        self.dealer = dealer
        start_round(self, list(deck) if deck is not None else None)

    def clone(self) -> Game:
        """An independent copy of this game, to play on (a search bot's playouts).

        The copy shares only values nothing changes in place (the rules, cards, actions,
        events, steps and the shuffle source, whose output depends on its secret alone),
        so the two play on apart and, given the same actions, alike: the same shuffles,
        events and views.
        """
        twin = object.__new__(type(self))
        for name in Game.__slots__:
            value = getattr(self, name)
            if type(value) is list or type(value) is dict:
                value = value.copy()
            setattr(twin, name, value)
        twin.hands = [hand.copy() for hand in self.hands]
        return twin

    # ----- queries ----------------------------------------------------------------------

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
        if (self.phase is Phase.ROUND_OVER or self.phase is Phase.MATCH_OVER) and self._deal_order:
            return self.shuffler.round_key(self.round_no).hex()
        return ""

    @property
    def turn(self) -> int:
        """The seat whose turn it is (it may be waiting on another seat's decision)."""
        return self.active[self.pos]

    @property
    def over(self) -> bool:
        """True once the match has a winner."""
        return self.phase is Phase.MATCH_OVER

    @property
    def colour_unnamed(self) -> bool:
        """True while the first card of the round is a wild whose colour nobody has named
        yet: ``colour`` then holds a placeholder, not a colour in play."""
        return self.phase is Phase.COLOUR and len(self.discard) == 1 and self.top.is_wild

    def team_of(self, seat: int) -> int:
        """Team number of a seat (partners sit across); the seat itself without teams."""
        return seat % (self.n // 2) if self.rules.teams else seat

    def playable(self, card: Card) -> bool:
        """Whether ``card`` matches the discard pile now (ignoring stacking and bluff rules)."""
        return card.is_wild or card.colour is self.colour or card.rank is self.top.rank

    def next_seat(self, seat: int | None = None, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` (default: the turn) in the direction of play."""
        return next_seat(self, seat, steps)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, out-of-turn ones included
        (:func:`unotui.engine.legal.legal`).

        The answer is an immutable tuple, cached until the next change: :meth:`apply`
        checks actions against that same cached value.

        Raises:
            NoSuchSeatError: ``seat`` is not a seat at this table.
        """
        if self._lc_version != self.version or self._lc_seat != seat:
            self._lc = _legal_mod.legal(self, seat)
            self._lc_version, self._lc_seat = self.version, seat
        return self._lc

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
        if phase is Phase.MATCH_OVER or seat < 0:
            return None
        legal = self.legal_actions(seat)
        if phase is Phase.PLAY:
            return seat, DRAW
        if phase is Phase.DRAWN:
            return seat, KEEP if KEEP in legal else legal[0]
        if phase is Phase.CHALLENGE:
            return seat, ACCEPT
        if phase is Phase.COLOUR:
            return seat, COLOUR_CHOICES[most_held_colour(self.hands[seat])]
        if phase is Phase.TARGET:
            return seat, ChooseTarget(self.next_seat(seat))
        return seat, legal[0]  # discard the first card; deal

    # ----- apply --------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Validate and apply ``action`` by ``seat``.

        Raises:
            IllegalActionError: a subclass saying why; the state is unchanged.
        """
        legal = self.legal_actions(seat) if 0 <= seat < self.n else None
        if legal is None or action not in legal:
            if isinstance(action, Play) and action.uno and legal is not None:
                # Calling UNO with a play that doesn't leave one card is just a play.
                plain = play(action.card)
                if plain in legal:
                    action = plain
                else:
                    _legal_mod.refuse(self, seat, action)
            else:
                _legal_mod.refuse(self, seat, action)
        self.version += 1
        self.history.append((seat, action))
        if self.uno_open >= 0 and self.uno_open != seat and type(action) in _BEGINS_TURN:
            self.uno_open = -1  # the next player acted: the catch window closes
        HANDLERS[type(action)](self, seat, action)


# Rule 16: a catch is possible until the next player "begins their turn (draws or plays)".
_BEGINS_TURN = frozenset({Play, Draw, Keep, Challenge, Accept})
