"""The optimiser's entry: the company's maximum revenue under the board's ruleset.

The ruleset is found through the registry (`solver.rulesets`); every answer it returns has been
re-checked by its evaluator (`solver.packing.recheck`). Python's cyclic garbage collector is paused
during the solve (`solver.model.gcpause`).
"""

from __future__ import annotations

from solver import rulesets
from solver.model.board import Board
from solver.model.gcpause import gc_paused
from solver.model.results import SolveOptions, SolveResult


def solve(board: Board, opts: SolveOptions | None = None) -> SolveResult:
    """The best legal run of the board's company, its status and an upper bound.

    The board's ruleset (`board.ruleset`, looked up in `solver.rulesets`) enumerates the candidate
    routes, searches the best packing within the time limit, and re-checks the answer with its
    independent evaluator before it is returned.

    Parameters:
        board: the position, as `solver.board_from_snapshot` (or the service's converter) reads it;
            it is expected to be valid (`board_from_snapshot` validates it).
        opts: the time limit (`time_limit_s`, default 10 s), CP-SAT `workers`, `candidate_cap`,
            the `objective` (None: the ruleset's default; `Objective.REVENUE_ONLY` ignores subsidies)
            and a `cancel` token that stops the search early. None: `SolveOptions()`.

    Returns:
        A `SolveResult`: `revenue` (and `subsidy`) of the best run found, `status` (`OPTIMAL` when
        proven, `FEASIBLE` when the time ran out or the search was cancelled with an answer,
        `INFEASIBLE` with a `reason` when no legal run exists), `bound` (an upper bound on the
        objective), the priced `routes` with their train ids, `stats`, the evaluator's `evaluation`
        and the ruleset's typed `extras`.

    Raises:
        solver.BoardError: the board names a ruleset the registry does not know (field `ruleset`),
            or the ruleset finds the board unusable (naming the field).
        solver.EvaluatorDisagreement: the evaluator does not confirm the answer at its revenue
            (a bug; the answer must not be used).

    Example (the built-in 1830 board):

    >>> import json
    >>> from solver import SolveOptions, board_from_snapshot, example_path, solve
    >>> board = board_from_snapshot(json.loads(example_path("1830").read_text()))
    >>> answer = solve(board, SolveOptions(time_limit_s=20))
    >>> answer.revenue, answer.status.value, answer.bound
    (440, 'OPTIMAL', 440)
    >>> [(route.train, route.revenue) for route in answer.routes]
    [('4-2', 160), ('6-0', 280)]
    """
    opts = opts or SolveOptions()
    ruleset = rulesets.get(board.ruleset)
    with gc_paused():
        return ruleset.solve(ruleset.prepare(board), opts)
