"""Recent matches and review admission through the real ``unotui serve`` on 127.0.0.1
with real OpenSSH clients in tmux: a key's kept matches are listed by ``m``, Enter opens
the review in the session on the server (the stand-in screen until screen20 merges), a
second review for the same key is refused with the lobby's sentence, and the slot comes
free when the first session disconnects.

The matches are kept in the store before the server starts (bots play them in this
process: a match to 500 would take minutes of keys in a terminal); the lobby keeping a
match its tables finish is tested over real sockets in ``test_kept_net.py``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.review.helpers import played
from unotui.engine import Rules
from unotui.lobby import review_slots
from unotui.lobby.sqlite_store import open_store
from unotui.lobby.store import KeptMatch, Retention
from unotui.transcript import transcript_of

from ..ssh.ssh_support import Terminal, make_key, ssh_argv
from .test_e2e_ssh import start, stop

pytestmark = [
    pytest.mark.skipif(not (shutil.which("tmux") and shutil.which("ssh")), reason="needs tmux and ssh"),
    pytest.mark.timeout(180),
]


def keep(data: Path, fingerprint: str, seed: int, rules: Rules) -> None:
    game = played(seed, rules=rules)
    text = json.dumps(transcript_of(game).to_mapping(), separators=(",", ":"))
    summary = KeptMatch(0, 0.0, ("ann", "Ada"), 0, tuple(game.scores), game.winner, game.round_no)
    with open_store(data) as store:
        store.keep_match(text, summary, {fingerprint: 0}, Retention())


def test_m_lists_kept_matches_enter_reviews_and_a_second_review_waits_for_the_first(
        tmp_path: Path, terminals: list[Terminal]) -> None:
    data = tmp_path / "data"
    ann_dir = tmp_path / "ann"
    ann_dir.mkdir()
    key, fingerprint = make_key(ann_dir)
    keep(data, fingerprint, 1, Rules.preset("classic").with_(target_score=20))  # older: short
    keep(data, fingerprint, 2, Rules.preset("classic").with_(target_score=500))  # newer: long
    lobby = start(data)
    try:
        first = Terminal(ssh_argv(lobby.ssh_port, ann_dir, key=key, user="ann"), tmp_path, (80, 24))
        terminals.append(first)
        first.wait("you are ann")
        first.keys("m")
        first.wait("Your recent matches")
        first.wait("you, Ada")
        first.keys("Enter")  # the newest, the long one: its review runs a while
        first.wait("Analysing:", timeout=60)  # granted: the analysis reports its progress

        second = Terminal(ssh_argv(lobby.ssh_port, ann_dir, key=key, user="ann"), tmp_path, (120, 40))
        terminals.append(second)
        second.wait("you are ann")
        second.keys("m")
        second.wait("you, Ada")
        second.keys("Down", "Enter")  # the short one
        screen = second.wait("Stepping through still works", timeout=30)  # refused: said so
        assert review_slots.MINE.split(":")[0] in " ".join(screen.split())

        first.close()  # the first session's connection closes: its slot comes free
        second.keys("Escape")
        second.wait("Your recent matches")
        second.keys("Enter")
        second.wait("Analysing:", timeout=60)  # granted now
        second.keys("t")  # the summary: each seat's share of best moves, once estimated
        screen = second.wait("best (", timeout=120)
        assert "Player 1" in screen and "%)" in screen  # (the bots' match: seat names)
    finally:
        stop(lobby)
