"""``unotui join HOST[:PORT]``: take a seat (or watch) at a table hosted elsewhere.

The arguments are checked as the menu's Join form checks its fields
(:func:`~unotui.ui.join_request.check_join`) and joined the way the form joins
(:func:`joining`): one path from what a person typed to the ``hello`` the host reads.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .join_request import JoinRequest
    from .modes import ControllerFactory

__all__ = ["PASSWORD_ENV", "add_arguments", "add_password", "joining", "password_of", "run"]

#: where a table's password may come from instead of the command line, which every local
#: user can read (``ps``, ``/proc/PID/cmdline``); a process's environment only its owner can
PASSWORD_ENV = "UNOTUI_PASSWORD"


def add_password(parser: argparse.ArgumentParser, what: str) -> None:
    """``--password``, saying where else it may come from (``host`` and ``join`` alike)."""
    parser.add_argument("--password", default=None,
                        help=f"{what} (or set {PASSWORD_ENV}: other users can read a command line)")


def password_of(args: argparse.Namespace) -> str:
    """``--password`` if given, else ``$UNOTUI_PASSWORD``, else none."""
    return str(args.password) if args.password is not None else os.environ.get(PASSWORD_ENV, "")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``join`` subcommand's arguments."""
    parser.add_argument("address", metavar="HOST[:PORT]", help="the host's address (port 7777 unless given)")
    parser.add_argument("--name", help="your name at the table, 1-16 characters (default: your settings); "
                        "joining again takes back only the seat this name held")
    add_password(parser, "the table's password, if it has one")
    parser.add_argument("--spectate", action="store_true", help="watch instead of taking a seat")
    parser.add_argument("--table", default="", metavar="CODE",
                        help="a table's code on a lobby (unotui serve); a LAN host has one table")


#: the option each field of a join comes from, as the command line's errors name it
_OPTIONS = {"address": "HOST[:PORT]", "name": "--name", "table": "--table", "password": "--password"}


def joining(request: JoinRequest) -> ControllerFactory:
    """The table ``request`` asks for, as the app's next table: the one way a seat (or a
    chair to watch) elsewhere is joined, by ``unotui join`` and by the menu's Join form
    alike (its seat remembered between runs: :func:`~unotui.ui.lan.joined`)."""
    from .lan import joined

    return joined(request.host, request.port, name=request.name, password=request.password,
                  spectate=request.spectate, table=request.table)


def run(args: argparse.Namespace) -> int:
    """Join; returns the exit status (2: an argument the join could not send)."""
    from .join_request import JoinProblem, check_join
    from .settings import load_config

    name = args.name if args.name is not None else load_config().name
    try:
        request = check_join(args.address, name, table=args.table, password=password_of(args),
                             spectate=args.spectate)
    except JoinProblem as exc:
        print(f"unotui join: {_OPTIONS[exc.field]}: {exc}", file=sys.stderr)
        return 2
    from .cli import run_joined

    return run_joined(joining(request), request.name)
