"""Solve time per stress position (`../shared/stress`), by title: one benchmark round per position.

`extra_info` carries the median, p99 and max of `stats["solve_ms"]` and the count of positions
not proven OPTIMAL. Correctness is not asserted here (a deadline may leave a position FEASIBLE);
the count is the figure to watch. Run: `python -m pytest benchmarks/test_solve_stress.py --benchmark-only`.
"""

from __future__ import annotations

import statistics
from itertools import count

import pytest

from benchmarks.figures import p99
from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions
from solver.optimiser import solve
from tests.support.stress_boards import STRESS, stress_snapshots

TIME_LIMIT_S = 10.0
FILES = sorted(p.name.removesuffix(".jsonl.gz") for p in STRESS.glob("*.jsonl.gz"))


@pytest.mark.parametrize("name", FILES)
def test_solve_stress_positions_of_title(benchmark, name: str) -> None:
    boards = [board_from_snapshot(raw) for raw in stress_snapshots(name)]
    nxt = count()
    times: list[float] = []
    statuses: list[str] = []

    def setup():
        return (boards[next(nxt) % len(boards)],), {}

    def run(board):
        result = solve(board, SolveOptions(time_limit_s=TIME_LIMIT_S))
        times.append(result.stats["solve_ms"])
        statuses.append(result.status)
        return result

    benchmark.pedantic(run, setup=setup, rounds=len(boards), iterations=1, warmup_rounds=0)
    benchmark.extra_info.update({
        "positions": len(boards), "median_ms": round(statistics.median(times), 2), "p99_ms": round(p99(times), 2),
        "max_ms": round(max(times), 2), "not_optimal": sum(s != "OPTIMAL" for s in statuses),
        "over_1s": sum(t > 1000 for t in times),
    })
    assert len(times) == len(boards)
