"""Solo play's controller without a screen (LocalGame: refusals, the catch grace, bots
between rounds, hints, broken bots), and the checks the command line and the settings
file make before a local game starts."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.clock import FakeClock, idle
from tests.seeds import rng_secret
from tests.ui.tui_support import ScriptedBot, deal_order
from unotui.bots import make_bot, suggest
from unotui.cli import main
from unotui.engine import DRAW, KEEP, Action, Card, Event, Game, Play, Rules, play
from unotui.net.local import LocalGame
from unotui.protocol import messages as m
from unotui.protocol.events import ViewUpdated
from unotui.protocol.text import clean, clean_name
from unotui.ui.settings import Config, config_path, load_config, save_config
from unotui.ui.words import describe

if TYPE_CHECKING:
    from unotui.net.controller import Update

CLASSIC = Rules.preset("classic")


def answers_and_views(updates: list[object]) -> Callable[[Update], None]:
    """A listener keeping every update but the deadlines (which these tests do not read)."""
    return lambda update: None if isinstance(update, m.Deadline) else updates.append(update)


def test_nothing_below_the_ui_loads_textual() -> None:
    code = (
        "import sys, unotui.net.controller, unotui.net.local, unotui.ui.cli, unotui.cli; "
        "unotui.cli.build_parser(); "
        "assert 'textual' not in sys.modules and 'rich' not in sys.modules, sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "nope"], "unknown preset"),
        (["--set", "stacking=maybe"], "stacking"),
        (["--set", "nonsense=1"], "unknown rule"),
        (["--set", "novalue"], "KEY=VALUE"),
        (["--players", "11"], "2-10 players"),
        (["--bots", "genius"], "unknown bot level"),
    ],
)
def test_bad_play_arguments_exit_2_without_traceback(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_engine_offers_the_plain_play_of_a_next_to_last_card() -> None:

    g = Game(
        2,
        CLASSIC.with_(hand_size=2),
        secret=rng_secret(1),
        deck=deal_order(["R5 G7", "B1 B2"], "R1", dealer=1),
        dealer=1,
    )
    legal = g.legal_actions(0)
    assert play(Card.parse("R5")) in legal and play(Card.parse("R5"), True) in legal
    g.apply(0, play(Card.parse("R5")))
    assert g.uno_open == 0


async def test_local_game_refuses_with_code_and_keeps_state() -> None:
    deck = deal_order(["B5 R7 G3", "B9 G2 Y1"], "R1", dealer=1)
    game = LocalGame(
        ["Me", "Ada"], CLASSIC.with_(hand_size=3), bots={1: ScriptedBot()}, delay=0, dealer=1, deck=deck,
        clock=FakeClock(),
    )
    updates: list[object] = []
    game.listen(answers_and_views(updates))
    await game.start()
    await idle(game.clock)
    version = game.game.version
    game.send(play(Card.parse("B5")))
    assert isinstance(updates[-1], m.Refused) and updates[-1].code == "unplayable"
    assert game.game.version == version
    game.send(DRAW)
    assert isinstance(updates[-2], ViewUpdated) and isinstance(updates[-1], m.Accepted)
    await game.close()


async def _down_to_two_cards() -> tuple[LocalGame, FakeClock]:
    """A two-seat game with a 0.3 s catch grace in which the person has just played down
    to two cards (R7, G3): the next play leaves one, and Ada may catch an uncalled UNO."""
    deck = deal_order(["R5 R7 G3", "B9 G2 Y1"], "R1", dealer=1)
    clock = FakeClock()
    game = LocalGame(
        ["Me", "Ada"], CLASSIC.with_(hand_size=3), bots={1: ScriptedBot()}, delay=0, catch_grace=0.3,
        dealer=1, deck=deck, clock=clock,
    )
    await game.start()
    await idle(clock)
    game.send(play(Card.parse("R5")))
    await idle(clock)
    return game, clock


async def test_bot_catches_only_after_the_grace_period() -> None:
    game, clock = await _down_to_two_cards()
    game.send(play(Card.parse("R7")))  # forgot UNO
    assert game.view.uno_open == 0
    clock.advance(0.1)
    await idle(clock)
    assert game.view.uno_open == 0  # not yet caught: the grace period runs
    clock.advance(0.4)
    await idle(clock)
    assert any(e.kind == "catch" for e in game.game.log)
    await game.close()


async def test_calling_late_within_the_grace_period_is_safe() -> None:
    game, clock = await _down_to_two_cards()
    game.send(play(Card.parse("R7")))
    clock.advance(0.05)
    await idle(clock)
    game.send(Action.parse("uno"))
    clock.advance(0.4)
    await idle(clock)
    assert not any(e.kind == "catch" for e in game.game.log)
    await game.close()


async def test_bots_wait_for_the_person_between_rounds_and_finish_a_match() -> None:
    clock = FakeClock()
    game = LocalGame(
        ["Me", "A", "B"], CLASSIC.with_(target_score=100), level="random", seed=4, delay=0, catch_grace=0,
        clock=clock,
    )
    await game.start()
    rounds = 0
    for _ in range(5000):
        await idle(clock)
        view = game.view
        if view.phase == "match_over":
            break
        if view.phase == "round_over":
            rounds += 1
            version = game.game.version
            clock.advance(10.0)
            await idle(clock)
            assert game.game.version == version  # nobody deals until we are ready
            game.next_round()
            continue
        action = suggest(view)
        assert action is not None and action in view.legal
        game.send(action)
    assert game.view.phase == "match_over" and game.bot_errors == []
    await game.close()


async def test_hint_is_legal() -> None:
    game = LocalGame(["Me", "A"], CLASSIC, seed=9, delay=0, clock=FakeClock())
    await game.start()
    await idle(game.clock)
    hint = await game.hint()
    assert hint in game.view.legal
    await game.close()


def test_make_bot_builds_every_level_and_refuses_an_unknown_one() -> None:
    import random

    from unotui.bots import LEVELS
    from unotui.cli import build_parser
    from unotui.ui.cli import build_options

    # One list of levels: what the command line accepts is what make_bot builds.
    for level in LEVELS:
        assert build_options(build_parser().parse_args(["play", "--bots", level]))[1].level == level
        assert make_bot(level, random.Random(1)).name == level
    # An unknown level used to give a random bot without a word.
    with pytest.raises(ValueError, match=r"'whatever'.*random, greedy, easy, medium, hard"):
        make_bot("whatever", random.Random(1))


def test_one_definition_of_the_colour_held_most() -> None:
    """The turn timer, the bots and the hints name the same colour for a hand."""
    from unotui.bots.policy import most_held_colour as bots_most
    from unotui.engine import Colour, Game, Rules, deal_order, most_held_colour, parse_cards

    assert bots_most is most_held_colour
    # Two yellow, two blue: yellow's cards are worth more; the wilds do not count.
    hand = parse_cards("Y9 B1 Y+2 B2 W W+4")
    assert most_held_colour(hand) is Colour.YELLOW
    assert most_held_colour(parse_cards("W")) is Colour.RED
    deck = deal_order(["Y9 B1 Y+2 B2 W W+4 R1", "G1 G2 G3 G4 G5 G6 G7"], "W", dealer=1)
    g = Game(2, Rules.preset("classic"), dealer=1, deck=deck)
    assert g.phase == "colour" and g.actor == 0  # the first card is a wild: seat 0 names it
    assert g.timeout_action() == (0, Action.parse("colour Y"))


def test_clean_strips_terminal_controls() -> None:
    assert clean("\x1b]0;pwned\x07Bob\u202e\u200b") == "]0;pwnedBob"
    # One's own name (fallback given): cut to fit, never refused (the peer's: tests/protocol).
    assert clean_name("  [bold]x[/bold]  ", "Player") == "[bold]x[/bold]"
    assert clean_name("\x1b\x07", "Player") == "Player"
    assert len(clean_name("x" * 50, "Player")) == 16


def test_log_sentences() -> None:
    names = ["Me", "Ada"]
    assert describe(Event("play", 1, (Card.parse("R5"),), value=1), names, 0) == (
        "Ada played red 5 (R5) and called UNO!"
    )
    assert describe(Event("catch", 1, target=0), names, 0) == "Ada caught you not calling UNO!"
    assert describe(Event("colour", 0, value=2), names, 0) == "You named green."
    assert describe(Event("draw", 1, value=2, note="penalty"), names, 0) == "Ada drew 2 cards as a penalty."
    assert isinstance(Play(Card.parse("R5")), Action)


def test_config_round_trip_and_env_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOTUI_CONFIG_DIR", str(tmp_path))
    assert config_path() == tmp_path / "config.toml"
    assert load_config() == Config()
    rules = Rules.preset("modern").with_settings(
        {"stacking": "cross", "custom": "extra_turn+skip_next", "custom_text": 'say "hi" \\ [b]'}
    )
    cfg = Config(
        name='Zoë "Q"', rules=rules, bots="hard", players=6, theme="mono", delay=0.2, catch_grace=1.5
    )
    save_config(cfg)
    assert load_config() == cfg
    (tmp_path / "config.toml").write_text("name = [broken", encoding="utf-8")
    broken = load_config()
    assert broken.name == "You" and broken.problems


async def test_a_broken_bot_does_not_stop_the_game() -> None:
    class Broken:
        name = "broken"

        def choose(self, view: object) -> Action:
            raise RuntimeError("oops")

    deck = deal_order(["B5 R7 G3", "B9 G2 Y1"], "R1", dealer=0)
    game = LocalGame(
        ["Me", "Ada"], CLASSIC.with_(hand_size=3), bots={1: Broken()}, delay=0, dealer=0, deck=deck,
        clock=FakeClock(),
    )
    await game.start()
    await idle(game.clock)
    assert game.view.my_turn and game.bot_errors and "oops" in game.bot_errors[0]
    await game.close()


async def test_an_internal_error_closes_the_game_with_a_reason() -> None:
    deck = deal_order(["B5 R7 G3", "B9 G2 Y1"], "R1", dealer=0)
    game = LocalGame(
        ["Me", "Ada"], CLASSIC.with_(hand_size=3), bots={1: ScriptedBot()}, delay=0, dealer=0, deck=deck
    )
    updates: list[object] = []
    game.listen(updates.append)

    class Exploding(Game):
        __slots__ = ()

        def apply(self, seat: int, action: Action) -> None:
            raise RuntimeError("engine bug")

    game.game.__class__ = Exploding  # same layout: the running game now fails on apply
    await game.start()
    for _ in range(20):
        await asyncio.sleep(0)
    assert isinstance(updates[-1], m.Closed) and "engine bug" in updates[-1].message
    await game.close()


async def test_the_person_is_held_to_the_catch_grace_too() -> None:
    # Ada plays her next-to-last card without calling UNO; the person may not catch her
    # before the grace ends (a script could otherwise snipe at t=0).
    deck = deal_order(["R9 B2 B3", "R5 G5 G6"], "R1", dealer=0)
    rules = CLASSIC.with_(hand_size=3)
    clock = FakeClock()
    game = LocalGame(
        ["Me", "Ada"], rules, bots={1: ScriptedBot(["R5", "G5"])}, delay=0, catch_grace=0.3, dealer=0,
        deck=deck, clock=clock,
    )
    updates: list[object] = []
    game.listen(answers_and_views(updates))
    await game.start()
    await idle(clock)
    game.send(DRAW)
    await idle(clock)
    for _ in range(50):  # Ada plays down to one card (she draws first if she must); bounded
        if game.view.uno_open == 1:
            break
        legal = game.view.legal  # keep what I draw, so Ada's cards stay playable
        game.send(KEEP if KEEP in legal else DRAW if DRAW in legal else legal[0])
        await idle(clock)
    assert game.view.uno_open == 1, game.view
    game.send(Action.parse("catch 1"))
    assert isinstance(updates[-1], m.Refused) and updates[-1].code == "too_early"
    clock.advance(0.35)
    await idle(clock)
    game.send(Action.parse("catch 1"))
    assert isinstance(updates[-2], ViewUpdated) and game.view.counts[1] == 3
    await game.close()


# ----- the pause (issue 19 item 2) ---------------------------------------------------------


class _Held(ScriptedBot):
    """A scripted bot whose decisions wait (in the worker thread) until the test lets go."""

    def __init__(self, script: list[str]) -> None:
        super().__init__(script)
        import threading

        self.thinking = threading.Event()
        self.go = threading.Event()

    def choose(self, view: object) -> Action:
        self.thinking.set()
        assert self.go.wait(10.0), "the test never let the bot decide"
        return super().choose(view)  # type: ignore[arg-type]


async def test_a_pause_stops_the_table_and_its_deadlines_move_on_by_it() -> None:
    """The pause shifts the table's time: Ada's 1 s pause after my play goes on where it
    stopped; a decision she made while the pause began is applied only after it."""
    rules = CLASSIC.with_(hand_size=3, target_score=1000)
    deck = deal_order(["R5 R6 R7", "R8 B1 B2"], "R1", dealer=1)
    clock = FakeClock()
    ada = _Held(["R8"])
    game = LocalGame(["Me", "Ada"], rules, bots={1: ada}, delay=1.0, catch_grace=0, dealer=1, deck=deck,
                     clock=clock)
    await game.start()
    await idle(clock)
    game.send(play(Card.parse("R5")))
    await idle(clock)
    clock.advance(0.5)  # (binary fractions: the table's time is exact)
    await idle(clock)
    assert game.pause(True) is True
    clock.advance(64.0)
    await idle(clock)
    assert game.view.top.text == "R5" and game.table_clock.time() == 1000.5
    assert game.pause(False) is True
    clock.advance(0.25)
    await idle(clock)
    assert game.view.top.text == "R5" and not ada.thinking.is_set()
    assert game.table_clock.time() == 1000.75
    clock.advance(0.25)  # her turn is due: she thinks (in the worker thread) ...
    for _ in range(1000):
        if ada.thinking.is_set():
            break
        await asyncio.sleep(0.005)
    assert ada.thinking.is_set()
    game.pause(True)  # ... as the person opens the help
    ada.go.set()
    for _ in range(20):  # her answer comes back from the thread and waits
        await asyncio.sleep(0.01)
    await idle(clock)
    assert game.view.top.text == "R5"
    game.pause(False)
    await idle(clock)
    assert game.view.top.text == "R8"
    await game.close()


async def test_the_pausing_clock_wakes_its_waiter_only_once_the_tables_time_is_there() -> None:
    """After a pause the table's time is the clock's less a shift that rounding leaves
    inexact: waking at the clock's ``until + shift`` found nothing due yet, and the driver
    spun (a test hung).  It wakes when the table's own time reaches ``until``."""
    from unotui.net.local import PausingClock

    inner = FakeClock()
    clock = PausingClock(inner)
    inner.advance(0.4)
    clock.pause()
    inner.advance(60.0)
    clock.resume()
    inner.advance(0.6)  # the clock's 1061.0 is the table's 1000.9999999999999
    assert clock.time() < 1001.0
    task = asyncio.ensure_future(clock.wait(asyncio.Event(), 1001.0))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not task.done()
    inner.advance(1e-9)
    await asyncio.wait_for(task, 5.0)
    assert clock.time() >= 1001.0
