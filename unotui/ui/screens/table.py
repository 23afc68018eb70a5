"""The table: your hand, the piles, the other players, the log, and every game key.

The screen draws the one :class:`SeatView` the app hands it (``show``) and turns keys into
messages up to the app (:mod:`unotui.ui.messages`): an intent, the next round, a rematch,
a hint request, a theme or hand-order change.  It never imports the app and never talks
to the controller.  It opens the dialogs a decision needs (colour, target), the revealed
hand after a challenge, and the round and match summaries.

Which keys apply now is read from ``view.legal`` alone (the engine's answer), never
re-derived from the rules; the key bar shows those.  A key that does not apply still runs
and says why on the message line, so no key press is silently ignored.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import ClassVar, TypeVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from ...client.config import HAND_ORDERS
from ...client.fairness import ShuffleWatch
from ...client.text import card_name, clean, display_name, refusal
from ...engine import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    DRAW,
    ENDED_PHASES,
    KEEP,
    Action,
    Card,
    Catch,
    ChooseColour,
    ChooseTarget,
    Colour,
    Discard,
    Phase,
    Play,
    SeatView,
    play,
)
from ..messages import CycleSort, CycleTheme, HintRequest, Intent, MainMenu, NextRound, Rematch, SendChat
from ..render import hand_order
from ..turn_clock import TurnClock
from ..widgets import GameLog, HandView, KeyBar, PileView, PlayersView, StatusLine, names_of, prompt

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "TableScreen", "describe_action"]

_T = TypeVar("_T")

#: the narrowest terminal the table is drawn in (the left column and the log side by side)
MIN_WIDTH = 66
#: rows the table needs besides the players panel (status, pile, message, hand, keys)
MIN_HEIGHT = 13
#: terminals at least this large get larger cards (tall) and a wider log (wide)
TALL, WIDE = 34, 110


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


_DIALOG_PHASES = ENDED_PHASES | {Phase.COLOUR, Phase.TARGET}  # the phases a dialog answers
_CONTEXT_ACTIONS = ("keep", "catch", "challenge", "accept", "jump", "draw", "uno")
#: what a spectator's keys do: look things up, talk, leave (every other key says so)
_WATCHING = frozenset({"help", "chat", "theme"})
WATCHING_NOTE = "You are watching this table: spectators do not play (Ctrl+Q leaves)."

_A = TypeVar("_A", bound=Callable[..., None])


def _players_only(action: _A) -> _A:
    """A game key: a spectator pressing it is told that watching is all they do."""

    @functools.wraps(action)
    def run(self: TableScreen, *args: object) -> None:
        if not self.watching():
            action(self, *args)

    return run  # type: ignore[return-value]


# Key-bar ranks: 0 is always shown; when the bar is short of room, the highest go first.
_BAR_RANK = {"sort": 5, "hint": 4, "move": 3, "help": 2}


class TableScreen(Screen[None]):
    """The game table (see the module docstring).

    Args:
        view: the latest view (the app's; ``show`` hands down each newer one).
        palette: the card palette (``render.PALETTES``); the app sets it on theme changes.
        order: how the hand is shown (one of ``HAND_ORDERS``); set by the app.

    Attributes:
        history: the totals after each round, for the match chart (set by the app).
    """

    CSS_PATH = "table.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
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
    ]

    def __init__(self, view: SeatView | None = None, palette: str = "default", order: str = "colour") -> None:
        super().__init__()
        self.view = view
        self.palette = palette
        self.order_name = order if order in HAND_ORDERS else HAND_ORDERS[0]
        self.history: Sequence[Sequence[int]] = ()
        #: seconds the round's last card stays on show before its summary (set by the app)
        self.summary_pause = 0.0
        #: whether there is anyone to chat with (a hosted table; set by the app)
        self.can_chat = False
        self.cursor = 0  # a position in the hand as shown (``order``)
        self.order: list[int] = []  # indices into view.hand, in the order shown
        self._dialog = False
        self._seen_log = 0
        self.shuffles = ShuffleWatch()  # the commitments this seat saw; round verdicts
        self._reveals: list[tuple[str, tuple[Card, ...], bool | None, Colour | None]] = []
        self._shown_round = 0
        self._last_phase: Phase | None = None  # while it is the viewer's turn
        self._keys: tuple[bool, ...] = ()
        self._answered = -1  # version of the view whose decision was just sent
        self._hint_for = -1  # version of the view the message line's hint is about
        self._pause_for: tuple[int, str] = (0, "")  # the round end the pause was started for
        self._pause: Timer | None = None  # the last card on show before the summary
        self.turn_clock = TurnClock()  # a hosted table's turn timer, beside the pile
        self._clock_shown = ""

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                yield PlayersView(id="players")
                yield PileView(id="pile")
            yield GameLog(id="log")
        yield Static(id="message")
        yield HandView(id="hand")
        yield KeyBar(id="keys")
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.query_one(GameLog).border_title = "Log"
        self.set_interval(1.0, self.tick_clock)
        self._fit(self.size.width, self.size.height)
        if self.view is not None:
            view, self.view = self.view, None
            self.show(view)

    # ----- drawing ------------------------------------------------------------------------

    def show(self, view: SeatView) -> None:
        """Draw ``view`` (the latest from the controller, handed down by the app)."""
        old = self.view
        selected = old.hand[self.order[self.cursor]] if old is not None and self.order else None
        self.shuffles.observe(view)
        self.view = view
        if self._hint_for >= 0 and view.version != self._hint_for and self.is_mounted:
            self.say("")  # the hint was for a moment that has passed
        self.order = hand_order(view.hand, self.order_name)
        if selected is not None and selected in view.hand:  # keep the same card selected
            shown = [view.hand[i] for i in self.order]
            if shown[min(self.cursor, len(shown) - 1)] is not selected:
                self.cursor = shown.index(selected)
        just_drew = view.phase == Phase.DRAWN and self._last_phase != Phase.DRAWN
        if just_drew and view.my_turn and view.drawn is not None:
            idx = [i for i, c in enumerate(view.hand) if c is view.drawn]
            if idx:
                self.cursor = self.order.index(idx[-1])
        self._last_phase = view.phase if view.my_turn else None
        self.cursor = max(0, min(self.cursor, len(view.hand) - 1))
        if not self.is_mounted:
            return
        self._redraw()
        keys = tuple(self.applies(a) for a in _CONTEXT_ACTIONS)
        if keys != self._keys:
            self._keys = keys
            self._show_keys()
        base = view.log_start  # log indices are absolute (a remote view keeps the newest part)
        if base + len(view.log) < self._seen_log:
            self._seen_log = 0  # a new game
        for i in range(max(0, self._seen_log - base), len(view.log)):
            e = view.log[i]
            if e.kind == "reveal" and e.target == view.seat and e.cards:
                from .dialogs import colour_when_played

                guilty = None
                if i and view.log[i - 1].kind == "challenge":
                    guilty = bool(view.log[i - 1].value)
                self._reveals.append((view.names[e.seat], e.cards, guilty, colour_when_played(view.log, i)))
        self._seen_log = base + len(view.log)
        self._maybe_dialog()

    def set_palette(self, palette: str) -> None:
        """Draw with ``palette`` from now on (the app's theme changed)."""
        self.palette = palette
        self._redraw()

    def set_order(self, order: str) -> None:
        """Show the hand in ``order`` from now on, keeping the same card selected."""
        self.order_name = order if order in HAND_ORDERS else HAND_ORDERS[0]
        if self.view is not None:
            self.show(self.view)

    def _show_keys(self) -> None:
        """The key bar: every binding that is shown and applies now, ranked for room."""
        shown = []
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding) or not binding.show:
                continue
            action = binding.action.split("(")[0]
            if not self.applies(action):
                continue
            key = KeyBar.key_name(binding.key, binding.key_display)
            shown.append((key, binding.description, _BAR_RANK.get(action, 0)))
        self.query_one(KeyBar).show(shown)

    def _fit(self, width: int, height: int) -> None:
        """Choose the layout for a ``width`` x ``height`` terminal.

        Large terminals get larger cards and a wider log; below the smallest usable size
        a notice asks for a larger terminal instead of panels silently disappearing.
        """
        players = self.view.players if self.view is not None else 4
        need = MIN_HEIGHT + players
        small = width < MIN_WIDTH or height < need
        self.set_class(small, "-too-small")
        self.set_class(height >= TALL, "-tall")
        self.set_class(width >= WIDE, "-wide")
        if small:
            self.query_one("#too-small", Static).update(
                Text.assemble(
                    ("Make the terminal larger\n", Style(bold=True)),
                    f"It is {width} x {height}; the table needs {MIN_WIDTH} x {need}.\n\n",
                    ("Ctrl+Q quits.", Style(dim=True)),
                )
            )

    def _redraw(self) -> None:
        view = self.view
        if view is None or not self.is_mounted:
            return
        self.query_one(StatusLine).show(view)
        self.query_one(PlayersView).show(view, self.palette)
        self._redraw_pile()
        self._redraw_hand()
        self.query_one(GameLog).show(view)

    def _redraw_pile(self) -> None:
        view = self.view
        if view is None or not self.is_mounted:
            return
        middle = self.size.height - (9 if self.has_class("-tall") else 7)
        lines = view.players + 2 + sum(1 for s in view.face_up if s != view.seat)
        self._clock_shown = self.turn_clock.text(view)
        self.query_one(PileView).show(view, self.palette, lines + 5 > middle, self._clock_shown)

    def set_deadline(self, seat: int, seconds: float | None) -> None:
        """The host's turn timer: ``seat`` must decide within ``seconds`` (``seat`` < 0: none)."""
        self.turn_clock.set(seat, seconds)
        self._redraw_pile()

    def tick_clock(self) -> None:
        """Redraw the turn timer if its second changed (every second while the table is up)."""
        if self.turn_clock.text(self.view) != self._clock_shown:
            self._redraw_pile()

    def _redraw_hand(self) -> None:
        if self.view is not None and self.is_mounted:
            hand = self.query_one(HandView)
            hand.show(self.view, self.order, self.cursor, self.palette, self.has_class("-tall"))

    def on_screen_resume(self) -> None:
        # Back from help (or a dialog): a decision or summary may have come up meanwhile.
        self._maybe_dialog()

    def on_resize(self, event: Resize) -> None:
        self._fit(event.size.width, event.size.height)
        self._redraw()
        self._show_keys()

    def say(self, text: str, warn: bool = False) -> None:
        """Show ``text`` on the message line (literal text)."""
        self._hint_for = -1
        style = Style(bold=True, reverse=True) if warn else Style(italic=True)
        self.query_one("#message", Static).update(
            Text(" " + clean(text, 300), style) if text else Text(), layout=False
        )

    def note(self, text: str, style: Style | None = None) -> None:
        """A line in the log that is not a game event (chat, presence): literal text."""
        if self.is_mounted:
            self.query_one(GameLog).note(Text(clean(text, 400), style or Style(italic=True)))

    def action_chat(self) -> None:
        """Open the chat line (games with other people only)."""
        if not self.can_chat:
            self.say("Chat is for games with other people (unotui host / join).")
            return
        from .chat import ChatScreen

        def done(text: str | None) -> None:
            self._dialog_closed()
            if text:
                self.post_message(SendChat(text))

        self._push(ChatScreen(), done)

    def refused(self, code: str, message: str) -> None:
        """An intent was refused: say why; nothing else changes."""
        view = self.view
        wait = None
        if code == "not_your_turn" and view is not None and 0 <= view.actor < view.players:
            wait = names_of(view)[view.actor]
        self.say(refusal(code, message, wait), warn=True)
        self._answered = -1
        self._maybe_dialog()

    def show_hint(self, hint: Action | None) -> None:
        """The app's answer to a :class:`HintRequest`: say it and select its card."""
        view = self.view
        if view is None or hint is None:
            self.say("No suggestion: nothing to do now.")
            return
        self.say(f"Hint: {describe_action(hint, view)}.")
        self._hint_for = view.version  # a hint is about this moment: gone with it
        if isinstance(hint, Play | Discard) and hint.card in view.hand:
            self.cursor = self.order.index(view.hand.index(hint.card))
            self._redraw_hand()

    # ----- dialogs ------------------------------------------------------------------------

    def _dialog_closed(self) -> None:
        self._dialog = False
        self._maybe_dialog()

    def _push(self, screen: Screen[_T], done: Callable[[_T | None], None]) -> None:
        self._dialog = True
        self.app.push_screen(screen, done)

    def _maybe_dialog(self) -> None:
        view = self.view
        if self._dialog or view is None or self.app.screen is not self:
            return
        if not (self._reveals or view.phase in _DIALOG_PHASES):
            return
        # Imported here: the first frame of the table does not wait for them.
        from .dialogs import ColourPicker, RevealScreen, TargetPicker, colour_reason
        from .results import MatchOverScreen, RoundOverScreen

        if self._reveals:
            name, cards, guilty, colour = self._reveals.pop(0)
            reveal = RevealScreen(name, cards, guilty, self.palette, colour)
            self._push(reveal, lambda _: self._dialog_closed())
            return
        if view.phase in ENDED_PHASES and self._summary_held(view):
            return
        if view.phase == Phase.MATCH_OVER and self._shown_round != -1:
            self._shown_round = -1
            verdict = self.shuffles.observe(view)
            self._push(MatchOverScreen(view, list(self.history), self.palette, verdict), self._match_done)
        elif view.phase == Phase.ROUND_OVER and self._shown_round != view.round_no:
            self._shown_round = view.round_no
            verdict = self.shuffles.observe(view)
            self._push(RoundOverScreen(view, self.palette, list(self.history), verdict), self._round_done)
        elif not view.my_turn or view.version == self._answered:
            return  # not ours, or answered and waiting for the next view
        elif view.phase == Phase.COLOUR:
            self._push(ColourPicker(view.hand, self.palette, colour_reason(view)), self._colour_done)
        elif view.phase == Phase.TARGET:
            seats = [a.seat for a in view.legal if isinstance(a, ChooseTarget)]
            self._push(TargetPicker(view.names, view.counts, seats), self._target_done)

    def _decided(self, action: Action | None) -> None:
        """A dialog's decision: send it, or (cancelled) ask again."""
        if action is None:
            self._dialog_closed()
            return
        self._dialog = False
        self._answered = self.view.version if self.view is not None else -1
        self.send(action)

    def _summary_held(self, view: SeatView) -> bool:
        """Whether the round's last card is still on show before its summary opens.

        The pause (``GameOptions.summary_pause``) starts once per round end; Enter ends
        it early.
        """
        key = (view.round_no, view.phase)
        if self._pause_for != key:
            self._pause_for = key
            pause = self.summary_pause
            if pause > 0:
                self._pause = self.set_timer(pause, self._pause_over)
        return self._pause is not None

    def _pause_over(self) -> None:
        if self._pause is not None:
            self._pause.stop()
            self._pause = None
        self._maybe_dialog()

    def _colour_done(self, colour: Colour | None) -> None:
        self._decided(None if colour is None else ChooseColour(colour))

    def _target_done(self, seat: int | None) -> None:
        self._decided(None if seat is None else ChooseTarget(seat))

    def _round_done(self, _: None) -> None:
        self.post_message(NextRound())
        self._dialog_closed()

    def _match_done(self, choice: str | None) -> None:
        self._dialog = False
        if choice == "rematch":
            self.post_message(Rematch())
        elif choice == "quit":
            self.app.exit(0)
        else:
            self.post_message(MainMenu())

    # ----- which keys apply ---------------------------------------------------------------

    def applies(self, action: str) -> bool:
        """Does the key for ``action`` do something now?  Read from ``view.legal`` only."""
        view = self.view
        if view is None:
            return False
        if view.seat is None:
            return action in _WATCHING and (action != "chat" or self.can_chat)
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
            return self.can_chat
        return True

    def watching(self) -> bool:
        """Whether the viewer is a spectator (then a game key says so, and does nothing)."""
        if self.view is None or self.view.seat is not None:
            return False
        self.say(WATCHING_NOTE, warn=True)
        return True

    def _cannot(self, what: str, why: str = "") -> None:
        """Say why a key does nothing now (and what to do instead)."""
        view = self.view
        if not why and view is not None:
            if view.my_turn or view.phase in ENDED_PHASES:
                why = prompt(view)
            else:
                why = f"it is {names_of(view)[view.actor]}'s turn."
        self.say(f"You cannot {what} now: {why}" if why else f"You cannot {what} now.", warn=True)

    # ----- intents ------------------------------------------------------------------------

    def send(self, action: Action) -> None:
        """Send ``action`` up to the app, for the controller."""
        self.say("")
        self.post_message(Intent(action))

    def _selected(self) -> Play | None:
        view = self.view
        if view is None or not view.hand:
            return None
        return play(view.hand[self.order[self.cursor]])

    @_players_only
    def action_move(self, step: int) -> None:
        """Move the cursor along the hand."""
        if self.view and self.view.hand:
            self.cursor = (self.cursor + step) % len(self.view.hand)
            self._redraw_hand()

    @_players_only
    def action_move_to(self, index: int) -> None:
        """Jump to the first or last card."""
        if self.view and self.view.hand:
            self.cursor = index % len(self.view.hand)
            self._redraw_hand()

    def action_play(self) -> None:
        """Play (or discard, or jump in with) the selected card."""
        if self._pause is not None:  # the round is over: Enter shows its summary now
            self._pause_over()
            return
        if self.watching():
            return
        view = self.view
        chosen = self._selected()
        if view is None or chosen is None:
            self._cannot("play", "you have no cards.")
            return
        if view.phase == Phase.DISCARD and view.my_turn:
            self.send(Discard(chosen.card))
        elif chosen not in view.legal and play(chosen.card, True) in view.legal:
            self.send(play(chosen.card, True))
        else:
            self.send(chosen)  # if it is refused, the refusal says why

    @_players_only
    def action_uno(self) -> None:
        """Call UNO; with two cards, play the selected one and call UNO with it."""
        view = self.view
        chosen = self._selected()
        if view is None:
            return
        if CALL_UNO in view.legal:
            self.send(CALL_UNO)
        elif chosen is not None and any(isinstance(a, Play) and a.uno for a in view.legal):
            self.send(play(chosen.card, True))  # if that card cannot be played, the refusal says why
        else:
            self._cannot("call UNO", "u plays your second-to-last card and calls.")

    @_players_only
    def action_draw(self) -> None:
        """Draw a card (or take the pending penalty)."""
        if self.applies("draw"):
            self.send(DRAW)
        else:
            self._cannot("draw")

    @_players_only
    def action_keep(self) -> None:
        """Keep the card just drawn."""
        if self.applies("keep"):
            self.send(KEEP)
        else:
            self._cannot("keep a card", "k keeps a card you just drew.")

    @_players_only
    def action_catch(self) -> None:
        """Catch whoever forgot to call UNO."""
        catches = [a for a in self.view.legal if isinstance(a, Catch)] if self.view else []
        if catches:
            self.send(catches[0])
        else:
            self.say("Nobody to catch: c is for a player who forgot to call UNO.", warn=True)

    @_players_only
    def action_challenge(self) -> None:
        """Challenge the Wild Draw Four played on you."""
        view = self.view
        if self.applies("challenge"):
            self.send(CHALLENGE)
        elif view is not None and view.my_turn and view.phase == Phase.CHALLENGE:
            self._cannot("challenge", "challenges are off at this table. " + prompt(view))
        else:
            self._cannot("challenge", "x is for a Wild Draw Four played on you.")

    @_players_only
    def action_accept(self) -> None:
        """Accept the Wild Draw Four and draw."""
        if self.applies("accept"):
            self.send(ACCEPT)
        else:
            self._cannot("accept", "a is for a Wild Draw Four played on you.")

    @_players_only
    def action_jump(self) -> None:
        """Jump in with the card identical to the top of the pile."""
        view = self.view
        jumps = [a for a in view.legal if isinstance(a, Play)] if view is not None else []
        if view is not None and jumps and not view.my_turn:
            self.send(jumps[0])
        elif view is not None and not view.rules.jump_in:
            self._cannot("jump in", "jump-in is off at this table.")
        else:
            self._cannot("jump in", "j plays a card identical to the top, out of turn.")

    @_players_only
    def action_sort(self) -> None:
        """Show the hand in the other order (by colour, by rank); saved."""
        self.post_message(CycleSort())

    @_players_only
    def action_hint(self) -> None:
        """Ask a computer player what it would do (the answer comes to ``show_hint``)."""
        self.post_message(HintRequest())

    def action_help(self) -> None:
        """The rules in force and the keys."""
        from .help import HelpScreen

        if self.view is not None:
            self.app.push_screen(HelpScreen(self.view.rules))

    def action_theme(self) -> None:
        """Switch to the next colour theme (the app saves it and hands the palette down)."""
        self.post_message(CycleTheme())
