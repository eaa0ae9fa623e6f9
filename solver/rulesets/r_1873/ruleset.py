"""The `1873` ruleset (Harzbahn 1873) as the registry sees it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solver.model.board import Board
from solver.model.cancel import CancelToken
from solver.model.results import ClaimedRoute, Evaluation, Finding, Objective, SolveOptions, SolveResult
from solver.rulesets.base import MineProducer, Prepared, Ruleset
from solver.rulesets.r_1873.evaluator import evaluate_run
from solver.rulesets.r_1873.production import Production, mines_from_rows, production
from solver.rulesets.r_1873.service_rule import service_finding
from solver.rulesets.r_1873.solve import solve_run
from solver.rulesets.r_1873.view import Harzbahn, harzbahn


class Harzbahn1873(Ruleset[Harzbahn], MineProducer):
    name = "1873"
    description = ("1873 Harzbahn: an nT runs n routes forming one network; stops counted once per company; "
                   "mines pay multiplier x the largest train; concession routes; diesels; QLB.")
    train_kinds = ("nT (n routes, no length limit)", "D (diesel: any number of station-to-station routes)")
    default_objective = Objective.RULEBOOK
    titles = ("Harzbahn 1873",)
    board_data = ("h1873", "super_trains")
    train_data = ("super", "diesel", "type")

    def validate(self, board: Board) -> None:
        harzbahn(board)

    def prepare(self, board: Board) -> Prepared[Harzbahn]:
        """The board and its 1873 facts, gathered once per request."""
        return Prepared(board, harzbahn(board))

    def evaluate(self, prepared: Prepared[Harzbahn], claims: Sequence[ClaimedRoute]) -> Evaluation:
        return evaluate_run(prepared.board, prepared.context, claims)

    def solve(self, prepared: Prepared[Harzbahn], opts: SolveOptions) -> SolveResult:
        return solve_run(prepared.board, prepared.context, opts)

    def advisory_findings(self, prepared: Prepared[Harzbahn], evaluation: Evaluation, time_limit_s: float,
                          cancel: CancelToken | None = None) -> list[Finding]:
        """UNDERSERVICED: a legal run that services fewer routes than the trains could."""
        if not evaluation.legal:
            return []
        finding = service_finding(prepared.board, prepared.context, evaluation, time_limit_s, cancel)
        return [] if finding is None else [finding]

    @staticmethod
    def mine_production(mines: Sequence[Mapping[str, Any]], public: bool, harzer_werke: bool = False,
                        hw_bonus: int = 50) -> Production:
        """A mining company's production revenue (the MineProduction entry of this ruleset), from
        plain mine rows (see `production.mines_from_rows`); BoardError names a bad field."""
        return production(mines_from_rows(mines), public=public, harzer_werke=harzer_werke, hw_bonus=hw_bonus)
