"""Running CP-SAT: one place that sets up the solver for a deadline and a worker count."""

from __future__ import annotations

import time

from ortools.sat.python import cp_model


def run_cpsat(model: cp_model.CpModel, deadline: float, workers: int) -> tuple[cp_model.CpSolver, int]:
    """Solve `model` until `deadline` (time.monotonic) with `workers` search workers; the solver
    (for values and bounds) and its status code."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.001, deadline - time.monotonic())
    solver.parameters.num_workers = max(1, workers)
    code = solver.solve(model)
    return solver, code


def is_solution(code: int) -> bool:
    """Whether a CP-SAT status code carries a solution."""
    return code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
