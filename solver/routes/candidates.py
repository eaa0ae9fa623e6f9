"""Candidate routes: every legal route any of the company's trains could run (the shapes `walk.enumerate_routes`
finds over the leg graph), priced per train class, with track usage as a bit mask for fast packing checks;
lazily where many routes could not matter, or only the best route for one train.
"""

from __future__ import annotations

import bisect
import heapq
import math
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from solver.model.board import Board, Train
from solver.model.cancel import CancelToken
from solver.modifiers.candidate_values import candidate_pricer
from solver.routes.bit_table import int_words, users_per_bit
from solver.routes.leg_graph import LegGraph, mask_bits
from solver.routes.priced_on_read import PricedOnRead, every_route_on_read
from solver.routes.pricing import QUICK_BLOCK, Candidate, RouteBuilder, Scan
from solver.routes.route_bound import (
    ReachBound,
    flat_bound,
    limiting_row,
    plain_bounded,
    reach_bound,
)
from solver.routes.route_shape import RouteShape, WalkRules
from solver.routes.walk import enumerate_routes, standard_walk_rules
from solver.routes.walk_native import INT64_SAFE, WalkedShapes, shape_list


@dataclass
class LazyBound:
    """What a lazy candidate build needs from the packing: the trains per class, a lower bound on the
    run from some candidates (a greedy packing), and which routes must be kept whatever they earn."""

    counts: Sequence[int]
    lower_of: Callable[[list[Candidate]], int]
    must_keep: Callable[[Candidate], bool] | None = None  # None: no route must be kept


LAZY_FROM = 500  # options (route, class) from which the lazy build pays
FLOOR_FROM = 500  # routes from which a walk of two trains first looks for a floor (`_walk_floor`)
LAZY_FIRST = 400  # options priced first, by their upper bound (every class its share), for the lower bound
PAIR_FIRSTS = 32  # the first train's options a partner by bounds is looked for (`_paired`)
PAIR_SECONDS = 8192  # the other train's best options the partner is looked for among
PAIR_BLOCK = 64  # the options `_best_placed` prices first, twice as many each next block
ON_READ_FROM = 5000  # routes from which a walk priced in full makes a candidate only when read (`on_read`)
MADE_AHEAD = 32  # the best-only scan's first block of a compiled walk's shapes made at once (`_made_ahead`)


Options = tuple[np.ndarray, np.ndarray, np.ndarray]  # the lazy build's options: upper bounds, shapes, classes
Waiting = tuple[np.ndarray, np.ndarray, np.ndarray]  # a class's unpriced options: bounds, shapes, places in the order


def _lazy(builder: RouteBuilder, options: Options, lazy: LazyBound, deadline: float | None,
          cancel: CancelToken | None, known: int = 0) -> tuple[list[Candidate], int, bool]:
    """Price the options (upper bound, shape, class) with the best bounds first, take a lower bound on
    the run from them, and price the others only where they could still beat it (paired with the best
    of every other train, by the bounds of the unpriced ones: the argument of `packing.prune`), in
    rounds: best bound first, four times as many each round, each asked its tight bound before it is
    priced, the lower bound taken again after each. For two trains the first options priced also hold each
    class's best route and the other train's best beside it (`_alone_and_beside`).
    `known`: the value of a run the walk found (`_walk_floor`); one less is the first lower bound (its
    routes may not be priced here, so an option that can only tie it stays).
    Returns the candidates in shape order, how many options were never priced, and whether every
    option that could matter was priced (False when the deadline or `cancel` cut the pricing short)."""
    order = np.argsort(-options[0], kind="stable")
    bounds, ks, cis = (a[order] for a in options)
    per_class = max(LAZY_FIRST // max(1, len(lazy.counts)), 50)  # every class's best: a packing of all trains
    first = np.zeros(len(order), dtype=bool)
    for ci in np.unique(cis).tolist():
        first[np.flatnonzero(cis == ci)[:per_class]] = True
    first[_paired(builder.shapes, (bounds, ks, cis), lazy.counts)] = True  # priced with the first
    complete = True

    made: dict[tuple[int, int], Candidate] = {}  # (shape, 0 ahead / 1 reversed) -> its one candidate

    def priced(chosen: list[tuple[int, int, int]]) -> None:
        nonlocal complete
        by_shape: dict[int, list[int]] = defaultdict(list)
        _make_shapes(builder, [k for _ub, k, _ci in chosen])
        for _ub, k, ci in chosen:
            by_shape[k].append(ci)
        for i, (k, cis) in enumerate(by_shape.items()):
            if i % 256 == 255 and ((deadline is not None and time.monotonic() > deadline)
                                   or (cancel is not None and cancel.cancelled)):
                complete = False
                break
            for j, c in enumerate(builder.price(k, cis)):
                if c is None or not c.revenue:
                    continue
                have = made.get((k, j))
                if have is None:
                    made[(k, j)] = c
                else:  # priced for other classes before: one candidate per route and direction
                    have.revenue.update(c.revenue)
                    have.subsidy.update(c.subsidy)
                    have._totals = None

    priced(list(zip(bounds[first].tolist(), ks[first].tolist(), cis[first].tolist())))
    if sum(lazy.counts) == 2 and complete:  # each class's best route and the other train's best beside it

        def price_places(places: np.ndarray) -> list[int]:
            todo = places[~first[places]]
            first[todo] = True
            priced(list(zip(bounds[todo].tolist(), ks[todo].tolist(), cis[todo].tolist())))
            return [max((c.totals.get(ci, 0) for j in (0, 1) if (c := made.get((k, j))) is not None), default=0)
                    for k, ci in zip(ks[places].tolist(), cis[places].tolist())]
        _alone_and_beside(builder.shapes, (bounds, ks, cis), lazy.counts, price_places)
    # `known`: the value of a run the walk found, of routes that may not be priced here; an option that can
    # only tie it must stay (it may be in the only run worth that much), so it is weighed against one less
    lower = known - 1 if known else lazy.lower_of(list(made.values()))
    # the unpriced options per class, best bound first, each with its place in the whole order
    rest = ~first
    waiting: dict[int, Waiting] = {ci: (bounds[rest][at], ks[rest][at], np.flatnonzero(at))
                                   for ci in np.unique(cis[rest]).tolist() for at in [cis[rest] == ci]}
    dropped: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # options never priced: shapes, classes, places
    chunk = LAZY_FIRST
    while any(len(w[0]) for w in waiting.values()) and complete:
        floor = _floors(made, {ci: w[0][:lazy.counts[ci]].tolist() for ci, w in waiting.items()}, lazy.counts, lower)
        loose: dict[int, Waiting] = {}
        for ci, (b, k, place) in waiting.items():  # an option could beat it when its bound is above its class's floor
            cut = int(np.searchsorted(-b, -floor[ci], side="left"))
            loose[ci] = b[:cut], k[:cut], place[:cut]
            dropped.append((k[cut:], np.full(len(k) - cut, ci), place[cut:]))
        take, waiting = _first_placed(loose, chunk)
        _make_shapes(builder, [o[1] for o in take])  # the shapes these options read, made together
        tight = [_may_beat(builder, *o[:3], floor[o[2]]) for o in take]
        untight = [o for o, ok in zip(take, tight) if not ok]
        dropped.append((np.asarray([o[1] for o in untight], dtype=np.int64),
                        np.asarray([o[2] for o in untight], dtype=np.int64),
                        np.asarray([o[3] for o in untight], dtype=np.int64)))
        priced([o[:3] for o, ok in zip(take, tight) if ok])
        if any(len(w[0]) for w in waiting.values()):  # the options priced may give a better run: weigh the rest
            lower = max(lower, lazy.lower_of(list(made.values())))
        chunk *= 4
    never = sum(len(place) for _k, _ci, place in dropped)
    keep = _must_keep(builder, lazy.must_keep, dropped) if lazy.must_keep is not None and never else []
    priced(keep)
    return [made[key] for key in sorted(made)], never - len(keep), complete


def _alone_and_beside(shapes: Sequence[RouteShape], options: Options, counts: Sequence[int],
                      price: Callable[[np.ndarray], list[int]]) -> None:
    """For two trains: price each class's best route alone and, beside each, the other train's best route
    that shares no track with it (as `_walk_floor` does from the walk), so that the first lower bound holds
    such a run. `options`: best bound first; `price` prices options (places among them) and tells their
    values for their classes."""
    bounds, ks, cis = options
    trains = [ci for ci, n in enumerate(counts) for _ in range(n)]
    for ci in dict.fromkeys(trains):
        place = _best_placed(bounds, np.flatnonzero(cis == ci), price)
        if place is None:
            continue
        top = int(ks[place])
        other = trains[1] if trains[0] == ci else trains[0]
        _best_placed(bounds, np.flatnonzero(cis == other), price, _beside(shapes, ks, top))


def _beside(shapes: Sequence[RouteShape], ks: np.ndarray, top: int) -> Callable[[np.ndarray], np.ndarray]:
    """Which of some options (places among `ks`) are routes other than shape `top` that share no track with it."""
    mask = _track_rows(shapes, [top])[0]

    def beside(places: np.ndarray) -> np.ndarray:
        rows = _track_rows(shapes, ks[places].tolist())
        width = min(rows.shape[1], len(mask))
        return ~(rows[:, :width] & mask[:width]).any(axis=1) & (ks[places] != top)
    return beside


def _best_placed(bounds: np.ndarray, at: np.ndarray, price: Callable[[np.ndarray], list[int]],
                 usable: Callable[[np.ndarray], np.ndarray] | None = None) -> int | None:
    """The place of the best option among these places (best bound first; those `usable` tells, default all),
    priced a block at a time until no bound left can beat the best value (None when none earns anything)."""
    best, top, start, block = 0, None, 0, PAIR_BLOCK
    while start < len(at):
        part = at[start:start + block]
        part = part[bounds[part] > best]
        if not len(part):
            break
        start, block = start + block, 2 * block
        if usable is not None:
            part = part[usable(part)]
        for place, value in zip(part.tolist(), price(part)):
            if value > best:
                best, top = value, place
    return top


def _may_beat(builder: RouteBuilder, bound: int, k: int, ci: int, floor: float) -> bool:
    """Whether an option (first bound above `floor`, shape, class) may beat the floor once priced: always
    for a class priced for less than its tight bound costs (`RouteBuilder.priced_cheaply`); else by its stops
    alone, or by its tight bound (only the bonuses it can hit), unless the bonuses spread over its stops and
    legs (a bound above the tight one) cannot beat it either (for a class paying every stop from its table
    they are in its first bound, `lazy_upper`)."""
    if builder.priced_cheaply[ci]:
        return True
    paid = builder.first_stops(k, ci, bound)
    if paid > floor:
        return True
    # above `floor` when its weight once alone makes up for the first bound's bonuses (`bound` is above it)
    spread = builder.plain[ci] or paid + builder.spread_least(ci) >= bound or \
        paid + builder.spread_bonus(k, ci) > floor
    return spread and paid + builder.tight_bonus(k, ci) > floor


def _first_placed(loose: dict[int, Waiting], chunk: int) -> tuple[list[tuple[int, int, int, int]], dict[int, Waiting]]:
    """The first `chunk` options of every class's by their place in the whole order, as (bound, shape, class,
    place), and what each class has left."""
    places = np.concatenate([place for _b, _k, place in loose.values()])
    last = np.partition(places, chunk - 1)[chunk - 1] if len(places) > chunk else math.inf
    taken = {ci: int(np.searchsorted(place, last, side="right")) for ci, (_b, _k, place) in loose.items()}
    parts = [np.concatenate(x) for x in zip(*((b[:taken[ci]], k[:taken[ci]], np.full(taken[ci], ci), place[:taken[ci]])
                                               for ci, (b, k, place) in loose.items()))]
    by_place = np.argsort(parts[3])
    take = list(zip(*(a[by_place].tolist() for a in parts)))
    return take, {ci: (b[taken[ci]:], k[taken[ci]:], place[taken[ci]:]) for ci, (b, k, place) in loose.items()}


def _must_keep(builder: RouteBuilder, must: Callable[[Candidate], bool],
               dropped: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> list[tuple[int, int, int]]:
    """The options never priced that must be kept whatever they earn (`LazyBound.must_keep`), in their order."""
    ks, cis, places = (np.concatenate(x) for x in zip(*dropped))
    by_place = np.argsort(places)
    ks, cis = ks[by_place].tolist(), cis[by_place].tolist()
    _make_shapes(builder, ks)
    return [(0, k, ci) for k, ci in zip(ks, cis)
            if must(Candidate(nodes=builder.shapes[k].nodes, legs=(), mask=0, revenue={ci: []}))]


def _paired(shapes: Sequence[RouteShape], options: Options, counts: Sequence[int]) -> np.ndarray:
    """For two trains, the places among the options (best bound first) of the best pairs by their bounds:
    for the first train's best options (at most PAIR_FIRSTS, while one could still make a better pair), the
    other train's best (of its PAIR_SECONDS best) that shares no track with it and makes a better pair.
    Priced with the first options, they give the lower bound a run of routes that may lie deep in the order
    (where many routes' bounds tie); none for other companies."""
    none = np.zeros(0, dtype=np.int64)
    if sum(counts) != 2:
        return none
    bounds, ks, cis = options
    one, other = (ci for ci, n in enumerate(counts) for _ in range(n))
    firsts, seconds = np.flatnonzero(cis == one)[:PAIR_FIRSTS], np.flatnonzero(cis == other)[:PAIR_SECONDS]
    if not len(firsts) or not len(seconds):
        return none
    second_ks, second_bounds = ks[seconds].tolist(), bounds[seconds].tolist()
    below = [-b for b in second_bounds]  # ascending, for bisect
    users = users_per_bit(_track_rows(shapes, second_ks))  # track bit -> the seconds using it
    place = {k: j for j, k in enumerate(second_ks)} if one == other else {}
    out: list[int] = []
    best = -math.inf
    first_ks = ks[firsts].tolist()
    for bound, k, mask in zip(bounds[firsts].tolist(), first_ks, _masks(shapes, first_ks)):
        if bound + second_bounds[0] <= best:
            break
        better = bisect.bisect_left(below, bound - best)  # the partners of a better pair
        taken = 1 << place[k] if k in place else 0  # a route runs once (one class: itself no partner)
        for bit in mask_bits(mask):
            taken |= users.get(bit, 0)
        free = ((1 << better) - 1) & ~taken
        if free:
            j = (free & -free).bit_length() - 1
            out.append(int(seconds[j]))
            best = bound + second_bounds[j]
    return np.asarray(out, dtype=np.int64)


def _masks(shapes: Sequence[RouteShape], ks: Sequence[int]) -> list[int]:
    """The track bits of these shapes (a compiled walk's read from its arrays)."""
    return shapes.masks_of(ks) if isinstance(shapes, WalkedShapes) else [shapes[k].mask for k in ks]


def _track_rows(shapes: Sequence[RouteShape], ks: Sequence[int]) -> np.ndarray:
    """The track bits of these shapes, a row of 64-bit words each (a compiled walk's read from its arrays)."""
    if isinstance(shapes, WalkedShapes):
        return shapes.mask_rows(ks)
    return int_words(_masks(shapes, ks))



def _make_shapes(builder: RouteBuilder, ks: list[int]) -> None:
    """Make these shapes of a compiled walk together (one at a time costs more); nothing for a list."""
    shapes = builder.shapes
    if isinstance(shapes, WalkedShapes):
        shapes.make(np.asarray(sorted({k for k in ks if shapes.made[k] is None}), dtype=np.int64))


def _floors(made: dict[tuple[int, int], Candidate], waiting: dict[int, list[int]], counts: Sequence[int],
            lower: int) -> dict[int, float]:
    """Per class, the value an option must exceed to be in a run beating `lower`, paired with the best of
    every other train (the priced candidates' values and, `waiting`, the best bounds of the unpriced options
    per class): the argument of `packing.prune`, solved for the option's value."""
    values: dict[int, list[int]] = defaultdict(list)
    for c in made.values():
        for ci, v in c.totals.items():
            values[ci].append(v)
    for ci, some in waiting.items():
        values[ci].extend(some)
    tops = {ci: heapq.nlargest(counts[ci], [v for v in vs if v > 0]) for ci, vs in values.items()}
    upper = sum(sum(t) for t in tops.values())
    if upper <= lower:
        return defaultdict(lambda: math.inf)
    # an option worth v takes the place of its class's weakest top: upper - t[-1] + v > lower
    return defaultdict(lambda: -math.inf, {ci: lower - upper + t[-1] for ci, t in tops.items() if len(t) == counts[ci]})


def candidate_routes(board: Board, graph: LegGraph, classes: Sequence[Train], cap: int = 2_000_000,
                     deadline: float | None = None, walk_deadline: float | None = None,
                     cancel: CancelToken | None = None, best_only: bool = False,
                     stats: dict[str, float] | None = None, with_subsidy: bool = True,
                     lazy: LazyBound | None = None, on_read: bool = False) -> tuple[Sequence[Candidate], bool]:
    """Legal routes with their revenue per train class. The walk already obeys the shape rules
    (`route_rules.shape_findings`); a route is kept for a class if it also passes the train's
    rules (`route_rules.train_findings`) and earns something.

    With `best_only` (for a company with one train and no run rules, whose best run is its best
    route), only the best route is kept (the first in walk order of those that earn the most): the
    walk is a branch and bound where the train allows it, else the routes are priced best upper
    bound first, so that most are never priced (`_best_walked`).
    With `lazy` (several trains, many routes), the routes with the best upper bounds are priced first
    and the others only where they could still beat the run those give (`_lazy`). Otherwise, with
    `on_read` (a caller that reads most candidates through `priced_on_read.candidate_totals` and
    `candidate_masks`) and a complete walk of at least ON_READ_FROM routes, a route priced as usual is made
    a candidate only when read (`priced_on_read.every_route_on_read`; a walk cut short leaves a list the
    greedy packing and the pruning read whole, within the deadline only when made at once).
    `stats["routes_walked"]` counts the routes the walk found either way. `with_subsidy`: a route's
    value includes its subsidy (the objective counts it).

    The steps: `_walk` the shapes and price them (`_every_route`, or `_bounded_options` then `_lazy`),
    or `_best_walked`; add the local trains' one-stop runs (`RouteBuilder.locals`)."""
    if walk_deadline is None and deadline is not None:  # the walk gets half of the time left
        walk_deadline = time.monotonic() + (deadline - time.monotonic()) * 0.5
    scan = Scan(deadline, cancel)
    cands: list[Candidate] | PricedOnRead
    if best_only:
        builder, complete, cands = _best_walked(board, graph, classes, cap, walk_deadline, cancel, with_subsidy, scan)
    else:
        builder, complete, known = _walk(board, graph, classes, cap, walk_deadline, cancel, with_subsidy, lazy)
        if lazy is not None and len(builder.shapes) * len(classes) >= LAZY_FROM:
            cands, skipped, priced_all = _lazy(builder, _bounded_options(builder, scan), lazy, deadline, cancel, known)
            complete = complete and priced_all
            if stats is not None:
                stats["never_priced"] = float(skipped)
        elif on_read and complete and len(builder.shapes) >= ON_READ_FROM:
            cands = every_route_on_read(builder, scan)
        else:
            builder.shapes = shape_list(builder.shapes, scan.expired)
            cands = _every_route(builder, scan)
    cands.extend(builder.locals())
    if stats is not None:
        stats["routes_walked"] = float(scan.walked)
    return cands, complete and not scan.cut


Weights = tuple[dict[str, int], dict[str, int], dict[str, int], int]  # what `_bound_weights` gives


def _walk(board: Board, graph: LegGraph, classes: Sequence[Train], cap: int, walk_deadline: float | None,
          cancel: CancelToken | None, with_subsidy: bool, lazy: LazyBound | None = None
          ) -> tuple[RouteBuilder, bool, int]:
    """Step 1: walk the route shapes (under the modifiers' walk limits); a builder to price them, whether
    the walk was complete, and the value of a run it knows (0 for none). With `lazy`, two trains that
    allow it and a long walk, it keeps only the routes that may be in a run beating that one
    (`_walk_floor`)."""
    pricer = candidate_pricer(board, with_subsidy)  # the modifiers' per-route rules (None without modifiers)
    walk = standard_walk_rules(board, *pricer.walk_limits) if pricer is not None else None
    builder = RouteBuilder(board, graph, classes, [], pricer)
    # a floor for two trains that count plain stops, with no run rules (three trains or more: their best
    # routes leave little to prune); asked before the walk, so that no walk is thrown away for nothing
    weights: list[Weights] = []
    if lazy is not None and lazy.must_keep is None and sum(lazy.counts) == 2 and all(map(plain_bounded, classes)):
        weights = [w for ci in range(len(classes)) if (w := _bound_weights(builder, ci)) is not None]
    floor = None
    if lazy is not None and weights and len(weights) == len(classes) and cap > FLOOR_FROM:
        # a short walk ends before a floor pays: walk that far first
        builder.shapes, complete = enumerate_routes(board, graph, classes, FLOOR_FROM, walk_deadline, rules=walk,
                                                    cancel=cancel, arrays=True)
        if complete:
            return builder, complete, 0
        floor = _walk_floor(board, graph, builder, walk or standard_walk_rules(board), lazy.counts, lazy.lower_of,
                            weights, cap, walk_deadline, cancel)
    builder.shapes, complete = enumerate_routes(board, graph, classes, cap, walk_deadline, rules=walk, cancel=cancel,
                                                bound=floor[0] if floor else None, floors=floor[1] if floor else (),
                                                arrays=True)
    return builder, complete, floor[2] if floor else 0


def _best_walked(board: Board, graph: LegGraph, classes: Sequence[Train], cap: int, walk_deadline: float | None,
                 cancel: CancelToken | None, with_subsidy: bool, scan: Scan
                 ) -> tuple[RouteBuilder, bool, list[Candidate]]:
    """Steps 1 and 2 with `best_only`: the builder, whether the walk was complete, and the best route.
    A train counting plain stops, or a list train paid by every stop with one row that limits it
    (`route_bound.limiting_row`), is walked as a branch and bound (`_bounded_best` with a `ReachBound`).
    A longer train paid by every stop (a D, a hex or an express train paid by every stop, a list train
    whose rows pay every stop, or stops that cost nothing) is walked so with a `flat_bound`: no route is
    cut short, but only those that may earn the best price so far are kept and priced. Other trains:
    `_best_routes`."""
    pricer = candidate_pricer(board, with_subsidy)
    walk = standard_walk_rules(board, *pricer.walk_limits) if pricer is not None else standard_walk_rules(board)
    builder = RouteBuilder(board, graph, classes, [], pricer)
    weights = _bound_weights(builder, 0) if len(classes) == 1 else None
    reach = reach_bound(board, graph.legs_from, walk.visitable, walk.passable, classes[0], *weights) \
        if weights is not None and (builder.plain[0] or limiting_row(classes[0]) is None) else None
    if reach is None and weights is not None and builder.plain[0] and not (classes[0].klass or classes[0].local):
        longest = max(classes[0].distance, sum(board.nodes[n].visit_cost for n in walk.visitable))
        reach = flat_bound(graph.legs_from, walk.visitable, longest, *weights)  # a route earns its stops' pay
    if reach is None:
        builder.shapes, complete = enumerate_routes(board, graph, classes, cap, walk_deadline, rules=walk,
                                                    cancel=cancel, arrays=True)
        return builder, complete, _best_routes(builder, scan)
    best, complete = _bounded_best(board, graph, builder, 0, walk, reach, cap, walk_deadline, cancel, scan=scan)
    return builder, complete, best.first()


def _bound_weights(builder: RouteBuilder, ci: int) -> Weights | None:
    """What the walk's bound reads for class ci: the most each stop pays it, the most its bonuses add per
    stop, per hex passed and otherwise; None with a modifier that keeps routes earning nothing or
    chooses the paying stops."""
    pricer = builder.pricer
    if pricer is not None and pricer.keep_zero:
        return None
    train = builder.classes[ci]
    found = pricer.train_mods(train.name) if pricer is not None else None
    if found is not None and found.mods.counted_stops is not None:
        return None
    stop_ub = builder.stop_upper(ci)
    node, hexes, const = pricer.bonus_weights(train.name, stop_ub) if pricer is not None else ({}, {}, 0)
    return stop_ub, node, hexes, const


def _joint_bound(board: Board, graph: LegGraph, walk: WalkRules, classes: Sequence[Train],
                 weights: Sequence[Weights]) -> ReachBound | None:
    """One bound for the routes of every class (`weights`: each class's): per stop, hex and route the most
    over the classes, up to the longest train."""
    stop: dict[str, int] = {}
    hexes: dict[str, int] = {}
    for stop_ub, node, hex_w, _const in weights:
        for nid, pay in stop_ub.items():
            stop[nid] = max(stop.get(nid, 0), pay + node.get(nid, 0))
        for h, v in hex_w.items():
            hexes[h] = max(hexes.get(h, 0), v)
    const = max(w[3] for w in weights)
    longest = max(classes, key=lambda t: t.distance)
    return reach_bound(board, graph.legs_from, walk.visitable, walk.passable, longest, stop, {}, hexes, const)


def _bounded_best(board: Board, graph: LegGraph, builder: RouteBuilder, ci: int, walk: WalkRules, bound: ReachBound,
                  cap: int, deadline: float | None, cancel: CancelToken | None, avoid: int = 0,
                  scan: Scan | None = None) -> tuple[_Best, bool]:
    """Class ci's best route among those that avoid the track bits `avoid`, by a branch and bound (each
    route the walk keeps is priced at once, unless its tight bound is below the best price; `scan` counts
    the routes kept): it keeps every route that may earn the
    best price, with its place in the walk without a bound, so `_Best.first` is the route the whole walk
    gives (the first in walk order, a route ahead before its way back, of those earning the most).
    Returns the best routes found and whether the walk was complete."""
    priced: list[RouteShape] = []
    walker = builder.over(priced)
    best = _Best()

    def improve(shape: RouteShape, place: tuple[int, ...]) -> int:
        priced.append(shape)
        if scan is not None:
            scan.walked += 1
        k = len(priced) - 1
        if ci not in walker.fitting(k) or walker.upper(k, ci, tight=True) < best.value:
            return best.value  # it cannot earn the best price so far (nor tie it): not priced
        return best.offer(place, walker.price(k, [ci]))
    # the routes kept are read through `improve` alone: a compiled walk's are never made shapes (`arrays`)
    _shapes, complete = enumerate_routes(board, graph, [builder.classes[ci]], cap, deadline, rules=walk,
                                         cancel=cancel, bound=bound, improve=improve, avoid=avoid, arrays=True)
    return best, complete


def _walk_floor(board: Board, graph: LegGraph, builder: RouteBuilder, walk: WalkRules, counts: Sequence[int],
                lower_of: Callable[[list[Candidate]], int], weights: Sequence[Weights], cap: int,
                deadline: float | None, cancel: CancelToken | None
                ) -> tuple[ReachBound, list[tuple[int, int]], int] | None:
    """For two trains counting plain stops and no run rules (`weights`: each class's `_bound_weights`): a
    bound for the whole walk and, per class, its distance and the least a route must earn it to be in a
    run that beats a known one, and that run's value (None when there is no floor).

    Each class's best route alone comes from a branch and bound (`_bounded_best`), and runs from those
    routes and the other train's best route beside each (a walk that avoids its track): the best run of
    them (`lower_of`), L, is a lower bound. A route of class c is in a run worth at least L only if it
    earns at least L - (the best of every other train), the argument of `packing.prune`. The walk's
    bound takes each stop's most over the classes (`_joint_bound`)."""
    classes = builder.classes
    bounds = [reach_bound(board, graph.legs_from, walk.visitable, walk.passable, t, *w)
              for t, w in zip(classes, weights)]
    if any(b is None for b in bounds):
        return None
    found: list[Candidate] = []
    best: list[int] = []
    tops: dict[int, Candidate] = {}  # each class's best route
    for ci, bound in enumerate(bounds):
        alone, complete = _bounded_best(board, graph, builder, ci, walk, bound, cap, deadline, cancel)  # type: ignore[arg-type]
        if not complete:
            return None
        best.append(alone.value)
        top = alone.first()
        found.extend(top)
        if top:
            tops[ci] = top[0]
    # runs: each class's best route, and the other train's best route beside its track
    trains = [ci for ci in range(len(classes)) for _ in range(counts[ci])]
    for first, top in tops.items():
        other = trains[1] if trains[0] == first else trains[0]
        beside, _complete = _bounded_best(board, graph, builder, other, walk, bounds[other], cap,  # type: ignore[arg-type]
                                          deadline, cancel, top.mask)
        found.extend(beside.first())
    lower = lower_of(found)
    every = sum(best[ci] * counts[ci] for ci in range(len(classes)))
    floors = [(classes[ci].distance, lower - every + best[ci]) for ci in range(len(classes))]
    joint = _joint_bound(board, graph, walk, classes, weights) if any(f > 0 for _d, f in floors) else None
    return None if joint is None else (joint, floors, lower)


def _every_route(builder: RouteBuilder, scan: Scan) -> list[Candidate]:
    """Step 2, by default: price every shape for the classes it fits; keep what earns something."""
    cands = []
    for k in scan.shapes(len(builder.shapes)):
        for kept in builder.price(k, builder.fitting(k)):
            if kept is not None and kept.revenue:
                cands.append(kept)
    return cands


def _best_routes(builder: RouteBuilder, scan: Scan) -> list[Candidate]:
    """Step 2 with `best_only`: the best route alone, the first in walk order (a route ahead before
    its way back) of those that earn the most; none when no route earns anything. The routes are
    taken best quick bound first (`_by_bound`): once that bound falls below the best price found, no
    route left can earn as much; a route whose tight bound is below it is not priced."""
    n_classes = len(builder.classes)
    bounds, ks = _by_bound(builder, scan)
    best = _Best()
    for i, (bound, k) in enumerate(zip(bounds, _made_ahead(builder.shapes, ks))):
        if bound < best.value:
            break
        if i % 256 == 255 and scan.expired():
            break
        if max(builder.upper(k, ci, tight=True) for ci in range(n_classes)) < best.value:
            continue
        best.offer((k,), builder.price(k, builder.fitting(k)))
    return best.first()


def _by_bound(builder: RouteBuilder, scan: Scan) -> tuple[list[int], list[int]]:
    """The shapes the scan takes, best quick upper bound (over the classes) first, ties in walk order: their
    bounds and their indices. A compiled walk's are read from its arrays (`_walked_by_bound`); otherwise
    the shapes are made and bounded a block at a time (`RouteBuilder.quick_uppers`)."""
    if isinstance(builder.shapes, WalkedShapes):
        found = _walked_by_bound(builder, builder.shapes, scan)
        if found is not None:
            return found
        builder.shapes = shape_list(builder.shapes, scan.expired)
    quick = [builder.quick_uppers(ci, scan) for ci in range(len(builder.classes))]
    bounds = quick[0] if len(quick) == 1 else [max(col) for col in zip(*quick)]
    by_bound = sorted((-bounds[k], k) for k in scan.shapes(len(bounds)))
    return [-b for b, _k in by_bound], [k for _b, k in by_bound]


def _quick_taken(scan: Scan, n: int, n_classes: int) -> int:
    """How many of n shapes `_by_bound` takes bounded a block at a time (`RouteBuilder.quick_uppers`, each class
    over every block: all unless the deadline or `cancel` cuts the scan short), each counted walked, asking
    the clock and the cancel token as often."""
    taken = n
    for _ci in range(n_classes):  # `quick_uppers` looks before each block, and stops at the first look that says so
        taken = min(taken, next((start for start in range(0, n, QUICK_BLOCK) if scan.expired()), n))
    return scan.taken(taken)


def _made_ahead(shapes: Sequence[RouteShape], ks: list[int]) -> Iterator[int]:
    """The indices ks in order; a compiled walk's shapes made a block ahead of them (`WalkedShapes.make`), the
    first block of MADE_AHEAD, each next twice as long (few are read before the best price stops the scan)."""
    start, block = 0, MADE_AHEAD
    while start < len(ks):
        part = ks[start:start + block]
        if isinstance(shapes, WalkedShapes):
            shapes.make(np.sort(np.asarray(part, dtype=np.int64)))
        yield from part
        start, block = start + block, 2 * block


def _walked_by_bound(builder: RouteBuilder, shapes: WalkedShapes, scan: Scan) -> tuple[list[int], list[int]] | None:
    """`_by_bound` from the arrays of a compiled walk (`RouteBuilder.walked_bounds`, no shape made); None when
    some class's bound is not read from them."""
    bounds = [builder.walked_bounds(ci, shapes) for ci in range(len(builder.classes))]
    if any(b is None for b in bounds):
        return None
    taken = _quick_taken(scan, len(shapes), len(bounds))
    top = np.stack(bounds)[:, :taken].max(axis=0)  # type: ignore[arg-type]
    order = np.argsort(-top, kind="stable")  # ties stay in walk order
    return top[order].tolist(), order.tolist()


class _Best:
    """The routes earning the most so far, each with its place in the walk and its direction (0 ahead, 1
    reversed): the answer is the first of them."""

    def __init__(self) -> None:
        self.value = 0
        self.found: list[tuple[tuple[int, ...], int, Candidate]] = []

    def offer(self, place: tuple[int, ...], cands: Sequence[Candidate | None]) -> int:
        """Take a route's candidates (ahead, and reversed where that pays more); the best value so far."""
        for j, cand in enumerate(cands):
            if cand is None or not cand.revenue:
                continue
            value = max(cand.totals.values())
            if value > self.value:
                self.value, self.found = value, [(place, j, cand)]
            elif value == self.value > 0:
                self.found.append((place, j, cand))
        return self.value

    def first(self) -> list[Candidate]:
        """The first route earning the most (none when no route earns anything)."""
        return [min(self.found, key=lambda e: (e[0], e[1]))[2]] if self.found else []


def _bounded_options(builder: RouteBuilder, scan: Scan) -> Options:
    """Step 2, lazily: every option (quick upper bound, shape, class) in shape order, the classes of a shape in
    order, unpriced (`_lazy` prices them)."""
    if isinstance(builder.shapes, WalkedShapes):
        found = _walked_options(builder, builder.shapes, scan)
        if found is not None:
            return found
    quick = [builder.quick_bound(ci) for ci in range(len(builder.classes))]
    bounds, ks, cis = [], [], []
    for k in scan.shapes(len(builder.shapes)):
        nodes_ = builder.shapes[k][0]
        for ci in builder.fitting(k):  # a class paying every stop from its table: `walked_bounds`' bound
            bounds.append(builder.lazy_upper(k, ci) if builder.plain[ci] else quick[ci](nodes_))
            ks.append(k)
            cis.append(ci)
    found_bounds = np.asarray(bounds, dtype=np.int64 if all(abs(b) < INT64_SAFE for b in bounds) else object)
    return found_bounds, np.asarray(ks, dtype=np.int64), np.asarray(cis, dtype=np.int64)


def _walked_options(builder: RouteBuilder, shapes: WalkedShapes, scan: Scan) -> Options | None:
    """`_bounded_options` from the arrays of a compiled walk (no shape made): the shapes the scan takes, each
    with the classes that fit it in order; None when some class's bound or fit is not read from them."""
    fits = builder.walked_fit_masks(shapes)
    bounds = [builder.walked_bounds(ci, shapes) for ci in range(len(builder.classes))] if fits is not None else [None]
    if fits is None or any(b is None for b in bounds):
        return None
    taken = scan.taken(len(shapes))  # all unless the deadline or `cancel` cuts the scan short
    ks = [np.flatnonzero(fit[:taken]) for fit in fits]
    order = np.argsort(np.concatenate(ks), kind="stable")  # by shape, then class
    k_all = np.concatenate(ks)[order].astype(np.int64)
    ci_all = np.concatenate([np.full(len(k), ci, dtype=np.int64) for ci, k in enumerate(ks)])[order]
    return np.stack(bounds)[ci_all, k_all], k_all, ci_all  # type: ignore[arg-type]
