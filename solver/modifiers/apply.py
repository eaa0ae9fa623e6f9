"""The evaluator's hook: settle a list of priced routes under the board's modifiers.

Any ruleset's evaluator calls `settle_priced` after pricing each route with
`route_value.route_value`; it adds awards to the routes, returns the run total (the dropped route
taken off) and appends the run findings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from solver.model.board import Board
from solver.model.results import Finding
from solver.modifiers.model import BonusLine
from solver.modifiers.settle import RunRoute, run_awards, settle_run


class Priced(Protocol):
    train: str
    nodes: list[str]
    revenue: int
    bonuses: list[BonusLine]


def run_route(board: Board, train_id: str, nodes: Sequence[str], revenue: int) -> RunRoute:
    """What the run rules read of one route."""
    stops = [board.nodes[n] for n in nodes]
    return RunRoute(train_id, tuple(n.hex for n in stops), revenue, board.train(train_id).name,
                    tuple(n.kind for n in stops))


def awarded_amounts(board: Board, routes: Sequence[tuple[str, Sequence[str]]]) -> dict[int, int]:
    """What each route (train id, visited nodes; by index) is awarded by the BestRouteBonus rules, known
    before it is priced: a list train's choice of paying stops counts it (FORMAT.md)."""
    if not board.modifiers:
        return {}
    runs = [run_route(board, train, nodes, 0) for train, nodes in routes]
    return {i: sum(line.amount for line in lines) for i, lines in run_awards(board.modifiers, runs).items()}


def settle_priced(board: Board, priced: Sequence[Priced], findings: list[Finding]) -> tuple[int, list[BonusLine]]:
    """The run's total and its run lines (a dropped route); awards are added to the routes in place."""
    mods = board.modifiers
    if not mods:
        return sum(r.revenue for r in priced), []
    runs = [run_route(board, r.train, r.nodes, r.revenue) for r in priced]
    settled = settle_run(mods, runs)
    for i, lines in settled.awards.items():
        priced[i].bonuses.extend(lines)
        priced[i].revenue += sum(line.amount for line in lines)
    findings.extend(Finding(code, message) for code, message in settled.findings)
    lines: list[BonusLine] = []
    if settled.dropped is not None:
        i, line = settled.dropped
        lines.append(BonusLine(f"{line.label}: route {i + 1} (train {priced[i].train}) earns nothing", line.amount,
                               line.source))
    return settled.total, lines
