"""Messages between the app and its screens.

Two directions, one rule each ("attributes down, messages up"):

* :class:`GameUpdate` carries a controller update (a new view, a refusal, the end) into
  the app, which keeps the one view and hands it down to the table.
* Every other message goes *up* from a screen to the app: an intent for the controller,
  "next round", "rematch", a hint request, a theme or sort change.  Screens never import
  the app or call its methods; the app is the only one that talks to the controller and
  the settings file, so a screen can be tested, reused or replaced without it.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from ..engine import ENDED_PHASES, Action, Rules
from ..net.controller import Update
from ..protocol.session import ViewUpdated
from .settings import Config

__all__ = [
    "CreateTable",
    "CycleSort",
    "CycleTheme",
    "GameUpdate",
    "HintRequest",
    "HostGame",
    "Intent",
    "JoinGame",
    "JoinTable",
    "LeaveTable",
    "LobbyChat",
    "MainMenu",
    "NextRound",
    "PlaySolo",
    "QuickMatch",
    "Rematch",
    "SendChat",
    "SettingsSaved",
    "StartMatch",
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


class Intent(Message):
    """The person wants ``action``; the outcome comes back as a :class:`GameUpdate`."""

    def __init__(self, action: Action) -> None:
        super().__init__()
        self.action = action


class NextRound(Message):
    """The person has read the round summary: the next round may be dealt."""


class Rematch(Message):
    """Play again: same players and rules, a new deal."""


class MainMenu(Message):
    """Leave the table for the main menu."""


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


# ----- up from the main menu and its house-rules form ------------------------------------


class PlaySolo(Message):
    """Deal a solo game with the current settings."""


class HostGame(Message):
    """Host a table on this network with the current settings and sit at it."""


@dataclass
class JoinGame(Message):
    """Join the table hosted at ``host``:``port`` (an address already checked)."""

    host: str
    port: int


@dataclass
class SettingsSaved(Message):
    """The house-rules form saved ``config`` (already in the settings file): it applies
    to the next game, and the app hands the new settings down to the menu."""

    config: Config


# ----- up from the waiting room ----------------------------------------------------------


class StartMatch(Message):
    """The host's player wants the match to begin now."""


class LeaveTable(Message):
    """The player leaves the table from the waiting room (back home, or quit if none)."""


# ----- up from the lobby and its create-table form (handled by the lobby app) -----------


@dataclass
class JoinTable(Message):
    """Sit at (or watch) the table ``code``."""

    code: str
    spectate: bool = False


class QuickMatch(Message):
    """A seat at once."""


@dataclass
class CreateTable(Message):
    """Open a table with these settings (see :class:`~unotui.protocol.messages.Create`)."""

    name: str
    seats: int
    bots: int
    rules: Rules
    level: str
    turn_timer: float | None
    private: bool


@dataclass
class LobbyChat(Message):
    """A line to everyone in the lobby."""

    text: str
