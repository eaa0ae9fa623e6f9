"""A solve with one step of the candidate build replaced by a test's spy (which calls the step itself)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.routes import candidates


def solve_spied(monkeypatch: pytest.MonkeyPatch, raw: dict, step: str, spy: Callable) -> None:
    """Solve the snapshot with `solver.routes.candidates.<step>` replaced by `spy` for the solve."""
    with monkeypatch.context() as mp:
        mp.setattr(candidates, step, spy)
        solve(board_from_snapshot(raw), SolveOptions(time_limit_s=60))
