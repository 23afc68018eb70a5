"""The lobby's recent chat for whoever arrives (issue 18 item 8: people arriving in the
lobby saw none of the recent lines): over real loopback sockets, marked ``earlier``,
after the lobby's state, bounded, and never the lines refused for their rate."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.net.lan_support import until
from unotui.protocol import messages as m
from unotui.protocol.text import CHAT_RECENT

from .test_lobby_net import FAST, Visitor, lobby_host, visit

pytestmark = pytest.mark.timeout(60)


def chat(v: Visitor, was: bool) -> list[str]:
    return [u.text for u in v.heard if isinstance(u, m.ChatLine) and u.earlier is was]


async def test_someone_arriving_in_the_lobby_gets_its_recent_lines_marked_earlier(tmp_path: Path) -> None:
    async with lobby_host(tmp_path) as (_lobby, port):
        ann = await visit(port, "Ann")
        ann.client.chat("anyone for a game?")
        await until(lambda: chat(ann, False) == ["anyone for a game?"])
        bob = await visit(port, "Bob")
        await until(lambda: chat(bob, True) == ["anyone for a game?"])
        first = next(u for u in bob.heard if isinstance(u, m.ChatLine))
        assert (first.seat, first.name) == (None, "Ann")
        kinds = [type(u) for u in bob.heard]
        assert kinds.index(m.LobbyState) < kinds.index(m.ChatLine)  # after the lobby itself
        bob.client.chat("me!")
        await until(lambda: chat(ann, False) == ["anyone for a game?", "me!"])
        assert chat(ann, True) == [] and chat(bob, False) == ["me!"]
        for v in (ann, bob):
            await v.client.close()


async def test_the_lobbys_recent_lines_are_bounded_and_lines_over_its_rate_not_kept(tmp_path: Path) -> None:
    settings = replace(FAST, chat_per_s=0.001, chat_burst=CHAT_RECENT + 5)
    async with lobby_host(tmp_path, settings) as (_lobby, port):
        ann = await visit(port, "Ann")
        for n in range(CHAT_RECENT + 15):  # the last 10 are over the lobby's rate
            ann.client.chat(f"line {n}")
            await until(lambda n=n: len(chat(ann, False)) == n + 1
                        or any(isinstance(u, m.Refused) for u in ann.heard[-1:]))
        await until(lambda: len([u for u in ann.heard if isinstance(u, m.Refused)]) == 10)
        bob = await visit(port, "Bob")
        want = [f"line {n}" for n in range(5, CHAT_RECENT + 5)]
        await until(lambda: chat(bob, True) == want)
        for v in (ann, bob):
            await v.client.close()
