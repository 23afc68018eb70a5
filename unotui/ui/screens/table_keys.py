"""What each of the table's game keys means now: pure functions of the view.

Which keys apply is read from ``view.legal`` alone (the engine's answer), never
re-derived from the rules.  A key means an action to send, or a sentence saying why it
does nothing now (and what to do instead), so no key press is silently ignored; the key
bar lists the keys that apply (:func:`key_bar`).  The table screen
(:mod:`unotui.ui.screens.table`) binds the keys and sends or says what these return.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar

from textual.binding import Binding, BindingType

from ...engine import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    DRAW,
    ENDED_PHASES,
    KEEP,
    Action,
    Catch,
    ChooseColour,
    ChooseTarget,
    Discard,
    Phase,
    Play,
    SeatView,
    play,
)
from ..key_bar import KeyBar
from ..widgets import names_of, prompt
from ..words import card_name, display_name

__all__ = ["CLOSED", "TABLE_BINDINGS", "WATCHING", "WATCHING_NOTE", "applies", "cannot", "closed_note",
           "describe_action", "key_bar", "meaning", "players_only"]

# Key-bar ranks: 0 is always shown; when the bar is short of room, the highest go first.
_BAR_RANK = {"sort": 5, "hint": 4, "move": 3, "help": 2}

#: what a spectator's keys do: look things up, talk, leave (every other key says so)
WATCHING = frozenset({"help", "chat", "theme", "leave"})
WATCHING_NOTE = "You are watching this table: spectators do not play (Esc stops watching)."
#: what a closed game's keys do: look things up, leave (every game key says it is closed)
CLOSED = frozenset({"help", "theme", "leave"})


def closed_note(home: str) -> str:
    """What a closed game says on every game key: what the player can do now (why it
    closed is on the status line and in the log; the message line is one short line)."""
    return f"The game is closed: Esc goes back to the {home.lower()}, Ctrl+Q quits."


def describe_action(action: Action, view: SeatView) -> str:
    """An action in words, for hints."""
    if isinstance(action, Play):
        text = f"play {card_name(action.card)} ({action.card.text})"
        # Enter would play the card without the call, and someone could catch you: say the key.
        return text + " and call UNO: press u" if action.uno else text
    if isinstance(action, Discard):
        return f"discard {card_name(action.card)} ({action.card.text})"
    if isinstance(action, ChooseColour):
        return f"name {action.colour.name.lower()}"
    if isinstance(action, ChooseTarget | Catch):
        return f"{'catch' if isinstance(action, Catch) else 'choose'} {display_name(view.names[action.seat])}"
    return str(action)


def applies(action: str, view: SeatView | None, can_chat: bool) -> bool:
    """Does the key for ``action`` do something now?  Read from ``view.legal`` only."""
    if view is None:
        return False
    if view.seat is None:
        return action in WATCHING and (action != "chat" or can_chat)
    legal = view.legal
    if action == "keep":
        return KEEP in legal
    if action == "catch":
        return any(isinstance(a, Catch) for a in legal)
    if action == "challenge":
        return CHALLENGE in legal
    if action == "accept":
        return ACCEPT in legal
    if action == "jump":
        return not view.my_turn and any(isinstance(a, Play) for a in legal)
    if action == "draw":
        return DRAW in legal
    if action == "uno":
        return CALL_UNO in legal or any(isinstance(a, Play) and a.uno for a in legal)
    if action == "chat":
        return can_chat
    return True


def key_bar(bindings: Iterable[BindingType], applies_now: Callable[[str], bool],
            home: str) -> tuple[tuple[str, str, int], ...]:
    """The key bar's (key, description, rank) triples: every binding that is shown and
    ``applies_now``, ranked for room; Escape's entry is named by the app's ``home``."""
    shown = []
    for binding in bindings:
        if not isinstance(binding, Binding) or not binding.show:
            continue
        action = binding.action.split("(")[0]
        if not applies_now(action):
            continue
        key = KeyBar.key_name(binding.key, binding.key_display)
        what = home if action == "leave" else binding.description
        shown.append((key, what, _BAR_RANK.get(action, 0)))
    return tuple(shown)


def cannot(view: SeatView | None, what: str, why: str = "") -> str:
    """Why a key does nothing now (and what to do instead)."""
    if not why and view is not None:
        if view.my_turn or view.phase in ENDED_PHASES:
            why = prompt(view)
        else:
            why = f"it is {names_of(view)[view.actor]}'s turn."
    return f"You cannot {what} now: {why}" if why else f"You cannot {what} now."


def meaning(key: str, view: SeatView, chosen: Play | None) -> Action | str:
    """What the game key ``key`` does now, with ``chosen`` the selected card's play: an
    action to send (if it is refused, the refusal says why) or why it does nothing."""
    legal = view.legal
    if key == "play":
        if chosen is None:
            return cannot(view, "play", "you have no cards.")
        if view.phase == Phase.DISCARD and view.my_turn:
            return Discard(chosen.card)
        if chosen not in legal and play(chosen.card, True) in legal:
            return play(chosen.card, True)
        return chosen
    if key == "uno":  # with two cards, play the selected one and call UNO with it
        if CALL_UNO in legal:
            return CALL_UNO
        if chosen is not None and any(isinstance(a, Play) and a.uno for a in legal):
            return play(chosen.card, True)  # if that card cannot be played, the refusal says why
        return cannot(view, "call UNO", "u plays your second-to-last card and calls.")
    if key == "draw":
        return DRAW if DRAW in legal else cannot(view, "draw")
    if key == "keep":
        return KEEP if KEEP in legal else cannot(view, "keep a card", "k keeps a card you just drew.")
    if key == "catch":
        catches = [a for a in legal if isinstance(a, Catch)]
        return catches[0] if catches else "Nobody to catch: c is for a player who forgot to call UNO."
    if key == "challenge":
        if CHALLENGE in legal:
            return CHALLENGE
        if view.my_turn and view.phase == Phase.CHALLENGE:
            return cannot(view, "challenge", "challenges are off at this table. " + prompt(view))
        return cannot(view, "challenge", "x is for a Wild Draw Four played on you.")
    if key == "accept":
        if ACCEPT in legal:
            return ACCEPT
        return cannot(view, "accept", "a is for a Wild Draw Four played on you.")
    if key == "jump":
        jumps = [a for a in legal if isinstance(a, Play)]
        if jumps and not view.my_turn:
            return jumps[0]
        if not view.rules.jump_in:
            return cannot(view, "jump in", "jump-in is off at this table.")
        return cannot(view, "jump in", "j plays a card identical to the top, out of turn.")
    raise ValueError(f"not a game key: {key}")


class _Table(Protocol):
    def game_closed(self) -> bool: ...
    def watching(self) -> bool: ...


_A = TypeVar("_A", bound=Callable[..., None])


def players_only(action: _A) -> _A:
    """A game key's action: at a closed game it says so; a spectator pressing it is told
    that watching is all they do (each check says so itself and answers whether it did)."""

    @functools.wraps(action)
    def run(self: _Table, *args: object) -> None:
        if not self.game_closed() and not self.watching():
            action(self, *args)

    return run  # type: ignore[return-value]


#: the table's keys (the screen's BINDINGS): what each binding's action means, and
#: whether it applies now, is the rest of this module
TABLE_BINDINGS: list[BindingType] = [
    Binding("left,h", "move(-1)", "Move", key_display="<- ->"),
    Binding("right,l", "move(1)", "Move", show=False),
    Binding("home", "move_to(0)", "First card", show=False),
    Binding("end", "move_to(-1)", "Last card", show=False),
    Binding("enter", "play", "Play"),
    Binding("u,exclamation_mark", "uno", "UNO!"),
    Binding("d,space", "draw", "Draw"),
    Binding("k", "keep", "Keep"),
    Binding("c", "catch", "Catch"),
    Binding("x", "challenge", "Challenge"),
    Binding("a", "accept", "Accept"),
    Binding("j", "jump", "Jump in"),
    Binding("s", "sort", "Sort"),
    Binding("n", "hint", "Hint"),
    Binding("question_mark,f1", "help", "Help"),
    Binding("t", "theme", "Theme", show=False),
    Binding("slash", "chat", "Chat", key_display="/"),
    Binding("b", "back", "Take seat back"),
    Binding("escape", "leave", "Menu", key_display="Esc"),
]
