"""The compact circuit model against the brute force on the seeded random boards of
`tests/solver/test_bruteforce.py`, and the race path of `solve` forced on small boards."""

from __future__ import annotations

import time

import pytest

import solver.rulesets.r_standard.solve as standard_solve
from solver import rulesets
from solver.evaluator import evaluate
from solver.model.results import ClaimedRoute, SolveOptions, Status
from solver.optimiser import solve
from solver.packing.compact_model import CompactModel, eligible
from solver.packing.pack import train_classes
from solver.routes.leg_graph import build_leg_graph
from tests.solver.test_bruteforce import CHECK

SEEDS = range(0, 160)


def _compact(seed: int) -> tuple[int, int, str] | None:
    board, brute = CHECK.case(seed).board, CHECK.case(seed).brute
    reps, members = train_classes(board.trains)
    if not eligible(reps, [rulesets.get(board.ruleset).track_group(board, t) for t in reps]):
        return None
    model = CompactModel(board, build_leg_graph(board), reps, [len(m) for m in members])
    res = model.solve(time.monotonic() + 10, 1)
    assert res.status == Status.OPTIMAL and res.cands is not None, f"seed {seed}"
    used = [0] * len(members)
    claims = []
    for r, ci in res.chosen:
        cand = res.cands[r]
        claims.append(ClaimedRoute(train=members[ci][used[ci]].id, nodes=list(cand.nodes),
                                   legs=[list(leg.paths) for leg in cand.legs]))
        used[ci] += 1
    ev = evaluate(board, claims)
    assert ev.legal, f"seed {seed}: {[f.message for f in ev.findings]}"
    return ev.revenue, brute.optimum, board.label()


def test_compact_model_matches_brute_force() -> None:
    checked = 0
    for seed in SEEDS:
        got = _compact(seed)
        if got is None:
            continue
        checked += 1
        assert got[0] == got[1], f"seed {seed}: compact {got[0]} != brute force {got[1]}"
    assert checked >= len(SEEDS) // 2


@pytest.mark.parametrize("seed", range(0, 40))
def test_solve_through_the_race_matches_brute_force(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(standard_solve, "wants_compact",  # force the race, as on a cut-short enumeration
                        lambda board, classes, groups, exhaustive: not board.modifiers and eligible(classes, groups))
    board, brute = CHECK.case(seed).board, CHECK.case(seed).brute
    res = solve(board, SolveOptions(time_limit_s=10))
    assert res.revenue == brute.optimum
    assert res.status == "OPTIMAL"
    assert res.bound == res.revenue
