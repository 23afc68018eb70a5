"""Rebuilding tables from the journal after the host was killed.

A table comes back as it was: the same seats (names, resume tokens, SSH keys), the same
match (a game built from the journaled secret, with every journaled action applied again:
the shuffles follow from the secret, so the state is the same), every person away with
the seat held, so that each one resumes with the token (or key) they had.  A retried
intent that was applied before the crash is answered and not applied twice.

A table whose rows are damaged (a truncated config, a seat row with a field missing) or
whose match does not replay is set aside in the journal's quarantine and logged; the
others come back.  One bad row never stops a host.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable

from ..bots import Bot, make_bot
from ..engine import Action, Game, Phase
from ..protocol.values import rules_in, rules_out
from ..table import Pacing, Referee, SeatKind, TableStatus
from .journal import Journal, JournalError, SavedTable
from .room import Room, RoomConfig
from .seats import SeatEntry

__all__ = ["config_from_dict", "config_to_dict", "restore_room", "restore_rooms"]

log = logging.getLogger("unotui.host")

_PLAIN = ("name", "seats", "bots", "password_hash", "level", "turn_timer", "hold", "bot_delay", "catch_grace",
          "auto_keep", "autostart", "first_is_owner", "private")


def config_to_dict(config: RoomConfig) -> dict[str, object]:
    """A room's configuration as JSON-able values (the rules in their wire form; the
    password only as its hash)."""
    out: dict[str, object] = {key: getattr(config, key) for key in _PLAIN}
    out["rules"] = rules_out(config.rules)
    return out


def config_from_dict(data: dict[str, object]) -> RoomConfig:
    """The configuration :func:`config_to_dict` wrote.  A journal written before passwords
    were hashed has ``password`` in clear: it is hashed here (and the caller rewrites the
    row).  Such a journal's ``auto_keep`` was the pause before an *unplayable* drawn card
    was kept (0.8 s); it is now the pause before any drawn card is kept, so a journal of
    that age gets today's default rather than 0.8 s to play a card just drawn."""
    values = {key: data[key] for key in _PLAIN if key in data}
    if "password_hash" not in data:  # written before passwords were hashed (and auto-keep changed)
        values.pop("auto_keep", None)
    if data.get("password"):
        values["password"] = data["password"]
    return RoomConfig(rules=rules_in(data["rules"]), **values)  # type: ignore[arg-type]


def restore_room(
    saved: SavedTable,
    journal: Journal,
    *,
    on_event: Callable[[str], None] | None = None,
    on_change: Callable[[Room], None] | None = None,
) -> Room:
    """The room ``saved`` describes, its match replayed; raises ``UnoError`` or
    ``ValueError`` if the journal does not replay (the caller drops that table)."""
    config = config_from_dict(saved.config)
    room = Room(saved.code, config, on_event=on_event, on_change=on_change, journal=journal, restoring=True)
    now = room.loop.time()
    if saved.seats:
        room.book.seats = [
            SeatEntry(s.name, s.kind, s.token, False, now if s.kind == SeatKind.HUMAN else None, s.owner,
                      s.level, identity=s.identity)
            for s in saved.seats
        ]
    if saved.secret is None:  # still a waiting room: people come back to it by token
        for seat in room.book.humans():
            entry = room.book.seats[seat]
            if not entry.owner:
                room.book.leave(seat)
        return room
    game = Game(room.book.names, config.rules, secret=saved.secret)
    for _seq, seat, text in saved.actions:
        game.apply(seat, Action.parse(text))
    room.game = game
    room.journaled = len(game.history)
    rng = secrets.SystemRandom()
    bots: dict[int, Bot] = {s: make_bot(config.level, rng) for s in room.book.bots()}
    pacing = Pacing(bot_delay=config.bot_delay, catch_grace=config.catch_grace, auto_keep=config.auto_keep,
                    turn_timer=config.turn_timer, hold=config.hold)
    referee = Referee(game, bots=bots, humans=room.book.humans(), pacing=pacing, rng=rng)
    for seat in room.book.humans():
        referee.restore_answers(seat, [seq for seq, s, _text in saved.actions if s == seat and seq >= 0])
    room.referee = referee
    room.status = TableStatus.OVER if game.phase == Phase.MATCH_OVER else TableStatus.PLAYING
    for seat in room.book.humans():
        room._apply(referee.drop(seat, now))
    room._apply(referee.tick(now))
    return room


def restore_rooms(
    journal: Journal,
    *,
    on_event: Callable[[str], None] | None = None,
    on_change: Callable[[Room], None] | None = None,
) -> dict[str, Room]:
    """Every unfinished table in ``journal``, by code.  A table that does not decode or
    does not replay is logged and quarantined (the others come back).

    Raises:
        JournalError: the file itself cannot be read, or a table cannot be set aside.
    """
    rooms: dict[str, Room] = {}
    for entry in journal.entries():
        try:
            saved = journal.load(entry)
            room = restore_room(saved, journal, on_event=on_event, on_change=on_change)
            if "password" in saved.config:  # from before passwords were hashed: the hash replaces it
                journal.set_config(saved.code, config_to_dict(room.config))
        # Whatever a damaged row makes the decoding or the replay raise (a JournalError, an
        # UnoError, a RemoteProtocolError from the rules, a TypeError from a config field),
        # it concerns this table only: it must never stop the host with the others.
        except Exception as exc:
            why = f"{type(exc).__name__}: {exc}" if not isinstance(exc, JournalError) else str(exc)
            line = f"table {entry.code!r} is damaged in the journal ({why!r}): set aside in its quarantine"
            log.error("%s", line)
            if on_event is not None:
                on_event(line)
            journal.quarantine(entry, why, time.time())
            continue
        rooms[saved.code] = room
    return rooms
