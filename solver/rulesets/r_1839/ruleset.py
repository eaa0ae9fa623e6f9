"""The `1839` ruleset as the registry sees it."""

from __future__ import annotations

from collections.abc import Sequence

from solver.model.board import Board
from solver.model.results import ClaimedRoute, Evaluation, SolveOptions, SolveResult
from solver.rulesets.base import Prepared, Ruleset
from solver.rulesets.r_1839.evaluator import evaluate_run
from solver.rulesets.r_1839.solve import solve_run
from solver.rulesets.r_1839.view import prepare_1839


class Rules1839(Ruleset[None]):
    name = "1839"
    description = ("1839: locations count once per company (exchange markers once per train), + and D "
                   "trains, FLOOD trains, foreign off-boards, private powers as options.")
    train_kinds = ("n+ (counts cities, pays all)", "nD (counts and pays cities, off-boards pay, x2)",
                   "FLOOD (every location reached)")
    flood_trains = True
    request_options = ("location_bonus", "towns_plus_10", "port_token", "port_token_own")  # private powers

    def prepare(self, board: Board) -> Prepared[None]:
        return Prepared(prepare_1839(board), None)

    def evaluate(self, prepared: Prepared[None], claims: Sequence[ClaimedRoute]) -> Evaluation:
        return evaluate_run(prepared.board, claims)

    def solve(self, prepared: Prepared[None], opts: SolveOptions) -> SolveResult:
        return solve_run(prepared.board, opts)
