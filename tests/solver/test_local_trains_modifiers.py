"""A local train's one-stop run is priced as any route: the modifiers' bonuses, subsidy and route rules
apply to it (FORMAT.md: a modifier reads the route's stops whatever the train), and the optimiser's
answer is the evaluator's price of its run.

Checked on the shipped 1830 position, its company running one local train, under each modifier kind."""

from __future__ import annotations

import json
from typing import Any

import pytest

from solver.evaluator import evaluate
from solver.examples import example_path
from solver.input.snapshot import board_from_snapshot
from solver.model.results import ClaimedRoute, Objective, SolveOptions
from solver.optimiser import solve

LOCAL = {"id": "L-1", "name": "L", "distance": 1, "distance_unit": "stops", "requires_token": True, "local": True}


def _local_board(modifiers: list[dict[str, Any]]) -> dict[str, Any]:
    raw = json.loads(example_path("1830").read_text())
    return {**raw, "trains": [LOCAL], "modifiers": modifiers}


def _tokened_cities(raw: dict[str, Any]) -> list[str]:
    board = board_from_snapshot(raw)
    return [nid for nid, n in board.nodes.items() if n.kind == "city" and n.tokened_by_company]


def _best_alone(raw: dict[str, Any]) -> tuple[int, int]:
    """The best run of the local train judged by the evaluator: each tokened city alone, or no run (0, 0)."""
    board = board_from_snapshot(raw)
    best = (0, 0)
    for nid in _tokened_cities(raw):
        verdict = evaluate(board, [ClaimedRoute(train="L-1", nodes=[nid], legs=[])])
        if verdict.legal:
            best = max(best, (verdict.revenue + verdict.subsidy, verdict.revenue))
    return best


RULE = {"type": "RouteRule", "source": "s", "label": "Two stops", "rule": "min_stops", "count": 2,
        "scope": "visited", "error": "two stops"}


@pytest.mark.parametrize("name", ["rule", "bonus", "negative bonus", "subsidy", "combination", "none"])
def test_the_local_run_is_priced_as_the_evaluator_prices_it(name: str) -> None:
    home = board_from_snapshot(_local_board([])).nodes[_tokened_cities(_local_board([]))[0]].hex
    modifiers = {
        "rule": [RULE],
        "bonus": [{"type": "StopBonus", "source": "s", "label": "B", "hexes": {home: 100}, "count": "once"}],
        "negative bonus": [{"type": "StopBonus", "source": "s", "label": "B", "hexes": {home: -100},
                            "count": "once"}],
        "subsidy": [{"type": "StopBonus", "source": "s", "label": "S", "hexes": {home: 40}, "count": "once",
                     "target": "subsidy"}],
        "combination": [{"type": "ComboBonus", "source": "s", "label": "C", "sets": [{home: 0}], "amount": 90}],
        "none": [],
    }[name]
    raw = _local_board(modifiers)
    result = solve(board_from_snapshot(raw), SolveOptions(time_limit_s=10, objective=Objective.RULEBOOK))
    assert result.status.name == "OPTIMAL"
    assert (result.revenue + result.subsidy, result.revenue) == _best_alone(raw)
    if name == "rule":
        assert result.revenue == 0 and not result.routes
    if name in ("bonus", "combination"):
        assert result.revenue > _best_alone(_local_board([]))[1]
