"""Guessing a private table's code at a lobby: the back-off holds back the guesser's key,
not everyone at its address (every SSH session reaches the lobby from 127.0.0.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lobby.test_lobby_net import lobby_host, until, visit
from unotui.engine import Rules
from unotui.lobby.identity import GUEST
from unotui.net.remote import JoinError, RemoteGame

pytestmark = pytest.mark.timeout(60)


async def _refusal(port: int, code: str, identity: str | None = None) -> str:
    """The code the lobby's host refuses a join of table ``code`` with ("" if welcomed)."""
    game = RemoteGame("127.0.0.1", port, name="Guess", table=code, identity=identity, spectate=True,
                      reconnect_for=0)
    try:
        await game.start()
    except JoinError as exc:
        return f"{exc.code}: {exc}"
    await game.close()
    return ""


async def test_a_key_guessing_private_codes_is_held_back_and_others_at_its_address_are_not(
    tmp_path: Path,
) -> None:
    async with lobby_host(tmp_path) as (lobby, port):
        ann = await visit(port, "Ann")
        ann.client.create("Den", 3, 1, Rules.preset("classic"), "easy", None, True)  # private
        await until(lambda: ann.created())
        code = ann.created()[0]
        mallory = lobby.credentials.issue("SHA256:mallorysKeyAAAA")
        for guess in ("AAAA1", "AAAA2", "AAAA3", "AAAA4", "AAAA5", "AAAA6"):
            assert (await _refusal(port, guess, mallory)).startswith("no_such_table")
        held = await _refusal(port, code, mallory)  # the right code, too soon
        assert held.startswith("too_many_failures") and "try again in 1 s" in held
        bob = lobby.credentials.issue("SHA256:bobsKeyAAAAAAAAA")
        assert await _refusal(port, code, bob) == ""  # another key, the same address
        assert await _refusal(port, code) == ""  # and a guest there
        await ann.client.close()


async def test_ssh_guests_guess_under_their_own_address_not_the_loopback_they_share(
    tmp_path: Path,
) -> None:
    """Every SSH session reaches the host from 127.0.0.1: a guest's credential vouches for
    the address it came from, so one guest guessing codes holds back only that address."""
    async with lobby_host(tmp_path) as (lobby, port):
        ann = await visit(port, "Ann")
        ann.client.create("Den", 3, 1, Rules.preset("classic"), "easy", None, True)  # private
        await until(lambda: ann.created())
        code = ann.created()[0]
        eve = lobby.credentials.issue(GUEST, "203.0.113.66")
        for guess in ("AAAA1", "AAAA2", "AAAA3", "AAAA4", "AAAA5", "AAAA6"):
            assert (await _refusal(port, guess, eve)).startswith("no_such_table")
        assert (await _refusal(port, code, eve)).startswith("too_many_failures")
        bo = lobby.credentials.issue(GUEST, "203.0.113.7")
        assert await _refusal(port, code, bo) == ""  # another guest, from elsewhere
        await ann.client.close()
