"""The 1839 optimiser: candidate routes, then a CP-SAT packing (`model`) whose objective counts each
revenue location once per company, and the evaluator's check of the answer."""

from __future__ import annotations

from ortools.sat.python import cp_model

from solver.model.board import Board
from solver.model.cancel import CancelToken
from solver.model.results import SolveOptions, SolveResult, Status
from solver.packing.budget import Budget
from solver.packing.cpsat import is_solution, run_cpsat
from solver.packing.pack import train_classes
from solver.packing.recheck import recheck
from solver.routes.claims import TrainIds, claim_of
from solver.routes.leg_graph import build_leg_graph, mask_bits
from solver.routes.walk import enumerate_routes
from solver.rules.route_rules import train_findings
from solver.rules.train_rules import stop_revenue
from solver.rulesets.r_1839.evaluator import evaluate_run
from solver.rulesets.r_1839.extras import ForeignIncome
from solver.rulesets.r_1839.model import Candidate1839, Model1839
from solver.rulesets.r_1839.rules import (
    flood_reach,
    flood_trains,
    is_location,
    location_bonus,
    plus_route_finding,
    route_pay,
    same_country_finding,
)


def solve_run(prepared: Board, opts: SolveOptions) -> SolveResult:
    """The best legal 1839 run on the 1839 view of the board (`view.prepare_1839`, applied once by
    `Ruleset.prepare`), checked by the 1839 evaluator."""
    budget = Budget.starting_now(opts.time_limit_s)
    runners = [t for t in prepared.trains if t.unit != "flood"]
    reps, members = train_classes(runners)
    cands, complete = _candidates(prepared, reps, opts.candidate_cap, budget.until("enumerate"), opts.cancel)
    stats = {"candidates": float(len(cands)), "classes": float(len(reps)), "enumerate_ms": budget.elapsed_ms()}
    reach = flood_reach(prepared) if flood_trains(prepared) else set()
    model = Model1839(prepared, cands, [len(m) for m in members], reach)
    solver, code = run_cpsat(model.model, budget.deadline, opts.workers, opts.cancel)
    stats["solve_ms"] = budget.elapsed_ms()
    if not is_solution(code):  # no run found: the model's bound, over every location when candidates are missing
        bound = model.upper if complete else max(model.upper, _location_bound(prepared, runners) + model.constant)
        return SolveResult(revenue=0, status=Status.UNKNOWN, bound=bound, routes=[], stats=stats)
    ids = TrainIds([[t.id for t in m] for m in members])
    claims = [claim_of(ids.next(ci), cands[r].nodes, cands[r].legs) for r, ci in model.chosen(solver)]
    evaluation = evaluate_run(prepared, claims)
    recheck(prepared, evaluation, int(round(solver.objective_value)), "1839 optimiser")
    status = Status.OPTIMAL if code == cp_model.OPTIMAL and complete else Status.FEASIBLE
    bound = evaluation.revenue if status == Status.OPTIMAL else max(evaluation.revenue,
                                                                     int(solver.best_objective_bound))
    if not complete:  # candidates are missing: only a bound over every location holds
        bound = max(bound, _location_bound(prepared, runners) + model.constant)
    extras = evaluation.extras if isinstance(evaluation.extras, ForeignIncome) else None
    return SolveResult(revenue=evaluation.revenue, status=status, bound=bound, routes=evaluation.routes,
                       stats=stats, evaluation=evaluation, extras=extras)


def _candidates(board: Board, reps: list, cap: int, deadline: float,
                cancel: CancelToken | None = None) -> tuple[list[Candidate1839], bool]:
    """Every legal route shape with what each train class earns at its stops (before counting once)."""
    graph = build_leg_graph(board)
    shapes, complete = enumerate_routes(board, graph, reps, cap, deadline, cancel=cancel)
    cands = []
    for nodes, legs, mask, crossings, cost, token, _kinds in shapes:
        if same_country_finding(board, nodes):
            continue
        stops = [board.nodes[n] for n in nodes]
        pays = {ci: route_pay(board, t, nodes) for ci, t in enumerate(reps)
                if not train_findings(t, stops, crossings, cost, token)
                and not plus_route_finding(board, t, nodes)}
        if pays:
            cands.append(Candidate1839(nodes=nodes, legs=legs, bits=tuple(mask_bits(mask)), pays=pays))
    return cands, complete


def _location_bound(board: Board, runners: list) -> int:
    """Every location at the best value any train earns there in any of its rows (a D's doubled cities;
    times the trains at the company's exchange marker), with the location bonus: no run earns more."""
    bonus = location_bonus(board)
    return sum(max(0, *(stop_revenue(n, t, r) for t in runners for r in t.rows or (None,))) * (len(board.trains)
               if n.exchange_owner == board.company else 1) + bonus
               for n in board.nodes.values() if is_location(n) and runners)
