"""Candidates made only when read: on a long walk most routes are priced as usual (each class pays every stop
from its table, and no modifier applies), and the packing reads no more of them than their values per
class and their track. `PricedOnRead` keeps those two as lists and makes a route's `Candidate` (the one
`RouteBuilder.price` gives) the first time it is read; `candidate_totals` and `candidate_masks` read the
lists of any candidate sequence without making a candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from solver.routes.bit_table import int_words
from solver.routes.made_on_read import MadeOnRead
from solver.routes.pricing import Candidate, RouteBuilder, Scan
from solver.routes.walk_native import INT64_SAFE, WalkedShapes, shape_list


class PricedOnRead(MadeOnRead[Candidate]):
    """The candidates of one walk, in order: each either made (`add`) or a shape whose candidate is made
    when first read (`add_shape`: its values per class and its track known); a candidate read twice is one
    object."""

    def __init__(self, builder: RouteBuilder) -> None:
        self.builder = builder
        self.shape_of: list[int] = []  # per candidate, its shape (-1: made when added)
        self.made: list[Candidate | None] = []
        self.totals: list[dict[int, int]] | ColumnTotals = []  # per candidate, `Candidate.totals`
        self.masks: list[int] | WalkMasks = []  # per candidate, `Candidate.mask`
        # per class a row of the values of the first candidates (`columns`: those a compiled walk listed), and
        # whether each has one
        self.columns: tuple[np.ndarray, np.ndarray] | None = None

    def add_shape(self, k: int, totals: dict[int, int], mask: int) -> None:
        """A shape priced as usual for the classes in `totals` (each its value there)."""
        self.shape_of.append(k)
        self.made.append(None)
        self.totals.append(totals)
        self.masks.append(mask)

    def add(self, cand: Candidate) -> None:
        """A candidate made already (its revenue complete)."""
        self.shape_of.append(-1)
        self.made.append(cand)
        self.totals.append(cand.totals)
        self.masks.append(cand.mask)

    def extend(self, cands: Iterable[Candidate]) -> None:
        for cand in cands:
            self.add(cand)

    def class_values(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Per class, a row of every candidate's value for it (`totals`) and whether it has one; None where no
        compiled walk listed the candidates (`columns`), or some candidate's classes are not in their order."""
        if self.columns is None:
            return None
        columns, present = self.columns
        rest = self.totals[columns.shape[1]:]
        if rest:  # candidates added after the walk's
            more, has = np.zeros((len(columns), len(rest)), dtype=np.int64), np.zeros((len(columns), len(rest)), bool)
            if not all([_put(more, has, j, t) for j, t in enumerate(rest)]):
                self.columns = None
                return None
            self.columns = columns, present = np.hstack([columns, more]), np.hstack([present, has])
        return columns, present

    def mask_rows(self) -> np.ndarray | None:
        """Per candidate, its track (`masks`) as a row of 64-bit words; None where no compiled walk listed the
        candidates."""
        return self.masks.rows() if isinstance(self.masks, WalkMasks) else None

    def make_item(self, r: int) -> Candidate:
        """Candidate r, priced for the classes it earns something for, in the order the builder gave them."""
        cand = self.made[r] = self.builder.price(self.shape_of[r], tuple(self.totals[r]))[0]
        return cand


def every_route_on_read(builder: RouteBuilder, scan: Scan) -> PricedOnRead:
    """`candidates._every_route` with the candidates priced as usual made when read: the same candidates in
    the same order. A shape is priced as usual when every class that may run it pays every stop from its
    table (`RouteBuilder.plain`) and no modifier applies to it (`RouteBuilder.as_usual`); classes paid
    alike per stop share one sum (`RouteBuilder.same_table`). Other shapes are priced at once."""
    if isinstance(builder.shapes, WalkedShapes):
        found = _on_read_walked(builder, scan, builder.shapes)
        if found is not None:
            return found
        builder.shapes = shape_list(builder.shapes, scan.expired)  # every one is read
    out = PricedOnRead(builder)
    shapes, keep_zero = builder.shapes, builder.keep_zero
    plans: dict[tuple[int, ...], _Plan | None] = {}  # per set of classes that may run a shape, how to price it
    add_shape_of, add_made, add_totals, add_mask = out.shape_of.append, out.made.append, out.totals.append, \
        out.masks.append
    for k in scan.shapes(len(shapes)):
        fit = builder.fitting(k)
        if not fit:
            continue
        plan = plans.get(fit, _UNKNOWN)
        if plan is _UNKNOWN:
            plan = plans[fit] = _plan(builder, fit)
        shape = shapes[k]
        nodes_ = shape[0]
        if plan is not None:
            tests, groups = plan  # type: ignore[misc]
            tables = [(classes, builder.node_rev[g].__getitem__) for classes, g in groups]
            for test in tests:
                if not test(nodes_):
                    break
            else:  # priced as usual
                if len(tables) == 1:  # every class paid alike: one sum
                    value = sum(map(tables[0][1], nodes_))
                    totals = dict.fromkeys(fit, value) if value > 0 or keep_zero else {}
                else:
                    totals = {}
                    for classes, table in tables:
                        value = sum(map(table, nodes_))
                        if value > 0 or keep_zero:
                            totals.update(dict.fromkeys(classes, value))
                    totals = {ci: totals[ci] for ci in fit if ci in totals}  # the classes' order
                if totals:
                    add_shape_of(k)
                    add_made(None)
                    add_totals(totals)
                    add_mask(shape[2])
                continue
        for kept in builder.price(k, fit):
            if kept is not None and kept.revenue:
                out.add(kept)
    return out


def _on_read_walked(builder: RouteBuilder, scan: Scan, shapes: WalkedShapes) -> PricedOnRead | None:
    """`every_route_on_read` over the arrays of a compiled walk: the same candidates in the same order, with
    what each route's stops pay per table and which modifier tests it fails found in one pass over the
    arrays (`WalkedShapes.values`). None (`every_route_on_read` goes on) when some class must look at a
    route's stops to know whether it fits, or a modifier test is not one over the route's stops."""
    pricer = builder.pricer
    found = builder.walked_fits(shapes)
    if found is None:
        return None
    fit_list, fit_no = found
    tables: dict[int, int] = {}  # a table's class in `node_rev` -> its place in the values
    tests: dict[int, tuple[frozenset[str], bool]] = {}  # a test's id -> what it reads
    places: dict[int, int] = {}
    plans: dict[tuple[int, ...], tuple[int, list[tuple[tuple[int, ...], int]]] | None] = {}
    for fit in fit_list:
        plan = _plan(builder, fit) if fit else None
        if plan is None:
            plans[fit] = None
            continue
        bits = 0
        for test in plan[0]:
            reads = pricer.missed_by(test) if pricer is not None else None
            if reads is None:
                return None
            if reads[0]:  # a test over no stops passes every route
                place = places.setdefault(id(test), len(places))
                tests[id(test)] = reads
                bits |= 1 << place
        plans[fit] = bits, [(classes, tables.setdefault(g, len(tables))) for classes, g in plan[1]]
    if len(tests) > 64:
        return None
    values, hits = shapes.values([shapes.row(builder.node_rev[g]) for g in tables],
                                 [(shapes.numbers(read), ends) for read, ends in tests.values()], arrays=True)
    # per route: its classes' plan (by number), whether it is priced as usual, and its value from one table
    plan_no = fit_no  # the plans are listed as the distinct fits are
    plan_list = list(plans.values())
    planned = np.asarray([p is not None for p in plan_list], dtype=bool)
    bits = np.asarray([p[0] if p is not None else 0 for p in plan_list], dtype=np.uint64)
    one_table = np.asarray([p[1][0][1] if p is not None and len(p[1]) == 1 else -1 for p in plan_list], dtype=np.int64)
    fitted = np.asarray([bool(f) for f in plans], dtype=bool)[plan_no]
    usual = planned[plan_no] & ((hits & bits[plan_no]) == 0)
    single = usual & (one_table[plan_no] >= 0)
    value = values[np.maximum(one_table[plan_no], 0), np.arange(len(fit_no))] if len(tables) else \
        np.zeros(len(fit_no), dtype=np.int64)
    kept = single & ((value > 0) | builder.keep_zero)
    others = fitted & ~single  # priced at once, or as usual from several tables
    shapes.make(np.flatnonzero(fitted & ~usual))  # the shapes priced at once, made together
    order = np.flatnonzero(kept | others)
    some, cut = _priced_apart(builder, scan, fit_list, fit_no, plans, values, usual, order,
                              np.flatnonzero(others[order]))
    scan.walked += int(order[cut]) if cut < len(order) else len(fit_no)
    fit_rows = np.asarray([[ci in fit for fit in plans] for ci in range(len(builder.classes))], dtype=bool)
    return _assembled(builder, shapes, order[:cut], value, some, fit_rows[:, plan_no])


def _priced_apart(builder: RouteBuilder, scan: Scan, fit_list: list[tuple[int, ...]], fit_no: np.ndarray,
                  plans: dict[tuple[int, ...], tuple[int, list[tuple[tuple[int, ...], int]]] | None],
                  values: np.ndarray, usual: np.ndarray, order: np.ndarray, apart: np.ndarray
                  ) -> tuple[dict[int, list[Candidate | dict[int, int]]], int]:
    """The routes of `order` at places `apart` that `_on_read_walked` does not price from one table: per route,
    its candidates made at once, or the values per class of one priced as usual from several tables; and how
    many of `order` the scan took (it asks the clock before every 256th, as the pricing goes)."""
    keep_zero, out = builder.keep_zero, {}
    places, ks, fits = apart.tolist(), order[apart].tolist(), [fit_list[f] for f in fit_no[order[apart]].tolist()]
    j = 0
    for end in [*range(255, len(order), 256), len(order)]:
        while j < len(places) and places[j] < end:
            k, fit, j = ks[j], fits[j], j + 1
            plan = plans[fit]
            if plan is not None and usual[k]:  # priced as usual from several tables
                totals: dict[int, int] = {}
                for classes, t in plan[1]:
                    paid = int(values[t, k])
                    if paid > 0 or keep_zero:
                        totals.update(dict.fromkeys(classes, paid))
                totals = {ci: totals[ci] for ci in fit if ci in totals}  # the classes' order
                out[k] = [totals] if totals else []
                continue
            out[k] = [cand for cand in builder.price(k, fit) if cand is not None and cand.revenue]
        if end < len(order) and scan.expired():
            return out, end
    return out, len(order)


def _assembled(builder: RouteBuilder, shapes: WalkedShapes, order: np.ndarray, value: np.ndarray,
               apart: dict[int, list[Candidate | dict[int, int]]], fit_rows: np.ndarray) -> PricedOnRead:
    """The candidates of the routes in `order`: those priced apart as `_priced_apart` gave them, the others
    priced as usual from one table (`value`); with their values per class as arrays
    (`PricedOnRead.columns`; `fit_rows`: per class, whether each route fits it)."""
    out = PricedOnRead(builder)
    at_apart = np.flatnonzero(np.isin(order, np.fromiter(apart, dtype=np.int64, count=len(apart)))).tolist()
    ks = order[at_apart].tolist()
    per_route = np.ones(len(order), dtype=np.int64)
    per_route[at_apart] = [len(apart[k]) for k in ks]
    ends = np.cumsum(per_route)
    n = int(ends[-1]) if len(order) else 0
    plain = np.ones(len(order), dtype=bool)
    plain[at_apart] = False
    where = ends[plain] - 1  # the places of the routes priced from one table
    shape_of = np.full(n, -1, dtype=np.int64)
    shape_of[where] = order[plain]
    totals: list[dict[int, int] | None] = [None] * n  # those priced from one table made on read from the arrays
    route_of = np.empty(n, dtype=np.int64)  # per candidate, its route in the walk (whose track it has)
    route_of[where] = order[plain]
    made: list[Candidate | None] = [None] * n
    columns = np.zeros((len(builder.classes), n), dtype=np.int64)
    present = np.zeros((len(builder.classes), n), dtype=bool)
    columns[:, where] = value[order[plain]]
    present[:, where] = fit_rows[:, order[plain]]
    readable = True  # the arrays hold every value, each route's classes in their order
    for i, k in zip(at_apart, ks):
        for place, item in enumerate(apart[k], int(ends[i]) - len(apart[k])):
            route_of[place] = k
            if isinstance(item, dict):  # priced as usual: made on read
                shape_of[place], totals[place] = k, item
            else:
                made[place], totals[place] = item, item.totals
            readable = readable and _put(columns, present, place, totals[place])  # type: ignore[arg-type]
    out.shape_of, out.made, out.masks = shape_of.tolist(), made, WalkMasks(shapes, route_of)
    out.totals = ColumnTotals(columns, present, totals)
    # the packing reads the arrays as if each route's classes were listed in their order (those priced at once
    # are, as their classes are)
    out.columns = (columns, present) if readable else None
    return out


class ColumnTotals(MadeOnRead[dict[int, int]]):
    """`PricedOnRead.totals` of a compiled walk's routes: those priced from one table made when read, from the
    values per class as arrays (every class that has one listed, in order)."""

    def __init__(self, columns: np.ndarray, present: np.ndarray, made: list[dict[int, int] | None]) -> None:
        self.columns, self.present, self.made = columns, present, made

    def make_item(self, r: int) -> dict[int, int]:
        classes = np.flatnonzero(self.present[:, r]).tolist()
        found = self.made[r] = dict(zip(classes, self.columns[classes, r].tolist()))
        return found

    def append(self, totals: dict[int, int]) -> None:
        self.made.append(totals)

    def __iter__(self) -> Iterator[dict[int, int]]:
        """Every item, those not made yet made together."""
        left = np.asarray([t is None for t in self.made], dtype=bool)
        if left.any():
            places = np.flatnonzero(left)
            for classes, rows in zip(*self._by_classes(places)):
                at = places[rows]
                for r, v in zip(at.tolist(), self.columns[classes[0], at].tolist()):
                    self.made[r] = dict.fromkeys(classes, v)
        return iter(self.made)  # type: ignore[arg-type]

    def _by_classes(self, places: np.ndarray) -> tuple[list[tuple[int, ...]], list[np.ndarray]]:
        """The places' distinct sets of classes, and where each set is among them."""
        bits = (self.present[:, places].T * (1 << np.arange(len(self.present), dtype=np.int64))).sum(axis=1)
        found, at = np.unique(bits, return_inverse=True)
        sets = [tuple(ci for ci in range(len(self.present)) if b >> ci & 1) for b in found.tolist()]
        return sets, [np.flatnonzero(at == i) for i in range(len(found))]


class WalkMasks(MadeOnRead[int]):
    """`PricedOnRead.masks` of a compiled walk's routes: each route's track read from the walk when first read
    (a candidate has its route's track, either way round)."""

    def __init__(self, shapes: WalkedShapes, route_of: np.ndarray) -> None:
        self.shapes, self.route_of = shapes, route_of
        self.made: list[int | None] = [None] * len(route_of)

    def make_item(self, r: int) -> int:
        found = self.made[r] = self.shapes.mask(int(self.route_of[r]))
        return found

    def append(self, mask: int) -> None:
        self.made.append(mask)

    def __iter__(self) -> Iterator[int]:
        """Every item, those not made yet made together."""
        left = [r for r, m in enumerate(self.made) if m is None]
        for r, m in zip(left, self.shapes.masks_of(self.route_of[left].tolist())):
            self.made[r] = m
        return iter(self.made)  # type: ignore[arg-type]

    def rows(self) -> np.ndarray | None:
        """Every item as a row of the walk's 64-bit words; None when one added after the walk's is wider."""
        if not self.shapes.tw:
            return None
        added = self.made[len(self.route_of):]
        if any(m.bit_length() > 64 * self.shapes.tw for m in added):  # type: ignore[union-attr]
            return None
        return np.concatenate([self.shapes.mask_rows(self.route_of), int_words(added, self.shapes.tw)])  # type: ignore[arg-type]


def _put(columns: np.ndarray, present: np.ndarray, place: int, totals: dict[int, int]) -> bool:
    """Write a candidate's values per class in column `place`; whether its classes are in their order and each
    value fits the arrays."""
    if list(totals) != sorted(totals):
        return False
    for ci, v in totals.items():
        if not -INT64_SAFE < v < INT64_SAFE:
            return False
        columns[ci, place], present[ci, place] = v, True
    return True


_Plan = tuple[list[Callable[[tuple[str, ...]], bool]], list[tuple[tuple[int, ...], int]]]
_UNKNOWN = object()


def _plan(builder: RouteBuilder, fit: tuple[int, ...]) -> _Plan | None:
    """How a shape these classes may run is priced as usual: the tests that no modifier applies to it (each
    once), and per table the classes paid from it and the table (its class in `RouteBuilder.node_rev`); None
    when some class is
    not paid every stop from a table, or a modifier must always be asked."""
    if not all(builder.plain[ci] for ci in fit):
        return None
    tests: list[Callable[[tuple[str, ...]], bool]] = []
    if builder.pricer is not None:
        for ci in fit:
            test = builder.as_usual[ci]
            if test is None:
                return None
            if all(test is not t for t in tests):
                tests.append(test)
    groups: dict[int, list[int]] = {}
    for ci in fit:
        groups.setdefault(builder.same_table[ci], []).append(ci)
    return tests, [(tuple(cs), g) for g, cs in groups.items()]


def candidate_totals(cands: Sequence[Candidate]) -> Sequence[dict[int, int]]:
    """Per candidate, its values per class (`Candidate.totals`), without making one `PricedOnRead` has not."""
    return cands.totals if isinstance(cands, PricedOnRead) else [c.totals for c in cands]


def candidate_masks(cands: Sequence[Candidate]) -> Sequence[int]:
    """Per candidate, its track (`Candidate.mask`), without making one `PricedOnRead` has not."""
    return cands.masks if isinstance(cands, PricedOnRead) else [c.mask for c in cands]
