"""The table: your hand, the piles, the other players, the log, and every game key.

The screen draws the one :class:`SeatView` the app hands it (``show``) and turns keys into
intents for the controller.  It opens the dialogs a decision needs (colour, target), the
revealed hand after a challenge, and the round and match summaries.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from ...client.text import card_name, clean, display_name, refusal
from ...engine import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    DRAW,
    KEEP,
    Action,
    Catch,
    ChooseColour,
    ChooseTarget,
    Colour,
    Discard,
    Play,
    SeatView,
    play,
)
from ..widgets import GameLog, HandView, KeyBar, PileView, PlayersView, StatusLine, names_of

if TYPE_CHECKING:
    from ..app import UnoApp

__all__ = ["TableScreen", "describe_action"]


def describe_action(action: Action, view: SeatView) -> str:
    """An action in words, for hints."""
    if isinstance(action, Play):
        return f"play {card_name(action.card)} ({action.card.text})" + (" and call UNO" if action.uno else "")
    if isinstance(action, Discard):
        return f"discard {card_name(action.card)} ({action.card.text})"
    if isinstance(action, ChooseColour):
        return f"name {action.colour.name.lower()}"
    if isinstance(action, ChooseTarget | Catch):
        return f"{'catch' if isinstance(action, Catch) else 'choose'} {display_name(view.names[action.seat])}"
    return str(action)


_DIALOG_PHASES = frozenset({"colour", "target", "round_over", "match_over"})
_CONTEXT_ACTIONS = ("keep", "catch", "challenge", "accept", "jump", "draw", "uno")


class TableScreen(Screen[None]):
    """The game table (see the module docstring)."""

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
        Binding("n", "hint", "Hint"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("t", "theme", "Theme", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.view: SeatView | None = None
        self.cursor = 0
        self._dialog = False
        self._seen_log = 0
        self._reveals: list[tuple[str, tuple[object, ...], bool | None, Colour | None]] = []
        self._shown_round = 0
        self._last_phase = ""
        self._compact = False
        self._keys: tuple[bool | None, ...] = ()
        self._answered = -1  # version of the view whose decision was just sent
        self._pause_for: tuple[int, str] = (0, "")  # the round end the pause was started for
        self._pause: Timer | None = None  # the last card on show before the summary

    @property
    def uno(self) -> UnoApp:
        """The app, typed."""
        from ..app import UnoApp

        app = self.app
        assert isinstance(app, UnoApp)
        return app

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

    def on_mount(self) -> None:
        self.query_one(GameLog).border_title = "Log"
        if self.uno.view is not None:
            self.show(self.uno.view)

    # ----- drawing ------------------------------------------------------------------------

    def show(self, view: SeatView) -> None:
        """Draw ``view`` (the latest from the controller)."""
        first = self.view is None
        self.view = view
        n = len(view.hand)
        if view.phase == "drawn" and view.my_turn and self._last_phase != "drawn" and view.drawn is not None:
            idx = [i for i, c in enumerate(view.hand) if c is view.drawn]
            if idx:
                self.cursor = idx[-1]
        self._last_phase = view.phase if view.my_turn else ""
        self.cursor = max(0, min(self.cursor, n - 1))
        self._redraw()
        keys = tuple(self.check_action(a, ()) for a in _CONTEXT_ACTIONS)
        if keys != self._keys and self.is_mounted:
            self._keys = keys
            self.refresh_bindings()
            self._show_keys()
        for i in range(self._seen_log, len(view.log)):
            e = view.log[i]
            if e.kind == "reveal" and e.target == view.seat and e.cards:
                from .dialogs import colour_when_played

                guilty = None
                if i and view.log[i - 1].kind == "challenge":
                    guilty = bool(view.log[i - 1].value)
                self._reveals.append((view.names[e.seat], e.cards, guilty, colour_when_played(view.log, i)))
        self._seen_log = len(view.log)
        self._maybe_dialog()
        if first:
            self.call_after_refresh(self._first_frame_drawn)

    def _show_keys(self) -> None:
        """The key bar: every binding that is shown and applies now."""
        shown = []
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding) or not binding.show:
                continue
            action = binding.action.split("(")[0]
            if self.check_action(action, ()) is False:
                continue
            shown.append((KeyBar.key_name(binding.key, binding.key_display), binding.description))
        self.query_one(KeyBar).show(shown)

    def _first_frame_drawn(self) -> None:
        self.uno.first_frame_drawn()
        stamp = os.environ.get("UNOTUI_FIRST_FRAME_FILE")
        if stamp:  # bench/tui.py: note the time of the first full frame, then quit
            import time

            with open(stamp, "w", encoding="utf-8") as out:
                out.write(repr(time.time()))
            self.app.exit(0)

    def _redraw(self) -> None:
        view = self.view
        if view is None or not self.is_mounted:
            return
        palette = self.uno.palette
        middle = self.size.height - 7
        lines = view.players + 2 + sum(1 for s in view.face_up if s != view.seat)
        self._compact = lines + 5 > middle
        self.query_one(StatusLine).show(view)
        self.query_one(PlayersView).show(view, palette)
        self.query_one(PileView).show(view, palette, self._compact)
        self.query_one(HandView).show(view, self.cursor, palette)
        self.query_one(GameLog).show(view)

    def _redraw_hand(self) -> None:
        if self.view is not None and self.is_mounted:
            self.query_one(HandView).show(self.view, self.cursor, self.uno.palette)

    def on_screen_resume(self) -> None:
        # Back from help (or a dialog): a decision or summary may have come up meanwhile.
        if self.view is not None:
            self._maybe_dialog()

    def on_resize(self, event: Resize) -> None:
        self._redraw()

    def say(self, text: str, warn: bool = False) -> None:
        """Show ``text`` on the message line (literal text)."""
        style = Style(bold=True, reverse=True) if warn else Style(italic=True)
        self.query_one("#message", Static).update(
            Text(" " + clean(text, 300), style) if text else Text(), layout=False
        )

    def refused(self, action: str, code: str, message: str) -> None:
        """An intent was refused: say why; nothing else changes."""
        view = self.view
        wait = None
        if code == "not_your_turn" and view is not None and 0 <= view.actor < view.players:
            wait = names_of(view)[view.actor]
        self.say(refusal(code, message, wait), warn=True)
        self._answered = -1
        self._maybe_dialog()

    # ----- dialogs ------------------------------------------------------------------------

    def _dialog_opened(self) -> None:
        self._dialog = True

    def _dialog_closed(self) -> None:
        self._dialog = False
        if self.view is not None:
            self._maybe_dialog()

    def _maybe_dialog(self) -> None:
        view = self.view
        if self._dialog or view is None or self.app.screen is not self:
            return
        if not (self._reveals or view.phase in _DIALOG_PHASES):
            return
        # Imported here: the first frame of the table does not wait for them.
        from .dialogs import ColourPicker, RevealScreen, TargetPicker, colour_reason
        from .results import MatchOverScreen, RoundOverScreen

        palette = self.uno.palette
        if self._reveals:
            name, cards, guilty, colour = self._reveals.pop(0)
            self._dialog_opened()
            self.app.push_screen(
                RevealScreen(name, cards, guilty, palette, colour),  # type: ignore[arg-type]
                lambda _: self._dialog_closed(),
            )
            return
        if view.phase in ("round_over", "match_over") and self._summary_held(view):
            return
        if view.phase == "match_over" and self._shown_round != -1:
            self._shown_round = -1
            self._dialog_opened()
            self.app.push_screen(MatchOverScreen(view, list(self.uno.history), palette), self._match_done)
            return
        if view.phase == "round_over" and self._shown_round != view.round_no:
            self._shown_round = view.round_no
            self._dialog_opened()
            self.app.push_screen(RoundOverScreen(view, palette, self.uno.history), self._round_done)
            return
        if not view.my_turn or view.version == self._answered:
            return  # not ours, or answered and waiting for the next view
        if view.phase == "colour":
            self._dialog_opened()
            picker = ColourPicker(view.hand, palette, colour_reason(view))
            self.app.push_screen(picker, self._colour_done)
        elif view.phase == "target":
            seats = [a.seat for a in view.legal if isinstance(a, ChooseTarget)]
            self._dialog_opened()
            self.app.push_screen(TargetPicker(view.names, view.counts, seats), self._target_done)

    def _summary_held(self, view: SeatView) -> bool:
        """Whether the round's last card is still on show before its summary opens.

        The pause (``GameOptions.summary_pause``) starts once per round end; Enter ends
        it early.
        """
        key = (view.round_no, view.phase)
        if self._pause_for != key:
            self._pause_for = key
            pause = self.uno.options.summary_pause
            if pause > 0:
                self._pause = self.set_timer(pause, self._pause_over)
        return self._pause is not None

    def _pause_over(self) -> None:
        if self._pause is not None:
            self._pause.stop()
            self._pause = None
        self._maybe_dialog()

    def _colour_done(self, colour: Colour | None) -> None:
        self._dialog = False
        if colour is not None:
            self._answered = self.view.version if self.view is not None else -1
            self.send(ChooseColour(colour))
        else:
            self._dialog_closed()

    def _target_done(self, seat: int | None) -> None:
        self._dialog = False
        if seat is not None:
            self._answered = self.view.version if self.view is not None else -1
            self.send(ChooseTarget(seat))
        else:
            self._dialog_closed()

    def _round_done(self, _: None) -> None:
        self._dialog = False
        self.uno.controller_next_round()
        self._dialog_closed()

    def _match_done(self, choice: str | None) -> None:
        self._dialog = False
        if choice == "rematch":
            self.uno.rematch()
        elif choice == "quit":
            self.app.exit(0)
        else:
            self.uno.back_to_menu()

    # ----- intents ------------------------------------------------------------------------

    def send(self, action: Action) -> None:
        """Send ``action`` to the controller."""
        self.say("")
        self.uno.send(action)

    def _legal(self) -> tuple[Action, ...]:
        return self.view.legal if self.view is not None else ()

    def _selected(self) -> Play | None:
        view = self.view
        if view is None or not view.hand:
            return None
        return play(view.hand[self.cursor])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self.view
        if view is None:
            return True
        legal = view.legal
        mine = view.my_turn
        if action == "keep":
            return KEEP in legal
        if action == "catch":
            return any(isinstance(a, Catch) for a in legal)
        if action in ("challenge", "accept"):
            return mine and view.phase == "challenge"
        if action == "jump":
            return not mine and any(isinstance(a, Play) for a in legal)
        if action == "draw":
            return DRAW in legal
        if action == "uno":
            return CALL_UNO in legal or (mine and len(view.hand) == 2)
        return True

    def action_move(self, step: int) -> None:
        """Move the cursor along the hand."""
        if self.view and self.view.hand:
            self.cursor = (self.cursor + step) % len(self.view.hand)
            self._redraw_hand()

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
        view = self.view
        chosen = self._selected()
        if view is None or chosen is None:
            return
        if view.phase == "discard" and view.my_turn:
            self.send(Discard(chosen.card))
            return
        legal = view.legal
        if chosen in legal:
            self.send(chosen)
        elif play(chosen.card, True) in legal:
            self.send(play(chosen.card, True))
        else:
            self.send(chosen)  # the refusal says why

    def action_uno(self) -> None:
        """Call UNO; with two cards, play the selected one and call UNO with it."""
        view = self.view
        chosen = self._selected()
        if view is None:
            return
        if CALL_UNO in view.legal:
            self.send(CALL_UNO)
        elif chosen is not None and view.my_turn and len(view.hand) == 2:
            self.send(play(chosen.card, True))
        else:
            self.send(CALL_UNO)

    def action_draw(self) -> None:
        """Draw a card (or take the pending penalty)."""
        self.send(DRAW)

    def action_keep(self) -> None:
        """Keep the card just drawn."""
        self.send(KEEP)

    def action_catch(self) -> None:
        """Catch whoever forgot to call UNO."""
        catches = [a for a in self._legal() if isinstance(a, Catch)]
        if catches:
            self.send(catches[0])
        else:
            self.say("Nobody can be caught now.", warn=True)

    def action_challenge(self) -> None:
        """Challenge the Wild Draw Four played on you."""
        self.send(CHALLENGE)

    def action_accept(self) -> None:
        """Accept the Wild Draw Four and draw."""
        self.send(ACCEPT)

    def action_jump(self) -> None:
        """Jump in with the card identical to the top of the pile."""
        jumps = [a for a in self._legal() if isinstance(a, Play)]
        if jumps and self.view is not None and not self.view.my_turn:
            self.send(jumps[0])
        else:
            self.say("You cannot jump in now.", warn=True)

    async def action_hint(self) -> None:
        """Ask a computer player what it would do."""
        view = self.view
        hint = await self.uno.hint()
        if view is None or hint is None:
            self.say("No suggestion: nothing to do now.")
            return
        self.say(f"Hint: {describe_action(hint, view)}.")
        if isinstance(hint, Play | Discard) and hint.card in view.hand:
            self.cursor = view.hand.index(hint.card)
            self._redraw()

    def action_help(self) -> None:
        """The rules in force and the keys."""
        from .help import HelpScreen

        if self.view is not None:
            self.app.push_screen(HelpScreen(self.view.rules))

    def action_theme(self) -> None:
        """Switch to the next colour theme."""
        name = self.uno.cycle_theme()
        self._redraw()
        self.say(f"Theme: {name}.")
