"""Deadlines hold on the biggest boards: the answer comes back in time, legal, with a valid bound,
and non-empty when a legal run exists. (How far past the limit is measured in
`benchmarks/test_deadlines.py`; the slack here is generous on purpose.)"""

from __future__ import annotations

import time

import pytest

from solver.evaluator import evaluate
from solver.model.board import Board
from solver.model.results import ClaimedRoute, SolveOptions
from solver.optimiser import solve
from tests.support.stress_boards import board_1870_8_12_12, board_1873_sixteen, stress_board

SLACK_S = 0.5
BIG = [("1870", 0), ("1870", 2), ("18ChesapeakeOfftheRails", 0), ("1856", 0)]


def _check(board: Board, limit: float) -> None:
    t0 = time.monotonic()
    result = solve(board, SolveOptions(time_limit_s=limit))
    elapsed = time.monotonic() - t0
    assert elapsed <= limit + SLACK_S, f"{board.label()}: {elapsed:.3f}s for a {limit}s limit"
    assert result.status in ("OPTIMAL", "FEASIBLE")
    assert result.routes, "a legal run exists, so the answer must not be empty"
    assert result.bound >= result.revenue > 0
    claims = [ClaimedRoute(train=r.train, nodes=list(r.nodes), legs=[list(leg.paths) for leg in r.legs])
              for r in result.routes]
    ev = evaluate(board, claims)
    assert ev.legal, [f.message for f in ev.findings]
    if board.ruleset != "1873":
        assert ev.revenue == result.revenue
    for key in ("candidates", "enumerate_ms", "solve_ms"):
        assert key in result.stats


@pytest.mark.parametrize("limit", [0.2, 1.0])
@pytest.mark.parametrize(("title", "index"), BIG, ids=lambda v: str(v))
def test_big_stress_boards_keep_the_deadline(title: str, index: int, limit: float) -> None:
    _check(stress_board(title, index), limit)


@pytest.mark.parametrize("limit", [0.2, 1.0])
def test_1870_with_8_12_12_keeps_the_deadline(limit: float) -> None:
    board = board_1870_8_12_12()
    assert sorted(t.name for t in board.trains) == ["12", "12", "8"]
    _check(board, limit)


@pytest.mark.parametrize("limit", [0.2, 1.0])
def test_1873_with_ten_5t_and_six_diesels_keeps_the_deadline(limit: float) -> None:
    board = board_1873_sixteen()
    assert len(board.trains) == 16
    _check(board, limit)
