"""Candidate values with the route bonuses, for the optimiser's candidate generator.

A bonus can depend on the route's direction (the first hit of a `once` bonus, a combo's first
match), and the candidate walk keeps one direction per route: `price` prices both and says
which direction pays more. A candidate's revenue list is its stop revenues (route order)
followed by one entry per bonus line, so its sum stays the route's value.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.board import Board, Train
from solver.modifiers.model import BestRouteBonus, RequiredRoute
from solver.modifiers.route_value import RouteBonuses, route_bonuses, route_value


class CandidatePricer:
    """Prices candidate routes of one board with its route bonuses."""

    def __init__(self, board: Board, bonuses: RouteBonuses | None) -> None:
        self.board = board
        self.bonuses = bonuses
        # a route that pays nothing may still take a best-route bonus or be the required run
        self.keep_zero = any(isinstance(m, (BestRouteBonus, RequiredRoute)) for m in board.modifiers)

    def price(self, train: Train, nodes: Sequence[str]) -> tuple[list[int], bool] | None:
        """The route's values (stops, then bonuses) in its better direction and whether that is
        the reverse; None when no bonus can apply (price it as usual)."""
        if self.bonuses is None or not self.bonuses.touches([self.board.nodes[n] for n in nodes]):
            return None
        ahead = route_value(self.board, train, nodes, self.bonuses)
        back = route_value(self.board, train, nodes[::-1], self.bonuses)
        best, reverse = (back, True) if back.total > ahead.total else (ahead, False)
        return best.stop_revenues + [b.amount for b in best.bonuses], reverse


def candidate_pricer(board: Board) -> CandidatePricer | None:
    """The pricer of a board with modifiers, None without any."""
    if not board.modifiers:
        return None
    return CandidatePricer(board, route_bonuses(board.modifiers))
