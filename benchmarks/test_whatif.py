"""What-if against one Solve of the same board, on late-game corpus positions (the last positions of
each 1870 and 1846 game): ranking every token placement, and ranking train offers.

Run: `python -m pytest benchmarks/test_whatif.py --benchmark-only`. One benchmark round per position;
`extra_info` carries, per title, the median ratio (what-if time / one Solve's time, both from the
parsed board) and the median number of scenarios. The issue's target: token ranking at most 5x.
"""

from __future__ import annotations

import statistics
import time
from itertools import count

import pytest

from benchmarks.conftest import CORPUS
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.board import Board
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.whatif import WhatIfOptions, run_whatif

LATE = 3  # positions from the end of each game
TRAINS = {"1870": ["5", "6", "8", "D"], "1846": ["5", "6", "7/8=7", "D"]}


def late_boards(title: str) -> list[Board]:
    out = []
    for path in sorted((CORPUS / title).glob("*.jsonl.gz")):
        raws = [p.raw for p in read_positions(path) if p.raw is not None]
        out += [board_from_snapshot(r) for r in raws[-LATE:] if r.get("revenue_model") in ("generic", "modifiers")]
    return out


def _best_of(n: int, run) -> float:  # noqa: ANN001
    """The best of n wall-clock times (seconds) of run(): the machine is shared."""
    best = float("inf")
    for _ in range(n):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return best


@pytest.mark.parametrize("advisor", ["tokens", "trains"])
@pytest.mark.parametrize("title", ["1870", "1846"])
def test_whatif_against_one_solve(benchmark, title: str, advisor: str) -> None:
    boards = late_boards(title)
    nxt = count()
    ratios: list[float] = []
    scenarios: list[int] = []

    def setup():
        return (boards[next(nxt) % len(boards)],), {}

    def run(board: Board):
        kwargs = {"tokens": True} if advisor == "tokens" else {"trains": TRAINS[title]}
        solo = _best_of(3, lambda: solve(board, SolveOptions(time_limit_s=60)))
        result = None

        def whatif() -> None:
            nonlocal result
            result = run_whatif(board, [], WhatIfOptions(time_limit_s=600), **kwargs)

        ratios.append(_best_of(3, whatif) / solo)
        scenarios.append(len(result.scenarios))
        return result

    benchmark.pedantic(run, setup=setup, rounds=len(boards), iterations=1, warmup_rounds=0)
    benchmark.extra_info.update({"positions": len(boards), "median_ratio_to_one_solve": statistics.median(ratios),
                                 "max_ratio": max(ratios), "median_scenarios": statistics.median(scenarios)})
    print(f"\n{title} {advisor}: {len(boards)} positions, median {statistics.median(scenarios):.0f} scenarios, "
          f"what-if / one Solve: median {statistics.median(ratios):.2f}x, max {max(ratios):.2f}x "
          f"(per position: {', '.join(f'{r:.1f}' for r in ratios)})")
