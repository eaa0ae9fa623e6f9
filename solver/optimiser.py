"""The optimiser: chooses one candidate route per train so that no track is shared, maximising
revenue, as a CP-SAT packing model.

Identical trains form one class with a count, so the model has no train symmetry. Every answer
is re-checked by the evaluator before it is returned; a disagreement raises.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from solver.board import Board, Train
from solver.candidates import Candidate, build_leg_graph, candidate_routes
from solver.errors import EvaluatorDisagreement
from solver.evaluator import ClaimedRoute, Evaluation, PricedRoute, evaluate
from solver.gcpause import gc_paused
from solver.modifiers.packing_terms import RunTerms, modifier_bound, run_terms
from solver.modifiers.run_terms import order_for_awards
from solver.route_rules import track_group

OPTIMAL = "OPTIMAL"
FEASIBLE = "FEASIBLE"
INFEASIBLE = "INFEASIBLE"
UNKNOWN = "UNKNOWN"  # the deadline passed before any legal route set was found
BUILD_SECONDS_PER_CANDIDATE = 1e-4  # a generous estimate of model building time (measured ~40 us)


@dataclass
class SolveOptions:
    time_limit_s: float = 10.0
    workers: int = 1
    candidate_cap: int = 2_000_000
    objective: str | None = None  # RULEBOOK or REVENUE_ONLY (1873); None: the ruleset's default


@dataclass
class SolveResult:
    revenue: int
    status: str
    bound: int
    routes: list[PricedRoute]
    stats: dict[str, float] = field(default_factory=dict)
    evaluation: Evaluation | None = None
    details: dict[str, Any] = field(default_factory=dict)  # ruleset extras (1873: net revenue, tokens)


def train_classes(trains: list[Train]) -> tuple[list[Train], list[list[Train]]]:
    """Group interchangeable trains: one representative per class, and the members of each."""
    groups: dict[tuple, list[Train]] = defaultdict(list)
    for t in trains:
        groups[t.spec_key()].append(t)
    members = list(groups.values())
    return [m[0] for m in members], members


def _stop_bound(board: Board, train: Train) -> int:
    """A weak but valid upper bound on one train's route revenue: its best-paying stops."""
    values = sorted((max(n.revenue_by_train.get(train.name, 0), n.revenue * train.multiplier *
                         max([r.multiplier for r in train.rows] or [1]))
                     for n in board.nodes.values() if n.kind != "junction"), reverse=True)
    if train.unit in ("stops", "stops_by_type") and train.distance < len(values):
        free = sum(1 for n in board.nodes.values() if n.visit_cost == 0)
        return sum(values[: train.distance + free])
    return sum(values)


def run_value(cands: list[Candidate], chosen: list[tuple[int, int]], terms: RunTerms | None = None) -> int | None:
    """The value of chosen (candidate, class) options: their sum, with the modifiers' run rules
    when there are any (None: the run breaks a RequiredRoute)."""
    if terms is None:
        return sum(sum(cands[r].revenue[ci]) for r, ci in chosen)
    return terms.value(cands, chosen)


def _pack(cands: list[Candidate], counts: list[int], opts: SolveOptions, deadline: float,
          hint: list[tuple[int, int]], groups: list[str],
          terms: RunTerms | None = None) -> tuple[str, list[tuple[int, int]], int, dict[str, float]]:
    """Solve the packing; returns status, chosen (candidate, class) pairs, bound, stats."""
    model = cp_model.CpModel()
    xs: dict[tuple[int, int], cp_model.IntVar] = {}
    by_class: dict[int, list[cp_model.IntVar]] = defaultdict(list)
    by_bit: dict[tuple[str, int], list[int]] = defaultdict(list)  # (track group, bit) -> candidates using it
    weights: list[int] = []
    for r, cand in enumerate(cands):
        for ci, stops in cand.revenue.items():
            x = model.NewBoolVar(f"x{r}_{ci}")
            xs[(r, ci)] = x
            by_class[ci].append(x)
            weights.append(sum(stops))
        for group in {groups[ci] for ci in cand.revenue}:  # a route runs once per track group
            same = [xs[(r, ci)] for ci in cand.revenue if groups[ci] == group]
            if len(same) > 1:
                model.AddAtMostOne(same)
            for bit in cand.bits:
                by_bit[(group, bit)].append(r)
    for ci, vs in by_class.items():
        model.Add(sum(vs) <= counts[ci])
    seen: set[tuple] = set()
    for (group, _bit), users in by_bit.items():
        lits = [xs[(r, ci)] for r in users for ci in cands[r].revenue if groups[ci] == group]
        key = (group, tuple(users))
        if key in seen or len(lits) < 2:
            continue
        seen.add(key)
        model.AddAtMostOne(lits)
    extra = terms.add_to_model(model, xs, cands) if terms is not None else []  # modifiers' run rules
    model.Maximize(cp_model.LinearExpr.WeightedSum(list(xs.values()) + [v for _, v in extra],
                                                   weights + [c for c, _ in extra]))
    for pair in hint:
        model.AddHint(xs[pair], 1)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.001, deadline - time.monotonic())
    solver.parameters.num_workers = opts.workers
    code = solver.Solve(model)
    stats = {"variables": float(len(xs)), "cpsat_wall_ms": solver.WallTime() * 1000.0}
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "UNKNOWN", hint, -1, stats
    chosen = [pair for pair, x in xs.items() if solver.Value(x)]
    status = OPTIMAL if code == cp_model.OPTIMAL else FEASIBLE
    return status, chosen, int(solver.BestObjectiveBound() + 1e-6), stats


def _greedy(cands: list[Candidate], counts: list[int], groups: list[str], starts: int = 12,
            deadline: float | None = None, terms: RunTerms | None = None) -> list[tuple[int, int]]:
    """A quick legal packing: best-paying candidates first, restarted from each of the best
    few candidates forced in first; the best of these runs (valued with the run rules)."""
    order = sorted(((sum(st), r, ci) for r, c in enumerate(cands) for ci, st in c.revenue.items()), reverse=True)
    need = sum(counts)
    if terms is not None and terms.route_cap is not None:
        need = min(need, terms.route_cap)

    def run(first: tuple[int, int, int] | None) -> tuple[int, list[tuple[int, int]]]:
        left = list(counts)
        used_mask: dict[str, int] = defaultdict(int)
        used_r: set[tuple[int, str]] = set()
        out, total = [], 0
        seq = ([first] if first else []) + order
        for v, r, ci in seq:
            g = groups[ci]
            if left[ci] and (r, g) not in used_r and not cands[r].mask & used_mask[g]:
                out.append((r, ci))
                total += v
                left[ci] -= 1
                used_r.add((r, g))
                used_mask[g] |= cands[r].mask
                if len(out) == need:
                    break
        if terms is not None:
            value = terms.value(cands, out)
            return (-1, []) if value is None else (value, out)
        return total, out

    best = run(None)
    firsts = order[1:starts] + (terms.seeds(order, cands, starts) if terms is not None else [])
    for first in firsts:
        if deadline is not None and time.monotonic() > deadline:
            break
        best = max(best, run(first), key=lambda x: x[0])
    return best[1] if best[0] >= 0 else []


def _prune(cands: list[Candidate], counts: list[int], lower: int, keep: list[tuple[int, int]],
           terms: RunTerms | None = None) -> tuple[list[Candidate], list[tuple[int, int]], int]:
    """Drop (route, class) options that cannot beat the known lower bound: even paired with the
    best routes of every other train (conflicts ignored, the largest run bonuses added) they earn
    no more than `lower`; a route a RequiredRoute accepts is always kept. Also returns that
    conflict-free upper bound on the whole packing."""
    tops: dict[int, list[int]] = defaultdict(list)
    for c in cands:
        for ci, st in c.revenue.items():
            tops[ci].append(sum(st))
    for ci in tops:
        tops[ci] = sorted(tops[ci], reverse=True)[: counts[ci]]
    upper = sum(sum(t) for t in tops.values()) + (terms.upper_extra(cands) if terms is not None else 0)
    kept_pairs = set(keep)
    out: list[Candidate] = []
    new_keep: list[tuple[int, int]] = []
    for r, c in enumerate(cands):
        rev = {}
        required = terms is not None and terms.qualifies(c)
        for ci, st in c.revenue.items():
            v, t = sum(st), tops[ci]
            ub = upper - t[-1] + v if len(t) == counts[ci] and v < t[-1] else upper
            if ub > lower or (r, ci) in kept_pairs or required:
                rev[ci] = st
                if (r, ci) in kept_pairs:
                    new_keep.append((len(out), ci))
        if rev:
            out.append(Candidate(nodes=c.nodes, legs=c.legs, mask=c.mask, revenue=rev, bits=c.bits))
    return out, new_keep, upper


def solve(board: Board, opts: SolveOptions | None = None) -> SolveResult:
    """The company's maximum revenue under the board's ruleset, with routes, status and bound."""
    opts = opts or SolveOptions()
    with gc_paused():
        if board.ruleset == "1873":
            from solver.h1873.solve import solve_1873

            return solve_1873(board, opts)
        if board.ruleset == "1839":
            from solver.r1839.solve import solve_1839

            return solve_1839(board, opts)
        if board.ruleset == "1871sc":
            from solver.r1871sc import prepare_1871sc

            return _solve_standard(prepare_1871sc(board), opts)
        return _solve_standard(board, opts)


def _solve_standard(board: Board, opts: SolveOptions) -> SolveResult:
    """The generic 18xx optimiser."""
    t0 = time.monotonic()
    deadline = t0 + opts.time_limit_s
    reps, members = train_classes(board.trains)
    counts = [len(m) for m in members]
    graph = build_leg_graph(board)
    # candidates get under half the time: the greedy, the pruning and the packing need the rest
    cands, exhaustive = candidate_routes(board, graph, reps, opts.candidate_cap, t0 + opts.time_limit_s * 0.45)
    t1 = time.monotonic()
    stats: dict[str, float] = {"candidates": float(len(cands)), "classes": float(len(reps)),
                               "enumerate_ms": (t1 - t0) * 1000.0}
    groups = [track_group(board, t) for t in reps]
    terms = run_terms(board)  # the modifiers' run rules (None without any)
    greedy = _greedy(cands, counts, groups, deadline=deadline - 0.1 * opts.time_limit_s, terms=terms)
    lower = run_value(cands, greedy, terms) or 0
    cands, greedy, upper = _prune(cands, counts, lower, greedy, terms)
    stats["after_prune"] = float(len(cands))
    # building the packing model costs time per candidate; without that time, keep the greedy packing
    no_time = time.monotonic() + len(cands) * BUILD_SECONDS_PER_CANDIDATE > deadline - 0.05 * opts.time_limit_s
    if not no_time:
        for c in cands:
            c.bits = tuple(graph.route_bits(c.legs))
    if not cands:
        status, chosen, bound = OPTIMAL, [], 0
    elif lower >= upper:  # the greedy packing reaches the conflict-free bound: proven optimal
        status, chosen, bound = OPTIMAL, greedy, lower
    elif no_time:
        status, chosen, bound = FEASIBLE, greedy, -1
    else:
        status, chosen, bound, pstats = _pack(cands, counts, opts, deadline, greedy, groups, terms)
        stats.update(pstats)
        if status == "UNKNOWN":
            status, chosen, bound = FEASIBLE, greedy, -1
    if not exhaustive:
        status = FEASIBLE
    best = run_value(cands, chosen, terms) or 0
    if not exhaustive:  # some routes were never seen: only a bound over every stop holds
        bound = max(best, sum(_stop_bound(board, t) for t in board.trains) + modifier_bound(board))
    elif bound < best:  # every route was seen: the conflict-free packing bound holds
        bound = max(best, upper)
    stats["solve_ms"] = (time.monotonic() - t0) * 1000.0
    claims = _claims(cands, chosen, members)
    if board.modifiers:  # an award to the last route goes to the route with the largest bonus
        claims = [claims[i] for i in order_for_awards(board.modifiers,
                                                      [[board.nodes[n].hex for n in c.nodes] for c in claims])]
    evaluation = evaluate(board, claims)
    if not evaluation.legal or evaluation.revenue != best:
        raise EvaluatorDisagreement(
            f"{board.label()}: optimiser claims {best} but the evaluator says {evaluation.revenue} "
            f"(legal={evaluation.legal}; {[f.message for f in evaluation.findings]})")
    return SolveResult(revenue=best, status=status, bound=bound, routes=evaluation.routes, stats=stats,
                       evaluation=evaluation)


def _claims(cands: list[Candidate], chosen: list[tuple[int, int]], members: list[list[Train]]) -> list[ClaimedRoute]:
    next_member = [0] * len(members)
    claims = []
    for r, ci in sorted(chosen, key=lambda p: (p[1], -sum(cands[p[0]].revenue[p[1]]))):
        train = members[ci][next_member[ci]]
        next_member[ci] += 1
        cand = cands[r]
        claims.append(ClaimedRoute(train=train.id, nodes=list(cand.nodes), legs=[list(leg.paths) for leg in cand.legs]))
    order = {t.id: i for i, t in enumerate(t for m in members for t in m)}
    claims.sort(key=lambda c: order[c.train])
    return claims
