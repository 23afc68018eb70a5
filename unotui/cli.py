"""The ``unotui`` command line: parse arguments, then hand over to one subcommand.

Each subcommand lives in its own module and is imported only when chosen, so
``unotui --help`` and ``unotui replay`` start fast and never load Textual.
A subcommand module exposes ``add_arguments(parser)`` and ``run(args) -> int``.

Output into a pipe whose reader has gone (``unotui replay FILE --json | head -c 10``)
ends quietly with status 1, as the Python documentation recommends for SIGPIPE.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from . import __version__

__all__ = ["main"]

# name -> (module, one-line help).  A module that does not exist yet makes the command
# say "not yet available" and exit 2 instead of failing with a traceback.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "play": ("unotui.ui.cli", "play a game against computer players (straight to the table)"),
    "host": ("unotui.ui.host_cli", "host a LAN game that others join"),
    "join": ("unotui.ui.join_cli", "join a LAN game: unotui join HOST[:PORT]"),
    "serve": ("unotui.lobby.cli", "run the public SSH lobby"),
    "sim": ("unotui.sim.cli", "simulate games between computer players"),
    "replay": ("unotui.transcript.cli", "replay a JSON transcript and print the final state"),
    "review": ("unotui.ui.review_cli", "review a saved match: what each decision cost in chance of winning"),
}




def _load(module: str) -> object | None:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return None
        raise


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The argument parser, with the arguments of the subcommand ``chosen`` (every
    subcommand's when ``None``).

    Only the chosen subcommand's module is imported: building every one of them would
    load the network stack, the wire format and game review into ``unotui play`` (about a
    tenth of its start-up) for arguments nobody is parsing.  A known command gets its
    subparser alone (argparse hands the rest of the command line to the one subparser
    named); otherwise (``--help``, a mistyped command) every command is listed, each but
    the chosen one with a parser that takes anything, which is never used.  A subcommand
    whose module does not exist yet takes any arguments too, and says "not yet
    available"."""
    parser = argparse.ArgumentParser(
        prog="unotui",
        description="UNO in the terminal: solo against computer players, on a LAN, or over SSH.",
        epilog="With no command, unotui opens the main menu (the same as `unotui play --menu`).",
    )
    parser.add_argument("--version", action="version", version=f"unotui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        if chosen in SUBCOMMANDS and name != chosen:
            continue  # (a known command is parsed by its own subparser alone)
        mod = _load(module) if chosen is None or name == chosen else None
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=mod, _name=name)
        if mod is not None:
            mod.add_arguments(p)  # type: ignore[attr-defined]
        else:
            p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def _command(args: Sequence[str]) -> str | None:
    """The subcommand ``args`` name: their first word that is not an option (the
    top-level parser's only options, ``--help`` and ``--version``, take no value)."""
    return next((a for a in args if not a.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``unotui`` console script; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list:
        args_list = ["play", "--menu"]
    parser = build_parser(_command(args_list))
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 0
    if args._module is None:
        print(f"unotui {args._name}: not yet available in this version", file=sys.stderr)
        return 2
    try:
        status: int = args._module.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away.  Point stdout at /dev/null so that Python's own flush at
        # exit does not fail again, and say nothing: nobody is reading.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 1
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
