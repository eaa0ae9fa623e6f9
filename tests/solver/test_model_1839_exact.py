"""The 1839 CP-SAT model's objective is what the chosen routes earn in every solution, not only the optimal
one: a solution the deadline stops is checked against it by the evaluator (`recheck`), which must agree.

Each run of one or two candidate routes is fixed in the model; the objective, minimised and maximised over
everything else, must be the evaluator's revenue of that run (an indicator left free would let a stopped
search report less)."""

from __future__ import annotations

import itertools
import json
import time

import pytest
from ortools.sat.python import cp_model

from solver.examples import example_path
from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.jsonread import loads
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.packing.pack import train_classes
from solver.routes.claims import TrainIds, claim_of
from solver.rulesets.r_1839 import solve as solve_1839
from solver.rulesets.r_1839.evaluator import evaluate_run
from solver.rulesets.r_1839.model import Model1839
from solver.rulesets.r_1839.rules import flood_reach, flood_trains
from solver.rulesets.r_1839.solve import _candidates
from solver.rulesets.r_1839.view import prepare_1839
from tests.solver.test_rules_1839 import star


def _boards() -> list[Board]:
    example = board_from_snapshot(loads(example_path("1839").read_text(), "example"))
    return [example, star()[1], star(exchange=True)[1], star(options={"location_bonus": True})[1]]


def _objective_range(model: Model1839, fixed: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The least and the most the objective takes with exactly these (route, class) pairs chosen; None when
    they are no legal packing."""
    values = []
    for sense in ("min", "max"):
        m = model.model.clone()
        for pair, var in model.x.items():
            m.add(m.get_bool_var_from_proto_index(var.index) == int(pair in fixed))
        expr = sum(c * m.get_bool_var_from_proto_index(v.index) for c, v in model.terms) + model.constant
        m.minimize(expr) if sense == "min" else m.maximize(expr)
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = 10
        code = solver.solve(m)
        if code == cp_model.INFEASIBLE:
            return None
        assert code == cp_model.OPTIMAL
        values.append(int(round(solver.objective_value)))
    return values[0], values[1]


@pytest.mark.parametrize("index", range(4))
def test_the_objective_is_what_the_chosen_routes_earn(index: int) -> None:
    board = prepare_1839(_boards()[index])
    runners = [t for t in board.trains if t.unit != "flood"]
    reps, members = train_classes(runners)
    cands, complete = _candidates(board, reps, 10_000, time.monotonic() + 30)
    assert complete and cands
    reach = flood_reach(board) if flood_trains(board) else set()
    model = Model1839(board, cands, [len(m) for m in members], reach)
    pairs = sorted(model.x)
    runs = [[p] for p in pairs] + [list(p) for p in itertools.combinations(pairs[:40], 2)]
    checked = 0
    for run in runs:
        found = _objective_range(model, run)
        if found is None:
            continue
        ids = TrainIds([[t.id for t in m] for m in members])
        claims = [claim_of(ids.next(ci), cands[r].nodes, cands[r].legs) for r, ci in sorted(run)]
        verdict = evaluate_run(board, claims)  # as the optimiser's `recheck` does, on the 1839 view
        assert verdict.legal
        assert found == (verdict.revenue, verdict.revenue), [c.nodes for c in claims]
        checked += 1
    assert checked >= 5


def test_a_search_that_finds_no_run_bounds_every_location(monkeypatch: pytest.MonkeyPatch) -> None:
    """CP-SAT stopped before any run, on a list of routes cut short: the bound must still hold over the routes
    never listed (every location at its best value), not only over the model's."""
    raw = json.loads(example_path("1839").read_text())
    optimum = solve(board_from_snapshot(raw), SolveOptions(time_limit_s=30))
    assert optimum.status.name == "OPTIMAL"
    found = solve(board_from_snapshot(raw), SolveOptions(time_limit_s=30, candidate_cap=2))  # a run, routes missing
    assert found.status.name == "FEASIBLE" and found.revenue < optimum.revenue <= found.bound
    monkeypatch.setattr(solve_1839, "run_cpsat", lambda model, *args, **kwargs: (cp_model.CpSolver(), cp_model.UNKNOWN))
    stopped = solve(board_from_snapshot(raw), SolveOptions(time_limit_s=30, candidate_cap=2))
    assert stopped.status.name == "UNKNOWN" and stopped.stats["candidates"] <= 2
    assert stopped.bound >= optimum.revenue
