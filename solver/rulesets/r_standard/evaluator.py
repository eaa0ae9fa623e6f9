"""The generic evaluator: judges a claimed route set route by route and as a whole, and prices it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solver.model.board import Board, Train
from solver.model.legs import Leg
from solver.model.results import BonusLine, ClaimedRoute, Evaluation, Finding, PricedRoute
from solver.modifiers.apply import awarded_amounts, settle_priced
from solver.modifiers.route_value import path_hexes_of, route_mods, route_value
from solver.modifiers.sharing import PaidStops, overlap_group, overlap_rule, stop_pays_once
from solver.routes.claims import read_claim
from solver.rules.route_rules import check_route, shared_track

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
    mods = route_mods(board.modifiers)
    overlap = overlap_rule(board.modifiers)  # which routes may share track
    once = stop_pays_once(board.modifiers)
    paid = PaidStops(once) if once is not None else None  # stops counted by an earlier route
    read: list[tuple[int, ClaimedRoute, list[Leg], Train]] = []  # the claims that read as routes
    for i, claim in enumerate(claims):
        legs, claim_findings = read_claim(board, claim, i, train_ids, used_trains)
        findings.extend(claim_findings)
        if legs is None:
            legs_by_route.append([])
            groups.append("")
            continue
        train = board.train(claim.train)
        groups.append(track_group(board, train) + overlap_group(overlap, train.name, i))
        findings.extend(check_route(board, train, claim.nodes, legs, i))
        legs_by_route.append(legs)
        read.append((i, claim, legs, train))
    awards = awarded_amounts(board, [(claim.train, claim.nodes) for _, claim, _, _ in read])
    for j, (i, claim, legs, train) in enumerate(read):
        # stops, the modifiers' route bonuses, subsidy and route rules
        value = route_value(board, train, claim.nodes, mods, path_hexes_of(legs, [board.nodes[n] for n in claim.nodes]),
                            paid.zero if paid is not None else None, awards.get(j, 0))
        findings.extend(Finding(code, f"the route of {claim.train}: {msg}", i) for code, msg in value.findings)
        bonuses = list(value.bonuses)
        if paid is not None and once is not None:
            bonuses += [BonusLine(f"{once.label}: {n} paid on an earlier route", 0, once.source)
                        for n in value.counted if paid.zero(board.nodes[n])]
            paid.add(board, value.counted)
        priced.append(PricedRoute(claim.train, list(claim.nodes), legs, value.stop_revenues, value.total,
                                  bonuses, value.subsidy))
    findings.extend(shared_track(legs_by_route, groups, [c.train for c in claims]))
    total, run_lines = settle_priced(board, priced, findings)  # the modifiers' run rules
    legal = not any(f.hard for f in findings)
    return Evaluation(legal=legal, revenue=total, routes=priced, findings=findings, run_lines=run_lines,
                      subsidy=sum(r.subsidy for r in priced))
