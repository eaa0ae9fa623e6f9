"""1873 with ten 5T subtrains and six diesels on the real late positions where the cut rounds take
longest: a short deadline still gives a legal, non-empty run (a selection whose train networks
fall apart is repaired to each train's best network and kept as the answer so far)."""

from __future__ import annotations

import pytest

from solver.model.results import Objective, SolveOptions, Status
from solver.optimiser import solve
from tests.support.stress_1873 import board_1873_sixteen_of, railway_snapshots_1873

HARD = ("hs_gwlftpex_33770.jsonl.gz:40", "stress:3")  # 64 and 24 cut rounds to the optimum


@pytest.mark.parametrize("source", HARD)
def test_short_deadline_gives_a_legal_run(source: str) -> None:
    board = board_1873_sixteen_of(dict(railway_snapshots_1873())[source])
    result = solve(board, SolveOptions(time_limit_s=0.5))
    assert result.status in (Status.FEASIBLE, Status.OPTIMAL)
    assert result.routes
    assert result.evaluation is not None and result.evaluation.legal
    assert result.bound >= result.revenue > 0


def test_long_deadline_proves_the_optimum() -> None:
    board = board_1873_sixteen_of(dict(railway_snapshots_1873())[HARD[1]])
    result = solve(board, SolveOptions(time_limit_s=20.0))
    assert result.status == Status.OPTIMAL
    assert result.revenue == result.bound == 1240


def test_diesel_routes_never_outnumber_the_diesel_ids() -> None:
    """With no pool ids beyond the six allocated diesels, the optimiser runs at most six diesel routes
    (a seventh would need a train id the company does not have, which the evaluator rejects)."""
    from solver.input.snapshot import board_from_snapshot
    from tests.support.stress_boards import sixteen_trains

    checked = 0
    for _name, raw in railway_snapshots_1873()[:30]:
        board = board_from_snapshot(sixteen_trains(raw, pool_ids=0))
        result = solve(board, SolveOptions(time_limit_s=5.0))  # raises EvaluatorDisagreement on an unknown id
        diesel_ids = {t.id for t in board.trains if t.name == "D"} | set(board.extra["h1873"]["diesel"].get(
            "allocated_subtrains", []))
        assert all(r.train in diesel_ids or not r.train.startswith("D") for r in result.routes)
        checked += 1
    assert checked == 30


BOUNDED = ("hs_gwlftpex_33770.jsonl.gz:40", "hs_gwlftpex_33770.jsonl.gz:44", "hs_gwlftpex_33770.jsonl.gz:46",
           "stress:3")


@pytest.mark.parametrize("objective", [Objective.RULEBOOK, Objective.REVENUE_ONLY])
@pytest.mark.parametrize("source", BOUNDED)
def test_a_cut_short_answer_is_bounded_by_the_proven_optimum(source: str, objective: Objective) -> None:
    """The bound of a run cut short (the lowest bound CP-SAT proved over the cut rounds) is never
    below the optimum a long deadline proves, and the run is never above it."""
    board = board_1873_sixteen_of(dict(railway_snapshots_1873())[source])
    best = solve(board, SolveOptions(time_limit_s=20.0, objective=objective))
    assert best.status == Status.OPTIMAL
    for limit in (0.02, 0.04, 0.08):
        short = solve(board, SolveOptions(time_limit_s=limit, objective=objective))
        assert short.revenue <= best.revenue <= short.bound
