"""The one interface between a front end and a game that may live elsewhere.

A front end (the Textual table) never touches a :class:`~unotui.engine.Game`.  It holds
the latest :class:`~unotui.engine.SeatView` it was sent and sends *intents*:

* :meth:`Controller.send` an action (``R5``, ``draw``, ``colour G`` ...) and get its
  sequence number back.  The answer comes back later through the listener: a
  :class:`ViewChanged` if it was applied (with :class:`Answered` for that number), or a
  :class:`Refused` echoing the number, with a stable ``code`` and a message.  Nothing is
  lost: a refused intent changes nothing and the front end keeps showing the last view.
  While an intent is :attr:`~Controller.in_flight` a second key press is not an error:
  the front end simply waits for the answer.
* :meth:`Controller.next_round` when the viewer has read the round summary.
* :meth:`Controller.hint` to ask a computer player what it would do.
* :meth:`Controller.chat` a line to the other people at the table (remote games only).

Updates arrive asynchronously (other players act on their own schedule) and are
delivered to the single listener on the event loop the controller was started on.
Besides views they say who joined, dropped or came back (:class:`Presence`), when a
timed decision runs out (:class:`Deadline`), what people said (:class:`Chat`) and that
the game is gone (:class:`Closed`, with a reason the table shows).

:class:`~unotui.client.local.LocalGame` implements this with an in-process table;
:class:`~unotui.net.remote.RemoteGame` over the wire protocol.  A spectator's
controller has ``seat`` ``None`` and sends no intents.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import Action, SeatView
from ..protocol import messages as m
from .room import RoomChanged

__all__ = [
    "Answered",
    "Chat",
    "Closed",
    "Controller",
    "Deadline",
    "Listener",
    "Presence",
    "Refused",
    "RoomChanged",
    "Update",
    "ViewChanged",
    "update_of",
]


@dataclass(frozen=True, slots=True)
class ViewChanged:
    """The game changed: here is everything the viewer may now see."""

    view: SeatView


@dataclass(frozen=True, slots=True)
class Refused:
    """An intent was refused; ``code`` is a stable error code, ``seq`` the intent's number."""

    action: str
    code: str
    message: str
    seq: int = -1


@dataclass(frozen=True, slots=True)
class Answered:
    """The intent numbered ``seq`` was applied (its effect is in the latest view)."""

    seq: int


@dataclass(frozen=True, slots=True)
class Closed:
    """The game went away; ``reason`` is a sentence for the player, ``code`` a stable word
    (``host_left``, ``connection_lost``, ``kicked``, ``version``, ``error`` ...)."""

    reason: str
    code: str = "closed"


@dataclass(frozen=True, slots=True)
class Presence:
    """Someone's connection changed: ``state`` is one of :class:`~unotui.table.PresenceState`
    (``reconnecting``: this seat's own link to the host); ``seat`` is ``None`` for a spectator."""

    seat: int | None
    name: str
    state: str


@dataclass(frozen=True, slots=True)
class Deadline:
    """A timed decision: ``kind`` ``turn`` (the turn timer) or ``catch`` (the UNO catch
    grace) for ``seat`` ends ``seconds`` after this update arrived (``None``: no deadline)."""

    kind: str
    seat: int
    seconds: float | None


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of chat, already sanitised; ``seat`` is ``None`` for a spectator or the host."""

    seat: int | None
    name: str
    text: str


Update = ViewChanged | Refused | Answered | Closed | Presence | Deadline | Chat | RoomChanged
Listener = Callable[[Update], None]


def update_of(message: object, action: str = "") -> Update | None:
    """The update a message the table sent a seat means (``None``: not one of these);
    ``action``: the text of the intent an answer is for.  The one translation, for the
    local game and the remote one alike."""
    if isinstance(message, m.Accepted):
        return Answered(message.seq)
    if isinstance(message, m.Refused):
        return Refused(action, message.code, message.message, -1 if message.seq is None else message.seq)
    if isinstance(message, m.Presence):
        return Presence(message.seat, message.name, message.state)
    if isinstance(message, m.Deadline):
        return Deadline(message.kind, -1 if message.seat is None else message.seat, message.ms / 1000)
    if isinstance(message, m.ChatLine):
        return Chat(message.seat, message.name, message.text)
    if isinstance(message, m.Closed):
        return Closed(message.message, message.code)
    return None


class Controller(ABC):
    """A seat at a game, local or remote.  See the module docstring."""

    #: the viewer's seat (``None``: a spectator)
    seat: int | None

    def __init__(self) -> None:
        self._listener: Listener | None = None
        self._seq = 0
        self._pending: set[int] = set()

    def listen(self, listener: Listener | None) -> None:
        """Deliver every later update to ``listener`` (one listener; ``None`` stops)."""
        self._listener = listener

    def _emit(self, update: Update) -> None:
        if isinstance(update, Refused | Answered):
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
        through the listener (:class:`Answered` or :class:`Refused` with that number)."""

    @abstractmethod
    def next_round(self) -> None:
        """The viewer is ready for the next round (the dealer deals)."""

    @abstractmethod
    async def hint(self) -> Action | None:
        """What a computer player would do in the viewer's place now."""

    def chat(self, text: str) -> None:  # noqa: B027 - optional: solo play has no chat
        """Say ``text`` to the table (ignored where :attr:`can_chat` is false)."""

    def start_match(self) -> None:  # noqa: B027 - optional: only hosted tables wait
        """Ask for the match to start now (a hosted table's own seat; others are refused)."""

    @abstractmethod
    async def close(self) -> None:
        """Stop: no more updates are delivered."""
