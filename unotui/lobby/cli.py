"""``unotui serve``: run the public lobby, or change its data (ban, unban, motd) and exit.

The operator's one-off commands (``--ban``, ``--unban``, ``--kick``, ``--motd``) write
to the data directory's store and exit at once; a running lobby picks them up within a
few seconds (a banned or kicked key's connections are closed).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from .options import ServeOptions

__all__ = ["add_arguments", "default_data_dir", "run"]

#: what ``--public-host`` may be: a DNS name, an IPv4 or a (bracketed) IPv6 address; it is
#: printed into every player's terminal, so nothing else gets through
_HOST_NAME = re.compile(r"[A-Za-z0-9\[][A-Za-z0-9.\-:\[\]]{0,252}")  # (never an option: no leading -)


def default_data_dir() -> Path:
    """Where the lobby keeps its host key and database unless told otherwise."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("unotui")) / "lobby"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` subcommand's options (their defaults are :class:`ServeOptions`')."""
    d = ServeOptions(Path())
    parser.add_argument("--bind", default=d.bind, metavar="ADDR",
                        help=f"address to listen on (default {d.bind}: all IPv4)")
    parser.add_argument("--ssh-port", type=int, default=d.ssh_port, help=f"SSH port (default {d.ssh_port})")
    parser.add_argument("--port", type=int, default=d.port,
                        help=f"TCP port for unotui join (default {d.port})")
    parser.add_argument("--public-host", default=d.public_host, metavar="NAME",
                        help="the host name players type to reach this lobby, for the join lines it "
                             "shows them (default: THIS-HOST, a placeholder)")
    parser.add_argument("--data-dir", type=Path, metavar="DIR",
                        help="host key and database (default: the user data directory)")
    parser.add_argument("--max-tables", type=int, default=d.max_tables, metavar="N",
                        help=f"tables at once (default {d.max_tables})")
    parser.add_argument("--max-sessions", type=int, default=d.max_sessions, metavar="N",
                        help=f"SSH sessions at once (default {d.max_sessions})")
    parser.add_argument("--turn-timer", type=float, default=d.turn_timer, metavar="S",
                        help=f"public tables' turn timer in seconds (default {d.turn_timer:g})")
    parser.add_argument("--ssh-per-ip", type=int, default=d.ssh_per_ip, metavar="N",
                        help=f"SSH connections at once from one address (default {d.ssh_per_ip})")
    parser.add_argument("--ssh-rate-per-ip", type=float, default=d.ssh_rate_per_ip, metavar="R",
                        help="new SSH connections a second from one address "
                             f"(default {d.ssh_rate_per_ip:g})...")
    parser.add_argument("--ssh-rate-burst", type=int, default=d.ssh_rate_burst, metavar="N",
                        help=f"...in bursts of (default {d.ssh_rate_burst})")
    parser.add_argument("--idle-timeout", type=float, default=d.idle_timeout, metavar="S",
                        help=f"seconds without a key before an SSH session ends (default {d.idle_timeout:g}; "
                             "0: never)")
    parser.add_argument("--sessions-per-process", type=int, default=d.sessions_per_process, metavar="K",
                        help="SSH sessions sharing one worker process, a thread each (default "
                             f"{d.sessions_per_process}; 1: a process of its own per session, "
                             "full isolation)")
    kept = parser.add_argument_group("recent matches and game review (docs/hosting.md)")
    kept.add_argument("--keep-matches", type=int, default=d.keep_matches, metavar="N",
                      help=f"finished matches kept for each SSH key, newest first (default {d.keep_matches}; "
                           "0: keep nothing; at most 100)")
    kept.add_argument("--keep-days", type=float, default=d.keep_days, metavar="D",
                      help=f"...for at most D days (default {d.keep_days:g})")
    kept.add_argument("--keep-total", type=int, default=d.keep_total, metavar="T",
                      help=f"...and at most T matches in all (default {d.keep_total})")
    kept.add_argument("--review-slots", type=int, default=d.review_slots, metavar="N",
                      help=f"game reviews running at once on this machine (default {d.review_slots}; "
                           "0: no reviews)")
    ops = parser.add_argument_group("operator commands (change the data directory, then exit)")
    ops.add_argument("--motd", metavar="TEXT", help="set the message of the day ('' clears it)")
    ops.add_argument("--ban", metavar="FINGERPRINT", help="ban an SSH key (SHA256:...)")
    ops.add_argument("--reason", default="banned by the operator", help="why (shown to the banned player)")
    ops.add_argument("--unban", metavar="FINGERPRINT", help="lift a ban")
    ops.add_argument("--kick", metavar="FINGERPRINT", help="close a key's connections now (no ban)")
    ops.add_argument("--bans", action="store_true", help="list the bans")


def _operator(args: argparse.Namespace, data_dir: Path) -> int:
    from ..private import DataDirError
    from .sqlite_store import open_store

    try:
        store = open_store(data_dir)
    except DataDirError as exc:
        print(f"unotui serve: {exc}", file=sys.stderr)
        return 1
    try:
        if args.motd is not None:
            store.set_motd(args.motd)
            print("message of the day set" if args.motd else "message of the day cleared")
        if args.ban:
            store.ban(args.ban, args.reason, "operator")
            store.log_event("ban", args.ban)
            print(f"banned {args.ban}")
        if args.unban:
            print(f"unbanned {args.unban}" if store.unban(args.unban) else f"{args.unban} was not banned")
        if args.kick:
            store.log_event("kick", args.kick)
            print(f"kick requested for {args.kick}")
        if args.bans:
            for ban in store.bans():
                print(f"{ban.fingerprint}  {ban.reason}")
    except ValueError as exc:
        print(f"unotui serve: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    return 0


def run(args: argparse.Namespace) -> int:
    """Serve, or run an operator command; returns the exit status."""
    data_dir = args.data_dir or default_data_dir()
    if any(x is not None for x in (args.motd, args.ban, args.unban, args.kick)) or args.bans:
        return _operator(args, data_dir)
    for what, port in (("--port", args.port), ("--ssh-port", args.ssh_port)):
        if not 0 <= port <= 65535:
            print(f"unotui serve: {what} must be 0-65535", file=sys.stderr)
            return 2
    if args.public_host and not _HOST_NAME.fullmatch(args.public_host):
        print("unotui serve: --public-host must be a host name or address (letters, digits, . - : [ ])",
              file=sys.stderr)
        return 2
    if args.max_tables < 1 or args.max_sessions < 1:
        print("unotui serve: --max-tables and --max-sessions must be at least 1", file=sys.stderr)
        return 2
    if args.sessions_per_process < 1:
        print("unotui serve: --sessions-per-process must be at least 1", file=sys.stderr)
        return 2
    if not 0 <= args.keep_matches <= 100 or args.keep_total < 0 or args.review_slots < 0:
        print("unotui serve: --keep-matches must be 0-100, --keep-total and --review-slots at least 0",
              file=sys.stderr)
        return 2
    if not args.keep_days > 0:
        print("unotui serve: --keep-days must be above 0 (--keep-matches 0 keeps nothing)", file=sys.stderr)
        return 2
    from .serve import run_serve

    return run_serve(ServeOptions(data_dir=data_dir, bind=args.bind, ssh_port=args.ssh_port, port=args.port,
                                  public_host=args.public_host,
                                  max_tables=args.max_tables, max_sessions=args.max_sessions,
                                  turn_timer=args.turn_timer, ssh_per_ip=args.ssh_per_ip,
                                  ssh_rate_per_ip=args.ssh_rate_per_ip, ssh_rate_burst=args.ssh_rate_burst,
                                  idle_timeout=args.idle_timeout,
                                  sessions_per_process=args.sessions_per_process,
                                  keep_matches=args.keep_matches, keep_days=args.keep_days,
                                  keep_total=args.keep_total, review_slots=args.review_slots))
