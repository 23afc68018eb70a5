"""The one interface between a front end and a game that may live elsewhere.

A front end (the Textual table) never touches a :class:`~unotui.engine.Game`.  It holds
the latest :class:`~unotui.engine.SeatView` it was sent and sends *intents*:

* :meth:`Controller.send` an action (``R5``, ``draw``, ``colour G`` ...) and get its
  sequence number back.  The answer comes back later through the listener: a
  :class:`~unotui.protocol.events.ViewUpdated` if it was applied (with the protocol's ``accepted`` for that
  number), or its ``refused`` echoing the number, with a stable ``code`` and a message.  Nothing is
  lost: a refused intent changes nothing and the front end keeps showing the last view.
  While an intent is :attr:`~Controller.in_flight` a second key press is not an error:
  the front end simply waits for the answer.
* :meth:`Controller.next_round` when the viewer has read the round summary.
* :meth:`Controller.hint` to ask a computer player what it would do (the one place hints
  are given, the same for every controller).
* :meth:`Controller.chat` a line to the other people at the table (remote games only).

Updates arrive asynchronously (other players act on their own schedule) and are
delivered to the single listener on the event loop the controller was started on.
Besides views they are the messages of :mod:`unotui.protocol.messages` a seat is sent,
one family for the local and the remote game alike: who joined, dropped or came back
(``presence``), when a timed decision runs out (``deadline``), what people said
(``chat``) and that the game is gone (``closed``, with a reason the table shows).

:class:`~unotui.net.local.LocalGame` implements this with an in-process table;
:class:`~unotui.net.remote.RemoteGame` over the wire protocol.  A spectator's
controller has ``seat`` ``None`` and sends no intents.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypeAlias

from ..engine import Action, SeatView
from ..protocol import messages as m
from ..protocol.events import ViewUpdated
from .record import MatchRecord, RecordArrived, RecordRefused
from .room_info import RoomChanged, SeatMark

# (and, to type checkers, Update and Listener)
__all__ = ["Controller", "JoinError", "MatchRecord", "RecordArrived", "RecordRefused"]


if TYPE_CHECKING:  # (a union of the messages would load them all when this module loads)
    #: What a seat is told, local or remote: the view (the protocol's :class:`ViewUpdated`,
    #: as a remote seat's session rebuilds it from the snapshot and deltas), and the
    #: protocol's own messages for the answers, presence (``reconnecting``: this seat's own
    #: link to the host), deadlines (``ms`` after the update arrived; seat ``None``: no
    #: deadline), chat and closure (with a stable ``code``: ``host_left``,
    #: ``connection_lost``, ``kicked``, ``version`` ...).
    Update: TypeAlias = (
        ViewUpdated | m.Accepted | m.Refused | m.Closed | m.Presence | m.Deadline | m.ChatLine | RoomChanged
        | RecordArrived | RecordRefused
    )
    Listener: TypeAlias = Callable[[Update], None]


class JoinError(Exception):
    """The table could not be joined (:meth:`Controller.start` of a remote seat); the
    message is a sentence for the player.  Here, beside the interface, rather than with
    the remote game: the app catches it at every start, solo too, and solo play must not
    load the network client to do so."""

    def __init__(self, message: str, code: str = "error") -> None:
        super().__init__(message)
        self.code = code


class Controller(ABC):
    """A seat at a game, local or remote.  See the module docstring."""

    #: the viewer's seat (``None``: a spectator)
    seat: int | None
    #: whether the table is hosted elsewhere (a :class:`~unotui.net.remote.RemoteGame`):
    #: the front end asks before it imports the network client to look closer, so solo
    #: play never loads it
    remote: ClassVar[bool] = False

    def __init__(self) -> None:
        self._listener: Listener | None = None
        self._seq = 0
        self._pending: set[int] = set()

    def listen(self, listener: Listener | None) -> None:
        """Deliver every later update to ``listener`` (one listener; ``None`` stops)."""
        self._listener = listener

    def _emit(self, update: Update) -> None:
        # (a view first: the answers' module loads with the first answer, after the table is up)
        if not isinstance(update, ViewUpdated) and isinstance(update, m.Accepted | m.Refused) \
                and update.seq is not None:
            self._pending.discard(update.seq)
        if self._listener is not None:
            self._listener(update)

    def _next_seq(self) -> int:
        """Number the next intent (per controller, increasing, from 1)."""
        self._seq += 1
        self._pending.add(self._seq)
        return self._seq

    @property
    def in_flight(self) -> bool:
        """Whether an intent is still waiting for its answer (a remote game's round trip)."""
        return bool(self._pending)

    @property
    def can_chat(self) -> bool:
        """Whether :meth:`chat` reaches anyone (there is nobody to talk to in solo play)."""
        return False

    @property
    def marks(self) -> tuple[SeatMark, ...]:
        """Who holds each seat, as far as this seat knows (computer players, people away
        or stood in for: the Players panel's marks; empty: nothing known)."""
        return ()

    @property
    def record(self) -> MatchRecord | None:
        """The finished match's record: ``None`` until the match is over and this seat
        knows its transcript (a remote seat: once the host's record arrived and matched
        what the seat saw; :class:`RecordArrived` says when)."""
        return None

    @property
    def record_refused(self) -> str:
        """Why the host's record was refused (a sentence), or ``""``."""
        return ""

    @property
    def leaving(self) -> str:
        """What leaving a match that is not over does, in a sentence the quit question shows
        (a solo match is gone; a hosted table plays on, or ends for everyone)."""
        return "The match is not over; it cannot be resumed."

    @property
    @abstractmethod
    def view(self) -> SeatView:
        """The latest view of the viewer's seat (``LookupError`` before the first)."""

    @abstractmethod
    async def start(self) -> None:
        """Begin delivering updates (the first is the current view)."""

    @abstractmethod
    def send(self, action: Action) -> int:
        """Ask to take ``action``; returns its sequence number.  The outcome arrives
        through the listener (``accepted`` or ``refused`` with that number)."""

    @abstractmethod
    def next_round(self) -> None:
        """The viewer is ready for the next round (the dealer deals)."""

    async def hint(self) -> Action | None:
        """What a computer player would do in the viewer's place now: the hard policy's
        :func:`~unotui.bots.suggest`, in a worker thread so the table stays live.  ``None``
        when there is nothing to suggest (no view yet, a spectator, nothing legal).  A hint
        must never break the game, so a policy that fails gives the first legal action."""
        try:
            view = self.view
        except LookupError:
            return None
        if view.seat is None or not view.legal:
            return None
        from ..bots import suggest  # (the hard bot's search: loaded by the first hint)

        try:
            return await asyncio.to_thread(suggest, view)
        except Exception:
            return view.legal[0]

    def chat(self, text: str) -> None:  # noqa: B027 - optional: solo play has no chat
        """Say ``text`` to the table (ignored where :attr:`can_chat` is false)."""

    def pause(self, paused: bool) -> bool:
        """The viewer is reading something over the table (``True``: a dialog, the help,
        the command palette) or is back at it (``False``).  A table that can wait for them
        does, and says so (solo play: its clock stops); a hosted table cannot wait for one
        seat (``False``), so the front end tells what happened meanwhile instead."""
        return False

    def start_match(self) -> None:  # noqa: B027 - optional: only hosted tables wait
        """Ask for the match to start now (a hosted table's own seat; others are refused)."""

    @abstractmethod
    async def close(self) -> None:
        """Stop: no more updates are delivered."""
