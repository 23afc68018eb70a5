"""Every decision a seat made in a match, with what that seat knew when it made it.

The match is replayed through the engine (:func:`unotui.transcript.replay` reads the file,
whatever its format version, and gives the game whose ``history`` is every action that
was applied, the ones a ``/1`` file leaves implied included); the decisions are then
taken from a second game stepped through that history with :meth:`Game.apply`, so each
one sees the position exactly as the engine had it.

A *decision* is an action taken by the seat whose decision the game awaits
(``game.actor``): playing, drawing, keeping or playing a drawn card, naming a colour,
challenging or accepting a Wild Draw Four, choosing a target, discarding.  Left out, and
why: dealing (one legal action, nothing to judge), calling UNO and catching (out of turn,
a matter of speed at a table rather than of judgement; the playout model calls UNO for
everyone).  Forced moves (one legal option) are kept: their chance still belongs on the
seat's curve across the match.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..engine import Action, CallUno, Catch, Deal, Game, SeatView, seat_view
from ..transcript import Transcript, replay

__all__ = ["Decision", "decisions"]


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one seat.

    Attributes:
        step: its index in the game's history (the actions applied, deals included).
        seat: who decided.
        round: the round it was made in (1 for the first).
        view: the seat's view at that moment (``seat_view``: only what the seat knew;
            the log of this round, as a computer player is given it).
        legal: its legal actions then.
        action: the action taken.
    """

    step: int
    seat: int
    round: int
    view: SeatView
    legal: tuple[Action, ...]
    action: Action

    @property
    def phase(self) -> str:
        """The kind of decision (the game's phase: ``play``, ``drawn``, ``colour``, ...)."""
        return str(self.view.phase)


_SKIPPED = (Deal, CallUno, Catch)


def decisions(transcript: Transcript) -> Iterator[Decision]:
    """Replay ``transcript`` and yield each decision in the order it was made.

    Raises:
        TranscriptError: the transcript is malformed or a step is illegal (raised before
            anything is yielded: the whole file is replayed first).
    """
    history = replay(transcript).history
    game: Game = transcript.new_game()
    for step, (seat, action) in enumerate(history):
        if game.actor == seat and not isinstance(action, _SKIPPED):
            view = seat_view(game, seat, game.round_log_start)
            yield Decision(step, seat, game.round_no, view, view.legal, action)
        game.apply(seat, action)
