"""The advisors: scenarios a front end would otherwise list itself.

- `tokens`: one scenario per legal token placement (every free slot the company reaches);
- `trains`: per offered train, one scenario that adds it and one that replaces the weakest train
  with it. The weakest train is the one whose route earns least in the unchanged board's optimum
  (a train that runs no route earns 0); ties go to the first in the board's order.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.model.board import Board
from solver.model.results import SolveResult
from solver.routes.leg_graph import LegGraph
from solver.whatif.model import Scenario
from solver.whatif.tokens import placements


def token_scenarios(board: Board, graph: LegGraph) -> list[Scenario]:
    """One scenario per node where the company may place a token now."""
    return [Scenario(tokens=(nid,)) for nid in placements(board, graph)]


def weakest_train(board: Board, base: SolveResult) -> str | None:
    """The id of the train that earns least in the base optimum, or None without trains."""
    earned = {t.id: 0 for t in board.trains}
    for route in base.routes:
        if route.train in earned:
            earned[route.train] += route.revenue + route.subsidy
    if not earned:
        return None
    return min(earned, key=lambda tid: (earned[tid], list(earned).index(tid)))


def train_scenarios(board: Board, offers: Sequence[str], base: SolveResult) -> list[tuple[Scenario, str]]:
    """Per offered train spec: add it, and replace the weakest train with it (with the field each
    scenario's errors name)."""
    weakest = weakest_train(board, base)
    out: list[tuple[Scenario, str]] = []
    for j, spec in enumerate(offers):
        out.append((Scenario(add_trains=(spec,)), f"trains[{j}]"))
        if weakest is not None:
            out.append((Scenario(add_trains=(spec,), remove_trains=(weakest,)), f"trains[{j}]"))
    return out
