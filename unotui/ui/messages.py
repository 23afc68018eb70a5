"""Messages that carry controller updates into the Textual app ("messages up")."""

from __future__ import annotations

from textual.message import Message

from ..client.controller import Update, ViewChanged

__all__ = ["GameUpdate"]


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
            and isinstance(message.update, ViewChanged)
            and isinstance(self.update, ViewChanged)
            and message.update.view.phase not in ("round_over", "match_over")
        )
