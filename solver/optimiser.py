"""The optimiser's entry: the company's maximum revenue under the board's ruleset.

The ruleset is found through the registry (`solver.rulesets`); every answer it returns has been
re-checked by its evaluator (`solver.recheck`). Python's cyclic garbage collector is paused
during the solve (`solver.gcpause`).
"""

from __future__ import annotations

from solver import rulesets
from solver.board import Board
from solver.gcpause import gc_paused
from solver.results import SolveOptions, SolveResult


def solve(board: Board, opts: SolveOptions | None = None) -> SolveResult:
    """The best legal run, its status and an upper bound."""
    opts = opts or SolveOptions()
    ruleset = rulesets.get(board.ruleset)
    with gc_paused():
        return ruleset.solve(board, opts)
