"""Solving an 1873 position: candidates, the CP-SAT model with lazy network cuts, route order,
train ids, and the evaluator's check of the answer."""

from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import replace

from ortools.sat.python import cp_model

from solver.model.board import Board
from solver.model.results import ClaimedRoute, Objective, SolveOptions, SolveResult, Status
from solver.packing.budget import Budget
from solver.packing.cpsat import run_cpsat
from solver.packing.recheck import recheck
from solver.routes.claims import claim_of
from solver.rulesets.r_1873.candidates import company_routes
from solver.rulesets.r_1873.evaluator import evaluate_run
from solver.rulesets.r_1873.extras import HarzbahnRun
from solver.rulesets.r_1873.model import MAX_ROUNDS, Model1873, every_stop_bound
from solver.rulesets.r_1873.route_order import best_order
from solver.rulesets.r_1873.rules import ResolvedRoute, networks
from solver.rulesets.r_1873.view import Harzbahn

Chosen = list[tuple[int, int]]  # (route index, train index; -1 = diesel)


def solve_run(board: Board, ctx: Harzbahn, opts: SolveOptions) -> SolveResult:
    """The best legal run under the chosen objective (RULEBOOK by default); `ctx`: the board's 1873
    facts (`view.harzbahn`)."""
    budget = Budget.starting_now(opts.time_limit_s)
    objective = opts.objective or Objective.RULEBOOK
    mining, diesel, complete = company_routes(board, ctx, budget.until("enumerate"), opts.cancel)
    stats = {"candidates": float(len(mining) + len(diesel)), "classes": float(len(ctx.super_trains)),
             "enumerate_ms": budget.elapsed_ms()}
    model = Model1873(board, ctx, mining, diesel, objective)
    extras = HarzbahnRun(objective=objective)
    # the model's bound holds over the routes listed; over a list cut short, only every stop at its most does
    upper = model.upper if complete else max(model.upper, every_stop_bound(board, ctx))
    if model.infeasible_reason:  # a proof only over every route: a list cut short may miss the routes it needs
        return _no_run(Status.INFEASIBLE, model.infeasible_reason, 0, stats, budget, extras) if complete \
            else _no_run(Status.UNKNOWN, "", upper, stats, budget, extras)
    status, chosen, bound_obj, rounds = _solve_with_cuts(board, ctx, model, budget.deadline, opts)
    stats["rounds"] = float(rounds)
    if status == "INFEASIBLE" and complete:
        return _no_run(Status.INFEASIBLE, "no legal run exists", 0, stats, budget, extras)
    if chosen is None:
        return _no_run(Status.UNKNOWN, "", upper, stats, budget, extras)
    evaluation = evaluate_run(board, ctx, _claims(ctx, model, chosen))
    model_revenue, _, _ = best_order(board, ctx, _run_routes(model, chosen))
    recheck(board, evaluation, model_revenue, "1873 optimiser")
    final = Status.OPTIMAL if status == "OPTIMAL" and complete else Status.FEASIBLE
    if final == Status.OPTIMAL:
        bound = evaluation.revenue
    elif complete and bound_obj is not None:  # a RULEBOOK optimum runs at least as many routes as this run
        bound = max(evaluation.revenue, min(model.upper, bound_obj - model.big * len(chosen)))
    else:
        bound = max(evaluation.revenue, upper)
    stats["solve_ms"] = budget.elapsed_ms()
    assert isinstance(evaluation.extras, HarzbahnRun)
    run = replace(evaluation.extras, objective=objective,
                  routes_possible=len(chosen) if final == Status.OPTIMAL and objective == Objective.RULEBOOK else None)
    return SolveResult(revenue=evaluation.revenue, status=final, bound=bound, routes=evaluation.routes,
                       stats=stats, evaluation=evaluation, extras=run)


def _no_run(status: Status, reason: str, bound: int, stats: dict[str, float], budget: Budget,
            extras: HarzbahnRun) -> SolveResult:
    """An answer without routes: no legal run exists, or none was found in time."""
    stats["solve_ms"] = budget.elapsed_ms()
    return SolveResult(revenue=0, status=status, bound=bound, routes=[], stats=stats, extras=extras, reason=reason)


def _run_routes(model: Model1873, chosen: Chosen) -> list[ResolvedRoute]:
    """The chosen routes as a run (train ids are assigned later)."""
    out = []
    for r, si in chosen:
        shape = model.shapes(si)[r]
        st = model.ctx.diesel_train if si < 0 else model.supers[si]
        out.append(ResolvedRoute(train="", super_id=st.id, distance=st.distance, diesel=si < 0,  # type: ignore[union-attr]
                            nodes=shape.nodes, legs=shape.legs))
    return out


def _solve_with_cuts(board: Board, ctx: Harzbahn, model: Model1873, deadline: float,
                     opts: SolveOptions) -> tuple[str, Chosen | None, int | None, int]:
    """Solve; add cuts for broken train networks, and for a selection the model credits with more
    than its best route order earns; solve again. Returns the chosen routes in their best order;
    when time runs out, the best legal run seen so far (or None). The bound returned is on the model's
    objective: every round's model relaxes the run's rules (its cuts only take away runs that break
    them or that it credits too much), so the lowest bound CP-SAT proved in any round holds."""
    best: Chosen | None = None
    best_score = -1
    exact = True
    relaxed: int | None = None
    for rnd in range(1, MAX_ROUNDS + 1):
        # a round's model is small and is solved again after each cut: presolving it costs more than it saves
        solver, code = run_cpsat(model.model, max(deadline, time.monotonic() + 0.01), opts.workers, opts.cancel,
                                 presolve=False)
        if code == cp_model.INFEASIBLE:
            return "INFEASIBLE", None, None, rnd
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "UNKNOWN", best, relaxed, rnd
        proven = math.floor(solver.best_objective_bound + 1e-6)
        relaxed = proven if relaxed is None else min(relaxed, proven)
        chosen = [(r, si) for (r, si), v in model.x.items() if solver.value(v)]
        chosen += [(r, -1) for r, v in enumerate(model.y) if solver.value(v)]
        cuts = _network_cuts(board, model, chosen)
        if cuts:
            for si, component in cuts:
                model.add_network_cut(si, component)
            repaired = _largest_networks(board, model, chosen)
            if repaired is not None and model.big * len(repaired[0]) + repaired[1] > best_score:
                best, best_score = repaired[0], model.big * len(repaired[0]) + repaired[1]
        else:
            credited = int(round(solver.objective_value)) - model.big * len(chosen)
            value, order, exhaustive = best_order(board, ctx, _run_routes(model, chosen))
            exact = exact and exhaustive
            ordered = [chosen[i] for i in order]
            if value >= credited:
                status = "OPTIMAL" if code == cp_model.OPTIMAL and exact else "FEASIBLE"
                return status, ordered, relaxed, rnd
            score = model.big * len(chosen) + value
            if score > best_score:  # legal, only credited too much: keep it in case time runs out
                best, best_score = ordered, score
            model.cap_revenue(chosen, value)
        if time.monotonic() > deadline or (opts.cancel is not None and opts.cancel.cancelled):
            return "UNKNOWN", best, relaxed, rnd
    return "UNKNOWN", best, relaxed, MAX_ROUNDS


def _largest_networks(board: Board, model: Model1873, chosen: Chosen) -> tuple[Chosen, int] | None:
    """A legal run from a selection whose train networks fall apart: each train keeps its best-paying
    network (component); the routes in their best order and its revenue, or None when that run is
    not legal (e.g. a concession route was dropped). Kept so that a deadline still finds a run."""
    by_train: dict[int, list[int]] = defaultdict(list)
    for r, si in chosen:
        by_train[si].append(r)
    kept: Chosen = []
    for si, routes in by_train.items():
        shapes = model.shapes(si)
        comps = networks(board, [shapes[r].nodes for r in routes])
        if len(comps) < 2:
            kept += [(r, si) for r in routes]
            continue
        worth = [(len(comp), sum(len(shapes[routes[i]].nodes) for i in comp)) for comp in comps]
        best_comp = comps[max(range(len(comps)), key=worth.__getitem__)]
        kept += [(routes[i], si) for i in best_comp]
    value, order, _ = best_order(board, model.ctx, _run_routes(model, kept))
    ordered = [kept[i] for i in order]
    evaluation = evaluate_run(board, model.ctx, _claims(model.ctx, model, ordered))
    if not evaluation.legal or evaluation.revenue != value:
        return None
    return ordered, value


def _network_cuts(board: Board, model: Model1873, chosen: Chosen) -> list[tuple[int, set[int]]]:
    """(train, component) for every network of a train whose networks fall apart."""
    by_train: dict[int, list[int]] = defaultdict(list)
    for r, si in chosen:
        by_train[si].append(r)
    cuts = []
    for si, routes in by_train.items():
        shapes = model.shapes(si)
        comps = networks(board, [shapes[r].nodes for r in routes])
        if len(comps) < 2:
            continue
        cuts += [(si, {routes[i] for i in comp}) for comp in comps]
    return cuts


def _claims(ctx: Harzbahn, model: Model1873, chosen: Chosen) -> list[ClaimedRoute]:
    """The chosen routes, in the given order, with train ids."""
    next_sub: dict[int, int] = defaultdict(int)
    claims = []
    for r, si in chosen:
        if si < 0:
            pool = ctx.diesel_pool or model.ctx.diesel_train.subtrains  # type: ignore[union-attr]
            train = pool[next_sub[si]] if next_sub[si] < len(pool) else f"D-extra-{next_sub[si]}"
            shape = model.diesel[r]
        else:
            train = model.supers[si].subtrains[next_sub[si]]
            shape = model.mining[r]
        next_sub[si] += 1
        claims.append(claim_of(train, shape.nodes, shape.legs))
    return claims
