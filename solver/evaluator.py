"""The evaluator's entry: judges and prices a claimed route set under the board's ruleset.

It never calls CP-SAT and shares no code with the optimisers beyond the rule functions themselves,
so it can judge their answers. The ruleset is found through the registry (`solver.rulesets`).
"""

from __future__ import annotations

from collections.abc import Sequence

from solver import rulesets
from solver.model.board import Board
from solver.model.cancel import CancelToken
from solver.model.results import ClaimedRoute, Evaluation


def evaluate(board: Board, claims: Sequence[ClaimedRoute]) -> Evaluation:
    """Every rule the claimed run breaks, and the revenue the rules give it.

    The board's ruleset judges the claims without CP-SAT: each route's legs are resolved on the
    track, every route rule and run rule is checked, and the legal stops are priced.

    Parameters:
        board: the position (as `solver.board_from_snapshot` reads it).
        claims: the claimed routes, one `ClaimedRoute` per train (train id, stops, and optionally the
            legs as path ids or the hexes between stops); `solver.claims_from_json` and
            `solver.claims_from_recorded` read them.

    Returns:
        An `Evaluation`: `legal` (no hard finding), `revenue` (what the rules pay the run, with
        `subsidy` apart), the priced `routes`, the `findings` (each a rule code, a message and the
        route it concerns), `run_lines` and the ruleset's typed `extras`.

    Raises:
        solver.BoardError: the board names a ruleset the registry does not know (field `ruleset`).
        A claim the rules reject is not an error: it is a finding (`legal` False).

    Example (the run recorded with the built-in 1830 board):

    >>> import json
    >>> from solver import board_from_snapshot, claims_from_recorded, evaluate, example_path
    >>> raw = json.loads(example_path("1830").read_text())
    >>> verdict = evaluate(board_from_snapshot(raw), claims_from_recorded(raw["recorded"]))
    >>> verdict.legal, verdict.revenue, verdict.findings
    (True, 440, [])
    >>> [(route.train, route.revenue) for route in verdict.routes]
    [('4-2', 160), ('6-0', 280)]
    """
    ruleset = rulesets.get(board.ruleset)
    return ruleset.evaluate(ruleset.prepare(board), claims)


def evaluate_with_advice(board: Board, claims: Sequence[ClaimedRoute], time_limit_s: float = 10.0,
                         cancel: CancelToken | None = None) -> Evaluation:
    """`evaluate`, plus the ruleset's advisory findings (rules a legal run may still fall short of;
    they may search, within `time_limit_s` and until `cancel`)."""
    ruleset = rulesets.get(board.ruleset)
    prepared = ruleset.prepare(board)  # once: the evaluation and the advice read the same view
    evaluation = ruleset.evaluate(prepared, claims)
    evaluation.findings.extend(ruleset.advisory_findings(prepared, evaluation, time_limit_s, cancel))
    return evaluation
