"""The bot-vs-bot simulator behind ``unotui sim`` (see ``docs/bots.md``).

:mod:`unotui.sim.runner` plays games (in one worker process per core by default),
:mod:`unotui.sim.stats` holds the statistics and the duplicate seating, and
:mod:`unotui.sim.cli` is the command line.
"""

from .runner import Config, Tally, default_jobs, play_game, run, workers
from .stats import percentile, seating, wilson

__all__ = [
    "Config", "Tally", "default_jobs", "percentile", "play_game", "run", "seating", "wilson", "workers",
]
