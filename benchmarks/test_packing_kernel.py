"""The packing branch and bound on the stress set's largest packings (1870, 1856), with the compiled kernel
(`solver/native/setpack.c`, as shipped: the Python search hands it searches past `KERNEL_FROM` nodes) and
with the Python search alone (`ROUTEMAX_NATIVE=0`).

`extra_info` carries, per title, the packings' median and max time both ways, the median ratio (Python over
kernel) and the search nodes (equal both ways: the same search). Run:
`python -m pytest benchmarks/test_packing_kernel.py --benchmark-only`.
"""

from __future__ import annotations

import statistics
import time
from itertools import count

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.packing import setpack
from tests.support.stress_boards import stress_snapshots

MIN_OPTIONS = 5000  # the packings timed: those of this many options or more


def _packings(monkeypatch: pytest.MonkeyPatch, name: str) -> list[tuple[tuple, dict]]:
    """The arguments of every plain `best_packing` the solves of a stress title make over MIN_OPTIONS options."""
    found: list[tuple[tuple, dict]] = []
    real = setpack.best_packing

    def spy(*args, **kwargs):
        if len(args[0]) >= MIN_OPTIONS:
            found.append((args[:5], {}))  # values, fits, masks, counts, lower: no deadline, no token
        return real(*args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(setpack, "best_packing", spy)
        for raw in stress_snapshots(name):
            solve(board_from_snapshot(raw), SolveOptions(time_limit_s=10))
    return found


@pytest.mark.parametrize("name", ["1870", "1856"])
def test_packing_kernel_against_python(benchmark, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    packings = _packings(monkeypatch, name)
    nxt = count()
    kernel_ms: list[float] = []
    nodes: list[float] = []

    def setup():
        return packings[next(nxt) % len(packings)], {}

    def run(args, kwargs):
        started = time.perf_counter()
        result = setpack.best_packing(*args, **kwargs)
        kernel_ms.append((time.perf_counter() - started) * 1000)
        nodes.append(result.stats["bb_nodes"])
        return result

    benchmark.pedantic(run, setup=setup, rounds=len(packings), iterations=1, warmup_rounds=0)
    python_ms: list[float] = []
    monkeypatch.setenv("ROUTEMAX_NATIVE", "0")
    for (args, kwargs), kernel_nodes in zip(packings, nodes, strict=True):
        started = time.perf_counter()
        result = setpack.best_packing(*args, **kwargs)
        python_ms.append((time.perf_counter() - started) * 1000)
        assert result.stats["bb_nodes"] == kernel_nodes  # the same search
    benchmark.extra_info.update({
        "packings": len(packings), "kernel_median_ms": round(statistics.median(kernel_ms), 2),
        "kernel_max_ms": round(max(kernel_ms), 2), "python_median_ms": round(statistics.median(python_ms), 2),
        "python_max_ms": round(max(python_ms), 2),
        "median_ratio": round(statistics.median(p / k for p, k in zip(python_ms, kernel_ms, strict=True)), 2),
        "nodes_max": max(nodes),
    })
    assert packings
