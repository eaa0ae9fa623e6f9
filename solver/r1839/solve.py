"""The 1839 optimiser: a CP-SAT packing of candidate routes whose objective counts each revenue
location once per company (the best value a chosen route earns there, or the FLOOD reach),
every train at the company's exchange marker, and the location bonus."""

from __future__ import annotations

import time
from collections import defaultdict

from ortools.sat.python import cp_model

from solver.board import Board, Train
from solver.candidates import build_leg_graph, enumerate_routes, mask_bits
from solver.errors import EvaluatorDisagreement
from solver.evaluator import ClaimedRoute
from solver.r1839.evaluator import evaluate_1839
from solver.r1839.rules import (
    flood_reach,
    flood_trains,
    is_location,
    plus_route_finding,
    prepare_1839,
    route_pay,
    same_country_finding,
)
from solver.route_rules import train_findings
from solver.train_rules import stop_revenue


def solve_1839(board: Board, opts) -> object:
    from solver.optimiser import FEASIBLE, OPTIMAL, UNKNOWN, SolveResult, train_classes

    t0 = time.monotonic()
    deadline = t0 + opts.time_limit_s
    prepared = prepare_1839(board)
    runners = [t for t in prepared.trains if t.unit != "flood"]
    reps, members = train_classes(runners)
    graph = build_leg_graph(prepared)
    shapes, complete = enumerate_routes(prepared, graph, reps, opts.candidate_cap, t0 + opts.time_limit_s * 0.6)
    floods = flood_trains(prepared)
    reach = flood_reach(prepared) if floods else set()
    cands = []  # (nodes, legs, bits, {class: pays})
    for nodes, legs, mask, crossings, cost, token in shapes:
        if same_country_finding(prepared, nodes):
            continue
        stops = [prepared.nodes[n] for n in nodes]
        pays = {ci: route_pay(prepared, t, nodes) for ci, t in enumerate(reps)
                if not train_findings(t, stops, crossings, cost, token)
                and not plus_route_finding(prepared, t, nodes)}
        if pays:
            cands.append((nodes, legs, mask_bits(mask), pays))
    stats = {"candidates": float(len(cands)), "classes": float(len(reps)),
             "enumerate_ms": (time.monotonic() - t0) * 1000.0}
    model = cp_model.CpModel()
    x = {(r, ci): model.NewBoolVar(f"x{r}_{ci}") for r, c in enumerate(cands) for ci in c[3]}
    for r, c in enumerate(cands):
        if len(c[3]) > 1:
            model.AddAtMostOne(x[(r, ci)] for ci in c[3])
    for ci in range(len(reps)):
        model.Add(sum(v for (r, cj), v in x.items() if cj == ci) <= len(members[ci]))
    by_bit: dict[int, list] = defaultdict(list)
    for (r, _ci), v in x.items():
        for bit in cands[r][2]:
            by_bit[bit].append(v)
    for vs in by_bit.values():
        if len(vs) > 1:
            model.AddAtMostOne(vs)
    terms, constant = [], 0
    visits: dict[str, list[tuple[cp_model.IntVar, int]]] = defaultdict(list)
    for (r, ci), v in x.items():
        for nid, pay in zip(cands[r][0], cands[r][3][ci]):
            visits[nid].append((v, pay))
    bonus = 10 if prepared.options.get("location_bonus") else 0
    for nid in set(visits) | reach:
        node = prepared.nodes[nid]
        if not is_location(node):
            continue
        base = stop_revenue(node, floods[0]) if floods and nid in reach else 0
        here = visits.get(nid, [])
        if node.exchange_owner == prepared.company:
            terms += [(pay, v) for v, pay in here if pay]
            constant += base * len(floods)
        else:
            constant += base
            by_pay: dict[int, list[cp_model.IntVar]] = defaultdict(list)  # few distinct values per location
            for v, pay in here:
                if pay > base:
                    by_pay[pay].append(v)
            picks = []
            for pay, lits in by_pay.items():
                w = model.NewBoolVar(f"w{nid}_{pay}")
                model.AddBoolOr(lits).OnlyEnforceIf(w)
                picks.append(w)
                terms.append((pay - base, w))
            if len(picks) > 1:
                model.AddAtMostOne(picks)
        if bonus:
            if nid in reach:
                constant += bonus
            elif here:
                seen = model.NewBoolVar(f"s{nid}")
                model.AddBoolOr([v for v, _ in here]).OnlyEnforceIf(seen)
                terms.append((bonus, seen))
    model.Maximize(sum(c * v for c, v in terms) + constant)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.01, deadline - time.monotonic())
    solver.parameters.num_workers = opts.workers
    code = solver.Solve(model)
    stats["solve_ms"] = (time.monotonic() - t0) * 1000.0
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return SolveResult(revenue=0, status=UNKNOWN, bound=sum(c for c, _ in terms) + constant, routes=[],
                           stats=stats)
    chosen = sorted((r, ci) for (r, ci), v in x.items() if solver.Value(v))
    next_member = [0] * len(reps)
    claims = []
    for r, ci in chosen:
        train: Train = members[ci][next_member[ci]]
        next_member[ci] += 1
        claims.append(ClaimedRoute(train=train.id, nodes=list(cands[r][0]),
                                   legs=[list(leg.paths) for leg in cands[r][1]]))
    evaluation = evaluate_1839(board, claims)
    credited = int(round(solver.ObjectiveValue()))
    if not evaluation.legal or evaluation.revenue != credited:
        raise EvaluatorDisagreement(f"{board.label()}: 1839 optimiser claims {credited} but the evaluator says "
                                    f"{evaluation.revenue} (legal={evaluation.legal}; "
                                    f"{[f.message for f in evaluation.findings]})")
    status = OPTIMAL if code == cp_model.OPTIMAL and complete else FEASIBLE
    bound = evaluation.revenue if status == OPTIMAL else max(evaluation.revenue, int(solver.BestObjectiveBound()))
    if not complete:  # candidates are missing: only a bound over every location holds
        most = sum(max(stop_revenue(n, t) for t in runners) * (len(prepared.trains)
                   if n.exchange_owner == prepared.company else 1) + bonus
                   for n in prepared.nodes.values() if is_location(n) and runners)
        bound = max(bound, most + constant)
    return SolveResult(revenue=evaluation.revenue, status=status, bound=bound, routes=evaluation.routes,
                       stats=stats, evaluation=evaluation, details=dict(evaluation.details))
