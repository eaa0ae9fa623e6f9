"""Audit throughput over the whole shared corpus, as an operator runs it: the `routemax audit` command in
a subprocess with all local cores, timed from its start to its exit (start-up, reading the snapshots,
handing them to the workers and the summary included; issue 22's target: 500 positions/s on 2 cores),
without and with the route maps of flagged positions (`--html`).

The tree's bytecode is compiled first, as pip compiles an installed wheel's (`_compile_as_installed`): a tree
whose bytecode was never written, as under PYTHONDONTWRITEBYTECODE, would compile every module at each start
(about 0.4 s of the command's wall time here). One round each. `extra_info`: positions per second, the wall
time, and the CPU seconds of the command's own process and of its workers (user plus system, from
`resource`): on 2 busy cores, the CPU budget of 500 positions/s is about 4 ms per position, everything
included.
"""

from __future__ import annotations

import compileall
import json
import resource
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
import setuptools

from benchmarks.conftest import CORPUS, REPO
from solver.audit.run import PRICED_MODELS


def _cpu_of_children() -> float:
    """User plus system seconds of the processes this one has waited for (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _compile_as_installed() -> None:
    """Write the bytecode of the packages a wheel ships (pyproject's package discovery), as pip does at install."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    found = project["tool"]["setuptools"]["packages"]["find"]
    for package in setuptools.find_packages(str(REPO), include=found["include"], exclude=found["exclude"]):
        compileall.compile_dir(REPO / package.replace(".", "/"), maxlevels=0, quiet=1)


@pytest.mark.parametrize("maps", [False, True], ids=["lines", "lines+maps"])
def test_audit_command_whole_corpus(benchmark, tmp_path: Path, maps: bool) -> None:
    out = tmp_path / "audit.jsonl"
    cmd = [sys.executable, "-m", "routemax", "audit", str(CORPUS), "--out", str(out)]
    if maps:
        cmd += ["--html", str(tmp_path / "audit.html")]
    done: list[subprocess.CompletedProcess[str]] = []
    _compile_as_installed()

    def run() -> None:
        done.append(subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=1800, check=False))

    cpu_before = _cpu_of_children()
    t0 = time.perf_counter()
    benchmark.pedantic(run, rounds=1, iterations=1, warmup_rounds=0)
    seconds = time.perf_counter() - t0
    cpu = _cpu_of_children() - cpu_before
    assert done[0].returncode == 0, done[0].stderr
    lines = [json.loads(raw) for raw in out.read_text(encoding="utf-8").splitlines()]
    priced = [line for line in lines if line.get("revenue_model") in PRICED_MODELS]
    assert priced and all("optimum" in line for line in priced), "every priced position gets its optimum"
    benchmark.extra_info.update({"positions": len(lines), "wall_s": round(seconds, 2),
                                 "positions_per_second": round(len(lines) / seconds, 1),
                                 "cpu_s": round(cpu, 2), "cpu_ms_per_position": round(cpu * 1000 / len(lines), 2)})
