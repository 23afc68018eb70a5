"""Messages between the app and its screens.

Two directions, one rule each ("attributes down, messages up"):

* :class:`GameUpdate` carries a controller update (a new view, a refusal, the end) into
  the app, which keeps the one view and hands it down to the table.
* Every other message goes *up* from a screen to the app: an intent for the controller,
  "next round", "rematch", a hint request, a theme or sort change.  Screens never import
  the app or call its methods; the app is the only one that talks to the controller and
  the settings file, so a screen can be tested, reused or replaced without it.
* The home's screens (the main menu, the lobby) post :class:`HomeMessage` subclasses: the
  app hands every one of them to its home in one handler (``UnoApp.on_home_message``),
  because what they mean depends on the home the app was given (:mod:`unotui.ui.home`).
  The lobby's are in :mod:`unotui.ui.lobby_messages`, loaded with the lobby (building a
  dataclass compiles its methods: solo play's start does not pay for the lobby's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

from ..engine import ENDED_PHASES, Action
from ..protocol.events import ViewUpdated
from .settings import Config

if TYPE_CHECKING:
    from ..net.controller import Update
    from .join_request import JoinRequest

__all__ = [
    "CycleSort",
    "CycleTheme",
    "GameUpdate",
    "GoHome",
    "HintRequest",
    "HomeMessage",
    "HostGame",
    "Intent",
    "JoinGame",
    "LeaveTable",
    "NextRound",
    "PlaySolo",
    "Rematch",
    "SendChat",
    "SettingsSaved",
    "StartMatch",
    "TableStarted",
]


class GameUpdate(Message):
    """An update from the controller: a new view, a refusal or the end of the game.

    A newer view replaces an older one still waiting in the queue (the views are
    complete, and the log in each is cumulative), so bursts of bot moves coalesce.
    """

    def __init__(self, update: Update) -> None:
        super().__init__()
        self.update = update

    def can_replace(self, message: Message) -> bool:
        return (
            isinstance(message, GameUpdate)
            and isinstance(message.update, ViewUpdated)
            and isinstance(self.update, ViewUpdated)
            and message.update.view.phase not in ENDED_PHASES
        )


class TableStarted(Message):
    """The table's controller has started (posted by the worker that started it): the
    app puts the table, or the waiting room, on screen in its own message queue, in
    turn with the controller's updates, so that a view arriving meanwhile and the start
    never both open a screen (a lobby table filling as it opened ended the session)."""


class Intent(Message):
    """The person wants ``action``; the outcome comes back as a :class:`GameUpdate`."""

    def __init__(self, action: Action) -> None:
        super().__init__()
        self.action = action


class NextRound(Message):
    """The person is at the keyboard: they have read the round summary (the next round may
    be dealt), or they take their seat back from a computer player that stood in after
    their turns ran out (the wire's ``ready`` is both)."""


class Rematch(Message):
    """Play again: same players and rules, a new deal."""


class GoHome(Message):
    """Leave the table for home (the main menu, or the lobby); during a match the app
    asks first."""


class HintRequest(Message):
    """Ask a computer player what it would do; the app answers with ``TableScreen.show_hint``."""


class CycleTheme(Message):
    """Switch to the next colour theme (the app saves it and hands the palette down)."""


class SendChat(Message):
    """The person typed a chat line for the table."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class CycleSort(Message):
    """Switch to the next hand order (the app saves it and hands the order down)."""


class HomeMessage(Message):
    """A message up from the home's screens, for the home: every subclass is handled by
    the app's one ``on_home_message``, which hands it to its home (a menu's choice means
    nothing to the lobby, and the lobby's nothing to the menu)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.handler_name = "on_home_message"


# ----- up from the main menu and its house-rules form ------------------------------------


class PlaySolo(HomeMessage):
    """Deal a solo game with the current settings."""


class HostGame(HomeMessage):
    """Host a table on this network with the current settings and sit at it."""


@dataclass
class JoinGame(HomeMessage):
    """Join a table elsewhere: the Join form's fields, checked as ``unotui join`` checks
    its arguments (the address, name, table code, password and whether to watch only:
    :class:`~unotui.ui.join_request.JoinRequest`), to be joined as it joins them."""

    request: JoinRequest


@dataclass
class SettingsSaved(HomeMessage):
    """The house-rules form saved ``config`` (already in the settings file): it applies
    to the next game, and the app hands the new settings down to the menu."""

    config: Config


# ----- up from the waiting room ----------------------------------------------------------


class StartMatch(Message):
    """The host's player wants the match to begin now."""


class LeaveTable(Message):
    """The player leaves the table from the waiting room (back home, or quit if none)."""
