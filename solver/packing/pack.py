"""Packing candidate routes onto trains: train classes, the no-shared-track constraint, a greedy
packing for a lower bound, bound-based pruning and the CP-SAT packing model of the generic rules.

Identical trains form one class with a count, so the model has no train symmetry.
"""

from __future__ import annotations

import heapq
import math
import time
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import chain
from operator import itemgetter

import numpy as np
from ortools.sat.python import cp_model

from solver.model.board import Board, Train
from solver.model.cancel import CancelToken
from solver.model.results import ClaimedRoute, SolveOptions, Status
from solver.modifiers.packing_terms import RunTerms
from solver.packing.cpsat import is_solution, run_cpsat
from solver.packing.outcome import Choice, Packing
from solver.routes.claims import TrainIds, claim_of
from solver.routes.priced_on_read import PricedOnRead, candidate_totals
from solver.routes.pricing import Candidate


def train_classes(trains: list[Train]) -> tuple[list[Train], list[list[Train]]]:
    """Group interchangeable trains: one representative per class, and the members of each."""
    groups: dict[tuple, list[Train]] = defaultdict(list)
    for t in trains:
        groups[t.spec_key()].append(t)
    members = list(groups.values())
    return [m[0] for m in members], members


TrackUse = tuple[Hashable, Iterable[int], cp_model.IntVar]  # (track group, track bits, route literal)
BUILD_CHECK_EVERY = 4096  # options or track bits between looks at the clock while a model is built


def forbid_shared_track(model: cp_model.CpModel, uses: Iterable[TrackUse],
                        expired: Callable[[], bool] | None = None) -> bool:
    """No track is used twice within a group: for each (group, track bit), at most one of the
    literals whose route occupies that bit. `uses` gives (group, bits, literal) per route option.
    `expired` is asked every BUILD_CHECK_EVERY options and track bits: False when it cut the constraints
    short (the model is then incomplete), else True."""
    by_bit: dict[tuple[Hashable, int], list[cp_model.IntVar]] = defaultdict(list)
    for i, (group, bits, lit) in enumerate(uses):
        if expired is not None and i % BUILD_CHECK_EVERY == BUILD_CHECK_EVERY - 1 and expired():
            return False
        for bit in bits:
            by_bit[(group, bit)].append(lit)
    seen: set[tuple[int, ...]] = set()
    for i, lits in enumerate(by_bit.values()):
        if expired is not None and i % BUILD_CHECK_EVERY == BUILD_CHECK_EVERY - 1 and expired():
            return False
        if len(lits) < 2:
            continue
        key = tuple(v.index for v in lits)
        if key in seen:
            continue
        seen.add(key)
        model.add_at_most_one(lits)
    return True


def stop_bound(board: Board, train: Train) -> int:
    """A weak but valid upper bound on one train's route revenue: its best-paying stops."""
    values = sorted((max(n.revenue_by_train.get(train.name, 0), n.revenue * train.multiplier *
                         max([r.multiplier for r in train.rows] or [1]))
                     for n in board.nodes.values() if n.kind != "junction"), reverse=True)
    if train.unit in ("stops", "stops_by_type") and train.distance < len(values):
        free = sum(1 for n in board.nodes.values() if n.visit_cost == 0)
        return sum(values[: train.distance + free])
    return sum(values)


def run_value(cands: list[Candidate], chosen: list[Choice], terms: RunTerms | None = None) -> int | None:
    """The value of chosen (candidate, class) options: their sum, with the modifiers' run rules
    when there are any (None: the run breaks a RequiredRoute)."""
    if terms is None:
        return sum(sum(cands[r].revenue[ci]) for r, ci in chosen)
    return terms.value(cands, chosen)


def pack(cands: list[Candidate], counts: list[int], opts: SolveOptions, deadline: float,
         hint: list[Choice], groups: list[str], terms: RunTerms | None = None, stop: CancelToken | None = None,
         workers: int | None = None) -> Packing:
    """Solve the packing (with the modifiers' run terms, when given), until `deadline` or `stop`
    (default: the options' cancel token). UNKNOWN (no solution in time) keeps the hint as `chosen`."""
    stop = stop if stop is not None else opts.cancel

    def expired() -> bool:
        return time.monotonic() > deadline or (stop is not None and stop.cancelled)

    model = cp_model.CpModel()
    xs: dict[Choice, cp_model.IntVar] = {}
    by_class: dict[int, list[cp_model.IntVar]] = defaultdict(list)
    weights: list[int] = []
    for r, cand in enumerate(cands):
        if r % 512 == 511 and expired():
            return Packing(Status.UNKNOWN, hint, None, {"variables": float(len(xs)), "build_cut": 1.0})
        for ci, stops in cand.revenue.items():
            x = model.new_bool_var(f"x{r}_{ci}")
            xs[(r, ci)] = x
            by_class[ci].append(x)
            weights.append(sum(stops))
        for group in {groups[ci] for ci in cand.revenue}:  # a route runs once per track group
            same = [xs[(r, ci)] for ci in cand.revenue if groups[ci] == group]
            if len(same) > 1:
                model.add_at_most_one(same)
    for ci, vs in by_class.items():
        model.add(sum(vs) <= counts[ci])
    if not forbid_shared_track(model, ((groups[ci], cands[r].bits, x) for (r, ci), x in xs.items()), expired):
        return Packing(Status.UNKNOWN, hint, None, {"variables": float(len(xs)), "build_cut": 1.0})
    extra = terms.add_to_model(model, xs, cands) if terms is not None else []  # modifiers' run rules
    model.maximize(cp_model.LinearExpr.weighted_sum(list(xs.values()) + [v for _, v in extra],
                                                    weights + [c for c, _ in extra]))
    for pair in hint:
        model.add_hint(xs[pair], 1)
    solver, code = run_cpsat(model, deadline, workers or opts.workers, stop)
    stats = {"variables": float(len(xs)), "cpsat_wall_ms": solver.wall_time * 1000.0}
    if not is_solution(code):
        return Packing(Status.UNKNOWN, hint, None, stats)
    chosen = [pair for pair, x in xs.items() if solver.value(x)]
    status = Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE
    return Packing(status, chosen, int(solver.best_objective_bound + 1e-6), stats)


def greedy(cands: Sequence[Candidate], counts: list[int], groups: list[str], starts: int = 12,
           deadline: float | None = None, terms: RunTerms | None = None,
           cancel: CancelToken | None = None) -> list[Choice]:
    """A quick legal packing: best-paying candidates first, restarted from each of the best
    few candidates forced in first; the best of these runs (valued with the run rules). Values and track
    are read without making a candidate that is made on read (`candidate_totals`, `PricedOnRead.masks`)."""
    # a route's track: from the list of one made on read, else from the candidate (most runs stop early, and
    # building a list of every mask would cost more)
    mask_of = cands.masks.__getitem__ if isinstance(cands, PricedOnRead) else (lambda r: cands[r].mask)
    order = [(v, r, ci) for r, totals in enumerate(candidate_totals(cands)) for ci, v in totals.items()]
    order.sort(key=itemgetter(0), reverse=True)  # by value alone: ties keep the route order (and sort fast)
    need = sum(counts)
    if terms is not None and terms.route_cap is not None:
        need = min(need, terms.route_cap)

    def run(first: tuple[int, int, int] | None) -> tuple[int, list[Choice]]:
        left = list(counts)
        used_mask: dict[str, int] = defaultdict(int)
        used_r: set[tuple[int, str]] = set()
        out, total = [], 0
        seq = chain([first], order) if first else order  # no copy of a long list per restart
        for k, (v, r, ci) in enumerate(seq):
            if k % 4096 == 4095 and out and ((deadline is not None and time.monotonic() > deadline)
                                             or (cancel is not None and cancel.cancelled)):
                break
            g = groups[ci]
            if left[ci] and (r, g) not in used_r and not (mask := mask_of(r)) & used_mask[g]:
                out.append((r, ci))
                total += v
                left[ci] -= 1
                used_r.add((r, g))
                used_mask[g] |= mask
                if len(out) == need:
                    break
        if terms is not None:
            value = terms.value(cands, out)
            return (-1, []) if value is None else (value, out)
        return total, out

    best = run(None)
    firsts = order[1:starts] + (terms.seeds(order, cands, starts) if terms is not None else [])
    for first in firsts:
        if (deadline is not None and time.monotonic() > deadline) or (cancel is not None and cancel.cancelled):
            break
        best = max(best, run(first), key=lambda x: x[0])
    return best[1] if best[0] >= 0 else []


def prune(cands: Sequence[Candidate], counts: list[int], lower: int, keep: list[Choice],
          terms: RunTerms | None = None) -> tuple[Sequence[Candidate], list[Choice], int]:
    """Drop (route, class) options that cannot beat the known lower bound: even paired with the
    best routes of every other train (conflicts ignored, the largest run bonuses added) they earn
    no more than `lower`; a route a RequiredRoute accepts is always kept. Also returns that
    conflict-free upper bound on the whole packing."""
    values = candidate_totals(cands)  # each option's value
    drop = terms is not None and terms.drop_at is not None
    if drop:  # a route the DropLowestRoute drops keeps its subsidy: an option adds at most its value or that
        values = [{ci: max(v, c.subsidy.get(ci, 0)) for ci, v in vs.items()} for c, vs in zip(cands, values)]
    tops, lows = _class_tops(values, counts)
    upper = sum(sum(t) for t in tops.values()) + (terms.upper_extra(cands) if terms is not None else 0)
    if terms is None and upper > lower and all(lows[ci] > lower - upper + t[-1] for ci, t in tops.items()
                                               if len(t) == counts[ci]):
        # every option could beat `lower` (the least of each class is above its `floor` below): none dropped
        # (a list made on read stays so), and the known packing's pairs in the order the loop gives them
        return cands if isinstance(cands, PricedOnRead) else list(cands), \
            sorted(keep, key=lambda p: (p[0], list(values[p[0]]).index(p[1]))), upper
    # an option beats `lower` paired with the best of every other train when it earns more than its class's
    # floor: upper - t[-1] + v > lower for the class's weakest top t[-1] (any option, with fewer options than
    # trains); none does when upper <= lower
    floor = {ci: (lower - upper + t[-1] if len(t) == counts[ci] else -math.inf) if upper > lower else math.inf
             for ci, t in tops.items()}
    if drop:
        # an option may be the route a DropLowestRoute drops: a run with it is then worth at most the best of the
        # other trains, upper - t[-1], and its subsidy (which its value above holds), whatever the option earns
        floor = {ci: -math.inf if upper - (t[-1] if len(t) == counts[ci] else 0) > lower else f
                 for (ci, f), t in zip(floor.items(), tops.values())}
    kept_at: dict[int, set[int]] = defaultdict(set)  # the known packing's classes per route
    for r, ci in keep:
        kept_at[r].add(ci)
    out: list[Candidate] = []
    new_keep: list[Choice] = []
    for r, c in enumerate(cands):
        vs = values[r]
        mine = kept_at.get(r)
        if mine is None:
            for ci, v in vs.items():
                if v <= floor[ci]:
                    break
            else:  # the common case: every class keeps the route as it is
                out.append(c)
                continue
        required = terms is not None and terms.qualifies(c)
        kept = [ci for ci, v in vs.items() if required or v > floor[ci] or (mine is not None and ci in mine)]
        if not kept:
            continue
        if mine is not None:
            new_keep.extend((len(out), ci) for ci in kept if ci in mine)
        out.append(c if len(kept) == len(c.revenue) else  # the common case: the route as it is
                   Candidate(nodes=c.nodes, legs=c.legs, mask=c.mask, revenue={ci: c.revenue[ci] for ci in kept},
                             bits=c.bits, subsidy={ci: v for ci, v in c.subsidy.items() if ci in kept}))
    return out, new_keep, upper


def conflict_free_bound(cands: Sequence[Candidate], counts: list[int]) -> int:
    """The best routes of every train, conflicts ignored: a bound on any packing without run rules."""
    found = cands.class_values() if isinstance(cands, PricedOnRead) else None
    tops = _columns_tops(*found, counts) if found is not None else _class_tops(candidate_totals(cands), counts)[0]
    return sum(sum(t) for t in tops.values())


def _columns_tops(columns: np.ndarray, present: np.ndarray, counts: list[int]) -> dict[int, list[int]]:
    """`_class_tops`' best option values per class, from the values as arrays (`PricedOnRead.class_values`)."""
    tops: dict[int, list[int]] = {}
    for ci in sorted(np.flatnonzero(present.any(axis=1)).tolist(), key=lambda c: int(present[c].argmax())):
        vs = columns[ci, present[ci]]  # in `_class_tops`' order: the classes as the routes first list them
        if len(vs) > counts[ci]:
            vs = np.partition(vs, len(vs) - counts[ci])[len(vs) - counts[ci]:]
        tops[ci] = [max(v, 0) for v in sorted(vs.tolist(), reverse=True)]
    return tops


def _class_tops(values: Sequence[dict[int, int]], counts: list[int]) -> tuple[dict[int, list[int]], dict[int, int]]:
    """Per train class, its `counts[ci]` best option values and its least option value."""
    per_class: dict[int, list[int]] = defaultdict(list)
    for vs in values:
        for ci, v in vs.items():
            per_class[ci].append(v)
    lows = {ci: min(vs) for ci, vs in per_class.items()}
    # a train may run no route: it adds at least nothing (options worth nothing or less are kept where a run
    # rule may want them: `CandidatePricer.keep_zero`)
    return {ci: [max(v, 0) for v in heapq.nlargest(counts[ci], vs)] for ci, vs in per_class.items()}, lows


def claims_of_choice(cands: list[Candidate], chosen: list[Choice], members: list[list[Train]]) -> list[ClaimedRoute]:
    """The chosen routes as claims with train ids, best-paying first within a class, in train order."""
    ids = TrainIds([[t.id for t in m] for m in members])
    claims = [claim_of(ids.next(ci), cands[r].nodes, cands[r].legs)
              for r, ci in sorted(chosen, key=lambda p: (p[1], -sum(cands[p[0]].revenue[p[1]])))]
    order = {t.id: i for i, t in enumerate(t for m in members for t in m)}
    claims.sort(key=lambda c: order[c.train])
    return claims
