"""The game waits for what the player reads over the table (issue 19 item 2).

In solo play a lap of turns (a Draw Two among them) went by behind the command palette,
and a round ended behind the challenge's result.  Now, while a screen is over the table
(a dialog, the help, the palette), a solo table's clock stops: computer players wait, and
every deadline moves on by the pause.  A hosted table cannot wait for one seat: its log
keeps updating under the screen, and on closing the message line says how many moves were
made meanwhile.  Pilot tests at 80x24 and 120x40 on a fake clock (solo) and on a real
host on 127.0.0.1 (hosted).
"""

from __future__ import annotations

import pytest
from textual.widgets import Static

from tests.clock import FakeClock
from tests.hostile.test_screens import joined_app, wait_for
from tests.net.lan_support import hosted
from tests.ui.tui_support import ScriptedBot, deal_order, play_card, screen_text, settle, table
from unotui.engine import DRAW, Rules
from unotui.net.config import RoomConfig
from unotui.net.local import LocalGame
from unotui.ui.app import UnoApp
from unotui.ui.game_log import GameLog
from unotui.ui.screens.help import HelpScreen
from unotui.ui.screens.table import TableScreen
from unotui.ui.settings import Config, GameOptions

pytestmark = [pytest.mark.timeout(60)]

RULES = Rules.preset("classic").with_(hand_size=3, target_score=1000)
SIZES = [(80, 24), (120, 40)]


def _solo(clock: FakeClock) -> UnoApp:
    """Me, Ada and Bo; my turn first; each of them plays a red card after a 1 s pause."""
    deck = deal_order(["R5 R6 R7", "R8 B1 B2", "R9 G1 G2"], "R1", dealer=2)

    def factory(options: GameOptions) -> LocalGame:
        bots = {1: ScriptedBot(["R8"]), 2: ScriptedBot(["R9"])}
        return LocalGame(["Me", "Ada", "Bo"], RULES, bots=bots, delay=1.0, catch_grace=0, dealer=2, deck=deck,
                         clock=clock)

    options = GameOptions(players=3, rules=RULES, delay=1.0)
    return UnoApp(Config(), options, factory=factory, save_settings=False)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("key", "reading"), [("question_mark", "help"), ("ctrl+p", "palette")])
async def test_solo_bots_wait_while_the_help_or_the_palette_is_open(
    size: tuple[int, int], key: str, reading: str
) -> None:
    clock = FakeClock()
    app = _solo(clock)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await play_card(pilot, "R5")  # Ada's turn: she plays 1 s later
        assert app.view is not None
        version = app.view.version
        clock.advance(0.5)
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        assert not isinstance(app.screen, TableScreen), reading
        clock.advance(32.0)  # a long read: nothing moves behind it
        await settle(pilot)
        assert app.view.version == version and app.view.top.text == "R5"
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        clock.advance(0.25)  # Ada's pause goes on where it stopped: 0.5 s were left
        await settle(pilot)
        assert app.view.version == version
        clock.advance(0.25)
        await settle(pilot)
        assert app.view.top.text == "R8", app.view.top  # play resumes
        clock.advance(1.0)
        await settle(pilot)
        assert app.view.top.text == "R9" and app.view.my_turn
        assert "While you were" not in screen_text(app)  # nothing to tell: nothing moved


@pytest.mark.parametrize("size", SIZES)
async def test_a_hosted_table_plays_on_and_says_what_happened_meanwhile(size: tuple[int, int]) -> None:
    """At a hosted table I draw and open the help at once: the computer players play on
    behind it (0.5 s each) until it is my turn again, the log keeps up under the help, and
    closing it says how many moves were made meanwhile."""
    rules = Rules.preset("classic").with_(target_score=1000)
    config = RoomConfig(seats=3, bots=2, autostart=True, rules=rules, bot_delay=0.5, catch_grace=0.0,
                        auto_keep=0.0)
    async with hosted(config) as (_host, _room, port):
        app = joined_app(port)
        async with app.run_test(size=size) as pilot:
            for _ in range(600):  # until my turn to play, where I may draw (30 s at most)
                view = app.view
                on_table = isinstance(app.screen, TableScreen)
                if view is not None and on_table and view.my_turn and view.phase == "play" and DRAW in view.legal:  # noqa: E501
                    break
                if view is not None and not on_table:
                    await pilot.press("r")  # a first wild: I name its colour
                elif view is not None and view.my_turn and view.phase == "challenge":
                    await pilot.press("a")  # a Wild Draw Four on me: accepted
                await pilot.pause(0.05)
            else:
                raise AssertionError(screen_text(app))
            log = table(app).query_one(GameLog)
            lines = len(log._sentences)
            await pilot.press("d", "question_mark")  # draw (kept for me at once), then the help
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            covered = app._over.covered
            assert covered is not None and not covered.waits and covered.reading == "the help"
            # Ada and Blaise play behind the help, and it is my turn again (my draw and its
            # keep may be in the view from before the help or after it: a fast host)
            await wait_for(pilot, lambda: app.view is not None and app.view.my_turn
                           and app.view.version > covered.version)  # (a Skip may leave one move)
            assert isinstance(app.screen, HelpScreen)  # they played on behind it ...
            assert len(log._sentences) > lines + 1  # ... and the log kept up under it:
            theirs = [t.plain for t in log._sentences[lines:] if t.plain.startswith(("Ada ", "Blaise "))]
            assert theirs, [t.plain for t in log._sentences[lines:]]  # (0.5 s after the help opened)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
            assert app.view is not None
            moves = app.view.version - covered.version - covered.own
            said = f"While you were in the help: {moves} move{'s' if moves != 1 else ''} (see the log)."
            message = str(table(app).query_one("#message", Static).render())
            assert moves >= 1 and said in message, (moves, message, screen_text(app))
