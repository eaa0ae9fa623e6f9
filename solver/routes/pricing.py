"""Route shapes priced into candidates: `Candidate` (a route and, per train class that may run it, its stop
revenues) and `RouteBuilder`, which decides the classes that may run a walked shape, bounds what it may
earn and prices it (the stops' pay, and the modifiers' bonuses, subsidy and route rules through
`modifiers.candidate_values`, in the better direction where they tell the two apart).
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from solver.model.board import Board, DistanceRow, Node, Train
from solver.model.cancel import CancelToken
from solver.model.legs import Leg
from solver.modifiers.candidate_values import (
    EVERY_STOP_PAYS,
    ILLEGAL,
    CandidatePricer,
    pays_every_stop,
)
from solver.routes.leg_graph import LegGraph, reversed_legs
from solver.routes.route_shape import RouteShape
from solver.routes.walk import PourByKind, kind_code
from solver.routes.walk_native import INT64_SAFE, WalkedShapes
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
        makes the revenue lists (`RouteBuilder.price`), else when first read (the lists are complete by then).
        Not a functools.cached_property: that one takes a lock on every read in Python 3.11."""
        if self._totals is None:
            self._totals = {ci: sum(st) for ci, st in self.revenue.items()}
        return self._totals


QUICK_BLOCK = 4096  # shapes bounded at once between looks at the clock and the cancel token


def combined_key(columns: Sequence[np.ndarray]) -> np.ndarray:
    """One int64 per row of these integer columns, equal for two rows exactly when every column is (a column
    spanning too much for the numbers left is numbered by its distinct values first, the key so far too)."""
    key = np.zeros(len(columns[0]), dtype=np.int64)
    span = 1
    for column in columns:
        column = np.asarray(column, dtype=np.int64)
        low, size = (int(column.min()), int(column.max()) - int(column.min()) + 1) if len(column) else (0, 1)
        if span * size >= 1 << 62:
            key = np.unique(key, return_inverse=True)[1].ravel().astype(np.int64)
            column = np.unique(column, return_inverse=True)[1].ravel().astype(np.int64)
            low, size, span = 0, int(column.max()) + 1, int(key.max()) + 1
        key = key * size + (column - low)
        span *= size
    return key


def _top_sum(values: list[int], count: int) -> int:
    """The sum of the `count` largest values (a C sort: these lists are short)."""
    return sum(values) if len(values) <= count else sum(sorted(values, reverse=True)[:count])


def _quick_fit(train: Train) -> bool | None:
    """How `train_findings` reads for a walked route of this train, in short: False when it counts visit
    costs, True when it counts hex crossings, None when it must be asked (a class, a list, no limit)."""
    if train.klass or train.local:
        return None
    return {"stops": False, "hexes": True}.get(train.unit)


def stop_table(board: Board, train: Train, node_ids: Iterable[str] | None = None) -> dict[str, int]:
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


class RouteBuilder:
    """Prices walked route shapes into candidates, per train class (the body of `candidate_routes`)."""

    def __init__(self, board: Board, graph: LegGraph, classes: Sequence[Train], shapes: Sequence[RouteShape],
                 pricer: CandidatePricer | None) -> None:
        self.board, self.graph, self.classes, self.shapes, self.pricer = board, graph, classes, shapes, pricer
        # every stop pays (the bonus pricing relies on it): each stop's pay read from a table
        self.plain = [pricer.pays_every_stop(t) if pricer is not None else pays_every_stop(t, board) for t in classes]
        # the tables per stop cover the stops of the leg graph: every route's
        self.node_rev = [stop_table(board, t, graph.legs_from) if self.plain[ci] else {}
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
        self._miss_tests: dict[int, Callable[[Sequence[str]], bool] | None] = {}  # per class, `_miss_test`
        self._combos: dict[int, list[tuple[int, list[frozenset[str]]]]] = {}  # per class, `_combo_sets`
        # per class, the test that the pricer gives None for a route (priced as usual), asked before it is
        # (None: always ask it; no pricer: no test needed)
        self.as_usual = [pricer.as_usual(t, self.plain[ci]) if pricer is not None else None
                         for ci, t in enumerate(classes)]
        # per class, whether a route's price is its stops' pay from the table and v1 bonuses read from its stops
        # (`CandidatePricer._price_plain`): pricing it costs less than its tight bound (`tight_bonus`)
        self.priced_cheaply = [self.plain[ci] and (pricer is None or (d := pricer.train_mods(t.name)) is None
                                                   or d.mods.plain) for ci, t in enumerate(classes)]

    def over(self, shapes: Sequence[RouteShape]) -> RouteBuilder:
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

    def walked_fits(self, shapes: WalkedShapes) -> tuple[list[tuple[int, ...]], np.ndarray] | None:
        """`fitting(k)` of every shape of a compiled walk, from its arrays: the distinct answers, and per shape the
        place of its own among them (shapes alike in token, crossings, visit cost and, for a list train's pour,
        kind code share one); None when some class must look at a route's stops to know."""
        if self.need_stops:
            return None
        n = len(shapes)
        codes, code_at = shapes.distinct_codes() if any(p is not None for p in self.pours) else ([0], np.zeros(n))
        kinds, at = np.unique(combined_key([shapes.token_array, shapes.cross_array, shapes.cost_array, code_at]),
                              return_index=True, return_inverse=True)[1:]
        fit_of: dict[tuple[int, ...], int] = {}
        number = [fit_of.setdefault(self._fitting((), crossings, cost, token, codes[code]), len(fit_of))
                  for token, crossings, cost, code in zip(shapes.token_array[kinds].astype(bool).tolist(),
                                                          shapes.cross_array[kinds].tolist(),
                                                          shapes.cost_array[kinds].tolist(),
                                                          np.asarray(code_at)[kinds].astype(np.int64).tolist())]
        return list(fit_of), np.asarray(number, dtype=np.int64)[at.ravel()]

    def walked_fit_masks(self, shapes: WalkedShapes) -> list[np.ndarray] | None:
        """Per class, whether its train may run each shape of a compiled walk (`fitting`), from its arrays (a list
        train's pour asked once per kind code); None when some class must look at a route's stops to know."""
        if self.need_stops:
            return None
        token = shapes.token_array.astype(bool)
        codes: tuple[list[int], np.ndarray] | None = None
        out = []
        for ci, train in enumerate(self.classes):
            fit = token if train.requires_token else np.ones(len(shapes), dtype=bool)
            quick = self.quick_fit[ci]
            if quick is not None:  # a walked route has two stops: only its token and its length are left to check
                out.append(fit & ((shapes.cross_array if quick else shapes.cost_array) <= train.distance))
                continue
            pour = self.pours[ci]  # an unclassed list train: its token and its cached pour
            codes = codes or shapes.distinct_codes()
            out.append(fit & np.asarray([pour(c) for c in codes[0]], dtype=bool)[codes[1]])  # type: ignore[misc]
        return out

    def walked_bounds(self, ci: int, shapes: WalkedShapes) -> np.ndarray | None:
        """`quick_bound(ci)` of every shape of a compiled walk, or for a class paying every stop from its table
        `lazy_upper`, from its arrays (`misses_bonuses` and the spread bonus run over them); None where its
        stops' bound is not the best few of per-node tables (`_walked_tables`) or a value is beyond 64-bit
        integers."""
        tables = self._walked_tables(ci)
        if tables is None:
            return None
        lengths = np.diff(shapes.off_array)
        caps = [self.bonus_cap(ci, n) for n in range(int(lengths.max(initial=0)) + 1)]
        values = shapes.top_sums([(shapes.row(table), count) for table, count in tables])
        if values is None or not all(isinstance(c, int) and abs(c) < INT64_SAFE for c in caps):
            return None
        hits = self._walked_hits(ci, shapes)
        cap = np.asarray(caps, dtype=np.int64)[lengths] - self._walked_combo_missed(ci, shapes)
        if hits is not None:  # `first_cap`: nothing where the stops miss every bonus
            cap = np.where(hits, cap, 0)
        if self.plain[ci]:
            cap = np.minimum(cap, self._walked_spread(ci, shapes, hits))
        return values + cap

    def _walked_hits(self, ci: int, shapes: WalkedShapes) -> np.ndarray | None:
        """Per shape of a compiled walk, whether its stops may hit a bonus of class ci (not `misses_bonuses`),
        from its arrays; None when any may (no test by stops)."""
        missed = self._missed(ci)
        if missed is None:
            return None
        return shapes.values([], [(shapes.numbers(missed[0]), missed[1])], arrays=True)[1] > 0

    def _walked_combo_missed(self, ci: int, shapes: WalkedShapes) -> np.ndarray:
        """`combo_missed(ci, ...)` of every shape of a compiled walk, from its arrays (each set a test)."""
        missed = np.zeros(len(shapes), dtype=np.int64)
        combos = self._combo_sets(ci)
        if not combos:
            return missed
        sets = [s for _most, of in combos for s in of]
        touched = np.empty((len(sets), len(shapes)), dtype=bool)
        for start in range(0, len(sets), 64):  # 64 tests at a time: one bit each
            part = sets[start:start + 64]
            bits = shapes.values([], [(shapes.numbers(s), False) for s in part], arrays=True)[1]
            for j in range(len(part)):
                touched[start + j] = (bits >> np.uint64(j)) & np.uint64(1) > 0
        at = 0
        for most, of in combos:
            missed += np.where(touched[at:at + len(of)].all(axis=0), 0, most)
            at += len(of)
        return missed

    def _walked_spread(self, ci: int, shapes: WalkedShapes, hits: np.ndarray | None) -> np.ndarray:
        """`spread_bonus(k, ci)` of every shape of a compiled walk (`hits`: `_walked_hits`), from its arrays;
        INT64_SAFE for a route without legs (no bound)."""
        weights = self._spread_weights(ci)
        if weights is None:  # no modifiers: no bonus
            return np.zeros(len(shapes), dtype=np.int64)
        node, hexes, const, _per_leg = weights
        spread = np.full(len(shapes), const, dtype=np.int64)
        if node:
            spread += shapes.values([shapes.row(node)], [], arrays=True)[0][0]
        if hexes:  # else no leg weighs anything
            spread += shapes.leg_sums(lambda leg: self._leg_weight(ci, leg))
        if hits is not None:  # a route missing every bonus: the constant alone
            spread = np.where(hits, spread, const)
        return np.where(np.diff(shapes.off_array) > 1, spread, INT64_SAFE)

    def _walked_tables(self, ci: int) -> list[tuple[dict[str, int], int | None]] | None:
        """What `stops_value(ci)` sums, as per-node tables (none below 0) and how many of a route's best values
        each counts (None: all); None for a count below 0."""
        if self.plain[ci]:
            return [(self.node_rev[ci], None)]
        rows = self.disjoint_rows(ci)
        if rows is not None:  # each kind pays in its one row: the best `pay` stops of each row
            row_value = self.row_values(ci, rows)
            tables = [({n: v for n, (i, v) in row_value.items() if i == r}, row.pay) for r, row in enumerate(rows)]
        elif self.classes[ci].unit != "stops_by_type":  # every stop may pay
            tables = [(self.stop_upper(ci), None)]
        else:
            tables = [(self.stop_upper(ci), sum(r.pay for r in self.classes[ci].rows))]
        return None if any(count is not None and count < 0 for _t, count in tables) else tables

    def _missed(self, ci: int) -> tuple[frozenset[str], bool] | None:
        """What `misses_bonuses` reads for class ci, for a caller that runs it over arrays: the stops a route
        must miss, and whether at its two ends only; None when a route may hit a bonus whatever its stops
        (or no bonus test is made: no pricer, or no modifier of this train, where `bonus_cap` is 0)."""
        test = self._miss_test(ci)
        return self.pricer.missed_by(test) if test is not None and self.pricer is not None else None

    def _miss_test(self, ci: int) -> Callable[[Sequence[str]], bool] | None:
        """`misses_bonuses` for class ci as a test of a route's nodes; None when no route misses them by its
        stops alone (a bonus reads path hexes), or there is nothing to miss (`bonus_cap` is then 0)."""
        if ci not in self._miss_tests:
            d = self.pricer.train_mods(self.classes[ci].name) if self.pricer is not None else None
            self._miss_tests[ci] = None if d is None else self.pricer.miss_test(d, self.classes[ci],  # type: ignore[union-attr]
                                                                                self.plain[ci])
        return self._miss_tests[ci]

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
        weights = self._spread_weights(ci)
        if weights is None:
            return 0
        if not legs:
            return math.inf
        node, hexes, const, per_leg = weights
        if self.misses_bonuses(k, ci):  # no stop it weighs and no hex bonus: the constant alone
            return const
        total = const + sum(node.get(n, 0) for n in nodes_)
        if hexes:  # else no leg weighs anything
            for leg in legs:
                w = per_leg.get(id(leg))
                total += w if w is not None else self._leg_weight(ci, leg)
        return total

    def spread_least(self, ci: int) -> int:
        """At most `spread_bonus(k, ci)` of any shape k: its weight once (every other weight is at least 0)."""
        weights = self._spread_weights(ci)
        return 0 if weights is None else weights[2]

    def _spread_weights(self, ci: int) -> tuple[dict[str, int], dict[str, int], int, dict[int, int]] | None:
        """`spread_bonus`'s weights for class ci: per stop, per hex, once, and per leg as weighed so far (by id;
        the legs are the graph's); None without modifiers (no bonus)."""
        if self.pricer is None or self.pricer.mods is None:
            return None
        weights = self._spread.get(ci)
        if weights is None:
            node, hexes, const = self.pricer.bonus_weights(self.classes[ci].name, self.stop_upper(ci))
            weights = self._spread[ci] = (node, hexes, const, {})
        return weights

    def _leg_weight(self, ci: int, leg: Leg) -> int:
        """What `spread_bonus` counts for the hexes this leg passes, for class ci (with modifiers)."""
        _node, hexes, _const, per_leg = self._spread[ci]
        w = per_leg.get(id(leg))
        if w is None:
            w = per_leg[id(leg)] = sum(hexes.get(h, 0) for h in leg.hexes) if hexes else 0
        return w

    def lazy_upper(self, k: int, ci: int) -> float:
        """The lazy build's first bound on what shape k earns class ci: `upper(k, ci)`, or its stops and
        `spread_bonus` where that is less."""
        return self.stops_value(ci)(self.shapes[k].nodes) + min(self.first_cap(k, ci), self.spread_bonus(k, ci))

    def first_stops(self, k: int, ci: int, bound: int) -> int:
        """At least what shape k's stops pay class ci, from `bound`, the lazy build's first bound on it
        (`lazy_upper` for a class paying every stop from its table, else `quick_bound`'s, its stops and
        `first_cap`)."""
        return self.stops_value(ci)(self.shapes[k].nodes) if self.plain[ci] else bound - self.first_cap(k, ci)

    def upper(self, k: int, ci: int, tight: bool = False) -> int:
        """At least what shape k earns class ci (stops and bonuses), without pricing it: with the largest
        bonuses any route of its length may take (none where its stops miss them all, `first_cap`), or
        (`tight`) only those its own stops can hit."""
        nodes_ = self.shapes[k].nodes
        cap = self.tight_bonus(k, ci) if tight else self.first_cap(k, ci)
        return self.stops_value(ci)(nodes_) + cap

    def first_cap(self, k: int, ci: int) -> int:
        """What `upper(k, ci)` adds to shape k's stops for the bonuses: nothing where they miss every route
        bonus (`misses_bonuses`), else the most any route of its length may take (`bonus_cap`)."""
        nodes_ = self.shapes[k].nodes
        missed = self._miss_test(ci)  # None: no test, or none needed (`bonus_cap` is 0)
        if missed is not None and missed(nodes_):
            return 0
        return self.bonus_cap(ci, len(nodes_)) - self.combo_missed(ci, nodes_)

    def combo_missed(self, ci: int, nodes_: Sequence[str]) -> int:
        """What `bonus_cap` counts for the combinations of class ci that a route of these stops cannot earn:
        those with a set none of its stops is on."""
        return sum(most for most, of in self._combo_sets(ci) if any(s.isdisjoint(nodes_) for s in of))

    def _combo_sets(self, ci: int) -> list[tuple[int, list[frozenset[str]]]]:
        """`CandidatePricer.combo_sets` of class ci (none without a pricer)."""
        found = self._combos.get(ci)
        if found is None:
            found = self._combos[ci] = self.pricer.combo_sets(self.classes[ci].name) if self.pricer is not None \
                else []
        return found

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

    def quick_uppers(self, ci: int, scan: Scan) -> list[int]:
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
            value, missed = self.stops_value(ci), self._miss_test(ci)
            if self._combo_sets(ci):  # `first_cap`, a combination's part only where the stops hit every set
                self._quick[ci] = lambda nodes_: value(nodes_) + (0 if missed is not None and missed(nodes_) else
                                                                  caps[len(nodes_)] - self.combo_missed(ci, nodes_))
            else:
                self._quick[ci] = (lambda nodes_: value(nodes_) + caps[len(nodes_)]) if missed is None else \
                    (lambda nodes_: value(nodes_) + (0 if missed(nodes_) else caps[len(nodes_)]))
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
                    priced = pricer.price_asked(train, nodes_, plain_revs, legs)  # `usual` asked just now
                    if table is not None:
                        priced_by_table[table] = priced
                else:
                    priced = priced_by_table[table]
            if priced is ILLEGAL:  # it breaks a route rule either way ...
                if pricer is None or not pricer.award_only(train, nodes_, legs):
                    continue
                priced = ([0] * len(nodes_), False, 0)  # ... unless it wins an award: worth nothing otherwise
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
        """One-stop runs of local trains: a tokened city each, priced as any route (its stop's pay, and the
        modifiers' bonuses, subsidy and route rules: a run a route rule forbids is none)."""
        out: list[Candidate] = []
        local_classes = [ci for ci, t in enumerate(self.classes) if t.local]
        for nid, node in self.board.nodes.items():
            if local_classes and node.kind == "city" and node.tokened_by_company:
                fit = [ci for ci in local_classes if not train_findings(self.classes[ci], [node], 0)]
                if not fit:
                    continue
                run = RouteShape(nodes=(nid,), legs=(), mask=0, crossings=0, cost=node.visit_cost, token=True,
                                 kinds=kind_code([node]))
                out.extend(c for c in self.over([run]).price(0, fit) if c is not None and c.revenue)
        return out


@dataclass
class Scan:
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

    def taken(self, n: int) -> int:
        """How many of indices 0..n-1 `shapes(n)` gives (each counted walked), asking the clock as often, without
        going through them one by one."""
        for k in range(255, n, 256):
            if self.expired():
                self.walked += k
                return k
        self.walked += n
        return n

    def expired(self) -> bool:
        """Whether the deadline passed or `cancel` was set (then the scan is `cut`)."""
        if (self.deadline is not None and time.monotonic() > self.deadline) or \
                (self.cancel is not None and self.cancel.cancelled):
            self.cut = True
        return self.cut
