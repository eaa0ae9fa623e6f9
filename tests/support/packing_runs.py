"""Brute force over packings of candidate routes, for the packing searches' tests: which runs are legal,
and the best value of a legal run under a given run value."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from solver.routes.pricing import Candidate

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
