"""The 1873 evaluator: judges a claimed run (routes in action order) and prices it as the rules do."""

from __future__ import annotations

from collections.abc import Sequence

from solver.model.board import Board
from solver.model.results import ClaimedRoute, Evaluation, Finding, PricedRoute
from solver.routes.claims import read_claim
from solver.rulesets.r_1873.extras import HarzbahnRun
from solver.rulesets.r_1873.rules import ResolvedRoute, route_findings, run_findings, run_revenue, token_status
from solver.rulesets.r_1873.view import Harzbahn


def evaluate_run(board: Board, ctx: Harzbahn, claims: Sequence[ClaimedRoute]) -> Evaluation:
    """Every rule the run breaks, the revenue by the rules, maintenance, net revenue and token status
    (`ctx`: the board's 1873 facts, `view.harzbahn`)."""
    supers = ctx.super_of()
    findings: list[Finding] = []
    routes: list[ResolvedRoute] = []
    used: set[str] = set()
    for i, claim in enumerate(claims):
        legs, claim_findings = read_claim(board, claim, i, supers, used)
        findings.extend(claim_findings)
        if legs is None:
            continue
        st = supers[claim.train]
        findings.extend(route_findings(board, ctx, st.diesel, claim.nodes, legs, i))
        routes.append(ResolvedRoute(train=claim.train, super_id=st.id, distance=st.distance, diesel=st.diesel,
                               nodes=tuple(claim.nodes), legs=tuple(legs)))
    findings.extend(run_findings(board, ctx, routes))
    values = run_revenue(board, ctx, routes)
    priced = [PricedRoute(r.train, list(r.nodes), list(r.legs), v, sum(v)) for r, v in zip(routes, values)]
    revenue = sum(p.revenue for p in priced)
    qlb = ctx.qlb_bonus if ctx.is_qlb else 0
    extras = HarzbahnRun(routes_serviced=len(routes), maintenance=ctx.maintenance, qlb_bonus=qlb,
                         net_revenue=revenue - ctx.maintenance + qlb, token_status=token_status(board, ctx, routes))
    legal = not any(f.hard for f in findings)
    return Evaluation(legal=legal, revenue=revenue, routes=priced, findings=findings, extras=extras)
