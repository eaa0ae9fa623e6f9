"""For the packing searches' tests: brute force over packings of candidate routes (which runs are legal,
the best value of a legal run under a given run value), and real corpus runs that need a search, with
the CP-SAT packing of the same candidates to compare with."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import solver.rulesets.r_standard.solve as standard
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.results import SolveOptions, Status
from solver.modifiers.packing_terms import RunTerms
from solver.packing.outcome import Packing
from solver.packing.pack import pack
from solver.routes.pricing import Candidate
from tests.conftest import CORPUS

Run = Sequence[tuple[int, int]]  # (candidate, train class) pairs


def legal_run(cands: Sequence[Candidate], chosen: Run, counts: list[int], groups: list[str]) -> bool:
    """No class over its count; no two routes of one track group on the same route or track."""
    if any(sum(1 for _r, c in chosen if c == ci) > n for ci, n in enumerate(counts)):
        return False
    for (r1, c1), (r2, c2) in itertools.combinations(chosen, 2):
        if groups[c1] == groups[c2] and (r1 == r2 or cands[r1].mask & cands[r2].mask):
            return False
    return True


def brute_best(cands: Sequence[Candidate], counts: list[int], groups: list[str], value: Callable[[Run], int]) -> int:
    """The most `value` gives a legal run of at most `sum(counts)` options (the empty run included)."""
    options = [(r, ci) for r, c in enumerate(cands) for ci in c.revenue]
    return max(value(list(run)) for size in range(sum(counts) + 1) for run in itertools.combinations(options, size)
               if legal_run(cands, run, counts, groups))


def assert_best_run(found: Packing, cands: Sequence[Candidate], counts: list[int], groups: list[str],
                    value: Callable[[Run], int]) -> None:
    """A packing search found a best run: proven, legal, and worth the brute-force best as its bound says."""
    assert found.status == Status.OPTIMAL
    assert legal_run(cands, found.chosen, counts, groups)
    best = brute_best(cands, counts, groups, value)
    assert found.bound == best
    assert value(found.chosen) == best


def searched_runs(titles: Iterable[str], every: int, wanted: Callable[[dict[str, Any]], bool],
                  fits: Callable[[RunTerms | None], bool]) -> list:
    """Every `every`-th `modifiers` position of these corpus folders that `wanted` takes, after the bound
    phase, where a search is needed: several trains, a greedy run below the bound, and run rules that
    `fits` (a search's own test)."""
    runs = []
    for title in titles:
        files = sorted((CORPUS / title).glob("*.jsonl.gz"))
        snaps = [p.raw for f in files for p in read_positions(f) if p.raw is not None]
        for snap in snaps[::every]:
            if snap.get("revenue_model") != "modifiers" or not wanted(snap):
                continue
            run = standard.enumerate_phase(board_from_snapshot(snap), SolveOptions(time_limit_s=60), standard.one_group)
            standard.bound_phase(run)
            if fits(run.terms) and run.lower < run.upper and run.cands and sum(run.counts) > 1:
                runs.append(run)
    return runs


def cpsat_packing(run: Any) -> Packing:
    """The CP-SAT packing of a run's candidates with its run rules (proven optimal)."""
    for c in run.cands:
        c.bits = tuple(run.graph.route_bits(c.legs)) if c.mask else ()
    model = pack(run.cands, run.counts, SolveOptions(time_limit_s=60), time.monotonic() + 60, run.lower_pack,
                 run.groups, run.terms)
    assert model.status == Status.OPTIMAL
    return model
