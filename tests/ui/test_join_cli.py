"""``unotui join`` checks its arguments as the menu's Join form checks its fields (issue 18,
item 9): one check (:func:`unotui.ui.join_request.check_join`), so the command line
refuses what the form refuses, in the same words, before anything is sent; and the
settings keep the form's address (never a password)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from unotui.net.addresses import split_address
from unotui.ui.join_request import JoinProblem, check_join
from unotui.ui.settings import Config, config_path, load_config, save_changes, save_config

pytestmark = pytest.mark.timeout(60)

EXE = Path(sys.executable).with_name("unotui")


def join(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), "join", *args], capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["127.0.0.1:1", "--table", "K7-QM"], "--table: 'K7-QM': a code is 1-12 letters and digits"),
        (["127.0.0.1:1", "--name", "Bartholomew-Smith"], "unotui join: --name: a name fits in 16 characters"),
        (["127.0.0.1:1", "--name", "  "], "unotui join: --name: give your name at the table"),
        (["127.0.0.1:1", "--password", "x" * 129], "unotui join: --password: a password is at most 128"),
        (["10.0.0.1:7000:1"], "unotui join: HOST[:PORT]: '10.0.0.1:7000:1': one :PORT at most"),
        ([":7000"], "unotui join: HOST[:PORT]: ':7000': give the host's name or address before the :PORT"),
    ],
)
def test_a_join_the_form_would_refuse_is_refused_by_the_command_line_before_anything_is_sent(
    args: list[str], said: str
) -> None:
    out = join(*args)  # (port 1 on loopback: were anything sent, it would say "cannot reach")
    assert out.returncode == 2, out
    assert said in out.stderr and "Traceback" not in out.stderr and "cannot reach" not in out.stderr


def test_the_command_line_and_the_form_say_a_bad_code_in_the_same_words() -> None:
    with pytest.raises(JoinProblem) as problem:
        check_join("127.0.0.1:1", "Sam", table="K7-QM")
    assert problem.value.field == "table"
    assert f"--table: {problem.value}" in join("127.0.0.1:1", "--table", "K7-QM").stderr


def test_a_code_typed_in_small_letters_is_sent_as_the_lobby_makes_codes() -> None:
    request = check_join(" 127.0.0.1:4000 ", "Sam", table=" k7qmx ", password="pw", spectate=True)
    assert (request.address, request.host, request.port, request.table, request.spectate) == (
        "127.0.0.1:4000", "127.0.0.1", 4000, "K7QMX", True)
    assert check_join("fd00::2", "Sam").host == "fd00::2"  # (a bare IPv6 address: its colons are not a port)


@pytest.mark.parametrize("text", [":7000", "[]:7000", "my host", "10.0.0.1:7000:1", "a\tb"])
def test_split_address_refuses_an_address_with_no_host_spaces_or_two_ports(text: str) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        split_address(text)


def test_the_settings_keep_the_join_address_and_never_lose_the_rest() -> None:
    save_config(Config(name="Sam", players=6))
    save_changes(name="Zed", join_address="[::1]:3201")
    cfg = load_config()
    assert (cfg.name, cfg.join_address, cfg.players) == ("Zed", "[::1]:3201", 6)
    assert not cfg.problems


def test_a_settings_file_that_cannot_be_read_is_not_overwritten_by_a_join() -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("name = [broken", encoding="utf-8")
    save_changes(name="Zed", join_address="10.0.0.1")
    assert path.read_text(encoding="utf-8") == "name = [broken"
