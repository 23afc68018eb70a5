"""``unotui join HOST[:PORT]``: take a seat (or watch) at a table hosted elsewhere."""

from __future__ import annotations

import argparse
import os
import sys

__all__ = ["PASSWORD_ENV", "add_arguments", "add_password", "password_of", "run"]

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


def run(args: argparse.Namespace) -> int:
    """Join; returns the exit status."""
    from ..net.addresses import split_address

    try:
        host, port = split_address(args.address)
    except ValueError as exc:
        print(f"unotui join: {exc}", file=sys.stderr)
        return 2
    from .cli import run_joined

    return run_joined(
        host, port, name=args.name, password=password_of(args), spectate=args.spectate, table=args.table
    )
