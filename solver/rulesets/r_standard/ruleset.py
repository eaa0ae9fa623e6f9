"""The `standard` ruleset: the generic 18xx rules as the registry sees them."""

from __future__ import annotations

from collections.abc import Sequence

from solver.model.results import ClaimedRoute, Evaluation, SolveOptions, SolveResult
from solver.rulesets.base import Prepared, Ruleset
from solver.rulesets.r_standard.evaluator import evaluate_run
from solver.rulesets.r_standard.solve import solve_run


class Standard(Ruleset[None]):
    name = "standard"
    description = "Generic 18xx: one route per train, no shared track, each route earns its own stops."
    train_kinds = ("n (stops)", "n+m / + (stops by type)", "H (hexes)", "D (unlimited)", "express (multiplier)",
                   "double revenue (multiplier)", "local (one tokened city)")
    applies_modifiers = True

    def evaluate(self, prepared: Prepared[None], claims: Sequence[ClaimedRoute]) -> Evaluation:
        return evaluate_run(prepared.board, claims)

    def solve(self, prepared: Prepared[None], opts: SolveOptions) -> SolveResult:
        return solve_run(prepared.board, opts)
