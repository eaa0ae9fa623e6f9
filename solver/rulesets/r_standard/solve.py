"""The generic optimiser, in named phases: enumerate the candidate routes, bound (a greedy packing
and the pruning it allows; on a long complete list without run rules, the conflict-free bound alone),
search (the strategies, each giving a `Packing`), certify (status and bound over every route) and
answer (claims, the evaluator's re-check, the result)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from solver.model.board import Board, Train
from solver.model.cancel import CancelToken
from solver.model.results import ClaimedRoute, Objective, SolveOptions, SolveResult, Status
from solver.modifiers.apply import run_route
from solver.modifiers.award_prices import award_changes, option_key
from solver.modifiers.model import ROUTE_BONUSES, BestRouteBonus
from solver.modifiers.packing_terms import RunTerms, modifier_bound, run_terms
from solver.modifiers.settle import award_stop_count, order_for_awards
from solver.modifiers.sharing import overlap_group, overlap_rule, stop_pays_once
from solver.packing.award_pack import award_packing, award_search_fits
from solver.packing.budget import Budget
from solver.packing.once_pack import once_packing, once_search_fits
from solver.packing.outcome import Choice, Packing
from solver.packing.pack import (
    BUILD_CHECK_EVERY,
    claims_of_choice,
    conflict_free_bound,
    greedy,
    pack,
    prune,
    run_value,
    stop_bound,
    train_classes,
)
from solver.packing.pair import best_pair
from solver.packing.portfolio import race, wants_compact
from solver.packing.recheck import recheck
from solver.packing.setpack import exact_packing
from solver.routes.candidates import LazyBound, candidate_routes
from solver.routes.leg_graph import LegGraph, build_leg_graph
from solver.routes.pricing import Candidate
from solver.routes.station_reach import token_reach
from solver.rulesets.r_standard.evaluator import TrackGroup, evaluate_run, one_group

BB_SHARE = 0.7  # of the search time left, what the branch and bound may use before CP-SAT takes over
BUILD_SECONDS_PER_CANDIDATE = 1e-4  # a generous estimate of model building time (measured ~40 us)
GREEDY_STARTS, GREEDY_STARTS_MANY, MANY_CANDIDATES = 12, 3, 5000  # fewer greedy restarts on long lists
LAZY_TRAINS = 2  # the most trains for which candidates are priced lazily (`candidates.LazyBound`)


@dataclass
class _Run:
    """What one solve carries from phase to phase."""

    board: Board
    opts: SolveOptions
    track_group: TrackGroup
    budget: Budget
    reps: list[Train]  # one train per class
    members: list[list[Train]]  # the trains of each class
    counts: list[int]
    graph: LegGraph
    terms: RunTerms | None  # the modifiers' run rules (None without any)
    with_subsidy: bool
    groups: list[str]  # per class, its track group
    stats: dict[str, float]
    cands: Sequence[Candidate]  # a long list: `priced_on_read.PricedOnRead`
    exhaustive: bool  # every route was listed
    lower_pack: list[Choice] = field(default_factory=list)  # the best packing known before the search
    lower: int = 0
    upper: int = 0  # the conflict-free packing bound


def solve_run(board: Board, opts: SolveOptions, track_group: TrackGroup = one_group) -> SolveResult:
    """The best legal route set under the generic rules: enumerate, bound, search, certify, answer."""
    run = enumerate_phase(board, opts, track_group)
    found = one_train_phase(run)
    if found is None:
        bound_phase(run)
        found = search_phase(run)
    best, bound, status = certify_phase(run, found)
    return answer_phase(run, found, best, bound, status)


def enumerate_phase(board: Board, opts: SolveOptions, track_group: TrackGroup) -> _Run:
    """The candidate routes of every train class (shared by the what-if scenarios through
    `opts.prepared`), priced lazily where many routes could not matter."""
    budget = Budget.starting_now(opts.time_limit_s)
    reps, members = train_classes(board.trains)
    counts = [len(m) for m in members]
    prepared = opts.prepared  # the what-if scenarios' shared leg graph and candidates (solver.whatif.shared)
    graph = build_leg_graph(board, reach=token_reach(board, reps)) if prepared is None else prepared.leg_graph(board)
    terms = run_terms(board, reps)  # the modifiers' run rules (None without any)
    with_subsidy = opts.objective != Objective.REVENUE_ONLY  # the default: the company's whole income
    priced: dict[str, float] = {}
    overlap = overlap_rule(board.modifiers)
    groups = [track_group(board, t) + overlap_group(overlap, t.name, 0) for t in reps]

    def lower_of(some: list[Candidate]) -> int:  # a legal run of some candidates: a lower bound on the optimum
        starts = 1 if terms is None else GREEDY_STARTS_MANY  # without run rules the best pair follows
        found = run_value(some, greedy(some, counts, groups, starts, None, terms, opts.cancel), terms) or 0
        pair = best_pair(some, counts, groups, found, lambda leg: graph.bits[id(leg)]) if terms is None \
            else None  # two trains: the best pair (the track bits of a route: those of its legs)
        return max(found, run_value(some, pair) if pair else 0)

    # many routes, at most two trains and no best-route award: price the promising routes first, the rest only if
    # they could matter. With three trains or more the others' best routes leave almost every route able to
    # matter (5 % of the options went unpriced on the corpus and the stress set), and the rounds cost more
    # than pricing every route (the stress set's boards of three or four trains: about 30 % faster so)
    # (a DropLowestRoute may drop any route, so one that earns little may be worth running: no lazy build). Nor
    # where every train may visit every stop (two D): the other's best route takes in most of the board, so
    # nothing falls below the floor, and the rounds cost more than pricing every route (the stress set's 1856
    # #3, 33,680 routes and all priced either way: 481 -> 243 ms)
    lazy = LazyBound(counts, lower_of, terms.qualifies if terms is not None else None) \
        if (terms is None or (not terms.best and terms.drop_at is None)) and sum(counts) <= LAZY_TRAINS \
        and not all(_reaches_every_stop(board, graph, t) for t in reps) else None
    # one train and no run rules: the best run is the best route, so only that route is kept
    # a long list without run rules is read by its values and track alone (`conflict_free_bound`, the branch and
    # bound's options): its routes priced as usual become candidates when read (`candidates.candidate_routes`)
    on_read = {"on_read": True} if prepared is None and terms is None and overlap is None else {}
    find_routes = candidate_routes if prepared is None else prepared.candidate_routes
    cands, exhaustive = find_routes(board, graph, reps, opts.candidate_cap, budget.until("enumerate"),
                                    walk_deadline=budget.until("walk"), cancel=opts.cancel,
                                    best_only=terms is None and len(board.trains) == 1, stats=priced,
                                    with_subsidy=with_subsidy, lazy=lazy, **on_read)
    stats: dict[str, float] = {"candidates": priced["routes_walked"], "kept": float(len(cands)),
                               "classes": float(len(reps)), "enumerate_ms": budget.elapsed_ms(),
                               "workers": float(opts.workers), "never_priced": priced.get("never_priced", 0.0)}
    if overlap is not None and overlap.scope == "route":  # routes may share track: no conflicts between them
        groups = [f"class{ci}" for ci in range(len(reps))]
        # a second run of a route pays again, or under StopPaysOnce its bonuses alone (FORMAT.md: bonuses are
        # unaffected): copies where that can earn anything
        copies = stop_pays_once(board.modifiers) is None or any(isinstance(m, ROUTE_BONUSES) for m in board.modifiers)
        cands = routes_share_track(cands, counts, copies=copies)
    if terms is not None and terms.best:  # a list train's paying stops count an award it wins (FORMAT.md)
        terms.set_award_changes(award_changes(board, cands, reps, with_subsidy), [[t.id for t in m] for m in members])
    return _Run(board, opts, track_group, budget, reps, members, counts, graph, terms, with_subsidy, groups, stats,
                cands, exhaustive)


def _reaches_every_stop(board: Board, graph: LegGraph, train: Train) -> bool:
    """Whether a train counting plain stops may visit every stop of the leg graph in one route (a D)."""
    return train.unit == "stops" and not (train.klass or train.local) and \
        train.distance >= sum(board.nodes[n].visit_cost for n in graph.legs_from)


def one_train_phase(run: _Run) -> Packing | None:
    """With one train and every route listed, the best run is the best single route (none only when no
    route makes a legal run alone; a route worth nothing, such as one whose revenue a rule drops, is
    still shown): a scan over the candidates instead of a packing search. None for other boards, and
    when the scan runs out of time."""
    if sum(run.counts) != 1 or not run.exhaustive:
        return None
    best, chosen = (0, 0), []  # (run value, what the route's own stops and bonuses earn); the empty run
    cancel = run.opts.cancel
    for r, cand in enumerate(run.cands):
        if r % 1024 == 1023 and (time.monotonic() > run.budget.search_end or (cancel is not None and cancel.cancelled)):
            return None  # out of time: the packing search, which answers under its deadlines, takes over
        for ci, paid in cand.revenue.items():
            value = run_value(run.cands, [(r, ci)], run.terms)
            if value is None:
                continue  # not a legal run alone (a required route it is not)
            key = (value, sum(paid))  # of equal runs, the route that earns most itself, then the first listed
            if key > best or not chosen:
                best, chosen = key, [(r, ci)]
    if best[0] < 0:  # no route earns more than running none
        best, chosen = (0, 0), []
    value = best[0]
    run.lower_pack, run.lower, run.upper = chosen, value, value
    run.stats["after_prune"] = float(len(run.cands))
    run.stats["bound_ms"] = 0.0
    return Packing(Status.OPTIMAL, chosen, value)


def bound_phase(run: _Run) -> None:
    """A greedy packing (a lower bound) and the pruning of every candidate that cannot beat it; on a
    long complete list without run rules, the conflict-free bound alone (the branch and bound follows)."""
    t_bound = time.monotonic()
    if run.terms is None and run.exhaustive and len(run.cands) > MANY_CANDIDATES:
        # the exact branch and bound follows, and its first dive is this greedy packing; on such lists the
        # greedy scan itself costs 30 to 60 ms (the best route shares track with most others) and pruning by
        # it keeps nearly every route: only the conflict-free bound is taken
        run.upper = conflict_free_bound(run.cands, run.counts)
    else:
        starts = GREEDY_STARTS if len(run.cands) <= MANY_CANDIDATES else GREEDY_STARTS_MANY
        if run.terms is None and len(run.cands) > MANY_CANDIDATES:
            starts = 1  # a list cut short: a search follows whatever the lower bound, which only feeds the pruning
        lower_pack = greedy(run.cands, run.counts, run.groups, starts, run.budget.until("greedy"), run.terms,
                            run.opts.cancel)
        run.lower = run_value(run.cands, lower_pack, run.terms) or 0
        run.cands, run.lower_pack, run.upper = prune(run.cands, run.counts, run.lower, lower_pack, run.terms)
    run.stats["after_prune"] = float(len(run.cands))
    run.stats["bound_ms"] = (time.monotonic() - t_bound) * 1000.0  # the greedy packing and the pruning


def search_phase(run: _Run) -> Packing:
    """The best packing the strategies find in time: the race against the compact model when the
    enumeration was cut short, else the greedy packing when it is proven, else a branch and bound
    (plain packings; runs where a stop pays once; runs with best-route awards) and then CP-SAT;
    UNKNOWN from all of them leaves the best packing known (the greedy one, or the branch and
    bound's best), FEASIBLE."""
    cands, budget = run.cands, run.budget
    # building the packing model costs time per candidate; without that time, keep the best packing known
    no_time = time.monotonic() + len(cands) * BUILD_SECONDS_PER_CANDIDATE > budget.until("build")

    def run_pack(stop: CancelToken | None = None, workers: int | None = None) -> Packing:
        if no_time:
            return Packing(Status.UNKNOWN, run.lower_pack, None, {})
        for i, c in enumerate(cands):  # the track bits of the CP-SAT constraints (none for routes that may share track)
            if i % BUILD_CHECK_EVERY == BUILD_CHECK_EVERY - 1 and (time.monotonic() > budget.search_end or (
                    run.opts.cancel is not None and run.opts.cancel.cancelled)):
                return Packing(Status.UNKNOWN, run.lower_pack, None, {"build_cut": 1.0})
            c.bits = tuple(run.graph.route_bits(c.legs)) if c.mask else ()
        return pack(cands, run.counts, run.opts, budget.search_end, run.lower_pack, run.groups, run.terms, stop,
                    workers)

    if wants_compact(run.board, run.reps, run.groups, run.exhaustive):  # cut short: race the compact model
        won = race(run.board, run.graph, run.reps, run.counts, cands, run.lower_pack, run.exhaustive,
                   budget.search_end, run_pack, run.opts.cancel)
        run.stats.update(won.stats)
        if won.cands is not None:
            run.cands = won.cands
        run.exhaustive = won.bound is not None  # the compact model's bound covers the routes never listed
        return won
    if not cands:
        return Packing(Status.OPTIMAL, [], 0)
    if run.lower >= run.upper:  # the known packing reaches the conflict-free bound: proven optimal
        return Packing(Status.OPTIMAL, run.lower_pack, run.lower)
    found = Packing(Status.UNKNOWN, run.lower_pack, None)
    # a branch and bound first, CP-SAT after it
    if run.terms is None or once_search_fits(run.terms) or award_search_fits(run.terms):
        if run.terms is None:  # plain packing
            found = exact_packing(cands, run.counts, run.groups, run.lower, run.lower_pack,
                                  budget.share_of_search(BB_SHARE), run.opts.cancel)
        elif run.terms.units is None:  # best-route awards: a plain packing of the routes and their award twins
            found = award_packing(cands, run.counts, run.groups, run.terms, run.lower, run.lower_pack,
                                  budget.share_of_search(BB_SHARE), run.opts.cancel)
        else:  # a stop pays once
            found = once_packing(cands, run.counts, run.groups, run.terms.units or {}, run.lower, run.lower_pack,
                                 budget.share_of_search(BB_SHARE), run.opts.cancel)
        if found.status == Status.UNKNOWN:  # the best packing found (its first dive at least): CP-SAT's hint
            run.lower_pack = found.chosen
        run.stats.update(found.stats)
    if found.status == Status.UNKNOWN:
        found = run_pack()
        run.stats.update(found.stats)
    if found.status == Status.UNKNOWN:
        found = Packing(Status.FEASIBLE, run.lower_pack, None)
    return found


def certify_phase(run: _Run, found: Packing) -> tuple[int, int, Status]:
    """The value of the packing found, a bound that holds over every route, and the status: FEASIBLE
    whenever some routes were never listed."""
    status = found.status if run.exhaustive else Status.FEASIBLE
    best = run_value(run.cands, found.chosen, run.terms) or 0  # the objective: revenue (+ subsidy)
    if not run.exhaustive:  # some routes were never seen: only a bound over every stop holds
        bound = max(best, sum(stop_bound(run.board, t) for t in run.board.trains) + modifier_bound(run.board))
    elif found.bound is None or found.bound < best:  # every route was seen: the conflict-free packing bound holds
        bound = max(best, run.upper)
    else:
        bound = found.bound
    run.stats["solve_ms"] = run.budget.elapsed_ms()
    return best, bound, status


def answer_phase(run: _Run, found: Packing, best: int, bound: int, status: Status) -> SolveResult:
    """The chosen candidates as claimed routes with train ids, judged by the evaluator, which must
    confirm `best` (`recheck`)."""
    board = run.board
    claims = claims_of_choice(run.cands, found.chosen, run.members)
    if run.terms is not None and run.terms.changes:  # the award to the route the value gave it
        claims = award_to_winner(run, found.chosen, claims)
    elif board.modifiers:  # awards "last" go to the routes that earn the most (`settle.order_for_awards`)
        claims = [claims[i] for i in order_for_awards(board.modifiers,
                                                      [run_route(board, c.train, c.nodes, 0) for c in claims])]
    evaluation = evaluate_run(board, claims, run.track_group)
    recheck(board, evaluation, best, counts_subsidy=run.with_subsidy)
    return SolveResult(revenue=evaluation.revenue, status=status, bound=bound, routes=evaluation.routes,
                       stats=run.stats, evaluation=evaluation, subsidy=evaluation.subsidy)


def award_to_winner(run: _Run, chosen: list[Choice], claims: list[ClaimedRoute]) -> list[ClaimedRoute]:
    """The claims ordered, turned and numbered so that the evaluator gives the award to the route the run's
    value gave it (`RunTerms.winner`): last for `last`, first for `first_max`; for `most_visited_stops` the
    winner takes its class's greatest id and the routes tied with it the lowest ids of theirs
    (`award_winner.may_take_tie`); and run the way round that earns most when it wins (`award_prices`)."""
    terms = run.terms
    assert terms is not None
    won = terms.winner(run.cands, chosen)
    if won is None or won[0] is None:
        return claims
    r, ci = chosen[won[0]]
    cand = run.cands[r]
    legs = [list(leg.paths) for leg in cand.legs]
    class_of = {t.id: k for k, m in enumerate(run.members) for t in m}
    at = next(i for i, c in enumerate(claims)
              if class_of[c.train] == ci and tuple(c.nodes) == cand.nodes and c.legs == legs)
    change = terms.changes.get(option_key(cand, ci))
    if change is not None and change.back:
        claims[at] = replace(claims[at], nodes=list(reversed(claims[at].nodes)),
                             legs=[list(reversed(leg)) for leg in reversed(claims[at].legs)])
    award = terms.best[0]
    if award.award == "most_visited_stops":
        claims = _number_for_tie(run, claims, at, award)
    claim = claims.pop(at)
    return [claim, *claims] if award.award == "first_max" else [*claims, claim]


def _number_for_tie(run: _Run, claims: list[ClaimedRoute], at: int, award: BestRouteBonus) -> list[ClaimedRoute]:
    """Train ids for `most_visited_stops`: per class, the winner (claim `at`) the greatest id of its class,
    the routes that visit as many stops as it the lowest ids of theirs, the other routes the rest."""
    board = run.board
    class_of = {t.id: k for k, m in enumerate(run.members) for t in m}

    def count(c: ClaimedRoute) -> int:
        stops = [board.nodes[n] for n in c.nodes]
        return award_stop_count(award, [n.hex for n in stops], [n.kind for n in stops])

    most = count(claims[at])
    out = list(claims)
    for k, members in enumerate(run.members):
        mine = [i for i, c in enumerate(claims) if class_of[c.train] == k]
        ids = sorted(t.id for t in members)
        if at in mine:  # the winner first takes the greatest id
            order = [at] + [i for i in mine if i != at]
            ids = [ids[-1], *ids[:-1]]
        else:  # tied routes first take the lowest ids
            order = sorted(mine, key=lambda i: count(claims[i]) != most)
        for i, train_id in zip(order, ids, strict=False):
            out[i] = replace(claims[i], train=train_id)
    return out


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
