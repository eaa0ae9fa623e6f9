"""A company with one train keeps only its best route: the first in walk order of the routes that earn
the most, and the optimiser's answer is its value (the walk may be cut short by a bound,
`tests/solver/test_route_bound.py`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.packing.pack import train_classes
from solver.routes.candidates import candidate_routes
from solver.routes.leg_graph import build_leg_graph
from tests.support.stress_boards import stress_snapshots


@pytest.mark.parametrize(("title", "index", "bonuses"),
                         [("1856", 3, False), ("1882", 0, False), ("18GA", 1, False), ("1870", 0, True),
                          ("18ChesapeakeOfftheRails", 0, True), ("1846", 2, True)])
def test_best_only_keeps_the_best_route(title: str, index: int, bonuses: bool) -> None:
    """With `bonuses`, the board keeps its route bonuses (a destination, east-west): routes are
    skipped unpriced only when their stops plus the largest bonuses cannot beat the best so far."""
    board = board_from_snapshot(stress_snapshots(title)[index])
    board = replace(board, trains=board.trains[:1], modifiers=board.modifiers if bonuses else [])
    reps, _ = train_classes(board.trains)
    graph = build_leg_graph(board)
    every, done = candidate_routes(board, graph, reps)
    stats: dict[str, float] = {}
    kept, done_too = candidate_routes(board, graph, reps, best_only=True, stats=stats)
    assert done and done_too
    values = [max(c.totals.values()) for c in every]
    assert len(kept) == 1 and len(every) > 1
    assert kept[0].nodes == every[values.index(max(values))].nodes  # the first of those earning the most
    assert max(kept[0].totals.values()) == max(values)
    assert 0 < stats["routes_walked"] <= len(every)
    result = solve(board, SolveOptions(time_limit_s=30))
    assert result.status == "OPTIMAL" and result.revenue == max(values)
