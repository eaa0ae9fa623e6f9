"""The `1871sc` ruleset (1871 Steel Cities): the generic rules on a classed board view."""

from __future__ import annotations

from collections.abc import Sequence

from solver.model.board import Board, Train
from solver.model.results import ClaimedRoute, Evaluation, SolveOptions, SolveResult
from solver.rulesets.base import Prepared, Ruleset
from solver.rulesets.r_1871sc.view import check_1871sc, prepare_1871sc
from solver.rulesets.r_standard.evaluator import evaluate_run
from solver.rulesets.r_standard.solve import solve_run


class SteelCities1871(Ruleset[None]):
    name = "1871sc"
    description = "1871 Steel Cities: freight and passenger classes of trains, stops and stations."
    train_kinds = ("H (hex freight)", "F (fast freight: best n hexes, double dahs and station hexes)",
                   "P (passenger)", "E (express passenger: best n hexes, double station hexes)")
    applies_modifiers = True
    request_options = ("classes_share_track",)

    def validate(self, board: Board) -> None:
        check_1871sc(board)

    def prepare(self, board: Board) -> Prepared[None]:
        return Prepared(prepare_1871sc(board), None)

    def evaluate(self, prepared: Prepared[None], claims: Sequence[ClaimedRoute]) -> Evaluation:
        return evaluate_run(prepared.board, claims, self.track_group)

    def solve(self, prepared: Prepared[None], opts: SolveOptions) -> SolveResult:
        return solve_run(prepared.board, opts, self.track_group)

    def track_group(self, board: Board, train: Train) -> str:
        """Freight and passenger routes may reuse each other's track when the request lets them."""
        return train.klass if board.options.get("classes_share_track") else ""
