"""The computer-player interface, shared helpers, and the uniformly random player.

A bot is given a :class:`~unotui.engine.SeatView` and nothing else: never the
:class:`~unotui.engine.Game`, so it cannot see hidden cards by construction.  It returns
one action from ``view.legal``.  Bots may keep private memory between calls.  Every level
but ``hard`` is stateless apart from its random source: everything it knows is rebuilt
from the view (hand, counts, the redacted log), so it can be moved between threads or
processes, or rebuilt for each decision, without changing how it plays.  ``hard`` also
keeps what it learnt of its opponents' Wild Draw Fours this match, from its own views
(:mod:`unotui.bots.memory`): build one per seat per match and keep it.

How a host drives a bot (the simulator and the UI both follow this):

* ``choose(view)`` when ``view.actor == view.seat`` (including ``deal`` between rounds);
  the answer is one of ``view.legal``.
* ``react(view)`` (optional; see :func:`react`) when it is *not* the bot's decision but
  ``view.legal`` is not empty: out-of-turn UNO calls, catches and jump-ins.  ``None``
  means "let it pass".
* ``think_delay`` seconds: how long an interactive host waits before applying ``choose``
  (0 in simulation), so a human can follow the table.
* ``forget_uno``: the chance that the bot, playing its second-to-last card, forgets to
  call UNO (a documented level knob: easy 30%, medium 10%, hard never; see
  ``docs/bots.md``).  Drawn from the bot's own ``rng``, so seeded games and simulations
  stay reproducible.  A bot that forgot does not call late out of turn (a person can
  catch it until the next player acts); it calls on its own turn if it comes first.
* ``catch_delay`` seconds: the least time an interactive host lets pass after a seat went
  down to one card (the moment the chance appears on every screen) before it applies this
  bot's ``catch`` (from ``choose`` or ``react``): the level's catch window (easy 3 s,
  medium 2.5 s, hard 2 s; ``docs/bots.md``).  A person must be able to call UNO first, and
  to catch first once catching opens for them, so it is never below
  :data:`MIN_CATCH_DELAY`.

``choose`` and ``react`` are pure and synchronous: they never sleep or do I/O.  The one
level that thinks for long (``hard``) is bounded by its ``deadline``; run it in a worker
thread or process (bots are picklable and cheap to build) so an event loop never blocks.
"""

from __future__ import annotations

from random import Random
from typing import Protocol, runtime_checkable

from ..engine import ACCEPT, CALL_UNO, CHALLENGE, DEAL, DRAW, Action, Card, Catch, Phase, Play, SeatView, play

__all__ = [
    "MIN_CATCH_DELAY",
    "BaseBot",
    "Bot",
    "RandomBot",
    "plays_of",
    "react",
    "with_uno",
]

MIN_CATCH_DELAY = 2.0
"""The soonest any computer player catches, in seconds after the chance appears on screen.

A person's catch opens at the table's catch grace (1 s by default, at least 0.75 s:
``MIN_CATCH_GRACE``); seeing ``X did not call UNO: catch (c)!`` and pressing ``c`` then
takes a person about half a second to a second (a choice reaction to a line of text; the
play-test of issue 19 pressed at 1.5 s and lost to a bot every time).  Two seconds leaves
a person who reacts within a second of catching opening the first catch at every level
(the referee also keeps bots a second behind a longer grace: ``CATCH_REACTION``)."""


@runtime_checkable
class Bot(Protocol):
    """A computer player: picks one of ``view.legal`` for the view's seat."""

    name: str

    def choose(self, view: SeatView) -> Action:
        """Return one of ``view.legal``.  Must not block for long (see ``deadline``)."""
        ...


def with_uno(card: Card, legal: tuple[Action, ...]) -> Play:
    """The play of ``card`` that calls UNO if that is offered (never forgets).

    The engine offers ``play(card, True)`` when the play leaves one card; asking for it
    whenever it is legal means the player can never be caught.  Bots that may forget use
    :meth:`BaseBot.play_and_call`; this is for hard's policy and its search.
    """
    called = play(card, True)
    return called if called in legal else play(card, False)


def plays_of(legal: tuple[Action, ...]) -> list[Card]:
    """Distinct cards that ``legal`` lets the seat play, in the engine's order."""
    seen: dict[Card, None] = {}
    for a in legal:
        if type(a) is Play:
            seen[a.card] = None
    return list(seen)


def react(bot: object, view: SeatView) -> Action | None:
    """Ask ``bot`` for an out-of-turn action, for bots that only implement ``choose``.

    Bots with a ``react`` method are asked directly.  Others only ever call UNO for
    themselves (always right) and otherwise let the moment pass.
    """
    method = getattr(bot, "react", None)
    if callable(method):
        answer = method(view)
        return answer if answer is None or isinstance(answer, Action) else None
    return CALL_UNO if CALL_UNO in view.legal else None


class BaseBot:
    """Defaults every level shares: delays, UNO calls, catches, dealing.

    Attributes:
        name: the level's name.
        rng: the bot's only random source (seed it for reproducible games).
        think_delay: seconds an interactive host pauses before applying a decision.
        catch_delay: seconds an interactive host waits before applying a catch, after the
            chance appeared: the level's catch window (clamped to at least
            :data:`MIN_CATCH_DELAY`; the baselines, ``random`` and ``greedy``, take easy's 3 s).
        catch_rate: chance of catching a seat that forgot UNO when the chance comes.
        forget_uno: chance of forgetting to call UNO with the second-to-last card
            (default: the level's :attr:`FORGET_UNO`).
        uses_log: whether the bot reads ``view.log``; a host may pass a view with an
            empty log to bots that do not.  Redacting the round's log is most of what a
            view costs: the simulator plays random against random at 844-904 games/s
            with this honoured and 279-396 with every bot given the log (issue 17).
    """

    name = "base"
    uses_log = False
    FORGET_UNO = 0.0
    """The level's default chance of forgetting to call UNO."""

    def __init__(
        self,
        rng: Random | None = None,
        *,
        think_delay: float = 0.0,
        catch_delay: float = 3.0,
        catch_rate: float = 0.5,
        forget_uno: float | None = None,
    ) -> None:
        self.rng = rng if rng is not None else Random()
        self.think_delay = max(0.0, float(think_delay))
        self.catch_delay = max(MIN_CATCH_DELAY, float(catch_delay))
        self.catch_rate = min(1.0, max(0.0, float(catch_rate)))
        forget = self.FORGET_UNO if forget_uno is None else forget_uno
        self.forget_uno = min(1.0, max(0.0, float(forget)))

    def play_and_call(self, card: Card, legal: tuple[Action, ...]) -> Play:
        """The play of ``card``, calling UNO when that is offered - unless the bot forgets.

        Forgetting (chance ``forget_uno``) is what makes catching (``c``) worth watching
        for in solo play.  The random number is drawn only when there is a call to
        forget, so a level that never forgets plays exactly as before.
        """
        called = play(card, True)
        if called not in legal:
            return play(card, False)
        if self.forget_uno and self.rng.random() < self.forget_uno:
            return play(card, False)
        return called

    def react(self, view: SeatView) -> Action | None:
        """Out of turn: call UNO for ourselves (unless we forgot), maybe catch, maybe jump in."""
        legal = view.legal
        if CALL_UNO in legal:
            # Only a seat that did not call can call late.  A level that can forget
            # stays forgetful until its own turn; one that never forgets calls at once.
            return None if self.forget_uno else CALL_UNO
        for a in legal:
            if type(a) is Catch and self.rng.random() < self.catch_rate:
                return a
        jump = plays_of(legal)
        if jump:
            return self.jump_in(view, jump[0])
        return None

    def jump_in(self, view: SeatView, card: Card) -> Action | None:
        """Whether to jump in with ``card``, identical to the top (default: always; it sheds)."""
        return self.play_and_call(card, view.legal)

    def housekeeping(self, view: SeatView) -> Action | None:
        """Actions that come before any strategy: call UNO, catch, deal, forced moves.

        Every level asks this first, so no level can miss its own UNO call, a deal or a
        move that is the only one.
        """
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == Phase.ROUND_OVER:
            return DEAL if DEAL in legal else legal[0]
        if view.uno_open >= 0:
            if CALL_UNO in legal:
                return CALL_UNO
            for a in legal:
                if type(a) is Catch and self.rng.random() < self.catch_rate:
                    return a
        return None

    def choose(self, view: SeatView) -> Action:  # pragma: no cover - overridden
        """Return one of ``view.legal``."""
        raise NotImplementedError


class RandomBot(BaseBot):
    """The random baseline of the literature: a uniformly random *playable* card.

    It draws only when nothing is playable (like RLCard's and UnoAI's random players) and
    plays a playable drawn card; colours, targets, discards and challenges are uniform.
    It forgets to call UNO 30% of the time.  Every other level must beat it.
    """

    name = "random"
    FORGET_UNO = 0.3

    def choose(self, view: SeatView) -> Action:
        """Uniform over the substantive choices (plays before drawing or keeping)."""
        legal = view.legal
        first = self.housekeeping(view)
        if first is not None and type(first) is not Catch:
            return first
        cards = plays_of(legal)
        if view.phase == Phase.CHALLENGE:
            options: list[Action] = [a for a in legal if a is CHALLENGE or a is ACCEPT]
            options += [self.play_and_call(c, legal) for c in cards]
            return options[self.rng.randrange(len(options))]
        if cards:
            return self.play_and_call(cards[self.rng.randrange(len(cards))], legal)
        if DRAW in legal:
            return DRAW
        options = [a for a in legal if type(a) is not Catch and a is not CALL_UNO]
        return options[self.rng.randrange(len(options))] if options else legal[0]
