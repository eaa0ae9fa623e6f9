"""How far past `time_limit_s` a solve returns on big boards (target: 50 ms), as wall time of
`solve()` minus the limit. `extra_info` has the median and max overshoot in ms per limit."""

from __future__ import annotations

import statistics
import time

import pytest

from solver.model.results import SolveOptions
from solver.optimiser import solve
from tests.support.stress_1873 import board_1873_sixteen_of, railway_snapshots_1873
from tests.support.stress_boards import board_1870_8_12_12, board_1873_sixteen, stress_board

BOARDS = [("1870", 0), ("1870", 2), ("1870", 4), ("18ChesapeakeOfftheRails", 0), ("1856", 0)]


def _boards():
    hard_1873 = board_1873_sixteen_of(dict(railway_snapshots_1873())["hs_gwlftpex_33770.jsonl.gz:40"])
    return [stress_board(t, i) for t, i in BOARDS] + [board_1870_8_12_12(), board_1873_sixteen(), hard_1873]


@pytest.mark.parametrize("limit", [0.2, 1.0, 3.0])
def test_deadline_overshoot(benchmark, limit: float) -> None:
    boards = _boards()
    over: list[float] = []
    it = iter(range(10**9))

    def setup():
        return (boards[next(it) % len(boards)],), {}

    def run(board):
        t0 = time.monotonic()
        solve(board, SolveOptions(time_limit_s=limit))
        over.append((time.monotonic() - t0 - limit) * 1000.0)

    benchmark.pedantic(run, setup=setup, rounds=len(boards), iterations=1, warmup_rounds=0)
    benchmark.extra_info.update({"limit_s": limit, "boards": len(boards),
                                 "median_overshoot_ms": round(statistics.median(over), 1),
                                 "max_overshoot_ms": round(max(over), 1)})
    assert len(over) == len(boards)
