"""Helpers for the Textual tests: build an app around a scripted game, read the screen,
and play by key presses alone."""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from tests.clock import idle
from unotui.bots import RandomBot
from unotui.engine import (
    ACCEPT,
    CALL_UNO,
    DRAW,
    KEEP,
    Action,
    Card,
    Catch,
    Play,
    Rules,
    SeatView,
)
from unotui.engine import deal_order as deal_order  # re-exported for the UI tests
from unotui.net.local import LocalGame
from unotui.ui.app import UnoApp
from unotui.ui.screens.dialogs import ColourPicker, RevealScreen, TargetPicker
from unotui.ui.screens.help import HelpScreen
from unotui.ui.screens.results import MatchOverScreen, RoundOverScreen
from unotui.ui.screens.table import TableScreen
from unotui.ui.settings import Config, GameOptions


class ScriptedBot:
    """Plays the scripted actions first (when legal), then passively: draw, keep, accept."""

    name = "scripted"

    def __init__(self, script: Sequence[str] = (), passive: bool = True, seed: int = 0) -> None:
        self.script = [Action.parse(s) for s in script]
        self.passive = passive
        self.random = RandomBot(random.Random(seed))

    def choose(self, view: SeatView) -> Action:
        if self.script and self.script[0] in view.legal:
            return self.script.pop(0)
        if self.passive:
            for a in (KEEP, ACCEPT, DRAW):
                if a in view.legal:
                    return a
            plays = [a for a in view.legal if not isinstance(a, Catch)]
            return plays[0] if plays else view.legal[0]
        return self.random.choose(view)

    def react(self, view: SeatView) -> Action | None:
        """Out of turn: always catch a seat that forgot UNO; never call late."""
        return next((a for a in view.legal if isinstance(a, Catch)), None)


def scripted_app(
    names: Sequence[str],
    rules: Rules,
    bots: dict[int, Any],
    *,
    dealer: int,
    deck: Sequence[Card] | None = None,
    seed: int = 1,
    catch_grace: float = 0.0,
    theme: str = "default",
    summary_pause: float = 0.0,
) -> UnoApp:
    """An app whose game is a LocalGame with the given bots and deck (zero delays)."""

    def factory(options: GameOptions) -> LocalGame:
        return LocalGame(
            list(names),
            options.rules,
            bots=dict(bots),
            seed=options.seed,
            delay=0,
            catch_grace=catch_grace,
            dealer=dealer,
            deck=deck,
        )

    options = GameOptions(
        players=len(names),
        rules=rules,
        seed=seed,
        delay=0,
        catch_grace=catch_grace,
        summary_pause=summary_pause,
    )
    return UnoApp(Config(theme=theme), options, factory=factory, save_settings=False)


def seeded_app(players: int = 4, rules: Rules | None = None, seed: int = 1, theme: str = "default") -> UnoApp:
    """The ordinary app (random bots) with a seed and zero delays."""
    rules = rules or Rules.preset("classic")
    options = GameOptions(
        players=players, rules=rules, seed=seed, delay=0, catch_grace=0, level="random", summary_pause=0
    )
    return UnoApp(Config(theme=theme), options, save_settings=False)


def screen_text(app: UnoApp) -> str:
    """The current screen as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def quick_idle(min_sleep: float = 0, max_sleep: float = 1) -> None:
    """A stand-in for Textual's ``wait_for_idle`` (which sleeps 20 ms or more per key):
    tests wait for exactly what they need with :func:`settle` instead."""
    for _ in range(3):
        await asyncio.sleep(0)


async def settle(pilot: Pilot[Any]) -> None:
    """Let the computer players act until the person has something to do, and the
    screen has caught up with the last view."""
    app = pilot.app
    assert isinstance(app, UnoApp)
    for _ in range(2000):
        await pilot._wait_for_screen()
        controller = app.controller
        if isinstance(controller, LocalGame):
            await idle(controller.clock)
            await pilot._wait_for_screen()
            if (
                app.view is not None
                and app.view.version == controller.game.version
                and app._message_queue.empty()
            ):
                await asyncio.sleep(0)
                app.screen._on_timer_update()
                return
        await asyncio.sleep(0.001)


def table(app: UnoApp) -> TableScreen:
    """The table screen (wherever it is in the stack)."""
    for screen in app.screen_stack:
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError("no table screen")


async def play_card(pilot: Pilot[Any], card: str, key: str = "enter") -> None:
    """Move the cursor to ``card`` with arrow keys, then press ``key``."""
    app = pilot.app
    assert isinstance(app, UnoApp)
    t = table(app)
    assert app.view is not None
    n = len(app.view.hand)
    target = [c.text for c in app.view.hand].index(card)
    forward, backward = (target - t.cursor) % n, (t.cursor - target) % n
    keys = ["right"] * forward if forward <= backward else ["left"] * backward
    if keys:
        await pilot.press(*keys)
    assert t.cursor == target
    await pilot.press(key)
    await settle(pilot)


def wild_in_hand_app() -> UnoApp:
    """Two players, three cards each (classic rules): you hold W R5 G3 on a red 1, and Ada
    (a scripted bot) B9 G2 Y1.  :func:`picking_a_colour` plays the Wild."""
    deck = deal_order(["W R5 G3", "B9 G2 Y1"], "R1", dealer=1)
    rules = Rules.preset("classic").with_(hand_size=3)
    return scripted_app(["Me", "Ada"], rules, {1: ScriptedBot()}, dealer=1, deck=deck)


async def picking_a_colour(pilot: Pilot[Any]) -> None:
    """At :func:`wild_in_hand_app`'s table: play the Wild, so the colour picker is open."""
    await settle(pilot)
    await play_card(pilot, "W")
    assert isinstance(pilot.app.screen, ColourPicker)


def _distance(i: int, cur: int, n: int) -> int:
    return min((i - cur) % n, (cur - i) % n)


async def autoplay(pilot: Pilot[Any], until: type = MatchOverScreen, max_keys: int = 3000) -> list[str]:
    """Play by keys alone until a screen of type ``until`` shows; returns the keys pressed."""
    app = pilot.app
    assert isinstance(app, UnoApp)
    pressed: list[str] = []

    async def press(*keys: str) -> None:
        pressed.extend(keys)
        await pilot.press(*keys)
        await settle(pilot)

    while len(pressed) < max_keys:
        await settle(pilot)
        screen = app.screen
        if isinstance(screen, until):
            return pressed
        if isinstance(screen, ColourPicker):
            hand = app.view.hand if app.view else ()
            counts = {c: sum(1 for x in hand if x.text[0] == c and not x.is_wild) for c in "RYGB"}
            await press(max("RYGB", key=lambda c: counts[c]).lower())
        elif isinstance(screen, TargetPicker):
            await press(str(screen.seats[0]))
        elif isinstance(screen, RevealScreen | RoundOverScreen | HelpScreen):
            await press("escape" if isinstance(screen, HelpScreen) else "enter")
        elif isinstance(screen, MatchOverScreen):
            await press("n")  # (rematch)
        elif isinstance(screen, TableScreen):
            view = app.view
            assert view is not None
            legal = view.legal
            if CALL_UNO in legal:
                await press("u")
            elif any(isinstance(a, Catch) for a in legal):
                await press("c")
            elif not view.my_turn:
                await pilot.pause(0.01)
            elif view.phase == "challenge":
                await press("a")
            elif view.phase == "drawn" and legal == (KEEP,):
                await press("k")  # a drawn card that cannot be played is kept
            elif view.phase in ("drawn", "discard"):
                await press("enter")
            elif view.phase == "play":
                plays = [a for a in legal if isinstance(a, Play)]
                n, cur = len(view.hand), table(app).cursor
                texts = [c.text for c in view.hand]

                plays.sort(key=lambda a, t=texts, c=cur, n=n: _distance(t.index(a.card.text), c, n))
                if plays:
                    key = "u" if len(view.hand) == 2 else "enter"
                    pressed.append(f"<{plays[0].card.text}>")
                    await play_card(pilot, plays[0].card.text, key)
                else:
                    await press("d")
            else:
                await pilot.pause(0.01)
        else:
            await pilot.pause(0.01)
    raise AssertionError(f"no {until.__name__} after {len(pressed)} keys")


def full_text(app: App[Any]) -> str:
    """The whole terminal as plain text, with the screens a dialog leaves visible below it."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), color_system=None, record=True, legacy_windows=False
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def words(app: App[Any]) -> str:
    """The screen's words in one line: frames and line breaks gone, so that text wrapped
    inside a box reads as one sentence."""
    text = full_text(app)
    for frame in "│█╭╮╰╯─▀▄▊▎▌":
        text = text.replace(frame, " ")
    return " ".join(text.split())


class HandClock:
    """A clock the test moves by hand (``clock.now += 1``): a turn clock's time source."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def table_up(app: App[Any]) -> bool:
    """Whether the table's screen is up, perhaps under a decision it opened at once: a
    deal whose first card is a wild asks the first player for its colour before anything
    else, so a networked table's random deal may open on the colour picker."""
    return any(isinstance(screen, TableScreen) for screen in app.screen_stack)


def showing(screen: Screen[Any]) -> App[None]:
    """An app that shows nothing but ``screen`` (no game behind it: the test drives it)."""

    class One(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen)

    return One()
