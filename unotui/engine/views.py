"""The one place that decides what a seat (or a spectator) may see.

Bots, network peers and screens only ever get a :class:`SeatView`.  It holds the seat's
own hand, every other seat's card *count*, the public state and the log with other
seats' private cards blanked.  Hidden cards leave the engine through nowhere else.

A hand is shown to others only when the rules make it public: the revealed hand of a
challenged Wild Draw Four (to the challenger alone, through the log) and every hand while
a custom wild's "hands face up" effect lasts.

Hands in a view are sorted in the cards' fixed order (red, yellow, green, blue, then the
wilds; see :class:`~unotui.engine.cards.Card`), never in the order the cards arrived:
after a swap, arrival order plus the public draw log would tell which card came when.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from .actions import Action
from .cards import Card, Colour, by_code
from .errors import NoSuchSeatError
from .events import Event
from .flow import Phase, seat_after
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

__all__ = ["PUBLIC_FIELDS", "MomentViews", "SeatView", "seat_view", "seat_views", "spectator_view"]


class SeatView(NamedTuple):
    """Everything one seat may know, at one moment.

    An immutable record (a named tuple, as :class:`~unotui.engine.events.Event` is):
    a host builds one per seat after every action, and a tuple is built in C where a
    frozen dataclass sets its 37 fields one Python call at a time (7.6 against 0.8 µs a
    view; a third of the host's CPU per action, ``bench/host_path.py``).  Change one with
    ``view._replace(...)``; its field names are ``SeatView._fields``.

    Attributes:
        seat: the viewer's seat, or ``None`` for a spectator.
        names: every seat's name.
        hand: the viewer's cards, sorted (empty for a spectator).
        counts: cards held by each seat.
        face_up: hands visible to everyone now (seat -> sorted cards), under "hands face
            up" and at the end of a round.
        top: the top discard.
        colour: the colour in play (the *named* colour after a wild).
        direction: +1 (to the left, seat numbers rising) or -1.
        turn: whose turn it is; ``actor``: whose decision is awaited; ``phase``: what kind.
        pending: stacked draw penalty waiting on ``actor``.
        drawn: the card the viewer just drew (phase ``drawn``; ``keep`` may be its only
            action, when it cannot be played).
        discard_left: cards the actor must still discard (phase ``discard``).
        draw_count / discard_count: pile sizes.
        uno_called: seats holding one card that called UNO; ``uno_open``: seat catchable now.
        wd4_by: seat whose Wild Draw Four may be challenged now (or -1).
        challenge_colour: the colour a challenge of that Wild Draw Four is judged against
            (the colour in play before it), or ``None`` when there is none to challenge.
        scores, round_points, round_no, dealer, round_winner, winner, eliminated: match state.
        teams: team number of each seat (each seat its own team without teams).
        legal: actions the viewer may take now.
        log: the public log as the viewer may see it, from index ``log_start`` of the
            match log on (pass ``log_from=game.round_log_start`` for this round only).
        version: the game's change counter when the view was made.
        history: cumulative scores after each finished round of the match (one tuple per
            round, empty until the first round ends), for the match chart.
        deck_commit: the host's commitment to this round's deck, from the deal on (hex;
            see :mod:`unotui.engine.shuffle`).
        revealed_key: this round's key (hex) once the round is over, else ``""``: with it
            :func:`~unotui.engine.verify.verify_round` recomputes every shuffle of the round.
    """

    seat: int | None
    names: tuple[str, ...]
    rules: Rules
    hand: tuple[Card, ...]
    counts: tuple[int, ...]
    face_up: dict[int, tuple[Card, ...]]
    top: Card
    colour: Colour
    direction: int
    turn: int
    actor: int
    phase: Phase
    pending: int
    drawn: Card | None
    discard_left: int
    draw_count: int
    discard_count: int
    uno_called: tuple[bool, ...]
    uno_open: int
    wd4_by: int
    scores: tuple[int, ...]
    round_points: tuple[int, ...]
    round_no: int
    dealer: int
    round_winner: int
    winner: int
    eliminated: tuple[bool, ...]
    teams: tuple[int, ...]
    active: tuple[int, ...]
    legal: tuple[Action, ...]
    log: tuple[Event, ...] = ()
    log_start: int = 0
    version: int = 0
    history: tuple[tuple[int, ...], ...] = ()
    challenge_colour: Colour | None = None
    deck_commit: str = ""
    revealed_key: str = ""

    @property
    def my_turn(self) -> bool:
        """Whether the viewer's decision is awaited."""
        return self.seat is not None and self.actor == self.seat

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.names)

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The active seat ``steps`` places after ``seat`` in the direction of play."""
        return seat_after(self.active, self.active.index(seat), self.direction, steps)


def seat_view(game: Game, seat: int | None, log_from: int = 0) -> SeatView:
    """What ``seat`` may see of ``game`` (``None``: a spectator).

    Args:
        log_from: include log events from this index on (0: the whole match log).

    Raises:
        NoSuchSeatError: ``seat`` is not a seat at this table (a negative index must not
            show another seat's hand).
    """
    return seat_views(game, ((seat, log_from),))[0]


class MomentViews(list[SeatView]):
    """The views :func:`seat_views` built for one moment, and ``public``: the values of
    :data:`PUBLIC_FIELDS` that every one of them holds (the very same objects), so that
    an encoder can take them once rather than from each view."""

    public: tuple[object, ...]


def seat_views(game: Game, viewers: Sequence[tuple[int | None, int]]) -> MomentViews:
    """The views of several seats at one moment, one per ``(seat, log_from)`` of
    ``viewers`` (:func:`seat_view` is one of them).

    What every seat sees alike (counts, scores, the public log events, the hands laid
    face up ...) is computed once, and the views share those objects; only each seat's
    own hand, drawn card, legal actions and private log events are its own.  A host
    sending one moment to every seat builds them this way (and can encode the shared
    parts once, see :class:`~unotui.protocol.codec.SharedDeltas`).

    Raises:
        NoSuchSeatError: a viewer is not a seat at this table.
    """
    n = game.n
    for seat, _log_from in viewers:
        if seat is not None and not 0 <= seat < n:
            raise NoSuchSeatError(f"there is no seat {seat} at this {n}-seat table")
    hands = game.hands
    phase = game.phase
    face_up: dict[int, tuple[Card, ...]] = {}
    if phase is _ROUND_OVER or phase is _MATCH_OVER:
        face_up = {s: tuple(sorted(hands[s], key=by_code)) for s in game.active if hands[s]}
    elif game.face_up_until >= 0:
        face_up = {s: tuple(sorted(hands[s], key=by_code)) for s in game.active}
    wd4 = game.wd4 if phase is _CHALLENGE else None
    names, rules, top, colour, direction = game.names, game.rules, game.top, game.colour, game.direction
    turn, actor, pending, discard_left = game.turn, game.actor, game.pending, game.discard_left
    counts = tuple(len(h) for h in hands)
    draw_count, discard_count = len(game.draw_pile), len(game.discard)
    uno_called, uno_open = tuple(game.uno_called), game.uno_open
    wd4_by = wd4[0] if wd4 is not None else -1
    challenge_colour = wd4[1] if wd4 is not None else None
    scores, round_points = tuple(game.scores), tuple(game.round_points)
    round_no, dealer, round_winner, winner = game.round_no, game.dealer, game.round_winner, game.winner
    eliminated = tuple(game.eliminated)
    teams = _teams(game)
    active = tuple(game.active)
    version = game.version
    history = tuple(game.score_history)
    deck_commit, revealed_key = game.deck_commit, game.revealed_key  # (the key: a new str each time)
    log = game.log
    # Each event once per log_from: public events are shared as they are, a private one
    # as its owner sees it (itself) or as everyone else does (one blanked copy).
    blanked: dict[int, Event] = {}
    logs: dict[int, tuple[tuple[Event, ...], frozenset[int]]] = {}
    out = MomentViews()
    out.public = (
        names, rules, counts, face_up, top, colour, direction, turn, actor, phase, pending,
        discard_left, draw_count, discard_count, uno_called, uno_open, wd4_by, scores,
        round_points, round_no, dealer, round_winner, winner, eliminated, teams, active,
        version, history, challenge_colour, deck_commit, revealed_key,
    )
    for seat, log_from in viewers:
        seen = logs.get(log_from)
        if seen is None:  # the events, and the seats that own a private one with cards
            events = tuple(log[log_from:])
            seen = logs[log_from] = (events, frozenset(e.to for e in events if e.to >= 0 and e.cards))
        events, owners = seen
        if owners and (seat not in owners or len(owners) > 1):
            events = tuple(
                e if e.to < 0 or e.to == seat or not e.cards else _blank(blanked, log_from + i, e)
                for i, e in enumerate(events)
            )
        out.append(
            _new_view((
                seat,
                names,
                rules,
                tuple(sorted(hands[seat], key=by_code)) if seat is not None else (),
                counts,
                face_up,
                top,
                colour,
                direction,
                turn,
                actor,
                phase,
                pending,
                game.drawn if seat == actor else None,
                discard_left,
                draw_count,
                discard_count,
                uno_called,
                uno_open,
                wd4_by,
                scores,
                round_points,
                round_no,
                dealer,
                round_winner,
                winner,
                eliminated,
                teams,
                active,
                game.legal_actions(seat) if seat is not None else (),
                events,
                log_from,
                version,
                history,
                challenge_colour,
                deck_commit,
                revealed_key,
            ))
        )
    return out


#: a view from all its values in field order, as one tuple (the engine's one way to make one)
_new_view: Callable[[tuple[object, ...]], SeatView] = partial(tuple.__new__, SeatView)


#: the view's fields every viewer of one moment sees alike, in field order
#: (``MomentViews.public`` holds their values; the protocol checks its own list is this)
PUBLIC_FIELDS: tuple[str, ...] = tuple(
    name for name in SeatView._fields if name not in ("seat", "hand", "drawn", "legal", "log", "log_start")
)


def _teams(game: Game) -> tuple[int, ...]:
    """Each seat's team: fixed for the match, so made once per game and table size."""
    key = (game.n, game.rules.teams)
    teams = _TEAMS.get(key)
    if teams is None:
        teams = _TEAMS[key] = tuple(game.team_of(s) for s in range(game.n))
    return teams


_TEAMS: dict[tuple[int, bool], tuple[int, ...]] = {}


def _blank(cache: dict[int, Event], index: int, event: Event) -> Event:
    """``event`` (at ``index`` in the log) as seats other than its owner see it, made once."""
    blank = cache.get(index)
    if blank is None:
        blank = cache[index] = event.redacted(None)
    return blank


_CHALLENGE = Phase.CHALLENGE
_ROUND_OVER = Phase.ROUND_OVER
_MATCH_OVER = Phase.MATCH_OVER


def spectator_view(game: Game, log_from: int = 0) -> SeatView:
    """What someone watching (no seat) may see."""
    return seat_view(game, None, log_from)
