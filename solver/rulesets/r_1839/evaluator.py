"""The 1839 evaluator: generic route rules plus the off-board country rule, priced once per company."""

from __future__ import annotations

from collections.abc import Sequence

from solver.model.board import Board
from solver.model.legs import Leg
from solver.model.results import ClaimedRoute, Evaluation, Finding, PricedRoute
from solver.routes.claims import read_claim
from solver.rules.route_rules import check_route, shared_track
from solver.rulesets.r_1839.extras import ForeignIncome
from solver.rulesets.r_1839.rules import (
    flood_reach,
    flood_trains,
    foreign_income,
    plus_route_finding,
    price_run,
    same_country_finding,
)


def evaluate_run(board: Board, claims: Sequence[ClaimedRoute]) -> Evaluation:
    """Every rule the run breaks, the revenue by the 1839 rules and each foreign company's income, on
    the 1839 view of the board (`view.prepare_1839`, applied once by `Ruleset.prepare`)."""
    findings: list[Finding] = []
    trains = {t.id: t for t in board.trains}
    used: set[str] = set()
    runs = []
    legs_by_route: list[list[Leg]] = []
    for i, claim in enumerate(claims):
        if claim.train in trains and trains[claim.train].unit == "flood":
            findings.append(Finding("FLOOD_RUNS_NO_ROUTE", f"{claim.train} is a FLOOD train: it earns its reach "
                                                           "without a route", i))
            continue
        legs, claim_findings = read_claim(board, claim, i, trains, used)
        findings.extend(claim_findings)
        if legs is None:
            continue
        train = trains[claim.train]
        findings.extend(check_route(board, train, claim.nodes, legs, i))
        country = same_country_finding(board, claim.nodes, i)
        if country:
            findings.append(country)
        plus = plus_route_finding(board, train, claim.nodes, i)
        if plus:
            findings.append(plus)
        legs_by_route.append(legs)
        runs.append((train, list(claim.nodes), legs))
    findings.extend(shared_track(legs_by_route))
    reach = flood_reach(board) if flood_trains(board) else set()
    pricing = price_run(board, [(t, n) for t, n, _ in runs], reach)
    priced = [PricedRoute(t.id, n, legs, credit, sum(credit)) for (t, n, legs), credit in zip(runs, pricing.per_route)]
    if pricing.flood:
        nodes = sorted(pricing.flood)
        priced.append(PricedRoute(flood_trains(board)[0].id, nodes, [], [pricing.flood[n] for n in nodes],
                                  sum(pricing.flood.values())))
    reached = {n for _, nodes, _ in runs for n in nodes} | reach
    extras = ForeignIncome(foreign_income(board, reached, pricing.total))
    legal = not any(f.hard for f in findings)
    return Evaluation(legal=legal, revenue=pricing.total, routes=priced, findings=findings, extras=extras)
