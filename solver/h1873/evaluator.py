"""The 1873 evaluator: judges a claimed run (routes in action order) and prices it as the rules do."""

from __future__ import annotations

from collections.abc import Sequence

from solver.board import Board
from solver.evaluator import ClaimedRoute, Evaluation, PricedRoute, resolve_legs
from solver.h1873.context import harzbahn
from solver.h1873.rules import RunRoute, route_findings, run_findings, run_revenue, token_status
from solver.route_rules import Finding


def evaluate_1873(board: Board, claims: Sequence[ClaimedRoute]) -> Evaluation:
    """Every rule the run breaks, the revenue by the rules, maintenance, net revenue and token status."""
    ctx = harzbahn(board)
    supers = ctx.super_of()
    findings: list[Finding] = []
    routes: list[RunRoute] = []
    used: set[str] = set()
    for i, claim in enumerate(claims):
        st = supers.get(claim.train)
        if st is None:
            findings.append(Finding("UNKNOWN_TRAIN", f"train {claim.train!r} is not one of the company's trains", i))
            continue
        if claim.train in used:
            findings.append(Finding("TRAIN_TWICE", f"train {claim.train} runs more than one route", i))
        used.add(claim.train)
        unknown = [n for n in claim.nodes if n not in board.nodes]
        if unknown:
            findings.append(Finding("UNKNOWN_NODE", f"unknown node {unknown[0]!r}", i))
            continue
        legs, leg_findings = resolve_legs(board, claim, i)
        findings.extend(leg_findings)
        findings.extend(route_findings(board, ctx, st.diesel, claim.nodes, legs, i))
        routes.append(RunRoute(train=claim.train, super_id=st.id, distance=st.distance, diesel=st.diesel,
                               nodes=tuple(claim.nodes), legs=tuple(legs)))
    findings.extend(run_findings(board, ctx, routes))
    values = run_revenue(board, ctx, routes)
    priced = [PricedRoute(r.train, list(r.nodes), list(r.legs), v, sum(v)) for r, v in zip(routes, values)]
    revenue = sum(p.revenue for p in priced)
    qlb = ctx.qlb_bonus if ctx.is_qlb else 0
    details = {"maintenance": ctx.maintenance, "qlb_bonus": qlb, "net_revenue": revenue - ctx.maintenance + qlb,
               "routes_serviced": len(routes), "token_status": token_status(board, ctx, routes)}
    legal = not any(f.hard for f in findings)
    return Evaluation(legal=legal, revenue=revenue, routes=priced, findings=findings, details=details)
