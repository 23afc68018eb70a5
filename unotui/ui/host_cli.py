"""``unotui host``: host a LAN table, playing at it in the TUI or headless.

Arguments are checked before anything heavy is imported, so a bad ``--rules`` or
``--set`` is a one-line error and exit status 2.  With a screen, the host's own player
sits at seat 1 and starts the match from the waiting room; ``--headless`` hosts without
a player, starts as soon as ``seats - bots`` people have joined, and logs joins, starts
and results to stdout.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..net.config import RoomConfig

from .cli import add_rules_arguments, rules_from_args
from .join_cli import add_password, password_of

__all__ = ["add_arguments", "build_config", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``host`` subcommand's options."""
    parser.add_argument(
        "--bind", default="0.0.0.0", metavar="ADDR", help="address to listen on (default all IPv4)"
    )
    parser.add_argument("--port", type=int, default=7777, help="TCP port (default 7777)")
    parser.add_argument(
        "--seats", type=int, default=4, metavar="N", help="seats at the table, 2-10 (default 4)"
    )
    parser.add_argument("--bots", type=int, default=0, metavar="K", help="seats kept for computer players")
    parser.add_argument(
        "--level", metavar="LEVEL", help="computer players: random, greedy, easy, medium, hard"
    )
    add_rules_arguments(parser)
    add_password(parser, "a password joiners must give")
    parser.add_argument("--name", help="your name (and the table's)")
    parser.add_argument(
        "--turn-timer", type=float, metavar="S", help="seconds per decision (default: no timer)"
    )
    parser.add_argument(
        "--hold", type=float, default=120.0, metavar="S", help="seconds a dropped player's seat is held"
    )
    parser.add_argument("--headless", action="store_true", help="host without playing; log to stdout")
    parser.add_argument("--data-dir", type=Path, metavar="DIR",
                        help="headless: journal the table here; a killed host resumes it when restarted")


def build_config(args: argparse.Namespace) -> tuple[RoomConfig, str]:
    """(RoomConfig, the host player's name) from the arguments; raises RulesError."""
    from ..engine import RulesError
    from ..net.config import RoomConfig
    from ..protocol.text import clean_name
    from .settings import load_config

    config = load_config()
    rules = rules_from_args(args, config.rules)
    if not 2 <= args.seats <= 10:
        raise RulesError("--seats must be 2-10")
    if not 0 <= args.bots < args.seats:
        raise RulesError("--bots must leave at least one seat for a person")
    if args.headless and args.bots >= args.seats:
        raise RulesError("--headless needs at least one seat for a person")
    rules.validate(args.seats)
    if args.turn_timer is not None and not 5 <= args.turn_timer <= 600:
        raise RulesError("--turn-timer must be 5-600 seconds")
    if not 1 <= args.port <= 65535:
        raise RulesError("--port must be 1-65535")
    level = args.level or config.bots
    from ..bots import LEVELS

    if level not in LEVELS:
        raise RulesError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
    name = clean_name(args.name, config.name) if args.name else config.name
    room = RoomConfig(
        name=name,
        seats=args.seats,
        bots=args.bots,
        rules=rules,
        password=password_of(args),
        level=level,
        turn_timer=args.turn_timer,
        hold=args.hold,
        bot_delay=config.delay,
        autostart=args.headless,
    )
    return room, name


def run(args: argparse.Namespace) -> int:
    """Host; returns the exit status."""
    from ..engine import RulesError

    try:
        room, name = build_config(args)
    except RulesError as exc:
        print(f"unotui host: {exc}", file=sys.stderr)
        return 2
    if args.data_dir is not None and not args.headless:
        print("unotui host: --data-dir journals a --headless table (add --headless)", file=sys.stderr)
        return 2
    if args.headless:
        from ..net.headless import serve_headless

        return serve_headless(room, args.bind, args.port, args.data_dir)
    from .cli import run_hosted

    return run_hosted(room, name, args.bind, args.port)
