"""CP-SAT under a deadline far away (a time limit of 1e10 s is a number above 0, so it is taken): the
watcher that stops the search at the deadline or the cancel waits no longer than threads may, instead of
dying with an OverflowError (after which a cancel could no longer stop the search)."""

from __future__ import annotations

import threading
import time

from ortools.sat.python import cp_model

from solver.model.cancel import CancelToken
from solver.packing.cpsat import run_cpsat


def test_a_far_deadline_keeps_the_watcher_alive() -> None:
    model = cp_model.CpModel()
    x = model.new_int_var(0, 10, "x")
    model.maximize(x)
    died: list[BaseException] = []
    before = threading.excepthook
    threading.excepthook = lambda args: died.append(args.exc_value)  # type: ignore[assignment]
    try:
        for far in (1e10, 1e300):
            solver, code = run_cpsat(model, time.monotonic() + far, 1, CancelToken())
            assert code == cp_model.OPTIMAL and solver.value(x) == 10
    finally:
        threading.excepthook = before
    assert not died
