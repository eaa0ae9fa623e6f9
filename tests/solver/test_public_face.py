"""The public face of `solver/__init__.py`: every exported name resolves to its home module, importing
the package loads no OR-Tools, `help(solver)` shows the entries, and the doctested examples of the
entries (`solve`, `evaluate`) pass."""

from __future__ import annotations

import doctest
import importlib
import pydoc
import subprocess
import sys
from pathlib import Path

import pytest

import solver

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", ["solver", "solver.optimiser", "solver.evaluator"])
def test_the_doctested_examples_pass(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_every_public_name_is_its_home_modules_object() -> None:
    assert solver.__all__ == sorted(solver._HOMES)
    for name in solver.__all__:
        obj = getattr(solver, name)
        home = importlib.import_module(solver._HOMES[name])
        assert getattr(home, name) is obj, name
    with pytest.raises(AttributeError):
        _ = solver.no_such_name  # type: ignore[attr-defined]


def test_the_entries_have_full_docstrings() -> None:
    for entry in (solver.solve, solver.evaluate):
        doc = entry.__doc__ or ""
        for part in ("Parameters:", "Returns:", "Raises:", ">>> "):
            assert part in doc, (entry.__name__, part)


def test_help_shows_the_public_face() -> None:
    text = pydoc.render_doc(solver, renderer=pydoc.plaintext)
    for name in ("solve(board", "evaluate(board", "board_from_snapshot", "class SolveOptions", "class Status"):
        assert name in text, name


def test_importing_solver_loads_no_solver_engine() -> None:
    code = "import sys, solver; print(sorted(m for m in ('ortools', 'networkx', 'drawsvg') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
