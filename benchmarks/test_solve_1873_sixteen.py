"""1873 railways running ten 5T subtrains and six diesels (`tests.support.stress_1873`): every real
railway position of the corpus and the stress set, solved with the limits of the speed issue.

`extra_info` carries, per limit, the median, p99 and max of `stats["solve_ms"]`, how many positions
were proven OPTIMAL, and the worst ratio of revenue to bound (the 0.2 s target: within 10 %).
Correctness is not asserted here beyond the evaluator's own re-check inside `solve`. Run:
`python -m pytest benchmarks/test_solve_1873_sixteen.py --benchmark-only`.
"""

from __future__ import annotations

import statistics
from itertools import count

import pytest

from benchmarks.figures import p99
from solver.model.results import SolveOptions, Status
from solver.optimiser import solve
from tests.support.stress_1873 import board_1873_sixteen_of, railway_snapshots_1873


@pytest.mark.parametrize("time_limit_s", [1.0, 0.2])
def test_solve_1873_sixteen_trains(benchmark, time_limit_s: float) -> None:
    boards = [board_1873_sixteen_of(raw) for _source, raw in railway_snapshots_1873()]
    nxt = count()
    times: list[float] = []
    proven: list[bool] = []
    ratios: list[float] = []

    def setup():
        return (boards[next(nxt) % len(boards)],), {}

    def run(board):
        result = solve(board, SolveOptions(time_limit_s=time_limit_s))
        times.append(result.stats["solve_ms"])
        proven.append(result.status == Status.OPTIMAL)
        if result.bound:
            ratios.append(result.revenue / result.bound)
        return result

    benchmark.pedantic(run, setup=setup, rounds=len(boards), iterations=1, warmup_rounds=0)
    benchmark.extra_info.update({
        "positions": len(boards), "median_ms": round(statistics.median(times), 2), "p99_ms": round(p99(times), 2),
        "max_ms": round(max(times), 2), "proven": sum(proven),
        "worst_revenue_to_bound": round(min(ratios), 3) if ratios else None,
        "within_10pct_of_bound": sum(r >= 0.9 for r in ratios),
    })
    assert len(times) == len(boards)
