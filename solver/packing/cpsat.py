"""Running CP-SAT: one place that sets up the solver and stops it at the deadline or on cancel.

CP-SAT's own time limit is not trusted on big models, so a watcher thread calls `stop_search`
when the deadline passes or the cancel token is set; CP-SAT never takes over SIGINT.
"""

from __future__ import annotations

import threading
import time

from ortools.sat.python import cp_model

from solver.model.cancel import CancelToken

STOP_REPEAT_S = 0.005  # how often the stop request is repeated once the deadline has passed


def run_cpsat(model: cp_model.CpModel, deadline: float, workers: int,
              cancel: CancelToken | None = None, presolve: bool = True) -> tuple[cp_model.CpSolver, int]:
    """Solve `model` until `deadline` (time.monotonic) with `workers` search workers, or until
    `cancel` is set; the solver (for values and bounds) and its status code. `presolve=False` for
    small models solved many times over, where presolving costs more than it saves."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.001, deadline - time.monotonic())
    solver.parameters.num_workers = max(1, workers)
    solver.parameters.cp_model_presolve = presolve
    solver.parameters.catch_sigint_signal = False
    wake = threading.Event()
    finished = threading.Event()
    unregister = cancel.on_cancel(wake.set) if cancel is not None else (lambda: None)

    def watch() -> None:
        wake.wait(min(threading.TIMEOUT_MAX, max(0.0, deadline - time.monotonic())))  # a far deadline waits the most
        while not finished.is_set():  # presolve and model loading may miss one request: repeat it
            solver.stop_search()
            finished.wait(STOP_REPEAT_S)

    watcher = threading.Thread(target=watch, name="cpsat-deadline", daemon=True)
    watcher.start()
    try:
        code = solver.solve(model)
    finally:
        finished.set()
        wake.set()
        unregister()
        watcher.join()
    return solver, code


def is_solution(code: int) -> bool:
    """Whether a CP-SAT status code carries a solution."""
    return code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
