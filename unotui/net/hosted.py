"""The host's own seat: the table runs in this process, and its player joins it like anyone.

``unotui host`` with a screen needs a controller for the person at the host.  Rather than
a second way into the game, it starts the :class:`~unotui.net.host.Host` on the event loop
and connects to it over loopback with a :class:`~unotui.net.remote.RemoteGame`, holding the
seat reserved for the host (whose token only this process knows).  So the host's player
goes through exactly the same protocol, referee and views as everyone else, and only that
seat may start the match.  Closing the controller closes the host: every other player is
told that the host left.
"""

from __future__ import annotations

from ..protocol.session import HostSession, Rates
from .addresses import join_hints, listen_error
from .config import RoomConfig
from .controller import JoinError
from .host import Host
from .remote import RemoteGame
from .room import Room

__all__ = ["HostedGame"]


def _loopback_for(bind: str) -> str:
    if bind in ("", "0.0.0.0"):
        return "127.0.0.1"
    if bind == "::":
        return "::1"
    return bind


class HostedGame(RemoteGame):
    """Host a table here and sit at it (see the module docstring).

    Args:
        config: the table's set-up.
        name: the host player's name.
        bind, port: where others connect (port 0: any free port, for tests).
        rates: per-connection message rates (default: the protocol's; scripted tests
            that act as fast as the loop turns lift them).
    """

    def __init__(
        self,
        config: RoomConfig,
        name: str,
        bind: str = "0.0.0.0",
        port: int = 7777,
        rates: Rates | None = None,
    ) -> None:
        super().__init__(_loopback_for(bind), port, name=name)
        self.config = config
        self.bind = bind
        self.events: list[str] = []
        self.hosted_room: Room | None = None
        self.server: Host | None = None
        self.hints: tuple[str, ...] = ()
        self.rates = rates

    async def start(self) -> None:
        """Listen, reserve the host's seat, and join it.

        Raises:
            JoinError: the port cannot be listened on (in use, not allowed).
        """
        room = Room("", self.config, on_event=self.events.append)
        rates = self.rates
        server = Host(
            {"": room}, session_factory=None if rates is None else (lambda now: HostSession(now, rates=rates))
        )
        try:
            bound = await server.listen(self.bind, self.port)
        except OSError as exc:
            why = listen_error(exc)
            raise JoinError(f"cannot listen on {self.bind}:{self.port}: {why}", "cannot_listen") from None
        self.hosted_room, self.server = room, server
        self.port = bound[0][1]
        self.hints = tuple(join_hints(self.bind, self.port))
        self.owner = room.reserve_owner(self.name)
        await super().start()

    @property
    def leaving(self) -> str:
        return "You are the host: quitting ends the match for everyone at the table."

    async def close(self) -> None:
        await super().close()
        if self.server is not None:
            await self.server.close("host_left", "The host ended the game.")
            self.server = None
