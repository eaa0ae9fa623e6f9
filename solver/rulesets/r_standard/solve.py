"""The generic optimiser: candidate routes, a greedy lower bound, pruning, and the CP-SAT packing,
with every answer re-checked by the evaluator."""

from __future__ import annotations

import time

from solver.board import Board
from solver.budget import Budget
from solver.candidates import build_leg_graph, candidate_routes
from solver.packing import claims_of_choice, greedy, pack, prune, stop_bound, train_classes
from solver.recheck import recheck
from solver.results import SolveOptions, SolveResult, Status
from solver.rulesets.r_standard.evaluator import TrackGroup, evaluate_run, one_group

BUILD_SECONDS_PER_CANDIDATE = 1e-4  # a generous estimate of model building time (measured ~40 us)


def solve_run(board: Board, opts: SolveOptions, track_group: TrackGroup = one_group) -> SolveResult:
    """The best legal route set under the generic rules: enumerate, bound, prune, pack, re-check."""
    budget = Budget.starting_now(opts.time_limit_s)
    reps, members = train_classes(board.trains)
    counts = [len(m) for m in members]
    graph = build_leg_graph(board)
    cands, exhaustive = candidate_routes(board, graph, reps, opts.candidate_cap, budget.until("enumerate"),
                                         walk_deadline=budget.until("walk"))
    stats: dict[str, float] = {"candidates": float(len(cands)), "classes": float(len(reps)),
                               "enumerate_ms": budget.elapsed_ms()}
    groups = [track_group(board, t) for t in reps]
    lower_pack = greedy(cands, counts, groups, deadline=budget.until("greedy"))
    lower = sum(sum(cands[r].revenue[ci]) for r, ci in lower_pack)
    cands, lower_pack, upper = prune(cands, counts, lower, lower_pack)
    stats["after_prune"] = float(len(cands))
    # building the packing model costs time per candidate; without that time, keep the greedy packing
    no_time = time.monotonic() + len(cands) * BUILD_SECONDS_PER_CANDIDATE > budget.until("build")
    if not no_time:
        for c in cands:
            c.bits = tuple(graph.route_bits(c.legs))
    if not cands:
        status, chosen, bound = Status.OPTIMAL, [], 0
    elif lower >= upper:  # the greedy packing reaches the conflict-free bound: proven optimal
        status, chosen, bound = Status.OPTIMAL, lower_pack, lower
    elif no_time:
        status, chosen, bound = Status.FEASIBLE, lower_pack, -1
    else:
        status, chosen, bound, pstats = pack(cands, counts, opts, budget.deadline, lower_pack, groups)
        stats.update(pstats)
        if status == Status.UNKNOWN:
            status, chosen, bound = Status.FEASIBLE, lower_pack, -1
    if not exhaustive:
        status = Status.FEASIBLE
    best = sum(sum(cands[r].revenue[ci]) for r, ci in chosen)
    if not exhaustive:  # some routes were never seen: only a bound over every stop holds
        bound = max(best, sum(stop_bound(board, t) for t in board.trains))
    elif bound < best:  # every route was seen: the conflict-free packing bound holds
        bound = max(best, upper)
    stats["solve_ms"] = budget.elapsed_ms()
    evaluation = evaluate_run(board, claims_of_choice(cands, chosen, members), track_group)
    recheck(board, evaluation, best)
    return SolveResult(revenue=best, status=status, bound=bound, routes=evaluation.routes, stats=stats,
                       evaluation=evaluation)
