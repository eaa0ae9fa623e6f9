"""The evaluator's entry: judges and prices a claimed route set under the board's ruleset.

It never calls CP-SAT and shares no code with the optimisers beyond the rule functions themselves,
so it can judge their answers. The ruleset is found through the registry (`solver.rulesets`).
"""

from __future__ import annotations

from collections.abc import Sequence

from solver import rulesets
from solver.board import Board
from solver.cancel import CancelToken
from solver.results import ClaimedRoute, Evaluation


def evaluate(board: Board, claims: Sequence[ClaimedRoute]) -> Evaluation:
    """Every rule the claimed run breaks, and the revenue the rules give it."""
    return rulesets.get(board.ruleset).evaluate(board, claims)


def evaluate_with_advice(board: Board, claims: Sequence[ClaimedRoute], time_limit_s: float = 10.0,
                         cancel: CancelToken | None = None) -> Evaluation:
    """`evaluate`, plus the ruleset's advisory findings (rules a legal run may still fall short of;
    they may search, within `time_limit_s` and until `cancel`)."""
    ruleset = rulesets.get(board.ruleset)
    evaluation = ruleset.evaluate(board, claims)
    evaluation.findings.extend(ruleset.advisory_findings(board, evaluation, time_limit_s, cancel))
    return evaluation
