"""Messages up from the lobby's screens and its create-table form, for the lobby home
(:class:`~unotui.ui.lobby_home.LobbyHome`): :class:`~unotui.ui.messages.HomeMessage`
subclasses, handed to the home by the app's one ``on_home_message``.  Apart from
:mod:`unotui.ui.messages` so that only an app with the lobby as its home loads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Rules
from .messages import HomeMessage

__all__ = ["CreateTable", "JoinTable", "LobbyChat", "QuickMatch", "ReviewKept", "ShowMatches"]


@dataclass
class JoinTable(HomeMessage):
    """Sit at (or watch) the table ``code``."""

    code: str
    spectate: bool = False


class QuickMatch(HomeMessage):
    """A seat at once."""


@dataclass
class CreateTable(HomeMessage):
    """Open a table with these settings (see :class:`~unotui.protocol.messages.Create`)."""

    name: str
    seats: int
    bots: int
    rules: Rules
    level: str
    turn_timer: float | None
    private: bool


@dataclass
class LobbyChat(HomeMessage):
    """A line to everyone in the lobby."""

    text: str


class ShowMatches(HomeMessage):
    """Open "Your recent matches" (``m`` in the lobby): the lobby home fetches the list."""


@dataclass
class ReviewKept(HomeMessage):
    """Review kept match ``id``, as the player's ``seat`` saw it."""

    id: int
    seat: int
