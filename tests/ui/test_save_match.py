"""Saving a match from its summary (issue 19, item 9): ``s`` writes the solo match's
transcript where the dialog says, and ``unotui replay`` reads that file back; at a table
held by a host elsewhere it saves the host's record once that arrives.

The solo match is played to its end by keys (one round is the match), at both sizes.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Footer, Static

from tests.net.lan_support import FAST, hosted
from unotui.cli import main
from unotui.engine import Rules
from unotui.net.config import RoomConfig
from unotui.net.local import LocalGame
from unotui.net.remote import RemoteGame
from unotui.transcript import final_state
from unotui.transcript.save import RECORD_ON_ITS_WAY
from unotui.ui.app import UnoApp
from unotui.ui.cli import table_app
from unotui.ui.lan import joined
from unotui.ui.screens.results import MatchOverScreen, matches_dir
from unotui.ui.screens.table import TableScreen
from unotui.ui.settings import Config, GameOptions

from . import tui_support
from .tui_support import autoplay, full_text

pytestmark = [pytest.mark.usefixtures("fast_keys"), pytest.mark.timeout(120)]

ONE_ROUND = Rules.preset("classic").with_(target_score=1, hand_size=4)  # one short round is the match


def _solo(save_settings: bool = True) -> UnoApp:
    options = GameOptions(players=3, rules=ONE_ROUND, seed=5, delay=0, catch_grace=0, level="random",
                          summary_pause=0)
    return UnoApp(Config(), options, save_settings=save_settings)


def _footer_keys(app: UnoApp) -> set[str]:
    """The keys the summary's key bar shows (by description)."""
    footer = app.screen.query_one(Footer)
    return {b.binding.description for b in footer.screen.active_bindings.values() if b.binding.show}


async def _until(pilot: Pilot[Any], words: str) -> str:
    """The terminal's text (spaces and line breaks as one space) once ``words`` show."""
    for _ in range(500):
        text = " ".join(full_text(pilot.app).split())
        if words in text:
            return text
        await pilot.pause(0.02)
    raise AssertionError(f"never on screen: {words!r} in {text!r}")


async def _summary(pilot: Pilot[Any]) -> MatchOverScreen:
    await autoplay(pilot, until=MatchOverScreen)
    screen = pilot.app.screen
    assert isinstance(screen, MatchOverScreen)
    await _until(pilot, "Final standings")
    return screen


def _hint(screen: MatchOverScreen) -> str:
    """The dialog's line of keys (below the fold at 80x24: the dialog scrolls; the
    shuffle mark goes on it, or on a line of its own where both do not fit)."""
    lines = [str(w.content) for w in screen.query(Static)]
    return next(line for line in lines if "n: rematch" in line)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_s_on_the_summary_saves_the_match_and_replay_reads_it(
    size: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    app = _solo()
    async with app.run_test(size=size) as pilot:
        screen = await _summary(pilot)
        assert "Save" in _footer_keys(app)
        assert _hint(screen).startswith("s: save   r: review   n: rematch")
        assert not matches_dir().exists()  # nothing written until asked
        await pilot.press("s")
        await _until(pilot, "Saved. Replay it with: unotui replay")  # scrolled into sight
        files = sorted(matches_dir().glob("*.json"))
        assert len(files) == 1
        path = files[0]
        said = str(screen.query_one("#saved", Static).content)
        assert said == f"Saved. Replay it with: unotui replay {path}"  # (it wraps at 80 columns)
        await pilot.press("s")  # again: the same file, not a second copy
        await pilot.pause(0.05)
        assert sorted(matches_dir().glob("*.json")) == files
        controller = app.controller
        assert isinstance(controller, LocalGame)
        game = controller.game
    assert stat.S_IMODE(os.stat(matches_dir()).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state == final_state(game)
    assert state["phase"] == "match_over" and state["match_winner"] is not None
    assert json.loads(path.read_text())["format"] == "unotui-transcript/2"


async def test_no_saving_where_the_app_writes_nothing_on_this_machine() -> None:
    """An SSH session's app (``save_settings`` off: the game runs on the server) does not
    write a file on the server: ``s`` says so, and is not in the key bar."""
    app = _solo(save_settings=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _summary(pilot)
        assert "Save" not in _footer_keys(app)
        assert "s: save" not in _hint(screen)
        await pilot.press("s")
        await _until(pilot, "Saving is off here: this game runs on the server")
        assert isinstance(app.screen, MatchOverScreen)
    assert not matches_dir().exists()


async def _settle_remote(pilot: Pilot[Any]) -> None:
    await pilot.pause(0.01)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_s_at_a_hosted_tables_summary_saves_the_hosts_record(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A joined seat (real host on loopback): ``s`` says the record is on its way until it
    arrives, then saves it (the key bar offers it); ``unotui replay`` reads the file to the
    host's final state."""
    monkeypatch.setattr(tui_support, "settle", _settle_remote)
    room = RoomConfig(seats=2, bots=1, autostart=True, rules=ONE_ROUND, **FAST)
    async with hosted(room) as (_host, hosted_room, port):
        app = table_app(joined("127.0.0.1", port, name="Joey"), "Joey")
        app.options = GameOptions(name="Joey", summary_pause=0)
        async with app.run_test(size=size) as pilot:
            for _ in range(1000):
                if isinstance(app.screen, TableScreen):
                    break
                await pilot.pause(0.02)
            controller = app.controller
            assert isinstance(controller, RemoteGame)
            arrived = controller._record_in
            held: list[Any] = []
            monkeypatch.setattr(controller, "_record_in", held.append)  # (held back a while)
            screen = await _summary(pilot)
            assert "Save" not in _footer_keys(app)
            await pilot.press("s")
            await _until(pilot, RECORD_ON_ITS_WAY)
            assert not matches_dir().exists()
            for _ in range(200):
                if held:
                    break
                await pilot.pause(0.02)
            arrived(held[0])  # the record arrives now: the summary hears it
            await pilot.pause(0.1)
            assert controller.record is not None
            screen = app.screen
            assert isinstance(screen, MatchOverScreen)
            assert "Save" in _footer_keys(app) and _hint(screen).startswith("s: save")
            await pilot.press("s")
            await _until(pilot, "Saved. Replay it with: unotui replay")
            (path,) = sorted(matches_dir().glob("*.json"))
            game = hosted_room.game
            assert game is not None
            expected = final_state(game)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    assert json.loads(path.read_text())["format"] == "unotui-transcript/3"


# ----- unotui play --save FILE ----------------------------------------------------------


def _play_args(save: Path) -> Any:
    from unotui.cli import build_parser

    return build_parser().parse_args(
        ["play", "--players", "3", "--bots", "random", "--seed", "5", "--delay", "0", "--rules", "classic",
         "--set", "target_score=1", "--save", str(save)]
    )


async def _play_and_save(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], to_the_end: bool
) -> tuple[Path, str, str]:
    """``unotui play --save FILE``'s own app and saving, with the pilot in place of a
    terminal: played to the summary and quit there (``q``), or quit mid-match.  Returns
    the file, what the summary said of it, and what stderr said at the close."""

    from unotui.ui.cli import SaveFirstMatch, build_options, play_app

    path = tmp_path / "match.json"
    config, options = build_options(_play_args(path))
    app = play_app(config, options._replace(catch_grace=0, summary_pause=0), menu=False, save=path)
    said = ""
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        if to_the_end:
            screen = await _summary(pilot)
            await _until(pilot, "Saved (--save) to")  # written now, before leaving (a notification)
            said = str(screen.query_one("#saved", Static).content)  # and the save line
            assert path.exists()
            assert "won the match" in full_text(app)  # the headline is still in sight
            await pilot.press("q")
        else:
            await _until(pilot, "Your turn")
            await pilot.press("d")  # one step of the person's, then leave
            await pilot.pause(0.05)
            await app.action_quit()
            assert not path.exists()  # written at the close
    capsys.readouterr()
    assert isinstance(app.factory, SaveFirstMatch)
    assert app.factory.at_close() == 0
    return path, said, capsys.readouterr().err


async def test_play_save_writes_the_match_when_it_ends(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, said, err = await _play_and_save(tmp_path, capsys, to_the_end=True)
    assert said == f"Saved (--save) to {path}"
    assert err == f"unotui play: saved the finished match to {path} (unotui replay {path} reads it)\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert main(["replay", str(path), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] == "match_over"


async def test_play_save_after_quitting_mid_match_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, err = await _play_and_save(tmp_path, capsys, to_the_end=False)
    assert err.startswith("unotui play: saved the match so far (unfinished, round 1) to ")
    assert main(["replay", str(path), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] not in ("match_over", "round_over")
    assert [0, "draw"] in json.loads(path.read_text())["actions"]


def test_play_save_to_a_missing_directory_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--save", str(tmp_path / "nowhere" / "m.json")]) == 2
    assert "there is no directory" in capsys.readouterr().err
    assert main(["play", "--save", str(tmp_path)]) == 2
    assert "that is a directory" in capsys.readouterr().err
