"""The bot-vs-bot simulator behind ``unotui sim`` (see ``docs/bots.md``).

:mod:`unotui.sim.runner` plays games (in several processes if asked),
:mod:`unotui.sim.stats` holds the statistics and the duplicate seating, and
:mod:`unotui.sim.cli` is the command line.
"""

from .runner import Config, Tally, play_game, run
from .stats import percentile, seating, wilson

__all__ = ["Config", "Tally", "percentile", "play_game", "run", "seating", "wilson"]
