"""bench/review.py still runs and prints its summary line (a tiny size: the figures
themselves are the benchmark's business, not a test's; that each is a number is)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "review.py"


def test_quick_run_prints_every_figure() -> None:
    run = subprocess.run([sys.executable, str(BENCH), "--quick", "--jobs", "1"], capture_output=True,
                         text=True, check=True, timeout=300)
    lines = run.stdout.strip().splitlines()
    assert sum(1 for line in lines if "positions  predicted" in line) == 10  # ten bins
    assert re.fullmatch(
        r"calibration_mae=\d+\.\d\d brier=0\.\d{4} baseline_brier=0\.\d{4} positions=\d+ "
        r"match_seconds=\d+\.\d playouts=16 jobs=1 cost_noise=\d+\.\d\d", lines[-1]), lines[-1]
    positions = int(re.search(r"positions=(\d+)", lines[-1]).group(1))  # type: ignore[union-attr]
    assert positions >= 60
