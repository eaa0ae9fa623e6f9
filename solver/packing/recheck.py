"""The evaluator's re-check of every optimiser answer: a disagreement is a bug, never rounded away."""

from __future__ import annotations

from solver.model.board import Board
from solver.model.errors import EvaluatorDisagreement
from solver.model.results import Evaluation


def recheck(board: Board, evaluation: Evaluation, claimed: int, who: str = "optimiser",
            counts_subsidy: bool = False) -> None:
    """Raise EvaluatorDisagreement unless the evaluator found the answer legal at the claimed value: its
    revenue, plus its subsidy when the objective counts it (`counts_subsidy`)."""
    value = evaluation.revenue + (evaluation.subsidy if counts_subsidy else 0)
    if evaluation.legal and value == claimed:
        return
    extra = f" + subsidy {evaluation.subsidy}" if counts_subsidy and evaluation.subsidy else ""
    raise EvaluatorDisagreement(
        f"{board.label()}: {who} claims {claimed} but the evaluator says {evaluation.revenue}{extra} "
        f"(legal={evaluation.legal}; {[f.message for f in evaluation.findings]})")
