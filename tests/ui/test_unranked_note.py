"""A lobby table's guest is told why the leaderboard will not list them (issue 18 item 6).

The lobby rates SSH keys only, so a ``unotui join HOST --table CODE`` player (no key)
finished a match and then looked in vain for their name.  The match summary says why.
The app is built as ``unotui join`` builds it, against a real lobby on loopback, and the
match (one round) is played to its end by keys.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lobby.test_lobby_net import lobby_host, visit
from tests.net.lan_support import until
from unotui.engine import Rules
from unotui.ui.cli import table_app
from unotui.ui.lan import joined
from unotui.ui.screens.results import MatchOverScreen
from unotui.ui.settings import Config, save_config

from . import tui_support
from .test_menu_after_a_table import _settle_remote, _until
from .tui_support import autoplay, full_text, table_up

pytestmark = [pytest.mark.usefixtures("fast_keys"), pytest.mark.timeout(120)]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_guest_at_a_lobby_table_is_told_the_match_is_not_ranked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    monkeypatch.setattr(tui_support, "settle", _settle_remote)
    save_config(Config(name="Gus", delay=0.0))
    async with lobby_host(tmp_path) as (_lobby, port):
        creator = await visit(port, "Ann")
        one_round = Rules.preset("classic").with_(target_score=1, hand_size=4)
        creator.client.create("Short", 2, 1, one_round, "easy", None, True)
        await until(lambda: creator.created())
        code = creator.created()[0]
        await creator.client.close()
        app = table_app(joined("127.0.0.1", port, name="Gus", table=code), "Gus")
        app.options = app.options._replace(summary_pause=0)
        async with app.run_test(size=size) as pilot:
            await _until(pilot, lambda: table_up(app), "the lobby's table")
            await autoplay(pilot, until=MatchOverScreen)
            await _until(pilot, lambda: "won the match" in full_text(app), "the summary, drawn")
            text = full_text(app)
            assert "Not on the lobby's leaderboard" in text
            assert "ranks players who come over SSH" in text
