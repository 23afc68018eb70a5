"""``unotui play``: the Textual table against computer players (and the main menu).

Arguments are checked before Textual is imported, so bad ``--rules`` or ``--set`` give a
one-line error on stderr and exit status 2.  This module imports nothing heavy at load
time (the top-level parser loads it for ``unotui --help`` too); ``run`` does.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from ..engine import Rules
    from ..net.config import RoomConfig
    from ..net.controller import Controller
    from ..net.local import LocalGame
    from .app import UnoApp
    from .settings import Config, GameOptions

__all__ = [
    "SaveFirstMatch", "add_arguments", "build_options", "play_app", "run", "run_hosted", "run_joined",
    "settings_options", "table_app",
]


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rules PRESET`` and ``--set KEY=VALUE``: the table's rules, for every command
    that sets a table up (``play``, ``host``); read back with :func:`rules_from_args`."""
    parser.add_argument(
        "--rules", metavar="PRESET", help="classic, classic-2008, classic-2001, giant, modern"
    )
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="a house rule (repeatable)"
    )


def rules_from_args(args: argparse.Namespace, base: Rules) -> Rules:
    """The rules :func:`add_rules_arguments`' options say, on top of ``base`` (the settings
    file's) when no preset is named.  Raises RulesError with the option's own words."""
    from ..engine import Rules, RulesError

    rules = Rules.preset(args.rules) if args.rules else base
    settings: dict[str, object] = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"--set takes KEY=VALUE, not {item!r}")
        settings[key.strip()] = value.strip()
    return rules.with_settings(settings) if settings else rules


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``play`` subcommand's options."""
    parser.add_argument("--menu", action="store_true", help="open the main menu first")
    parser.add_argument("--players", type=int, metavar="N", help="seats at the table, 2-10 (default 4)")
    parser.add_argument(
        "--bots", metavar="LEVEL", help="computer players: random, greedy, easy, medium, hard"
    )
    add_rules_arguments(parser)
    parser.add_argument("--target", type=int, metavar="N", help="points that win the match")
    parser.add_argument("--name", help="your name at the table")
    parser.add_argument("--seed", type=int, metavar="S", help="repeatable deal and computer players")
    parser.add_argument(
        "--delay", type=float, metavar="SECONDS", help="computer players' pause (default 0.6)"
    )
    parser.add_argument("--theme", choices=("default", "colourblind", "mono"), help="colour theme")
    parser.add_argument(
        "--save", metavar="FILE",
        help="write the transcript of the match it deals first to FILE when it ends (or, if you "
             "quit before, what was played); unotui replay FILE reads it",
    )


def settings_options(config: Config) -> GameOptions:
    """The solo game the settings describe: what the menu's first entry deals, whether the
    app opened on the menu (``unotui``, ``unotui play``, which then apply their options) or
    on a table (``unotui host``/``join``, whose menu after the match is the same menu).
    An unknown level in the file is the default here: ``unotui play`` refuses it with a
    sentence (:func:`build_options`), but a table's player only meets it after the match."""
    from ..bots import LEVELS
    from ..table import MIN_CATCH_GRACE
    from .settings import GameOptions

    grace = config.catch_grace
    if os.environ.get("UNOTUI_TEST_MODE") != "1":
        grace = max(grace, MIN_CATCH_GRACE)
    return GameOptions(
        players=config.players,
        level=config.bots if config.bots in LEVELS else GameOptions.level,
        rules=config.rules,
        name=config.name,
        delay=config.delay,
        catch_grace=grace,
    )


def build_options(args: argparse.Namespace) -> tuple[Config, GameOptions]:
    """(Config, GameOptions) from the arguments and the settings file; raises RulesError."""
    from ..bots import LEVELS
    from ..engine import RulesError
    from ..protocol.text import clean_name
    from .settings import load_config

    config = load_config()
    rules = rules_from_args(args, config.rules)
    if args.target is not None:
        rules = rules.with_settings({"target_score": args.target})
    players = args.players if args.players is not None else config.players
    rules.validate(players)
    if args.theme:
        config = config.with_(theme=args.theme)
    delay = config.delay if args.delay is None else args.delay
    if not 0 <= delay <= 10:
        raise RulesError("--delay must be between 0 and 10 seconds")
    level = args.bots or config.bots
    if level not in LEVELS:
        raise RulesError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
    options = settings_options(config)._replace(
        players=players,
        level=level,
        rules=rules,
        name=clean_name(args.name, "You") if args.name else config.name,
        seed=args.seed,
        delay=delay,
    )
    return config, options


def run(args: argparse.Namespace) -> int:
    """Run the app; returns the exit status."""
    # Starting up builds many long-lived objects (the engine, Textual, the stylesheets,
    # the screens): collecting garbage meanwhile is wasted work.  The app turns the
    # collector back on (after freezing what exists) once its first frame is drawn.
    gc.disable()
    try:
        from ..engine import RulesError

        try:
            config, options = build_options(args)
        except RulesError as exc:
            print(f"unotui play: {exc}", file=sys.stderr)
            return 2
        save = _save_target(args.save)
        if isinstance(save, str):
            print(f"unotui play: {save}", file=sys.stderr)
            return 2
        app = play_app(config, options, menu=args.menu, save=save)
        try:
            code = app.run()
        finally:
            saved = app.factory.at_close() if isinstance(app.factory, SaveFirstMatch) else 0
    finally:
        gc.enable()
    status = code if isinstance(code, int) else (app.return_code or 0)
    return status or saved


def play_app(config: Config, options: GameOptions, *, menu: bool, save: Path | None = None) -> UnoApp:
    """The app of ``unotui play`` (its solo games made by :class:`SaveFirstMatch` when
    ``--save`` gave a file)."""
    from .app import UnoApp
    from .modes import local_game

    factory: Callable[[GameOptions], Controller] = local_game if save is None else SaveFirstMatch(save)
    # Problems in the settings file are shown inside the app (the menu's note line, or a
    # notification at the table): stderr would only be seen after quitting.
    return UnoApp(config, options, menu=menu, factory=factory)


def _save_target(name: str | None) -> Path | str | None:
    """``--save FILE`` as a path, checked before the game (a typo found after a match
    would lose it): an error sentence, or ``None`` without the option."""
    from pathlib import Path

    if name is None:
        return None
    path = Path(name).expanduser()
    if path.is_dir():
        return f"--save {name}: that is a directory (give a file name)"
    if not path.parent.is_dir():
        return f"--save {name}: there is no directory {path.parent}"
    return path


class SaveFirstMatch:
    """``unotui play --save FILE``: the factory of the app's solo games, which keeps the
    first one it makes (the match the option was given for; a rematch is saved with ``s``
    on its summary) and writes its transcript to ``FILE``

    * when that match ends: the match summary calls :meth:`match_over` and shows what it
      says (:class:`~unotui.ui.screens.results.MatchOverHook`);
    * or, if it never ended, when unotui closes (:meth:`at_close`, on stderr: the match
      so far, and which round it got to).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.first: LocalGame | None = None
        self.written = False

    def __call__(self, options: GameOptions) -> Controller:
        from ..net.local import LocalGame
        from .modes import local_game

        controller = local_game(options)
        if self.first is None and isinstance(controller, LocalGame):
            self.first = controller
        return controller

    def _write(self) -> str:
        """Write the first game's transcript; "" or why it could not be written."""
        from ..transcript.save import save

        assert self.first is not None
        try:
            save(self.first.game, self.path)
        except OSError as exc:
            return f"could not save to {self.path}: {exc.strerror or exc}"
        self.written = True
        return ""

    def match_over(self, controller: object) -> tuple[str, bool] | None:
        """The match of ``controller`` is over: if it is the first, write it now; the
        sentence for the summary and whether it is an error (``None``: not this one)."""
        if controller is not self.first or self.written:
            return None
        problem = self._write()
        if problem:
            return f"Could not write --save's file: {problem}", True
        return f"Saved (--save) to {self.path}", False

    def at_close(self) -> int:
        """unotui has closed: write the first game if its match did not end (what was
        played), and say on stderr what the file holds; the exit status (1: not written)."""
        from ..transcript.save import progress

        if self.first is None:
            print(f"unotui play: nothing saved to {self.path}: no match was dealt", file=sys.stderr)
            return 0
        game = self.first.game
        problem = "" if self.written else self._write()
        if problem:
            print(f"unotui play: {problem}", file=sys.stderr)
            return 1
        print(f"unotui play: saved {progress(game)} to {self.path} (unotui replay {self.path} reads it)",
              file=sys.stderr)
        return 0


def table_app(start: Callable[[GameOptions], Controller], name: str | None) -> UnoApp:
    """The app that opens straight onto a hosted or joined table (``start`` makes its
    controller), with the settings' solo game for the menu it goes to afterwards."""
    from ..protocol.text import clean_name
    from .app import UnoApp
    from .settings import load_config

    config = load_config()
    options = settings_options(config)._replace(name=clean_name(name, config.name) if name else config.name)
    return UnoApp(config, options, start=start)


def _run_app(start: Callable[[GameOptions], Controller], name: str | None) -> int:
    """Run the app straight onto a hosted or joined table; returns the exit status."""
    gc.disable()
    try:
        app = table_app(start, name)
        code = app.run()
    finally:
        gc.enable()
    if app.exit_message:
        print(f"unotui: {app.exit_message}", file=sys.stderr)
    return code if isinstance(code, int) else (app.return_code or 0)


def run_hosted(room: RoomConfig, name: str, bind: str, port: int) -> int:
    """``unotui host`` with a screen: host here and sit at seat 1."""
    from .lan import hosted

    return _run_app(hosted(room, name, bind, port), name)


def run_joined(start: Callable[[GameOptions], Controller], name: str) -> int:
    """``unotui join HOST[:PORT]``: a seat (or a chair to watch) at a table elsewhere
    (``start``: :func:`unotui.ui.join_cli.joining`, from the checked arguments)."""
    return _run_app(start, name)
