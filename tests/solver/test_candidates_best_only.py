"""A company with one train keeps only the routes that beat all routes walked before them: the
last kept route is worth the most of all, and the optimiser's answer is that value."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.packing.pack import train_classes
from solver.routes.candidates import build_leg_graph, candidate_routes
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
    values = [max(c.totals.values()) for c in kept]
    assert values == sorted(set(values))  # each kept route beats the ones before it
    assert values[-1] == max(max(c.totals.values()) for c in every)
    assert stats["routes_walked"] >= len(every) > len(kept)
    result = solve(board, SolveOptions(time_limit_s=30))
    assert result.status == "OPTIMAL" and result.revenue == values[-1]
