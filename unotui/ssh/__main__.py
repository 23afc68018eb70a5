"""Run the SSH shell alone (development, tests, benchmarks): ``python -m unotui.ssh``.

``unotui serve`` (the lobby) is the command for operators; this one serves any entry::

    python -m unotui.ssh --port 2222 --data-dir /tmp/ssh --entry unotui.ssh.demo:run
    python -m unotui.ssh --sessions-per-process 8      # the demo, 8 sessions to a worker
    python -m unotui.ssh --local --entry unotui.ssh.demo:run   # the entry on this terminal

It prints ``listening HOST:PORT fingerprint SHA256:...`` once it accepts connections,
logs to ``DATA_DIR/ssh.log`` (and stderr with ``--verbose``) and stops on SIGINT/SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import shutil
import signal
import sys
from pathlib import Path

from .limits import SshLimits
from .spec import SessionSpec


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m unotui.ssh", description=__doc__.splitlines()[0])
    parser.add_argument("--entry", default="unotui.ssh.demo:run", help="module:function run per session")
    parser.add_argument("--app-entry", metavar="MODULE:FUNCTION",
                        help="function(spec, terminal) returning a session's app, for several sessions per "
                             "process (default for the demo: unotui.ssh.demo:make_app)")
    parser.add_argument("--sessions-per-process", type=int, default=1, metavar="K",
                        help="sessions sharing one worker process, a thread each (default 1: a process each)")
    parser.add_argument("--preload", action="append", default=None, metavar="MODULE",
                        help="a module the forkserver imports first (repeatable; default: textual.app; "
                             "for the demo, unotui.ui.preload)")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=2222, help="0: any free port")
    parser.add_argument("--data-dir", type=Path, default=Path("unotui-ssh"), help="host key and log")
    parser.add_argument("--extra", action="append", default=[], metavar="KEY=VALUE",
                        help="a value every session's spec.extra carries (repeatable)")
    parser.add_argument("--max-sessions", type=int, help="sessions at once (default 200)")
    parser.add_argument("--per-ip", type=int, help="connections at once from one address (default 8)")
    parser.add_argument("--idle-timeout", type=float, help="seconds without a key (default 1800)")
    parser.add_argument("--rate-per-ip", type=float, help="new connections a second per address (default 5)")
    parser.add_argument("--rate-burst", type=int, help="...in a burst of (default 5)")
    parser.add_argument("--verbose", action="store_true", help="log to stderr too")
    parser.add_argument("--local", action="store_true", help="run the entry on this terminal, no SSH")
    return parser


def _limits(args: argparse.Namespace) -> SshLimits:
    limits = SshLimits()
    changes = {
        "max_sessions": args.max_sessions, "per_ip": args.per_ip, "idle_timeout": args.idle_timeout,
        "rate_per_ip": args.rate_per_ip, "rate_burst": args.rate_burst,
        "sessions_per_process": args.sessions_per_process,
    }
    from dataclasses import replace

    return replace(limits, **{k: v for k, v in changes.items() if v is not None})


def run_local(entry: str, extra: dict[str, str]) -> int:
    """The entry on this process's terminal, as a session would run it (no SSH, no fork)."""
    from .child import resolve_entry

    size = shutil.get_terminal_size()
    spec = SessionSpec(
        user=os.environ.get("USER", "local"), fingerprint=None, term=os.environ.get("TERM", "xterm-256color"),
        size=(size.columns, size.lines), peer="local", extra=extra,
    )
    result = resolve_entry(entry)(spec)
    return result if isinstance(result, int) else 0


async def _serve(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from .server import DEFAULT_PRELOAD, SshServer

    preload = tuple(args.preload) if args.preload else DEFAULT_PRELOAD
    if args.preload is None and args.entry.startswith("unotui.ssh.demo:"):
        from .demo import PRELOAD

        preload = PRELOAD
    app_entry = args.app_entry
    if app_entry is None and args.entry == "unotui.ssh.demo:run":
        app_entry = "unotui.ssh.demo:make_app"
    server = SshServer(
        args.entry, args.data_dir, _limits(args), extra_for=(lambda _spec: extra) if extra else None,
        preload=preload, app_entry=app_entry,
    )
    addresses = await server.start(args.bind, args.port)
    for host, port in addresses:
        print(f"listening {host}:{port} fingerprint {server.fingerprint}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Serve (or, with ``--local``, run the entry here); the exit status."""
    args = _parser().parse_args(argv)
    if args.sessions_per_process < 1:
        print("--sessions-per-process must be at least 1", file=sys.stderr)
        return 2
    extra: dict[str, str] = {}
    for item in args.extra:
        key, sep, value = item.partition("=")
        if not sep:
            print(f"--extra takes KEY=VALUE, not {item!r}", file=sys.stderr)
            return 2
        extra[key] = value
    if args.local:
        return run_local(args.entry, extra)
    from ..private import DataDirError, private_dir, private_file
    from .errors import SshError

    try:
        log_file = private_file(private_dir(args.data_dir) / "ssh.log")
    except DataDirError as exc:
        print(f"python -m unotui.ssh: {exc}", file=sys.stderr)
        return 1
    handlers: list[logging.Handler] = [logging.FileHandler(log_file)]
    if args.verbose:
        handlers.append(logging.StreamHandler())
    logging.basicConfig(level=logging.INFO, handlers=handlers,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    try:
        return asyncio.run(_serve(args, extra))
    except (SshError, OSError) as exc:
        print(f"python -m unotui.ssh: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
