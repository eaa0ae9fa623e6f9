"""The generic evaluator: judges a claimed route set route by route and as a whole, and prices it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solver.board import Board, Train
from solver.claims import read_claim
from solver.legs import Leg
from solver.modifiers.apply import settle_priced
from solver.modifiers.route_value import route_value
from solver.results import ClaimedRoute, Evaluation, Finding, PricedRoute
from solver.route_rules import check_route, shared_track

TrackGroup = Callable[[Board, Train], str]


def one_group(board: Board, train: Train) -> str:
    """Every route of the company in one track group (the generic rule)."""
    return ""


def evaluate_run(board: Board, claims: Sequence[ClaimedRoute], track_group: TrackGroup = one_group) -> Evaluation:
    """Judge and price a route set under the generic 18xx rules."""
    findings: list[Finding] = []
    priced: list[PricedRoute] = []
    used_trains: set[str] = set()
    train_ids = {t.id for t in board.trains}
    legs_by_route: list[list[Leg]] = []
    groups: list[str] = []
    for i, claim in enumerate(claims):
        legs, claim_findings = read_claim(board, claim, i, train_ids, used_trains)
        findings.extend(claim_findings)
        if legs is None:
            legs_by_route.append([])
            groups.append("")
            continue
        train = board.train(claim.train)
        groups.append(track_group(board, train))
        findings.extend(check_route(board, train, claim.nodes, legs, i))
        legs_by_route.append(legs)
        value = route_value(board, train, claim.nodes)  # stops, and the modifiers' route bonuses
        priced.append(PricedRoute(claim.train, list(claim.nodes), legs, value.stop_revenues, value.total,
                                  value.bonuses))
    findings.extend(shared_track(legs_by_route, groups, [c.train for c in claims]))
    total, run_lines = settle_priced(board, priced, findings)  # the modifiers' run rules
    legal = not any(f.hard for f in findings)
    return Evaluation(legal=legal, revenue=total, routes=priced, findings=findings, run_lines=run_lines)
