"""Candidate routes: every legal route any of the company's trains could run (the shapes `walk.enumerate_routes`
finds over the leg graph), priced per train class, with track usage as a bit mask for fast packing checks;
lazily where many routes could not matter, or only the best route for one train.
"""

from __future__ import annotations

import bisect
import copy
import heapq
import itertools
import math
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from solver.model.board import Board, DistanceRow, Node, Train
from solver.model.cancel import CancelToken
from solver.model.legs import Leg
from solver.modifiers.candidate_values import (
    EVERY_STOP_PAYS,
    ILLEGAL,
    CandidatePricer,
    candidate_pricer,
    pays_every_stop,
)
from solver.routes.leg_graph import LegGraph, reversed_legs
from solver.routes.route_bound import (
    ReachBound,
    flat_bound,
    limiting_row,
    plain_bounded,
    reach_bound,
)
from solver.routes.walk import PourByKind, RouteShape, WalkRules, enumerate_routes, standard_walk_rules
from solver.rules.route_rules import train_findings
from solver.rules.train_rules import (
    route_stop_revenues,
    row_by_kind,
    stop_revenue,
)


@dataclass(slots=True)
class Candidate:
    """A legal route shape and, per train class that may run it, its stop revenues."""

    nodes: tuple[str, ...]
    legs: tuple[Leg, ...]
    mask: int
    revenue: dict[int, list[int]] = field(default_factory=dict)  # class index -> stop revenues
    bits: tuple[int, ...] = ()  # the set bits of `mask` (filled in when first needed)
    subsidy: dict[int, int] = field(default_factory=dict)  # class index -> the subsidy among its revenue list

    _totals: dict[int, int] | None = field(default=None, repr=False, compare=False)

    @property
    def totals(self) -> dict[int, int]:
        """Per train class, the route's value (its revenue list summed), summed once: by the builder as it
        makes the revenue lists (`_Builder.price`), else when first read (the lists are complete by then).
        Not a functools.cached_property: that one takes a lock on every read in Python 3.11."""
        if self._totals is None:
            self._totals = {ci: sum(st) for ci, st in self.revenue.items()}
        return self._totals


QUICK_BLOCK = 4096  # shapes bounded at once between looks at the clock and the cancel token


def _top_sum(values: list[int], count: int) -> int:
    """The sum of the `count` largest values (a C sort: these lists are short)."""
    return sum(values) if len(values) <= count else sum(sorted(values, reverse=True)[:count])


def _quick_fit(train: Train) -> bool | None:
    """How `train_findings` reads for a walked route of this train, in short: False when it counts visit
    costs, True when it counts hex crossings, None when it must be asked (a class, a list, no limit)."""
    if train.klass or train.local:
        return None
    return {"stops": False, "hexes": True}.get(train.unit)


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


def _stop_table(board: Board, train: Train, node_ids: Iterable[str] | None = None) -> dict[str, int]:
    """What each node (of `node_ids`, default every node) pays a train that pays every stop (a list train: in
    the row that takes its kind)."""
    nodes = board.nodes.items() if node_ids is None else ((nid, board.nodes[nid]) for nid in node_ids)
    rows = row_by_kind(train) if train.unit == "stops_by_type" else None
    if rows is None:
        return {nid: stop_revenue(n, train) for nid, n in nodes}
    return {nid: stop_revenue(n, train, rows[n.kind]) if n.kind in rows else 0 for nid, n in nodes}


def _most_paid(train: Train, node: Node) -> int:
    """At least what the node pays the train in any row (never below 0)."""
    return max(0, *(stop_revenue(node, train, r) for r in train.rows or (None,)))


class _Builder:
    """Prices walked route shapes into candidates, per train class (the body of `candidate_routes`)."""

    def __init__(self, board: Board, graph: LegGraph, classes: Sequence[Train], shapes: list[RouteShape],
                 pricer: CandidatePricer | None) -> None:
        self.board, self.graph, self.classes, self.shapes, self.pricer = board, graph, classes, shapes, pricer
        # every stop pays (the bonus pricing relies on it): each stop's pay read from a table
        self.plain = [pricer.pays_every_stop(t) if pricer is not None else pays_every_stop(t, board) for t in classes]
        # the tables per stop cover the stops of the leg graph: every route's
        self.node_rev = [_stop_table(board, t, graph.legs_from) if self.plain[ci] else {}
                         for ci, t in enumerate(classes)]
        # classes whose every stop pays the same (a 6 and a D): one revenue list and one bonus pricing per route
        self.same_table = [next(k for k in range(len(classes)) if self.plain[k]
                                and self.node_rev[k] == self.node_rev[ci]) if self.plain[ci] else ci
                           for ci in range(len(classes))]
        self.cache: dict[tuple[int, frozenset[str]], list[int]] = {}
        self.quick_fit = [_quick_fit(t) for t in classes]
        self.pours = [PourByKind([t]) if t.unit == "stops_by_type" and not t.klass and not t.local else None
                      for t in classes]
        self.need_stops = any(q is None and p is None for q, p in zip(self.quick_fit, self.pours))  # train_findings
        self.keep_zero = pricer is not None and pricer.keep_zero
        self._caps: dict[tuple[int, int], int] = {}
        self._ub_node: dict[int, dict[str, int]] = {}
        self._top: dict[int, int] = {}  # per class, the most one stop pays
        self._row_value: dict[int, dict[str, tuple[int, int]]] = {}
        self._disjoint: dict[int, tuple[DistanceRow, ...] | None] = {}
        self._quick: dict[int, Callable[[tuple[str, ...]], int]] = {}
        self._stops: dict[int, Callable[[Sequence[str]], int]] = {}  # per class, `stops_value`
        self._fits: dict[tuple[bool, int, int, int], tuple[int, ...]] = {}  # (token, crossings, cost, code) -> classes
        # per class, `spread_bonus`'s weights: per stop, per hex, once, and per leg (by id; the legs are the graph's)
        self._spread: dict[int, tuple[dict[str, int], dict[str, int], int, dict[int, int]]] = {}
        self._price_keys: dict[int, int] = {}  # per class, `_price_key`
        # per class, the test that the pricer gives None for a route (priced as usual), asked before it is
        # (None: always ask it; no pricer: no test needed)
        self.as_usual = [pricer.as_usual(t, self.plain[ci]) if pricer is not None else None
                         for ci, t in enumerate(classes)]

    def over(self, shapes: list[RouteShape]) -> _Builder:
        """A builder of the same classes over other shapes, sharing every table read per class or stop."""
        other = copy.copy(self)
        other.shapes = shapes
        other._quick = {}  # its caps follow the longest shape
        return other

    def fitting(self, k: int) -> tuple[int, ...]:
        """The classes whose train may run shape k (length and token; the walk checked the rest). Without
        a train that must look at the stops, shapes alike in token, crossings and visit costs share it."""
        nodes_, _legs, _mask, crossings, cost, token, code = self.shapes[k]
        if self.need_stops:
            return self._fitting(nodes_, crossings, cost, token, code)
        key = (token, crossings, cost, code)
        found = self._fits.get(key)
        if found is None:
            found = self._fits[key] = self._fitting(nodes_, crossings, cost, token, code)
        return found

    def _fitting(self, nodes_: tuple[str, ...], crossings: int, cost: int, token: bool, code: int) -> tuple[int, ...]:
        stops = [self.board.nodes[n] for n in nodes_] if self.need_stops else []
        out = []
        for ci, train in enumerate(self.classes):
            quick = self.quick_fit[ci]
            if quick is not None:  # a walked route has two stops: only its token and its length are left to check
                if not (token or not train.requires_token) or (crossings if quick else cost) > train.distance:
                    continue
            elif self.pours[ci] is not None:  # an unclassed list train: its token and its cached pour
                if not (token or not train.requires_token) or not self.pours[ci](code):  # type: ignore[misc]
                    continue
            elif train_findings(train, stops, crossings, cost, token):
                continue
            out.append(ci)
        return tuple(out)

    def stop_upper(self, ci: int) -> dict[str, int]:
        """Per stop of the leg graph, at least what it pays class ci in any row (never below 0)."""
        ub = self._ub_node.get(ci)
        if ub is None:
            t, nodes = self.classes[ci], self.board.nodes
            ub = self._ub_node[ci] = {nid: _most_paid(t, nodes[nid]) for nid in self.graph.legs_from}
        return ub

    def bonus_cap(self, ci: int, n_stops: int) -> int:
        """At most what the route bonuses (and subsidy) add to a route of class ci with n_stops stops."""
        if self.pricer is None:
            return 0
        key = (ci, n_stops)
        cap = self._caps.get(key)
        if cap is None:
            top = self._top.get(ci)
            if top is None:
                top = self._top[ci] = max([0, *(_most_paid(self.classes[ci], n) for n in self.board.nodes.values())])
            cap = self._caps[key] = self.pricer.bonus_cap(self.classes[ci].name, top, n_stops)
        return cap

    def spread_bonus(self, k: int, ci: int) -> float:
        """At least `tight_bonus(k, ci)`: the bonuses' most per stop, per hex the legs pass and once
        (`CandidatePricer.bonus_weights`), summed over shape k's stops and legs. Each hit is counted at least
        once, so it bounds the bonuses the route can hit from above without looking at the route as a whole
        (inf for a route without legs, whose stops' hexes count)."""
        nodes_, legs = self.shapes[k].nodes, self.shapes[k].legs
        if self.pricer is None or self.pricer.mods is None:
            return 0
        if not legs:
            return math.inf
        weights = self._spread.get(ci)
        if weights is None:
            node, hexes, const = self.pricer.bonus_weights(self.classes[ci].name, self.stop_upper(ci))
            weights = self._spread[ci] = (node, hexes, const, {})
        node, hexes, const, per_leg = weights
        if self.misses_bonuses(k, ci):  # no stop it weighs and no hex bonus: the constant alone
            return const
        total = const + sum(node.get(n, 0) for n in nodes_)
        for leg in legs:
            w = per_leg.get(id(leg))
            if w is None:
                w = per_leg[id(leg)] = sum(hexes.get(h, 0) for h in leg.hexes) if hexes else 0
            total += w
        return total

    def upper(self, k: int, ci: int, tight: bool = False) -> int:
        """At least what shape k earns class ci (stops and bonuses), without pricing it: with the largest
        bonuses any route of its length may take, or (`tight`) only those its own stops can hit."""
        nodes_ = self.shapes[k].nodes
        cap = self.tight_bonus(k, ci) if tight else self.bonus_cap(ci, len(nodes_))
        return self.stops_value(ci)(nodes_) + cap

    def tight_bonus(self, k: int, ci: int) -> int:
        """At least what the bonuses (and subsidy) this shape's own stops and path can hit add for class ci."""
        if self.pricer is None or self.pricer.mods is None:
            return 0
        if self.misses_bonuses(k, ci):
            return 0
        nodes_, legs = self.shapes[k].nodes, self.shapes[k].legs
        return self.pricer.route_cap(self.classes[ci].name, [self.board.nodes[n] for n in nodes_],
                                     self.stop_upper(ci), legs)

    def misses_bonuses(self, k: int, ci: int) -> bool:
        """Whether shape k can hit none of class ci's route bonuses (`CandidatePricer.misses_bonuses`; its
        stops' pay is every stop's, `plain`)."""
        if self.pricer is None:
            return True
        d = self.pricer.train_mods(self.classes[ci].name)
        return d is None or self.pricer.misses_bonuses(d, self.classes[ci], self.shapes[k].nodes, self.plain[ci])

    def quick_uppers(self, ci: int, scan: _Scan) -> list[int]:
        """`upper(k, ci)` of the shapes in order, worked out a block of shapes at a time; fewer than all
        when the deadline or `cancel` cuts the scan short."""
        bound = self.quick_bound(ci)
        out: list[int] = []
        for start in range(0, len(self.shapes), QUICK_BLOCK):
            if scan.expired():
                break
            out.extend(bound(shape[0]) for shape in self.shapes[start:start + QUICK_BLOCK])
        return out

    def quick_bound(self, ci: int) -> Callable[[tuple[str, ...]], int]:
        """`upper(k, ci)` as a function of shape k's nodes (worked out once per class)."""
        if ci not in self._quick:
            longest = max((len(shape[0]) for shape in self.shapes), default=0)
            caps = [self.bonus_cap(ci, n) for n in range(longest + 1)]
            value = self.stops_value(ci)
            self._quick[ci] = lambda nodes_: value(nodes_) + caps[len(nodes_)]
        return self._quick[ci]

    def stops_value(self, ci: int) -> Callable[[Sequence[str]], int]:
        """At least what a route's stops pay class ci, as a function of its nodes (worked out once per class)."""
        found = self._stops.get(ci)
        if found is None:
            found = self._stops[ci] = self._stops_bound(ci)
        return found

    def _stops_bound(self, ci: int) -> Callable[[Sequence[str]], int]:
        """What `upper` counts for a route's stops, as a function of its nodes."""
        if self.plain[ci]:
            pay = self.node_rev[ci].__getitem__
            return lambda nodes_: sum(map(pay, nodes_))
        rows = self.disjoint_rows(ci)
        if rows is not None:  # each kind pays in its one row: the best `pay` stops of each row
            row_value = self.row_values(ci, rows)
            if len(rows) == 1:
                pay, only = rows[0].pay, {n: v for n, (_i, v) in row_value.items()}
                return lambda nodes_: _top_sum([only[n] for n in nodes_ if n in only], pay)
            return lambda nodes_: self._rows_sum(row_value, rows, nodes_)
        most = self.stop_upper(ci).__getitem__
        train = self.classes[ci]
        if train.unit != "stops_by_type":  # every stop may pay
            return lambda nodes_: sum(map(most, nodes_))
        paying = sum(r.pay for r in train.rows)
        return lambda nodes_: _top_sum(list(map(most, nodes_)), paying)

    @staticmethod
    def _rows_sum(row_value: dict[str, tuple[int, int]], rows: Sequence[DistanceRow], nodes_: Sequence[str]) -> int:
        """What a list train with rows of their own earns at most from these stops (`row_values`)."""
        by_row: list[list[int]] = [[] for _ in rows]
        for n in nodes_:
            found = row_value.get(n)
            if found is not None:
                by_row[found[0]].append(found[1])
        return sum(_top_sum(vs, r.pay) for r, vs in zip(rows, by_row))

    def row_values(self, ci: int, rows: Sequence[DistanceRow]) -> dict[str, tuple[int, int]]:
        """Per node, the one row of a list train (rows sharing no kind) that takes it and what it pays there."""
        found = self._row_value.get(ci)
        if found is None:
            t = self.classes[ci]
            found = self._row_value[ci] = {
                nid: (i, max(0, stop_revenue(n, t, r))) for nid, n in self.board.nodes.items()
                for i, r in enumerate(rows) if n.kind in r.kinds}
        return found

    def disjoint_rows(self, ci: int) -> tuple[DistanceRow, ...] | None:
        """A list train's rows when no kind fits two of them and each row's kinds pay only in it (None
        otherwise, or for other trains). A paying-stop choice of the modifiers (`CountedStops`) lets
        stops of one row fill another row's places, so its trains are bounded as any list train."""
        if ci not in self._disjoint:
            t = self.classes[ci]
            kinds = [k for r in t.rows for k in r.kinds]
            self._disjoint[ci] = t.rows if t.unit == "stops_by_type" and not t.klass and \
                len(kinds) == len(set(kinds)) and not self._choice_replaced(t) else None
        return self._disjoint[ci]

    def _choice_replaced(self, train: Train) -> bool:
        """Whether a modifier replaces the generic choice of this train's paying stops."""
        found = self.pricer.train_mods(train.name) if self.pricer is not None else None
        return found is not None and found.mods.counted_stops is not None

    def price(self, k: int, classes: Sequence[int]) -> tuple[Candidate, Candidate | None]:
        """Shape k priced for these classes: the candidate, and the route walked the other way where a
        modifier pays more so (either may end with no class: nothing to keep)."""
        nodes_, legs, mask, _crossings, _cost, _token, _kinds = self.shapes[k]
        board, pricer = self.board, self.pricer
        totals: dict[int, int] = {}  # the candidate's `totals`, summed here as its revenue lists are made
        cand = Candidate(nodes=nodes_, legs=legs, mask=mask, _totals=totals)
        back: Candidate | None = None
        priced_by_table: dict[tuple[int, int], tuple[list[int], bool] | str | None] = {}
        revs_of_table: dict[int, list[int]] = {}
        for ci in classes:
            train = self.classes[ci]
            plain_revs = None
            if self.plain[ci]:  # classes paid alike per stop share one list
                plain_revs = revs_of_table.get(self.same_table[ci])
                if plain_revs is None:
                    plain_revs = revs_of_table[self.same_table[ci]] = [self.node_rev[ci][n] for n in nodes_]
            priced = None
            usual = self.as_usual[ci]
            if pricer is not None and (usual is None or not usual(nodes_)):
                # trains paid alike get alike bonuses (of one unit: a list train's route that earns nothing is
                # priced apart), and so do train names the same modifiers admit where the pricer prices from
                # the stops' pay and the modifiers alone (`CandidatePricer.price`: every stop pays, no CountedStops)
                table = (self.same_table[ci], self._price_key(ci), train.unit) if plain_revs is not None else None
                if table is None or table not in priced_by_table:
                    priced = pricer.price(train, nodes_, plain_revs, legs)
                    if table is not None:
                        priced_by_table[table] = priced
                else:
                    priced = priced_by_table[table]
            if priced is ILLEGAL:  # it breaks a route rule either way
                continue
            subsidy = 0
            if priced is not None:
                revs, reverse, subsidy = priced  # type: ignore[misc]
                if reverse:
                    back = back or Candidate(nodes=nodes_[::-1], legs=reversed_legs(self.graph, legs), mask=mask,
                                             _totals={})
                    back.revenue[ci] = revs
                    back._totals[ci] = sum(revs)  # type: ignore[index]
                    if subsidy:
                        back.subsidy[ci] = subsidy
                    continue
            elif plain_revs is not None:
                revs = plain_revs
            else:
                key = (ci, frozenset(nodes_))
                if key not in self.cache:
                    self.cache[key] = route_stop_revenues(board, train, sorted(nodes_))
                by_node = dict(zip(sorted(nodes_), self.cache[key]))
                revs = [by_node[n] for n in nodes_]
            total = sum(revs)
            if total > 0 or self.keep_zero:
                cand.revenue[ci] = revs
                totals[ci] = total
                if subsidy:
                    cand.subsidy[ci] = subsidy
        return cand, back

    def _price_key(self, ci: int) -> int:
        """Which modifiers price class ci's routes (`price` shares a price between classes paid alike): the
        modifiers themselves where the pricer prices a route from its stops' pay and them alone, else the
        train name's own view of them."""
        found = self._price_keys.get(ci)
        if found is None:
            train = self.classes[ci]
            d = self.pricer.train_mods(train.name)  # type: ignore[union-attr]
            shared = d is None or (train.unit in EVERY_STOP_PAYS and d.mods.counted_stops is None)
            found = self._price_keys[ci] = id(d.mods) if shared and d is not None else id(d)
        return found

    def locals(self) -> list[Candidate]:
        """One-stop runs of local trains: a tokened city each, kept whatever they earn."""
        out = []
        local_classes = [ci for ci, t in enumerate(self.classes) if t.local]
        for nid, node in self.board.nodes.items():
            if local_classes and node.kind == "city" and node.tokened_by_company:
                cand = Candidate(nodes=(nid,), legs=(), mask=0)
                for ci in local_classes:
                    if train_findings(self.classes[ci], [node], 0):
                        continue
                    stops_rev = route_stop_revenues(self.board, self.classes[ci], (nid,))
                    if sum(stops_rev) > 0:
                        cand.revenue[ci] = stops_rev
                if cand.revenue:
                    out.append(cand)
        return out


def _lazy(builder: _Builder, options: list[tuple[int, int, int]], lazy: LazyBound, deadline: float | None,
          cancel: CancelToken | None, known: int = 0) -> tuple[list[Candidate], int, bool]:
    """Price the options (upper bound, shape, class) with the best bounds first, take a lower bound on
    the run from them, and price the others only where they could still beat it (paired with the best
    of every other train, by the bounds of the unpriced ones: the argument of `packing.prune`), in
    rounds: best bound first, four times as many each round, each asked its tight bound before it is
    priced, the lower bound taken again after each. `known`: the value of a run the walk found
    (`_walk_floor`); one less is the first lower bound (its routes may not be priced here, so an option
    that can only tie it stays).
    Returns the candidates in shape order, how many options were never priced, and whether every
    option that could matter was priced (False when the deadline or `cancel` cut the pricing short)."""
    options.sort(key=lambda o: -o[0])
    per_class = max(LAZY_FIRST // max(1, len(lazy.counts)), 50)  # every class's best: a packing of all trains
    seen: dict[int, int] = defaultdict(int)
    first, rest = [], []
    for o in options:
        seen[o[2]] += 1
        (first if seen[o[2]] <= per_class else rest).append(o)
    complete = True

    made: dict[tuple[int, int], Candidate] = {}  # (shape, 0 ahead / 1 reversed) -> its one candidate

    def priced(chosen: list[tuple[int, int, int]]) -> None:
        nonlocal complete
        by_shape: dict[int, list[int]] = defaultdict(list)
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

    priced(first)
    # `known`: the value of a run the walk found, of routes that may not be priced here; an option that can
    # only tie it must stay (it may be in the only run worth that much), so it is weighed against one less
    lower = known - 1 if known else lazy.lower_of(list(made.values()))
    # the unpriced options per class, best bound first, each with its place in the whole order
    waiting: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
    for place, (ub, k, ci) in enumerate(rest):
        waiting[ci].append((ub, k, ci, place))
    dropped: list[tuple[int, int, int, int]] = []  # options that cannot beat the lower bound: never priced
    chunk = LAZY_FIRST
    while any(waiting.values()) and complete:
        floor = _floors(made, waiting, lazy.counts, lower)
        loose = {}
        for ci, some in waiting.items():  # an option could beat it when its bound is above its class's floor
            cut = bisect.bisect_left(some, -floor[ci], key=lambda o: -o[0])
            loose[ci] = some[:cut]
            dropped.extend(some[cut:])
        take = list(itertools.islice(heapq.merge(*loose.values(), key=lambda o: o[3]), chunk))
        taken = Counter(o[2] for o in take)
        waiting = defaultdict(list, {ci: some[taken[ci]:] for ci, some in loose.items()})
        # asked its tight bound (only the bonuses it can hit) where its stops alone might not beat the floor,
        # unless the bonuses spread over its stops and legs (a bound above the tight one) cannot beat it either
        stops_only = [o[0] - builder.bonus_cap(o[2], len(builder.shapes[o[1]].nodes)) for o in take]
        tight = [paid > floor[o[2]] or (paid + builder.spread_bonus(o[1], o[2]) > floor[o[2]]
                                        and paid + builder.tight_bonus(o[1], o[2]) > floor[o[2]])
                 for o, paid in zip(take, stops_only)]
        dropped.extend(o for o, ok in zip(take, tight) if not ok)
        priced([o[:3] for o, ok in zip(take, tight) if ok])
        if any(waiting.values()):  # the options priced may give a better run: the rest are weighed against it
            lower = max(lower, lazy.lower_of(list(made.values())))
        chunk *= 4
    must = lazy.must_keep
    keep = [o[:3] for o in sorted(dropped, key=lambda o: o[3]) if must(
        Candidate(nodes=builder.shapes[o[1]].nodes, legs=(), mask=0, revenue={o[2]: []}))] if must is not None else []
    priced(keep)
    return [made[key] for key in sorted(made)], len(dropped) - len(keep), complete


def _floors(made: dict[tuple[int, int], Candidate], waiting: dict[int, list[tuple[int, int, int, int]]],
            counts: Sequence[int], lower: int) -> dict[int, float]:
    """Per class, the value an option must exceed to be in a run beating `lower`, paired with the best of
    every other train (the priced candidates' values and the unpriced options' bounds, best first):
    the argument of `packing.prune`, solved for the option's value."""
    values: dict[int, list[int]] = defaultdict(list)
    for c in made.values():
        for ci, v in c.totals.items():
            values[ci].append(v)
    for ci, some in waiting.items():
        values[ci].extend(o[0] for o in some[:counts[ci]])
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
                     lazy: LazyBound | None = None) -> tuple[list[Candidate], bool]:
    """Legal routes with their revenue per train class. The walk already obeys the shape rules
    (`route_rules.shape_findings`); a route is kept for a class if it also passes the train's
    rules (`route_rules.train_findings`) and earns something.

    With `best_only` (for a company with one train and no run rules, whose best run is its best
    route), only the best route is kept (the first in walk order of those that earn the most): the
    walk is a branch and bound where the train allows it, else the routes are priced best upper
    bound first, so that most are never priced (`_best_walked`).
    With `lazy` (several trains, many routes), the routes with the best upper bounds are priced first
    and the others only where they could still beat the run those give (`_lazy`).
    `stats["routes_walked"]` counts the routes the walk found either way. `with_subsidy`: a route's
    value includes its subsidy (the objective counts it).

    The steps: `_walk` the shapes and price them (`_every_route`, or `_bounded_options` then `_lazy`),
    or `_best_walked`; add the local trains' one-stop runs (`_Builder.locals`)."""
    if walk_deadline is None and deadline is not None:  # the walk gets half of the time left
        walk_deadline = time.monotonic() + (deadline - time.monotonic()) * 0.5
    scan = _Scan(deadline, cancel)
    if best_only:
        builder, complete, cands = _best_walked(board, graph, classes, cap, walk_deadline, cancel, with_subsidy, scan)
    else:
        builder, complete, known = _walk(board, graph, classes, cap, walk_deadline, cancel, with_subsidy, lazy)
        if lazy is not None and len(builder.shapes) * len(classes) >= LAZY_FROM:
            cands, skipped, priced_all = _lazy(builder, _bounded_options(builder, scan), lazy, deadline, cancel, known)
            complete = complete and priced_all
            if stats is not None:
                stats["never_priced"] = float(skipped)
        else:
            cands = _every_route(builder, scan)
    cands.extend(builder.locals())
    if stats is not None:
        stats["routes_walked"] = float(scan.walked)
    return cands, complete and not scan.cut


Weights = tuple[dict[str, int], dict[str, int], dict[str, int], int]  # what `_bound_weights` gives


def _walk(board: Board, graph: LegGraph, classes: Sequence[Train], cap: int, walk_deadline: float | None,
          cancel: CancelToken | None, with_subsidy: bool, lazy: LazyBound | None = None
          ) -> tuple[_Builder, bool, int]:
    """Step 1: walk the route shapes (under the modifiers' walk limits); a builder to price them, whether
    the walk was complete, and the value of a run it knows (0 for none). With `lazy`, two trains that
    allow it and a long walk, it keeps only the routes that may be in a run beating that one
    (`_walk_floor`)."""
    pricer = candidate_pricer(board, with_subsidy)  # the modifiers' per-route rules (None without modifiers)
    walk = standard_walk_rules(board, *pricer.walk_limits) if pricer is not None else None
    builder = _Builder(board, graph, classes, [], pricer)
    # a floor for two trains that count plain stops, with no run rules (three trains or more: their best
    # routes leave little to prune); asked before the walk, so that no walk is thrown away for nothing
    weights: list[Weights] = []
    if lazy is not None and lazy.must_keep is None and sum(lazy.counts) == 2 and all(map(plain_bounded, classes)):
        weights = [w for ci in range(len(classes)) if (w := _bound_weights(builder, ci)) is not None]
    floor = None
    if lazy is not None and weights and len(weights) == len(classes) and cap > FLOOR_FROM:
        # a short walk ends before a floor pays: walk that far first
        builder.shapes, complete = enumerate_routes(board, graph, classes, FLOOR_FROM, walk_deadline, rules=walk,
                                                    cancel=cancel)
        if complete:
            return builder, complete, 0
        floor = _walk_floor(board, graph, builder, walk or standard_walk_rules(board), lazy.counts, lazy.lower_of,
                            weights, cap, walk_deadline, cancel)
    builder.shapes, complete = enumerate_routes(board, graph, classes, cap, walk_deadline, rules=walk, cancel=cancel,
                                                bound=floor[0] if floor else None, floors=floor[1] if floor else ())
    return builder, complete, floor[2] if floor else 0


def _best_walked(board: Board, graph: LegGraph, classes: Sequence[Train], cap: int, walk_deadline: float | None,
                 cancel: CancelToken | None, with_subsidy: bool, scan: _Scan) -> tuple[_Builder, bool, list[Candidate]]:
    """Steps 1 and 2 with `best_only`: the builder, whether the walk was complete, and the best route.
    A train counting plain stops, or a list train paid by every stop with one row that limits it
    (`route_bound.limiting_row`), is walked as a branch and bound (`_bounded_best` with a `ReachBound`).
    A longer train paid by every stop (a D, a hex or an express train paid by every stop, a list train
    whose rows pay every stop, or stops that cost nothing) is walked so with a `flat_bound`: no route is
    cut short, but only those that may earn the best price so far are kept and priced. Other trains:
    `_best_routes`."""
    pricer = candidate_pricer(board, with_subsidy)
    walk = standard_walk_rules(board, *pricer.walk_limits) if pricer is not None else standard_walk_rules(board)
    builder = _Builder(board, graph, classes, [], pricer)
    weights = _bound_weights(builder, 0) if len(classes) == 1 else None
    reach = reach_bound(board, graph.legs_from, walk.visitable, walk.passable, classes[0], *weights) \
        if weights is not None and (builder.plain[0] or limiting_row(classes[0]) is None) else None
    if reach is None and weights is not None and builder.plain[0] and not (classes[0].klass or classes[0].local):
        longest = max(classes[0].distance, sum(board.nodes[n].visit_cost for n in walk.visitable))
        reach = flat_bound(graph.legs_from, walk.visitable, longest, *weights)  # a route earns its stops' pay
    if reach is None:
        builder.shapes, complete = enumerate_routes(board, graph, classes, cap, walk_deadline, rules=walk,
                                                    cancel=cancel)
        return builder, complete, _best_routes(builder, scan)
    best, complete = _bounded_best(board, graph, builder, 0, walk, reach, cap, walk_deadline, cancel, scan=scan)
    return builder, complete, best.first()


def _bound_weights(builder: _Builder, ci: int) -> Weights | None:
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


def _bounded_best(board: Board, graph: LegGraph, builder: _Builder, ci: int, walk: WalkRules, bound: ReachBound,
                  cap: int, deadline: float | None, cancel: CancelToken | None, avoid: int = 0,
                  scan: _Scan | None = None) -> tuple[_Best, bool]:
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
    _shapes, complete = enumerate_routes(board, graph, [builder.classes[ci]], cap, deadline, rules=walk,
                                         cancel=cancel, bound=bound, improve=improve, avoid=avoid)
    return best, complete


def _walk_floor(board: Board, graph: LegGraph, builder: _Builder, walk: WalkRules, counts: Sequence[int],
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


@dataclass
class _Scan:
    """The walked shapes in order, until the deadline or `cancel` cuts the scan short (`cut`)."""

    deadline: float | None
    cancel: CancelToken | None
    walked: int = 0
    cut: bool = False

    def shapes(self, n: int) -> Iterator[int]:
        """Indices 0..n-1, checking the clock every 256."""
        for k in range(n):
            if k % 256 == 255 and self.expired():
                return
            self.walked += 1
            yield k

    def expired(self) -> bool:
        """Whether the deadline passed or `cancel` was set (then the scan is `cut`)."""
        if (self.deadline is not None and time.monotonic() > self.deadline) or \
                (self.cancel is not None and self.cancel.cancelled):
            self.cut = True
        return self.cut


def _every_route(builder: _Builder, scan: _Scan) -> list[Candidate]:
    """Step 2, by default: price every shape for the classes it fits; keep what earns something."""
    cands = []
    for k in scan.shapes(len(builder.shapes)):
        for kept in builder.price(k, builder.fitting(k)):
            if kept is not None and kept.revenue:
                cands.append(kept)
    return cands


def _best_routes(builder: _Builder, scan: _Scan) -> list[Candidate]:
    """Step 2 with `best_only`: the best route alone, the first in walk order (a route ahead before
    its way back) of those that earn the most; none when no route earns anything. The routes are
    taken best quick bound first: once that bound falls below the best price found, no route left
    can earn as much; a route whose tight bound is below it is not priced."""
    n_classes = len(builder.classes)
    quick = [builder.quick_uppers(ci, scan) for ci in range(n_classes)]  # the shapes' bounds a block at a time
    bounds = quick[0] if n_classes == 1 else [max(col) for col in zip(*quick)]
    by_bound = sorted((-bounds[k], k) for k in scan.shapes(len(bounds)))
    best = _Best()
    for i, (minus_bound, k) in enumerate(by_bound):
        if -minus_bound < best.value:
            break
        if i % 256 == 255 and scan.expired():
            break
        if max(builder.upper(k, ci, tight=True) for ci in range(n_classes)) < best.value:
            continue
        best.offer((k,), builder.price(k, builder.fitting(k)))
    return best.first()


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


def _bounded_options(builder: _Builder, scan: _Scan) -> list[tuple[int, int, int]]:
    """Step 2, lazily: every (quick upper bound, shape, class) option, unpriced (`_lazy` prices them)."""
    quick = [builder.quick_bound(ci) for ci in range(len(builder.classes))]
    out = []
    for k in scan.shapes(len(builder.shapes)):
        nodes_ = builder.shapes[k][0]
        for ci in builder.fitting(k):
            out.append((quick[ci](nodes_), k, ci))
    return out
