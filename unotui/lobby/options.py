"""What ``unotui serve`` is asked for, and each option's default, stated once.

Apart from :mod:`unotui.lobby.serve` (which imports the SSH door and the host) so that
the command line reads the defaults for its options and help from here without loading
either: ``unotui --help`` stays light.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["SESSIONS_PER_PROCESS", "ServeOptions"]

#: sessions per worker process unless told otherwise (measured: ``bench/ssh_load.py --lobby``)
SESSIONS_PER_PROCESS = 8

@dataclass(frozen=True)
class ServeOptions:
    """What ``unotui serve`` was asked for."""

    data_dir: Path
    bind: str = "0.0.0.0"
    ssh_port: int = 2222
    port: int = 7777
    public_host: str = ""  # what players type to reach us ("": a THIS-HOST placeholder)
    max_tables: int = 50
    max_sessions: int = 200
    turn_timer: float = 30.0
    ssh: bool = True
    ssh_per_ip: int = 8
    ssh_rate_per_ip: float = 5.0
    ssh_rate_burst: int = 5
    idle_timeout: float = 1800.0
    sessions_per_process: int = SESSIONS_PER_PROCESS
    keep_matches: int = 20  # kept matches per key (0: none kept; at most 100)
    keep_days: float = 90.0
    keep_total: int = 5000
    review_slots: int = 1  # game reviews at once on this machine (0: off)
