"""Solving an 1873 position: candidates, the CP-SAT model with lazy network cuts, route order,
train ids, and the evaluator's check of the answer."""

from __future__ import annotations

import time
from collections import defaultdict

from ortools.sat.python import cp_model

from solver.board import Board
from solver.errors import EvaluatorDisagreement
from solver.evaluator import ClaimedRoute
from solver.h1873.candidates import leg_graph_1873, route_shapes
from solver.h1873.context import Harzbahn, harzbahn
from solver.h1873.evaluator import evaluate_1873
from solver.h1873.optimiser import MAX_ROUNDS, REVENUE_ONLY, RULEBOOK, Model1873
from solver.h1873.route_order import best_order
from solver.h1873.rules import RunRoute, networks

Chosen = list[tuple[int, int]]  # (route index, train index; -1 = diesel)


def solve_1873(board: Board, opts) -> object:
    """The best legal run under the chosen objective (RULEBOOK by default)."""
    from solver.optimiser import FEASIBLE, INFEASIBLE, OPTIMAL, UNKNOWN, SolveResult

    t0 = time.monotonic()
    deadline = t0 + opts.time_limit_s
    ctx = harzbahn(board)
    objective = opts.objective or RULEBOOK
    graph = leg_graph_1873(board)
    walk_deadline = t0 + opts.time_limit_s * 0.5
    mining, done_m = route_shapes(board, ctx, graph, False, walk_deadline) if ctx.mining_trains else ([], True)
    diesel, done_d = route_shapes(board, ctx, graph, True, walk_deadline) if ctx.diesel_train else ([], True)
    stats = {"candidates": float(len(mining) + len(diesel)), "classes": float(len(ctx.super_trains)),
             "enumerate_ms": (time.monotonic() - t0) * 1000.0}
    model = Model1873(board, ctx, mining, diesel, objective)
    details: dict = {"objective": objective}
    if model.infeasible_reason:
        details["reason"] = model.infeasible_reason
        stats["solve_ms"] = (time.monotonic() - t0) * 1000.0
        return SolveResult(revenue=0, status=INFEASIBLE, bound=0, routes=[], stats=stats, details=details)
    status, chosen, bound_obj, rounds = _solve_with_cuts(board, ctx, model, deadline, opts.workers)
    stats["rounds"] = float(rounds)
    if status == "INFEASIBLE":
        details["reason"] = "no legal run exists"
        stats["solve_ms"] = (time.monotonic() - t0) * 1000.0
        return SolveResult(revenue=0, status=INFEASIBLE, bound=0, routes=[], stats=stats, details=details)
    if chosen is None:
        stats["solve_ms"] = (time.monotonic() - t0) * 1000.0
        return SolveResult(revenue=0, status=UNKNOWN, bound=model.upper, routes=[], stats=stats, details=details)
    claims = _claims(board, ctx, model, chosen)
    evaluation = evaluate_1873(board, claims)
    model_revenue, _, _ = best_order(board, ctx, _run_routes(model, chosen))
    if not evaluation.legal or evaluation.revenue != model_revenue:
        raise EvaluatorDisagreement(
            f"{board.label()}: 1873 optimiser claims {model_revenue} but the evaluator says {evaluation.revenue} "
            f"(legal={evaluation.legal}; {[f.message for f in evaluation.findings]})")
    complete = done_m and done_d
    final = OPTIMAL if status == "OPTIMAL" and complete else FEASIBLE
    if final == OPTIMAL:
        bound = evaluation.revenue
    elif objective == REVENUE_ONLY and complete and bound_obj is not None:
        bound = max(evaluation.revenue, bound_obj)
    else:
        bound = max(evaluation.revenue, model.upper)
    stats["solve_ms"] = (time.monotonic() - t0) * 1000.0
    details.update(evaluation.details)
    details["routes_possible"] = len(chosen) if final == OPTIMAL and objective == RULEBOOK else None
    return SolveResult(revenue=evaluation.revenue, status=final, bound=bound, routes=evaluation.routes,
                       stats=stats, evaluation=evaluation, details=details)


def _run_routes(model: Model1873, chosen: Chosen) -> list[RunRoute]:
    """The chosen routes as a run (train ids are assigned later)."""
    out = []
    for r, si in chosen:
        shape = model.shapes(si)[r]
        st = model.ctx.diesel_train if si < 0 else model.supers[si]
        out.append(RunRoute(train="", super_id=st.id, distance=st.distance, diesel=si < 0,  # type: ignore[union-attr]
                            nodes=shape.nodes, legs=shape.legs))
    return out


def _solve_with_cuts(board: Board, ctx: Harzbahn, model: Model1873, deadline: float,
                     workers: int) -> tuple[str, Chosen | None, int | None, int]:
    """Solve; add cuts for broken train networks, and for a selection the model credits with more
    than its best route order earns; solve again. Returns the chosen routes in their best order;
    when time runs out, the best legal run seen so far (or None)."""
    best: Chosen | None = None
    best_score = -1
    exact = True
    for rnd in range(1, MAX_ROUNDS + 1):
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(0.01, deadline - time.monotonic())
        solver.parameters.num_workers = workers
        code = solver.Solve(model.model)
        if code == cp_model.INFEASIBLE:
            return "INFEASIBLE", None, None, rnd
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "UNKNOWN", best, None, rnd
        chosen = [(r, si) for (r, si), v in model.x.items() if solver.Value(v)]
        chosen += [(r, -1) for r, v in enumerate(model.y) if solver.Value(v)]
        cuts = _network_cuts(board, model, chosen)
        if cuts:
            for si, component, other in cuts:
                model.add_network_cut(si, component, other)
        else:
            credited = int(round(solver.ObjectiveValue())) - model.big * len(chosen)
            value, order, exhaustive = best_order(board, ctx, _run_routes(model, chosen))
            exact = exact and exhaustive
            ordered = [chosen[i] for i in order]
            if value >= credited:
                status = "OPTIMAL" if code == cp_model.OPTIMAL and exact else "FEASIBLE"
                bound = int(solver.BestObjectiveBound()) if model.big == 0 else None
                return status, ordered, bound, rnd
            score = model.big * len(chosen) + value
            if score > best_score:  # legal, only credited too much: keep it in case time runs out
                best, best_score = ordered, score
            model.cap_revenue(chosen, value)
        if time.monotonic() > deadline:
            return "UNKNOWN", best, None, rnd
    return "UNKNOWN", best, None, MAX_ROUNDS


def _network_cuts(board: Board, model: Model1873, chosen: Chosen) -> list[tuple[int, set[int], int]]:
    by_train: dict[int, list[int]] = defaultdict(list)
    for r, si in chosen:
        by_train[si].append(r)
    cuts = []
    for si, routes in by_train.items():
        shapes = model.shapes(si)
        comps = networks(board, [shapes[r].nodes for r in routes])
        if len(comps) < 2:
            continue
        for comp in comps:
            members = {routes[i] for i in comp}
            for other in comps:
                if other is not comp:
                    cuts.append((si, members, routes[other[0]]))
    return cuts


def _claims(board: Board, ctx: Harzbahn, model: Model1873, chosen: Chosen) -> list[ClaimedRoute]:
    """The chosen routes, in the given order, with train ids."""
    order = chosen
    next_sub: dict[int, int] = defaultdict(int)
    claims = []
    for r, si in order:
        if si < 0:
            pool = ctx.diesel_pool or model.ctx.diesel_train.subtrains  # type: ignore[union-attr]
            train = pool[next_sub[si]] if next_sub[si] < len(pool) else f"D-extra-{next_sub[si]}"
            shape = model.diesel[r]
        else:
            train = model.supers[si].subtrains[next_sub[si]]
            shape = model.mining[r]
        next_sub[si] += 1
        claims.append(ClaimedRoute(train=train, nodes=list(shape.nodes), legs=[list(leg.paths) for leg in shape.legs]))
    return claims
