"""routemax's solver: the best legal train routes and revenue of a company in an 18xx game.

A pure library (it never imports the server or gRPC). The public face:

- read a board: `board_from_snapshot` (a snapshot dict, strictly: a `BoardError` names the field),
  `read_positions` (the snapshots of a `.json` / `.jsonl.gz` file), `example_path` (a built-in board);
- solve it: `solve(board, SolveOptions(...))` gives a `SolveResult` (revenue, `Status`, bound, routes),
  every answer re-checked by the evaluator;
- judge a claimed run: `evaluate(board, claims)` gives an `Evaluation` (legal, revenue, findings);
  `claims_from_json` / `claims_from_recorded` read `ClaimedRoute`s;
- what-if: `run_whatif(board, scenarios, WhatIfOptions(...))` ranks changed boards.

Example (the 1830 built-in board):

>>> import json
>>> import solver
>>> board = solver.board_from_snapshot(json.loads(solver.example_path("1830").read_text()))
>>> answer = solver.solve(board, solver.SolveOptions(time_limit_s=20))
>>> answer.revenue, answer.status
(440, <Status.OPTIMAL: 'OPTIMAL'>)

The names load on first use, so `import solver` stays cheap (OR-Tools loads with the first solve).
The layers inside, from the top: `audit/`, `whatif/`, `render/`; `optimiser`, `evaluator`; `input/`;
`rulesets/`; `packing/`; `routes/`; `modifiers/`; `rules/`; `model/` and `examples/` (ARCHITECTURE.md).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.evaluator import evaluate, evaluate_with_advice
    from solver.examples import EXAMPLES, example_path
    from solver.input.snapshot import Position, board_from_snapshot, read_positions
    from solver.input.validate import validate_board
    from solver.model.board import Board
    from solver.model.cancel import CancelToken
    from solver.model.errors import BoardError, EvaluatorDisagreement
    from solver.model.results import BonusLine, ClaimedRoute, Evaluation, Finding, Objective, PricedRoute
    # isort: split
    from solver.model.results import RunExtras, SolveOptions, SolveResult, Status
    from solver.optimiser import solve
    from solver.routes.claims import claims_from_json, claims_from_recorded
    from solver.whatif import Scenario, ScenarioResult, WhatIfOptions, WhatIfResult, run_whatif

# public name -> the module that defines it
_HOMES: dict[str, str] = {
    "solve": "solver.optimiser",
    "evaluate": "solver.evaluator",
    "evaluate_with_advice": "solver.evaluator",
    "board_from_snapshot": "solver.input.snapshot",
    "read_positions": "solver.input.snapshot",
    "Position": "solver.input.snapshot",
    "validate_board": "solver.input.validate",
    "Board": "solver.model.board",
    "BoardError": "solver.model.errors",
    "EvaluatorDisagreement": "solver.model.errors",
    "CancelToken": "solver.model.cancel",
    "SolveOptions": "solver.model.results",
    "SolveResult": "solver.model.results",
    "Evaluation": "solver.model.results",
    "Status": "solver.model.results",
    "Objective": "solver.model.results",
    "ClaimedRoute": "solver.model.results",
    "PricedRoute": "solver.model.results",
    "Finding": "solver.model.results",
    "BonusLine": "solver.model.results",
    "RunExtras": "solver.model.results",
    "claims_from_json": "solver.routes.claims",
    "claims_from_recorded": "solver.routes.claims",
    "example_path": "solver.examples",
    "EXAMPLES": "solver.examples",
    "run_whatif": "solver.whatif",
    "WhatIfOptions": "solver.whatif",
    "Scenario": "solver.whatif",
    "ScenarioResult": "solver.whatif",
    "WhatIfResult": "solver.whatif",
}

__all__ = ["Board", "BoardError", "BonusLine", "CancelToken", "ClaimedRoute", "EXAMPLES", "Evaluation",
           "EvaluatorDisagreement", "Finding", "Objective", "Position", "PricedRoute", "RunExtras",
           "Scenario", "ScenarioResult", "SolveOptions", "SolveResult", "Status", "WhatIfOptions",
           "WhatIfResult", "board_from_snapshot", "claims_from_json", "claims_from_recorded", "evaluate",
           "evaluate_with_advice", "example_path", "read_positions", "run_whatif", "solve", "validate_board"]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
