"""What the referee is told and what it answers: pacing, and the records of an outcome.

Everything here is a plain value (named tuples of ints, floats,
strings and engine actions), so that a host can journal :attr:`Outcome.accepted` before it
acknowledges or broadcasts anything, and a test can compare outcomes with ``==``.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine import Action
from .states import PresenceState

__all__ = [
    "AUTO_KEEP",
    "AWAY",
    "BAD_SEQ",
    "BOT_SEAT",
    "CATCH_REACTION",
    "MIN_CATCH_GRACE",
    "NOT_READY",
    "SEAT_LOST",
    "STALE_SEQ",
    "TOO_EARLY",
    "Accepted",
    "Deadlines",
    "Outcome",
    "Pacing",
    "PresenceChange",
    "Refusal",
]

MIN_CATCH_GRACE: float = 0.75
"""The shortest catch grace a real table may use (rules.md, item 18): the least time a
person who forgot UNO has to call it before anyone, person or bot, may catch them.

Computer players catch later still: each level no sooner than its own window after the
chance appeared (the bots' ``catch_delay``, at least :data:`~unotui.bots.MIN_CATCH_DELAY`,
2 s) and never sooner than :data:`CATCH_REACTION` after catching opened, so that a person
who watches for the chance has it first (issue 19: one pressing ``c`` at 1.5 s lost to a
computer player every time)."""

CATCH_REACTION: float = 1.0
"""Seconds a person has, once catching opens (the catch grace), before any computer
player may catch: the time to see the line and press ``c``.  At the default grace (1 s)
the levels' own windows are longer anyway (2 s and more after the chance appears); this
keeps bots behind a person at a table with a longer grace too.  Only at a real table's
grace (:data:`MIN_CATCH_GRACE` or more): tests and the simulator, with no grace, have
no person to wait for."""

AUTO_KEEP: float = 3.0
"""Seconds a person has after a draw to play the card before it is kept for them.

The same whether or not the card can be played (the spec promises the others learn only
whether it is then played; an unplayable card kept after a fixed short pause while a
playable one waited for its player told them which, every time).  Long enough to decide
on a playable card; the player keeps an unplayable one at once with ``k``."""

# Refusal codes of the referee itself; the engine's codes (``not_your_turn``, ``unplayable``,
# ...) are passed through unchanged.  Like the engine's, these are part of the protocol.
TOO_EARLY = "too_early"
"""A catch before the grace period after the card landed is over."""
NOT_READY = "not_ready"
"""The dealer dealt while another connected person is still reading the round's result."""
BOT_SEAT = "bot_seat"
"""An intent for a seat that a computer player holds (for good)."""
AWAY = "away"
"""An intent for a seat whose connection was dropped and not resumed."""
SEAT_LOST = "seat_lost"
"""A resume after the seat's hold expired: a computer player has the seat for good."""
STALE_SEQ = "stale_seq"
"""An old sequence number whose answer is no longer remembered."""
BAD_SEQ = "bad_seq"
"""A negative sequence number (they start at 0 and increase)."""

class Pacing(NamedTuple):
    """The table's timing rules, in seconds.

    Attributes:
        bot_delay: how long a computer player waits before it acts, so that people can
            follow the table (0 in simulations and tests).
        catch_grace: after a card leaves someone on one card without an UNO call, nobody
            may catch them for this long; the player may still call UNO meanwhile.  Real
            tables use at least :data:`MIN_CATCH_GRACE` (the referee does not clamp: tests
            and simulations use 0).
        auto_keep: after a person's draw, the card is kept for them (or, when the rules
            force it, played) if they have neither played nor kept it within this many
            seconds: the same deadline whether or not the card can be played, so that the
            timing tells nobody which (see :data:`AUTO_KEEP`).  A turn timer that is
            shorter ends the decision instead, again in both cases.  A computer player's
            drawn card is kept when it would have decided, playable or not.
        turn_timer: seconds a person has for each decision; on expiry the referee plays the
            engine's :meth:`~unotui.engine.Game.timeout_action` for them.  ``None`` (the
            default, and the LAN default) means no timer.
        hold: seconds a dropped person's seat is held for them; then a computer player
            takes it for good.
        between_rounds: least seconds between the end of a round and a computer dealer's
            deal (after every connected person is ready).  ``None``: the table stops at the
            end of each round (the simulator plays single hands this way).
        bot_delays: honour each bot's own ``think_delay`` and ``catch_delay`` on top of
            ``bot_delay`` and ``catch_grace``.  The simulator turns it off: it does not
            simulate time, and out-of-turn actions then come in seat order.
    """

    bot_delay: float = 0.6
    catch_grace: float = 1.0
    auto_keep: float = AUTO_KEEP
    turn_timer: float | None = None
    hold: float = 120.0
    between_rounds: float | None = 0.0
    bot_delays: bool = True

    @staticmethod
    def instant() -> Pacing:
        """No waiting at all: every deadline is due at once (simulations, tests)."""
        return Pacing(bot_delay=0.0, catch_grace=0.0, auto_keep=0.0, bot_delays=False)


class Accepted(NamedTuple):
    """One applied action, in the order applied: what a journal appends.

    ``seq`` is the intent's sequence number, or -1 for the referee's own actions (computer
    players, automatic keeps, turn timeouts).
    """

    seq: int
    seat: int
    action: Action


class Refusal(NamedTuple):
    """An intent that changed nothing; sent to ``seat`` only."""

    seat: int
    seq: int
    code: str
    message: str


class PresenceChange(NamedTuple):
    """A seat's presence as everyone should see it: ``away``, ``back`` or ``bot`` (see
    :class:`~unotui.table.states.PresenceState`); the referee reports no other state."""

    seat: int
    state: PresenceState


class Deadlines(NamedTuple):
    """The public clocks of the table (absolute times on the referee's clock).

    Attributes:
        turn: (seat, time) when the turn timer of the person due to act runs out.
        catch: (seat, time) from when the seat that forgot UNO may be caught.
        holds: (seat, time) for each dropped seat: when its hold expires.
    """

    turn: tuple[int, float] | None = None
    catch: tuple[int, float] | None = None
    holds: tuple[tuple[int, float], ...] = ()


class Outcome(NamedTuple):
    """What one call to the referee means for the table.

    Every answer to a person's intent is here (``accepted`` with its number, ``refusals``,
    ``replayed``): a host never works out an answer by itself.
    A host journals ``accepted`` first, then acknowledges and broadcasts: ``refusals`` to
    their seat only; when ``changed``, every seat's (and spectator's) view is rebuilt;
    ``presence`` and a new ``deadlines`` (``None`` when they did not change) to everyone.

    Attributes:
        accepted: actions applied, in order.
        refusals: intents refused, each for its seat alone.
        changed: whether the game changed (some action was applied).
        presence: presence changes, in order.
        deadlines: the public deadlines, when they changed.
        replayed: ``(seat, seq)`` of retried intents that were applied before: each is
            answered as accepted again and not applied again (with :attr:`accepted` and
            :attr:`refusals`, every intent of the call is answered here).
        timeouts: the seats whose turn timer ran out, in order: the table acted for each
            (the action is among :attr:`accepted`, seq -1, which alone cannot tell a
            timeout from a computer player's move or an automatic keep).
    """

    accepted: tuple[Accepted, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    changed: bool = False
    presence: tuple[PresenceChange, ...] = ()
    deadlines: Deadlines | None = None
    replayed: tuple[tuple[int, int], ...] = ()
    timeouts: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        """True if there is anything to send."""
        return bool(
            self.accepted or self.refusals or self.replayed or self.presence or self.deadlines is not None
        )
