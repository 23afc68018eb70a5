"""The simulator: its statistics, its seating, determinism and the ``--json`` output."""

from __future__ import annotations

import json
import multiprocessing
import os
from collections import Counter

import pytest

from unotui.cli import main
from unotui.engine import Rules
from unotui.sim.runner import Config, Tally, default_jobs, play_game, run, workers
from unotui.sim.stats import percentile, seating, wilson


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(7, 10)
    assert lo == pytest.approx(0.3968, abs=1e-4)
    assert hi == pytest.approx(0.8922, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(14000, 20000)
    assert hi - lo == pytest.approx(0.0127, abs=2e-4)  # the notes' +/- 0.7 points


def test_percentile_nearest_rank() -> None:
    values = sorted(range(1, 101))
    assert percentile(values, 50) == 50
    assert percentile(values, 95) == 95
    assert percentile(values, 99) == 99
    assert percentile([3.0], 99) == 3.0
    assert percentile([], 50) == 0.0


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_duplicate_rotation_puts_every_bot_in_every_seat_of_a_deal(players: int) -> None:
    firsts = Counter()
    for deal in range(2 * players):
        games = [seating(deal * players + r, players, True) for r in range(players)]
        assert {g.deal for g in games} == {deal}
        assert len({g.dealer for g in games}) == 1
        for bot in range(players):
            assert sorted(g.seat_of[bot] for g in games) == list(range(players))
        for g in games:
            assert sorted(g.seat_of) == list(range(players))
            first = (g.dealer + 1) % players
            firsts[g.seat_of.index(first)] += 1
    # every bot starts equally often
    assert len(set(firsts.values())) == 1


def test_plain_seating_alternates_the_first_player() -> None:
    dealers = [seating(i, 2, False).dealer for i in range(4)]
    assert dealers == [0, 1, 0, 1]
    assert seating(3, 2, False).seat_of == (0, 1)
    assert len({seating(i, 2, False).deal for i in range(4)}) == 4


def test_runs_are_reproducible_and_independent_of_jobs() -> None:
    cfg = Config(bots=("medium", "random", "greedy"), games=30, seed=4, duplicate=True, rules=Rules())
    one = run(cfg, jobs=1)
    again = run(cfg, jobs=1)
    two = run(cfg, jobs=2)
    assert one.games == 30
    for t in (again, two):
        assert (t.games, t.moves, t.wins, t.points) == (one.games, one.moves, one.wins, one.points)
    assert sum(one.wins) == 30


def test_match_mode_plays_to_the_target() -> None:
    cfg = Config(bots=("hard", "random"), games=2, seed=1, rules=Rules.preset("classic"), target=150,
                 options=(("deadline", None), ("rollouts", 8)))
    tally = Tally.empty(2)
    play_game(cfg, 0, tally)
    play_game(cfg, 1, tally)
    assert tally.games == 2
    assert sum(tally.wins) == 2
    assert max(tally.points) >= 150


def test_sim_json_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["sim", "--players", "3", "--bots", "hard,random", "--games", "12", "--seed", "2",
                   "--duplicate", "--json", "--rollouts", "8"])
    assert status == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert out.strip().count("\n") == 0
    assert set(data) == {"games", "players", "seconds", "workers", "moves", "bots"}
    assert data["games"] == 12 and data["players"] == 3 and data["moves"] > 0
    assert [b["name"] for b in data["bots"]] == ["hard", "random", "hard"]
    assert [b["seat"] for b in data["bots"]] == [0, 1, 2]
    for b in data["bots"]:
        keys = {"name", "seat", "wins", "win_rate", "ci_low", "ci_high", "avg_points", "decision_ms"}
        assert set(b) == keys
        assert set(b["decision_ms"]) == {"p50", "p95", "p99"}
        assert 0 <= b["ci_low"] <= b["win_rate"] <= b["ci_high"] <= 1
    assert sum(b["wins"] for b in data["bots"]) == 12


def test_sim_table_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--bots", "random", "--games", "5", "--rules", "classic", "--set", "jump_in=on"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "random" in out
    assert main(["sim", "--bots", "wizard", "--games", "5"]) == 2
    assert "known: random" in capsys.readouterr().err
    assert main(["sim", "--set", "bogus=1", "--games", "5"]) == 2
    assert main(["sim", "--players", "2", "--bots", "hard,random,easy"]) == 2


def test_every_core_by_default() -> None:
    """Without ``--jobs`` the games go to one worker per core this process may use."""
    assert default_jobs() == len(os.sched_getaffinity(0)) >= 1
    cfg = Config(bots=("random", "random"), games=300, seed=1)
    assert workers(cfg, default_jobs()) == default_jobs()
    assert workers(cfg, 1) == 1
    assert workers(Config(bots=("random", "random"), games=1), 8) == 1  # one game, one worker


def test_one_job_plays_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--jobs 1`` starts no process: with process pools made impossible it still runs."""

    def no_processes(*args: object, **kwargs: object) -> None:
        raise AssertionError("--jobs 1 started a process pool")

    monkeypatch.setattr(multiprocessing, "get_context", no_processes)
    assert main(["sim", "--bots", "random", "--games", "4", "--jobs", "1", "--json"]) == 0


def _sim_json(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    args = ["sim", "--players", "2", "--bots", "medium,random", "--games", "240", "--seed", "9", "--json"]
    assert main([*args, *extra]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_default_jobs_give_the_results_of_one(capsys: pytest.CaptureFixture[str]) -> None:
    """The same seed gives the same wins, points and moves in one process and in one per
    core (the default), and the output says how many workers played."""
    one = _sim_json(capsys, "--jobs", "1")
    every = _sim_json(capsys)
    assert one["workers"] == 1
    assert every["workers"] == default_jobs()

    def results(data: dict[str, object]) -> object:
        bots = data["bots"]
        assert isinstance(bots, list)
        return data["games"], data["moves"], [(b["wins"], b["avg_points"]) for b in bots]

    assert results(every) == results(one)


def test_summary_line_names_the_workers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--bots", "random", "--games", "3", "--jobs", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("games/s, 1 worker")
    assert main(["sim", "--bots", "random", "--games", "3", "--jobs", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("games/s, 2 workers")
    assert main(["sim", "--bots", "random", "--games", "3", "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err
