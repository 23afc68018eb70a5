"""The table's widgets.  Each draws one part of a :class:`SeatView` it is handed.

"State down": each widget's reactive attributes are bound to the table screen's
(``data_bind``): the view and the palette, or for the hand and the pile one value
(:class:`HandShown`, :class:`PileShown`) the screen derives from them and the terminal's
size.  A change redraws the widget (its ``watch_`` method) if what it shows changed;
widgets keep no game state of their own and never talk to the controller.  All game text is rendered as
``rich.text.Text`` (never markup), from sanitised names.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.reactive import var

from ..engine import ENDED_PHASES, KEEP, Card, Catch, EventKind, Phase, Play, SeatView
from ..net.room_info import SeatMark
from ..protocol.text import clean
from .panel import Panel, block, put
from .render import PILE_SIZES, big_card, card_chip, colour_style, hand_row, pile_card, turn_style, wrap_cells
from .words import card_name, direction_name, display_name

__all__ = [
    "HandShown",
    "HandView",
    "PileShown",
    "PileView",
    "PlayersView",
    "StatusLine",
    "just_drawn",
    "playable_flags",
    "prompt",
]


def names_of(view: SeatView) -> list[str]:
    """Every seat's display name (sanitised; the viewer is "You")."""
    return ["You" if s == view.seat else display_name(n) for s, n in enumerate(view.names)]


def playable_flags(view: SeatView) -> list[bool]:
    """For each card in the viewer's hand: can it be played (or discarded) right now?"""
    if view.phase == Phase.DISCARD and view.my_turn:
        return [True] * len(view.hand)
    cards = {a.card for a in view.legal if isinstance(a, Play)}
    return [c in cards for c in view.hand]


# Events after which the cards of an earlier draw are no longer "just drawn": the
# viewer's own plays, and anything that changes every hand.
_MY_RESETS = frozenset({EventKind.PLAY, EventKind.JUMP, EventKind.DISCARD})
_ALL_RESETS = frozenset({EventKind.DEAL, EventKind.ROUND, EventKind.ROTATE, EventKind.SHUFFLE})


def just_drawn(view: SeatView) -> list[bool]:
    """For each card in the viewer's hand: did it arrive with the viewer's latest draw?

    The cards of the viewer's most recent draw (one card on a turn, or a whole penalty)
    stay marked until the viewer plays or discards, or hands change wholesale (a swap, a
    rotation, a new deal).  Read from the log, so it survives coalesced views; identical
    cards are marked from the newest arrival back.
    """
    me = view.seat
    drawn: list[Card] = []
    for event in reversed(view.log):
        if event.kind == EventKind.DRAW and event.seat == me:
            drawn = list(event.cards)
            break
        if (
            event.kind in _ALL_RESETS
            or (event.kind in _MY_RESETS and event.seat == me)
            or (event.kind == EventKind.SWAP and me in (event.seat, event.target))
        ):
            break
    marks = [False] * len(view.hand)
    for i in range(len(view.hand) - 1, -1, -1):
        card = view.hand[i]
        if card in drawn:
            drawn.remove(card)
            marks[i] = True
    return marks


_PHASE_WAIT = {
    Phase.PLAY: "to play",
    Phase.DRAWN: "to play or keep a drawn card",
    Phase.COLOUR: "to name a colour",
    Phase.TARGET: "to choose a player",
    Phase.DISCARD: "to discard",
    Phase.CHALLENGE: "to challenge or accept",
}


def prompt(view: SeatView, away: str = "") -> str:
    """What the viewer should do now, in one sentence with its keys (``away``: what to
    say instead of waiting for a seat held for its dropped person)."""
    names = names_of(view)
    me = view.seat
    extras = []
    if view.uno_open >= 0 and view.uno_open == me:
        extras.append("You have one card: call UNO (u)!")
    for a in view.legal:
        if isinstance(a, Catch):
            extras.append(f"{names[a.seat]} did not call UNO: catch (c)!")
    if not view.my_turn and any(isinstance(a, Play) for a in view.legal):
        extras.append(f"Jump in with {view.top.text} (j)!")
    if view.phase == Phase.MATCH_OVER:
        main = f"{names[view.winner]} won the match." if view.winner >= 0 else "The match is over."
    elif view.phase == Phase.ROUND_OVER:
        dealer = "You deal" if view.actor == me else f"{names[view.actor]} deals"  # (the next dealer)
        main = f"Round over. {dealer} next."
    elif not view.my_turn:
        main = away or f"Waiting for {names[view.actor]} {_PHASE_WAIT.get(view.phase, '')}."
    elif view.phase == Phase.PLAY:
        if view.pending:
            main = f"Draw {view.pending} (d) or stack a draw card (Enter)."
        elif extras:  # (the catch or the UNO call first: the line is 80 columns at most)
            main = "Your turn: Enter plays, d draws."
        else:
            main = "Your turn: play a card (Enter; u plays and calls UNO) or draw (d)."
    elif view.phase == Phase.DRAWN:
        drawn = view.drawn.text if view.drawn is not None else "a card"
        if view.legal == (KEEP,):
            main = f"You drew {drawn}: it can't be played; it is kept in a moment (k: now)."
        else:
            main = f"You drew {drawn}: play it (Enter) or keep it (k). Waiting keeps it."
    elif view.phase == Phase.COLOUR:
        main = "Name a colour: r, y, g or b."
    elif view.phase == Phase.TARGET:
        main = "Choose a player to swap hands with."
    elif view.phase == Phase.DISCARD:
        main = f"Discard {view.discard_left} more: select a card and press Enter."
    elif view.phase == Phase.CHALLENGE:
        by = names[view.wd4_by] if view.wd4_by >= 0 else "Someone"
        main = f"{by} played Wild Draw Four on you: challenge (x) or accept (a)."
    else:
        main = ""
    return " ".join([*extras, main]).strip()


class HandShown(NamedTuple):
    """What the hand panel draws: the hand of ``view`` in ``order`` (indices into it),
    ``cursor`` selected; ``tall``: larger cards (7x5) for large terminals."""

    view: SeatView
    order: tuple[int, ...]
    cursor: int
    palette: str
    tall: bool = False


class PileShown(NamedTuple):
    """What the pile panel draws: ``view``'s piles (in 3 lines when ``compact``).  The turn
    timer is a line of its own below (:class:`~unotui.ui.turn_clock.ClockLine`), so that
    its tick each second does not repaint the pile."""

    view: SeatView
    palette: str
    compact: bool
    #: larger cards (a tall terminal with rows to spare beside the log)
    large: bool = False


class StatusLine(Panel):
    """One line: round, rules, and what to do now (or, at a closed game, that it is)."""

    view: var[SeatView | None] = var(None, init=False)
    #: why the game is closed ("" while it is open: then the line says what to do now)
    closed: var[str] = var("", init=False)
    #: the deciding seat is held for its dropped person: how long until a computer player
    #: takes it (counted down by the table, said instead of "Waiting for Bob to play.")
    away: var[str] = var("", init=False)

    def watch_closed(self) -> None:
        self.draw()

    def watch_away(self) -> None:
        self.draw()

    def draw(self) -> None:
        """Draw the view."""
        view = self.view
        if view is None:
            return
        text = Text()
        text.append(f" Round {view.round_no} ", Style(reverse=True, bold=True))
        text.append(" ")
        if self.closed:
            text.append(f"Game closed: {self.closed}", Style(bold=True))
            put(self, block([text]))
            return
        if view.seat is None:
            text.append("Watching. ", Style(italic=True))
        text.append(prompt(view, self.away), Style(bold=view.my_turn))
        put(self, block([text]))


#: how each seat mark reads in the panel (``you`` for the viewer's own seat)
MARK_STYLES = {
    "you": Style(bold=True),
    SeatMark.BOT: Style(dim=True),
    SeatMark.AWAY: Style(italic=True, bold=True),
    SeatMark.IDLE: Style(italic=True),
}


class PlayersView(Panel):
    """Every seat: turn marker, seat number, name, who holds it, cards, UNO status, score.

    The seat whose turn it is is a highlighted row (and ``>``).  After the name, a word
    says whose the seat is when it is not another person's: ``you``, ``bot`` (a computer
    player), ``away`` (held for its dropped person), ``idle`` (a computer player plays for
    its person after three timeouts, until they act).  ``marks`` is that, per seat, as the
    controller knows it (the screen sets it).  Names are cut to fit the panel (by terminal
    cells, with an ellipsis) so the marks, card counts and scores always show.
    """

    view: var[SeatView | None] = var(None, init=False)
    palette: var[str] = var("default", init=False)
    #: each seat's :class:`~unotui.net.room_info.SeatMark` (shorter: the rest are people's)
    marks: var[tuple[SeatMark, ...]] = var((), init=False)
    _titles: tuple[str, str] = ("", "")

    def watch_palette(self) -> None:
        self.draw()

    def watch_marks(self) -> None:
        self.draw()

    def mark(self, seat: int) -> str:
        """The word after ``seat``'s name ("" for another person's seat); one's own seat
        is ``you``, or ``idle`` while a computer player plays it (``b`` takes it back)."""
        view, marks = self.view, self.marks
        idle = seat < len(marks) and marks[seat] is SeatMark.IDLE
        if view is not None and seat == view.seat and not idle:
            return "" if view.names[seat].casefold() == "you" else "you"  # ("You  you": said already)
        return marks[seat] if seat < len(marks) else ""

    def draw(self) -> None:
        """Draw the view (its width decides how much of each name shows)."""
        view, palette = self.view, self.palette
        if view is None:
            return
        names = [display_name(n) for n in view.names]
        teams = view.rules.teams
        seat_w = len(str(view.players - 1)) + 1
        width = self.size.width or 32
        marks = [self.mark(s) for s in range(view.players)]
        mark_w = max(len(k) for k in marks)
        fixed = 1 + seat_w + 1 + (mark_w + 1 if mark_w else 0) + 9 + 5 + 6 + (3 if teams else 0)
        short = width - fixed < 6  # very narrow: "7c" instead of "7 cards"
        if short:
            fixed -= 5
        name_w = max(3, min(width - fixed, max(cell_len(n) for n in names)))
        lines: list[Text] = []
        for s in range(view.players):
            row = Text()
            acting = s == view.actor and view.phase not in ENDED_PHASES
            row.append(">" if acting else " ", Style(bold=True))
            row.append(f"{s:<{seat_w}}", Style(dim=not acting))
            cells = cell_len(names[s])
            if cells <= name_w:  # the common case, without building a Text to cut
                row.append(names[s], Style(underline=s == view.seat))
                row.append(" " * (name_w - cells))
            else:
                name = Text(names[s], Style(underline=s == view.seat))
                name.truncate(name_w, overflow="ellipsis", pad=True)
                row.append_text(name)
            row.append(" ")
            if mark_w:
                row.append(f"{marks[s]:<{mark_w}}", MARK_STYLES.get(marks[s], Style()))
                row.append(" ")
            if view.eliminated[s]:
                row.append(" out" if short else "      out", Style(dim=True))
            else:
                n = view.counts[s]
                row.append(f"{n:>3}c" if short else f"{n:>3} card{'s' if n != 1 else ' '}")
            if view.uno_open == s:
                row.append(" UNO?", Style(bold=True, reverse=True))
            elif view.uno_called[s] and view.counts[s] == 1:
                row.append(" UNO!", Style(bold=True))
            else:
                row.append("     ")
            row.append(f" {view.scores[s]:>5}")
            if teams:
                row.append(f" t{view.teams[s]}", Style(dim=not acting))
            if acting:
                row.stylize(turn_style(palette))
            lines.append(row)
            shown = view.face_up.get(s)
            if shown and s != view.seat and view.phase not in ENDED_PHASES:
                cards = Text("    ")
                for c in shown:
                    cards.append_text(card_chip(c, palette))
                lines.append(cards)
        put(self, block(lines), len(lines) + 2)
        arrow = "↓" if view.direction > 0 else "↑"
        titles = f"Players, {direction_name(view.direction)} {arrow}", f"to {view.rules.target_score}"
        if titles != self._titles:  # (setting a title repaints the panel, even the same one)
            self._titles = titles
            self.border_title, self.border_subtitle = titles


def _pile_art(large: bool) -> int:
    """Columns the pile's art takes before its lines of text: the draw pile and the top
    card (each its box's inside and two sides, ``render.PILE_SIZES``), and a gap of 2 after each."""
    return 2 * (PILE_SIZES[large][0] + 2 + 2)


def colour_being_chosen(view: SeatView) -> bool:
    """Whether a wild on top still waits for its colour: the view's colour is then the one
    before it (the engine changes it when the colour is named), which the pile must not
    show as the colour in play (issue 19: ``Colour: Yellow (Y)`` and ``=Y`` on a Wild Draw
    Four whose player then named green).  A Wild Swap Hands asks for its target first."""
    phase = view.phase
    return view.top.is_wild and (phase == Phase.COLOUR or phase == Phase.TARGET)


class PileView(Panel):
    """The draw pile, the top discard, the colour in play and the direction."""

    shown: var[PileShown | None] = var(None, init=False)

    def draw(self) -> None:
        """Draw the piles (see :class:`PileShown`)."""
        shown = self.shown
        if shown is None:
            return
        view, palette, compact = shown.view, shown.palette, shown.compact
        choosing = colour_being_chosen(view)
        if choosing:  # the colour still in the view is the one before the wild: not shown
            colour = Text("being chosen", Style(italic=True))
        else:
            colour = Text(f" {view.colour.name.title()} ", colour_style(view.colour, palette))
            colour.append(f" ({view.colour.letter})")
        nxt = names_of(view)[view.next_seat(view.turn)] if view.turn in view.active else "?"
        arrow = "↓" if view.direction > 0 else "↑"
        top = Text.assemble("Top: ", (view.top.text, Style(bold=True)), f" {card_name(view.top)}")
        room = self.size.width - _pile_art(shown.large)  # beside the two cards' art
        if not compact and 0 < room < top.cell_len:  # "Top: R+2 red Draw T…": the name alone
            top = Text(f"Top: {card_name(view.top)}")
            if top.cell_len > room:  # (the card's own code is shorter than any name)
                top = Text.assemble("Top: ", (view.top.text, Style(bold=True)))
        info = [
            top,
            Text.assemble("Colour: ", colour),
            Text(f"Next: {nxt} {arrow}"),
            Text(f"Draw pile: {view.draw_count}"),
        ]
        if view.pending:
            info.append(Text(f"Pending draw: +{view.pending}", Style(bold=True)))
        if compact:
            line = Text.assemble(card_chip(view.top, palette), " ", info[1], "  ", info[2])
            rows = [line, info[3], *info[4:]]
            put(self, block(rows), len(rows))
            return
        art = [
            Text.assemble(d, "  ", t)
            for d, t in zip(
                pile_card(view.draw_count, shown.large),
                big_card(view.top, None if choosing else view.colour, palette, shown.large),
                strict=True,
            )
        ]
        lines = []
        first = 1 if shown.large else 0  # (the text beside a large card starts a row down)
        for i, row in enumerate(art):
            k = i - first
            lines.append(Text.assemble(row, "  ", info[k] if 0 <= k < len(info) else ""))
        put(self, block(lines), len(lines))


class HandView(Panel):
    """The viewer's hand with the cursor; playable cards and the cards just drawn marked."""

    shown: var[HandShown | None] = var(None, init=False)
    _key: tuple[object, ...] = ()

    def draw(self) -> None:
        """Draw the hand (see :class:`HandShown`; its width decides how cards overlap)."""
        if self.shown is None:
            return
        view, order, cursor = self.shown.view, self.shown.order, self.shown.cursor
        palette, tall = self.shown.palette, self.shown.tall
        flags = playable_flags(view)
        new = just_drawn(view)
        cards = [view.hand[i] for i in order]
        shown_flags = [flags[i] for i in order]
        width = self.size.width or 80
        marks = [new[i] for i in order]
        key = (tuple(cards), cursor, tuple(shown_flags), tuple(marks), width, palette, tall, view.seat,
               view.rules)  # what the drawing depends on: the same again (another's move) draws nothing
        if key == self._key:
            return
        self._key = key
        art, _, _ = hand_row(cards, palette, cursor, shown_flags, width, marks, tall)
        info = Text()
        lines = [art, info]
        n = len(cards)
        if n:
            card: Card = cards[cursor]
            info.append(f" {n} card{'s' if n != 1 else ''}, {sum(flags)} playable (*). ")
            info.append(f"Selected: {card_name(card)} ({card.text})", Style(bold=True))
            info.append(" - playable" if shown_flags[cursor] else "")
            if card.text == "WC":  # its rule: on this line if it fits, else on lines of its own
                rule = clean(view.rules.custom.describe(), 120, collapse=False)
                if info.cell_len + 2 + cell_len(rule) < width:
                    info.append(": ").append(rule, Style(italic=True))
                else:
                    lines += [Text(" " + part, Style(italic=True))
                              for part in wrap_cells("The WC here: " + rule, width - 2)[:2]]
        elif view.seat is None:
            info.append(" You are watching: the players' hands are hidden.")
        else:
            info.append(" No cards.")
        put(self, block(lines), (6 if tall else 4) + len(lines) - 2)
