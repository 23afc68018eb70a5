"""The one interface between a front end and a game that may live elsewhere.

A front end (the Textual table) never touches a :class:`~unotui.engine.Game`.  It holds
the latest :class:`~unotui.engine.SeatView` it was sent and sends *intents*:

* :meth:`Controller.send` an action (``R5``, ``draw``, ``colour G`` ...).  The answer
  comes back later through the listener: a :class:`ViewChanged` if it was applied, or a
  :class:`Refused` with the engine's error ``code`` and a message.  Nothing is lost: a
  refused intent changes nothing and the front end keeps showing the last view.
* :meth:`Controller.next_round` when the viewer has read the round summary.
* :meth:`Controller.hint` to ask a computer player what it would do.

Updates arrive asynchronously (other players act on their own schedule) and are
delivered to the single listener on the event loop the controller was started on.
:class:`~unotui.client.local.LocalGame` implements this with an in-process engine and
bots; a network client will implement it over the wire.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import Action, SeatView

__all__ = ["Closed", "Controller", "Listener", "Refused", "Update", "ViewChanged"]


@dataclass(frozen=True, slots=True)
class ViewChanged:
    """The game changed: here is everything the viewer may now see."""

    view: SeatView


@dataclass(frozen=True, slots=True)
class Refused:
    """An intent was refused; ``code`` is the engine's stable error code."""

    action: str
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Closed:
    """The game went away (host left, connection lost); ``reason`` says why."""

    reason: str


Update = ViewChanged | Refused | Closed
Listener = Callable[[Update], None]


class Controller(ABC):
    """A seat at a game, local or remote.  See the module docstring."""

    #: the viewer's seat
    seat: int

    def __init__(self) -> None:
        self._listener: Listener | None = None

    def listen(self, listener: Listener | None) -> None:
        """Deliver every later update to ``listener`` (one listener; ``None`` stops)."""
        self._listener = listener

    def _emit(self, update: Update) -> None:
        if self._listener is not None:
            self._listener(update)

    @property
    @abstractmethod
    def view(self) -> SeatView:
        """The latest view of the viewer's seat."""

    @abstractmethod
    async def start(self) -> None:
        """Begin delivering updates (the first is the current view)."""

    @abstractmethod
    def send(self, action: Action) -> None:
        """Ask to take ``action``; the outcome arrives through the listener."""

    @abstractmethod
    def next_round(self) -> None:
        """The viewer is ready for the next round (the dealer deals)."""

    @abstractmethod
    async def hint(self) -> Action | None:
        """What a computer player would do in the viewer's place now."""

    @abstractmethod
    async def close(self) -> None:
        """Stop: no more updates are delivered."""
