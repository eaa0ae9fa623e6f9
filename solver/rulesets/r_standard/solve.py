"""The generic optimiser: candidate routes, a greedy lower bound, pruning, and the CP-SAT packing,
with every answer re-checked by the evaluator."""

from __future__ import annotations

import time
from dataclasses import replace

from solver.model.board import Board
from solver.model.cancel import CancelToken
from solver.model.results import Objective, SolveOptions, SolveResult, Status
from solver.modifiers.apply import run_route
from solver.modifiers.packing_terms import modifier_bound, run_terms
from solver.modifiers.run_terms import order_for_awards
from solver.modifiers.sharing import overlap_group, overlap_rule, stop_pays_once
from solver.packing.budget import Budget
from solver.packing.pack import claims_of_choice, greedy, pack, prune, run_value, stop_bound, train_classes
from solver.packing.portfolio import race, wants_compact
from solver.packing.recheck import recheck
from solver.packing.setpack import exact_packing
from solver.routes.candidates import Candidate, LazyBound, build_leg_graph, candidate_routes
from solver.rulesets.r_standard.evaluator import TrackGroup, evaluate_run, one_group

BB_SHARE = 0.7  # of the search time left, what the branch and bound may use before CP-SAT takes over
BUILD_SECONDS_PER_CANDIDATE = 1e-4  # a generous estimate of model building time (measured ~40 us)
GREEDY_STARTS, GREEDY_STARTS_MANY, MANY_CANDIDATES = 12, 3, 5000  # fewer greedy restarts on long lists


def solve_run(board: Board, opts: SolveOptions, track_group: TrackGroup = one_group) -> SolveResult:
    """The best legal route set under the generic rules: enumerate, bound, prune, pack, re-check."""
    budget = Budget.starting_now(opts.time_limit_s)
    reps, members = train_classes(board.trains)
    counts = [len(m) for m in members]
    prepared = opts.prepared  # the what-if scenarios' shared leg graph and candidates (solver.whatif.shared)
    graph = build_leg_graph(board) if prepared is None else prepared.leg_graph(board)
    terms = run_terms(board, reps)  # the modifiers' run rules (None without any)
    with_subsidy = opts.objective != Objective.REVENUE_ONLY  # the default: the company's whole income
    priced: dict[str, float] = {}
    overlap = overlap_rule(board.modifiers)
    groups = [track_group(board, t) + overlap_group(overlap, t.name, 0) for t in reps]

    def lower_of(some: list[Candidate]) -> int:  # a legal run of some candidates: a lower bound on the optimum
        return run_value(some, greedy(some, counts, groups, GREEDY_STARTS_MANY, None, terms, opts.cancel), terms) or 0

    # many routes and no best-route award: price the promising routes first, the rest only if they could matter
    lazy = LazyBound(counts, lower_of, terms.qualifies if terms is not None else lambda c: False) \
        if terms is None or not terms.best else None
    # one train and no run rules: the best run is the best route, so only routes that beat all before are kept
    find_routes = candidate_routes if prepared is None else prepared.candidate_routes
    cands, exhaustive = find_routes(board, graph, reps, opts.candidate_cap, budget.until("enumerate"),
                                    walk_deadline=budget.until("walk"), cancel=opts.cancel,
                                    best_only=terms is None and len(board.trains) == 1, stats=priced,
                                    with_subsidy=with_subsidy, lazy=lazy)
    stats: dict[str, float] = {"candidates": priced["routes_walked"], "kept": float(len(cands)),
                               "classes": float(len(reps)), "enumerate_ms": budget.elapsed_ms(),
                               "workers": float(opts.workers), "never_priced": priced.get("never_priced", 0.0)}
    if overlap is not None and overlap.scope == "route":  # routes may share track: no conflicts between them
        groups = [f"class{ci}" for ci in range(len(reps))]
        cands = routes_share_track(cands, counts, copies=stop_pays_once(board.modifiers) is None)
    t_bound = time.monotonic()
    starts = GREEDY_STARTS if len(cands) <= MANY_CANDIDATES else GREEDY_STARTS_MANY
    if terms is None and len(cands) > MANY_CANDIDATES:
        starts = 1  # the exact branch and bound follows, whatever the lower bound; it only feeds the pruning
    lower_pack = greedy(cands, counts, groups, starts, budget.until("greedy"), terms, opts.cancel)
    lower = run_value(cands, lower_pack, terms) or 0
    cands, lower_pack, upper = prune(cands, counts, lower, lower_pack, terms)
    stats["after_prune"] = float(len(cands))
    stats["bound_ms"] = (time.monotonic() - t_bound) * 1000.0  # the greedy packing and the pruning
    # building the packing model costs time per candidate; without that time, keep the greedy packing
    no_time = time.monotonic() + len(cands) * BUILD_SECONDS_PER_CANDIDATE > budget.until("build")

    def run_pack(stop: CancelToken | None = None, workers: int | None = None) -> tuple:
        if no_time:
            return Status.UNKNOWN, lower_pack, -1, {}
        for c in cands:  # the track bits of the CP-SAT constraints (none for routes that may share track)
            c.bits = tuple(graph.route_bits(c.legs)) if c.mask else ()
        return pack(cands, counts, opts, budget.search_end, lower_pack, groups, terms, stop, workers)

    if wants_compact(board, reps, groups, exhaustive):  # cut short: race the compact model, which sees every route
        won = race(board, graph, reps, counts, cands, lower_pack, exhaustive, budget.search_end, run_pack, opts.cancel)
        stats.update(won.stats)
        cands, chosen, status, bound = won.cands, won.chosen, Status(won.status), won.bound
        exhaustive = bound >= 0  # the compact model's bound covers the routes never listed
    elif not cands:
        status, chosen, bound = Status.OPTIMAL, [], 0
    elif lower >= upper:  # the greedy packing reaches the conflict-free bound: proven optimal
        status, chosen, bound = Status.OPTIMAL, lower_pack, lower
    else:
        status, chosen, bound, pstats = Status.UNKNOWN, lower_pack, -1, {}
        if terms is None:  # plain packing: the branch and bound first, CP-SAT after it
            status, chosen, bound, pstats = exact_packing(cands, counts, groups, lower, lower_pack,
                                                         budget.share_of_search(BB_SHARE), opts.cancel)
            if status == Status.UNKNOWN:
                lower_pack = chosen  # the best packing found: CP-SAT's hint
        stats.update(pstats)
        if status == Status.UNKNOWN:
            status, chosen, bound, pstats = run_pack()
            stats.update(pstats)
        if status == Status.UNKNOWN:
            status, chosen, bound = Status.FEASIBLE, lower_pack, -1
    if not exhaustive:
        status = Status.FEASIBLE
    best = run_value(cands, chosen, terms) or 0  # the objective: revenue (+ subsidy)
    if not exhaustive:  # some routes were never seen: only a bound over every stop holds
        bound = max(best, sum(stop_bound(board, t) for t in board.trains) + modifier_bound(board))
    elif bound < best:  # every route was seen: the conflict-free packing bound holds
        bound = max(best, upper)
    stats["solve_ms"] = budget.elapsed_ms()
    claims = claims_of_choice(cands, chosen, members)
    if board.modifiers:  # an award to the last route goes to the route with the largest bonus
        claims = [claims[i] for i in order_for_awards(board.modifiers,
                                                      [run_route(board, c.train, c.nodes, 0) for c in claims])]
    evaluation = evaluate_run(board, claims, track_group)
    recheck(board, evaluation, best, counts_subsidy=with_subsidy)
    return SolveResult(revenue=evaluation.revenue, status=status, bound=bound, routes=evaluation.routes, stats=stats,
                       evaluation=evaluation, subsidy=evaluation.subsidy)


def routes_share_track(cands: list[Candidate], counts: list[int], copies: bool) -> list[Candidate]:
    """Candidates for a board whose routes may share track (OverlapRule scope "route"): no track
    conflicts between routes, and (`copies`) one copy of a route per further train of a class, so that
    two trains of a class may run the same route."""
    out = [replace(c, mask=0, bits=(), _totals=None) for c in cands]
    if copies:
        extra = max(counts, default=1) - 1
        out += [replace(c, revenue={ci: v for ci, v in c.revenue.items() if counts[ci] > k + 1}, _totals=None)
                for k in range(extra) for c in out if any(counts[ci] > k + 1 for ci in c.revenue)]
    return out
