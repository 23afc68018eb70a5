"""``unotui join HOST[:PORT]``: take a seat (or watch) at a table hosted elsewhere."""

from __future__ import annotations

import argparse
import sys

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``join`` subcommand's arguments."""
    parser.add_argument("address", metavar="HOST[:PORT]", help="the host's address (port 7777 unless given)")
    parser.add_argument("--name", help="your name at the table, 1-16 characters (default: your settings)")
    parser.add_argument("--password", default="", help="the table's password, if it has one")
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
        host, port, name=args.name, password=args.password, spectate=args.spectate, table=args.table
    )
