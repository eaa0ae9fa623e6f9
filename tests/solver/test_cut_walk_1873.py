"""1873 under a deadline that cuts the route walk short: the routes listed prove nothing about the ones never
listed. No "no legal run" (INFEASIBLE) from a partial list, and the bound holds over every route (every stop at
its most, `model.every_stop_bound`), on a real railway whose concession route the first routes miss."""

from __future__ import annotations

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions, Status
from solver.optimiser import solve
from solver.rulesets.r_1873 import candidates as candidates_1873
from tests.support.stress_boards import stress_snapshots


@pytest.mark.parametrize("kept", [0, 1, 5, 50, 120])
def test_a_walk_cut_short_proves_no_infeasibility_and_bounds_every_route(monkeypatch: pytest.MonkeyPatch,
                                                                         kept: int) -> None:
    snapshot = stress_snapshots("1873")[8]
    optimum = solve(board_from_snapshot(snapshot), SolveOptions(time_limit_s=60))
    assert optimum.status == Status.OPTIMAL
    walk = candidates_1873.route_shapes

    def cut_short(*args, **kwargs):  # type: ignore[no-untyped-def]
        shapes, _done = walk(*args, **kwargs)
        return shapes[:kept], False

    monkeypatch.setattr(candidates_1873, "route_shapes", cut_short)
    found = solve(board_from_snapshot(snapshot), SolveOptions(time_limit_s=60))  # no complete lists kept on it
    assert found.status in (Status.FEASIBLE, Status.UNKNOWN)
    assert found.revenue <= optimum.revenue <= found.bound
