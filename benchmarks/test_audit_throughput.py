"""Audit throughput over the whole shared corpus with all local cores (target: 250 positions/s with 2
workers), without and with the route maps of flagged positions (`audit --html` draws them).

One round each: the figure is positions per second in `extra_info`, next to the wall time.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from benchmarks.conftest import CORPUS
from routemax_cli.audit_run import default_workers, expand_paths, iter_items, make_executor, run_audit


@pytest.mark.parametrize("maps", [False, True], ids=["lines", "lines+maps"])
def test_audit_whole_corpus(benchmark, tmp_path: Path, maps: bool) -> None:
    files = expand_paths([str(CORPUS)])
    items = list(iter_items(files))
    workers = default_workers()
    counts: list[int] = []

    def run() -> None:
        out = tmp_path / f"audit-{len(counts)}.jsonl"
        with make_executor(workers, dask=False, scheduler=None) as executor:
            counts.append(run_audit(items, out, executor, maps=maps))

    t0 = time.perf_counter()
    benchmark.pedantic(run, rounds=1, iterations=1, warmup_rounds=0)
    seconds = time.perf_counter() - t0
    benchmark.extra_info.update({"positions": counts[0], "workers": workers,
                                 "positions_per_second": round(counts[0] / seconds, 1)})
    assert counts[0] == len(items)
