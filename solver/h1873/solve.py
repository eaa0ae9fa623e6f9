"""Solving an 1873 position: candidates, the CP-SAT model with lazy network cuts, route order,
train ids, and the evaluator's check of the answer."""

from __future__ import annotations

import time
from collections import defaultdict

from ortools.sat.python import cp_model

from solver.board import Board
from solver.errors import EvaluatorDisagreement
from solver.evaluator import ClaimedRoute
from solver.h1873.candidates import Shape, leg_graph_1873, route_shapes
from solver.h1873.context import Harzbahn, harzbahn
from solver.h1873.evaluator import evaluate_1873
from solver.h1873.optimiser import MAX_ROUNDS, REVENUE_ONLY, RULEBOOK, Model1873

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
    model_revenue = _model_revenue(model, chosen)
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


def _solve_with_cuts(board: Board, ctx: Harzbahn, model: Model1873, deadline: float,
                     workers: int) -> tuple[str, Chosen | None, int | None, int]:
    """Solve, add cuts for broken train networks or unreachable revenue, and solve again."""
    best: Chosen | None = None
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
        if not cuts and _order_reaches_model(board, ctx, model, chosen, solver):
            status = "OPTIMAL" if code == cp_model.OPTIMAL else "FEASIBLE"
            bound = int(solver.BestObjectiveBound() - model.big * len(chosen)) if model.big == 0 else None
            return status, chosen, bound, rnd
        if not cuts:
            model.forbid(chosen)
        for si, component, other in cuts:
            model.add_network_cut(si, component, other)
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
        comps = _components(board, [shapes[r] for r in routes])
        if len(comps) < 2:
            continue
        for comp in comps:
            members = {routes[i] for i in comp}
            for other in comps:
                if other is not comp:
                    cuts.append((si, members, routes[other[0]]))
    return cuts


def _components(board: Board, shapes: list[Shape]) -> list[list[int]]:
    stops = [{n for n in sh.nodes if not board.nodes[n].blocks} for sh in shapes]
    left = set(range(len(shapes)))
    comps = []
    while left:
        seed = left.pop()
        comp, frontier = [seed], [seed]
        while frontier:
            i = frontier.pop()
            for j in list(left):
                if stops[i] & stops[j]:
                    left.discard(j)
                    comp.append(j)
                    frontier.append(j)
        comps.append(comp)
    return comps


def _model_revenue(model: Model1873, chosen: Chosen) -> int:
    """The revenue the model credits this selection with, recomputed from the routes."""
    return model.revenue_of(chosen)


def _order_reaches_model(board: Board, ctx: Harzbahn, model: Model1873, chosen: Chosen,
                         solver: cp_model.CpSolver) -> bool:
    """Whether some order of these routes earns, by the rules, what the model credits."""
    claims = _claims(board, ctx, model, chosen)
    return evaluate_1873(board, claims).revenue == model.revenue_of(chosen)


def _claims(board: Board, ctx: Harzbahn, model: Model1873, chosen: Chosen) -> list[ClaimedRoute]:
    """The chosen routes in an order that lets the best stop of every hex count, with train ids."""
    order = _route_order(board, model, chosen)
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


def _route_order(board: Board, model: Model1873, chosen: Chosen) -> Chosen:
    """Order routes so that, per hex, the route with the best stop comes first (city and factory
    money go to the first route there), and the route that should earn a mine comes first among
    the trains of the largest size there. A cycle leaves the remaining routes in their order."""
    nodes = board.nodes
    before: dict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for diesel in (False, True):
        group = [c for c in chosen if (c[1] < 0) == diesel]
        by_hex: dict[str, list[tuple[tuple[int, int], int, bool]]] = defaultdict(list)
        for c in group:
            shape = model.shapes(c[1])[c[0]]
            value: dict[str, int] = defaultdict(int)
            blocked: dict[str, bool] = {}
            for n in shape.nodes:
                node = nodes[n]
                blocked[node.hex] = blocked.get(node.hex, True) and node.blocks
                if not node.blocks:
                    value[node.hex] += model.stop_value(node, diesel)
            for h in blocked:
                by_hex[h].append((c, value.get(h, 0), blocked[h]))
        for h, visits in by_hex.items():
            best = max(visits, key=lambda v: (not v[2], v[1]))
            for v in visits:
                if v[0] != best[0]:
                    before[v[0]].add(best[0])
            if not diesel and h in model.ctx.mine_multiplier:
                dist = {v[0]: model.distance(v[0][1]) for v in visits}
                top = max(dist.values())
                tops = [v for v in visits if dist[v[0]] == top]
                payer = next((v for v in tops if not v[2]), None)
                if payer is not None:
                    for v in tops:
                        if v[0] != payer[0]:
                            before[v[0]].add(payer[0])
    ordered: Chosen = []
    left = list(chosen)
    while left:
        ready = [c for c in left if not (before[c] & set(left))]
        pick = ready[0] if ready else left[0]
        ordered.append(pick)
        left.remove(pick)
    return ordered
