"""The evaluator's re-check of every optimiser answer: a disagreement is a bug, never rounded away."""

from __future__ import annotations

from solver.board import Board
from solver.errors import EvaluatorDisagreement
from solver.results import Evaluation


def recheck(board: Board, evaluation: Evaluation, claimed: int, who: str = "optimiser") -> None:
    """Raise EvaluatorDisagreement unless the evaluator found the answer legal at the claimed revenue."""
    if evaluation.legal and evaluation.revenue == claimed:
        return
    raise EvaluatorDisagreement(
        f"{board.label()}: {who} claims {claimed} but the evaluator says {evaluation.revenue} "
        f"(legal={evaluation.legal}; {[f.message for f in evaluation.findings]})")
