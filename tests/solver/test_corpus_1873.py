"""The 64 real 1873 Harzbahn positions of the shared corpus.

Evaluator: the recorded run is legal and priced exactly as the engine did (per route, total, and
net of maintenance and the QLB bonus). Optimiser, REVENUE_ONLY: proven optimum >= recorded, and
never below a legal AutoRouter result. RULEBOOK: never fewer routes than the recorded run; where
its revenue is lower, the recorded run serviced fewer routes than possible (UNDERSERVICED).
"""

from __future__ import annotations

import json

import pytest

from solver.evaluator import evaluate, evaluate_with_advice
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.results import ClaimedRoute, SolveOptions
from solver.optimiser import solve
from solver.routes.claims import claims_from_recorded
from solver.rulesets.r_1873.service_rule import route_limit
from solver.rulesets.r_1873.view import harzbahn
from tests.conftest import CORPUS

POSITIONS = [p for f in sorted((CORPUS / "1873").glob("*.jsonl.gz")) for p in read_positions(f)]
ANCHORS = {}
with (CORPUS.parent / "anchors" / "autorouter.jsonl").open() as _fh:
    for _line in _fh:
        _a = json.loads(_line)
        ANCHORS[(_a["fixture_path"], _a["action_id"])] = _a


def test_all_64_positions_are_here() -> None:
    assert len(POSITIONS) == 64
    assert all(p.raw is not None and p.raw["plain_revenue"] is False for p in POSITIONS)


def _claims(result) -> list[ClaimedRoute]:
    return [ClaimedRoute(train=r.train, nodes=r.nodes, legs=[list(leg.paths) for leg in r.legs]) for r in result.routes]


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: p.source.rsplit("/", 1)[-1])
def test_1873_position(pos) -> None:
    snap = pos.raw
    board = board_from_snapshot(snap)
    recorded = evaluate(board, claims_from_recorded(snap["recorded"]))
    engine = snap["engine"]
    assert recorded.legal, [f.message for f in recorded.findings]
    assert recorded.revenue == engine["routes_revenue"]
    assert [r.revenue for r in recorded.routes] == [r["revenue"] for r in engine["routes"]]
    assert recorded.extras.net_revenue == engine["h1873"]["net_revenue"]

    money = solve(board, SolveOptions(time_limit_s=60, objective="REVENUE_ONLY"))
    assert money.status == "OPTIMAL"
    assert money.revenue >= engine["routes_revenue"]
    again = evaluate(board, _claims(money))
    assert again.legal and again.revenue == money.revenue
    anchor = ANCHORS.get((snap["source"]["fixture_path"], snap["source"]["action_id"]))
    if anchor and anchor["judged_legal"]:
        assert money.revenue >= anchor["judged_revenue"]

    rules = solve(board, SolveOptions(time_limit_s=60, objective="RULEBOOK"))
    assert rules.status == "OPTIMAL"
    assert len(rules.routes) >= len(snap["recorded"]["routes"])
    assert evaluate(board, _claims(rules)).legal
    assert len(rules.routes) <= route_limit(harzbahn(board))  # the limit the service rule trusts without a search
    advised = evaluate_with_advice(board, claims_from_recorded(snap["recorded"]))
    assert advised.extras.routes_possible == len(rules.routes)  # searched or read off a run at the limit
    if rules.revenue < engine["routes_revenue"]:
        finding = next((f for f in advised.findings if f.code == "UNDERSERVICED"), None)
        assert finding is not None and not finding.hard
