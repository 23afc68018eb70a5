"""Shared helpers for the protocol tests: seeded random games and in-memory connections."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from unotui.engine import Game, Rules
from unotui.protocol.messages import Hello
from unotui.protocol.peer_session import PeerSession
from unotui.protocol.session import HostSession, State

RULE_SETS = {
    "classic": Rules.preset("classic"),
    "giant-effects": Rules.preset("giant").with_settings(
        {"custom": "hands_face_up+discard_wilds+swap_hands", "stacking": "cross", "jump_in": "on"}
    ),
    "modern-seven-o": Rules.preset("modern").with_(seven_o=True, shuffle_hands=2, target_score=200),
    "elimination": Rules.preset("classic").with_(scoring="elimination", target_score=150),
}


def random_steps(game: Game, seed: int, max_steps: int) -> Iterator[tuple[int, str]]:
    """Play random legal actions (any seat that may act, out of turn included); yield
    ``(seat, action text)`` after each one is applied."""
    rnd = random.Random(seed)
    for _ in range(max_steps):
        if game.over:
            return
        seats = [s for s in range(game.n) if game.legal_actions(s)]
        # Mostly the actor, sometimes an out-of-turn seat (catches, UNO calls, jump-ins).
        seat = game.actor if game.actor in seats and rnd.random() < 0.85 else rnd.choice(seats)
        action = rnd.choice(list(game.legal_actions(seat)))
        game.apply(seat, action)
        yield seat, str(action)


@dataclass
class Pair:
    """A host session and a peer session joined by an in-memory pipe (h11's ConnectionPair).

    ``now`` is the fake clock; :meth:`pump` moves bytes both ways until both are quiet
    and collects the events each side produced.
    """

    now: float = 0.0
    hello: Hello = field(default_factory=lambda: Hello(1, 1, "Ann", client="test/1"))
    host_kw: dict[str, Any] = field(default_factory=dict)
    peer_kw: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.host = HostSession(self.now, **self.host_kw)
        self.peer = PeerSession(self.hello, self.now, **self.peer_kw)
        self.host_events: list[Any] = []
        self.peer_events: list[Any] = []

    def pump(self) -> tuple[list[Any], list[Any]]:
        """Deliver queued bytes both ways until nothing moves; return the new events."""
        host_new: list[Any] = []
        peer_new: list[Any] = []
        while True:
            to_host, to_peer = self.peer.data_to_send(), self.host.data_to_send()
            if not to_host and not to_peer:
                break
            if to_host:
                host_new += self.host.receive_data(to_host, self.now)
            if to_peer:
                peer_new += self.peer.receive_data(to_peer, self.now)
        self.host_events += host_new
        self.peer_events += peer_new
        return host_new, peer_new

    def admit(self, seat: int | None = 0, rules: Rules | None = None) -> None:
        """Run the handshake to the end: hello, then welcome for ``seat``."""
        self.pump()
        assert self.host.state is State.AUTHENTICATING
        self.host.accept(
            seat=seat, token="t" * 43, table="t1", table_name="Kitchen", seats=4, rules=rules or Rules()
        )
        self.pump()

    def advance(self, seconds: float) -> tuple[list[Any], list[Any]]:
        """Move the fake clock, tick both sides, deliver what they sent."""
        self.now += seconds
        self.host_events += self.host.tick(self.now)
        self.peer_events += self.peer.tick(self.now)
        return self.pump()
