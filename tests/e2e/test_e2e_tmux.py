"""End to end: ``unotui play`` in a real terminal (tmux), a few moves by keys, Ctrl+Q (and
the question it asks while a match is running)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from .tmux_support import tmux as _tmux
from .tmux_support import wait_for

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def _cards(screen: str, name: str) -> int:
    """How many cards the players' list shows ``name`` holding (after the seat's mark:
    ``you``, ``bot``, ...)."""
    found = re.search(rf"{name}\s+(?:[a-z]+\s+)?(\d+) cards", screen)
    assert found, screen
    return int(found.group(1))


def test_play_a_few_moves_and_quit_with_ctrl_q(tmp_path: Path) -> None:
    session = f"unotui-e2e-{uuid.uuid4().hex[:8]}"
    status = tmp_path / "status"
    exe = Path(sys.executable).with_name("unotui")
    command = (
        f"UNOTUI_CONFIG_DIR={tmp_path} {exe} play --seed 4 --delay 0 --rules classic --name Tester; "
        f"echo $? > {status}; sleep 5"
    )
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command], check=True, env=env
    )
    try:
        wait_for(session, "Your turn")
        screen = wait_for(session, "playable")  # the hand is drawn last
        assert "Players" in screen and "Log" in screen and "Tester" in screen
        assert "Round 1" in screen
        held = _cards(screen, "Tester")
        assert "You drew" not in screen and f"{held} cards," in screen  # the hand's own line agrees
        # Draw a card, then play whatever is playable by moving along the hand.
        _tmux("send-keys", "-t", session, "d")
        wait_for(session, "You drew")  # the draw is shown before the next key is sent
        _tmux("send-keys", "-t", session, "k")  # keep it if it was playable (ignored otherwise)
        wait_for(session, "Your turn")
        screen = wait_for(session, "You drew")
        # The drawn card is in the hand, in the players' list and in the hand's own line:
        assert _cards(screen, "Tester") == held + 1 and f"{held + 1} cards," in screen, screen
        _tmux("send-keys", "-t", session, "Right", "Right", "n")
        screen = wait_for(session, "Hint:")
        _tmux("send-keys", "-t", session, "C-q")  # a match is running: asked first
        wait_for(session, "leave this match?")
        _tmux("send-keys", "-t", session, "y")
        deadline = time.monotonic() + 10
        while not status.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert status.read_text().strip() == "0"
        after = _tmux("capture-pane", "-p", "-t", session)
        assert "Players" not in after  # the alternate screen is gone: the terminal is restored
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def test_no_arguments_opens_the_menu_and_enter_starts_a_solo_game(tmp_path: Path) -> None:
    session = f"unotui-e2e-{uuid.uuid4().hex[:8]}"
    status = tmp_path / "status"
    exe = Path(sys.executable).with_name("unotui")
    command = f"UNOTUI_CONFIG_DIR={tmp_path} {exe}; echo $? > {status}; sleep 5"
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command], check=True, env=env
    )
    try:
        wait_for(session, "Play solo against three computer players")
        _tmux("send-keys", "-t", session, "Enter")
        wait_for(session, "Players")
        for name in ("Ada", "Blaise", "Grace"):
            wait_for(session, name)  # the frame may still be arriving
        _tmux("send-keys", "-t", session, "C-q")
        wait_for(session, "leave this match?")
        _tmux("send-keys", "-t", session, "C-q")  # Ctrl+Q twice quits
        deadline = time.monotonic() + 10
        while not status.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert status.read_text().strip() == "0"
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def test_a_broken_settings_file_is_reported_inside_the_app_not_on_stderr(tmp_path: Path) -> None:
    session = f"unotui-e2e-{uuid.uuid4().hex[:8]}"
    status = tmp_path / "status"
    (tmp_path / "config.toml").write_text("[rules]\nhand_size = 99\n", encoding="utf-8")
    exe = Path(sys.executable).with_name("unotui")
    command = f"UNOTUI_CONFIG_DIR={tmp_path} {exe}; echo $? > {status}; sleep 5"
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command], check=True, env=env
    )
    try:
        screen = wait_for(session, "Settings file problem (defaults used)")
        assert "hand_size" in screen
        _tmux("send-keys", "-t", session, "C-q")  # no match running: quits at once
        deadline = time.monotonic() + 10
        while not status.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert status.read_text().strip() == "0"
        after = _tmux("capture-pane", "-p", "-t", session)
        assert "hand_size" not in after and "settings" not in after.lower()
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
