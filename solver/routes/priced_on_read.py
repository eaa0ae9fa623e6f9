"""Candidates made only when read: on a long walk most routes are priced as usual (each class pays every stop
from its table, and no modifier applies), and the packing reads no more of them than their values per
class and their track. `PricedOnRead` keeps those two as lists and makes a route's `Candidate` (the one
`RouteBuilder.price` gives) the first time it is read; `candidate_totals` and `candidate_masks` read the
lists of any candidate sequence without making a candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from solver.routes.made_on_read import MadeOnRead
from solver.routes.pricing import Candidate, RouteBuilder, Scan
from solver.routes.walk_native import WalkedShapes, shape_list


class PricedOnRead(MadeOnRead[Candidate]):
    """The candidates of one walk, in order: each either made (`add`) or a shape whose candidate is made
    when first read (`add_shape`: its values per class and its track known); a candidate read twice is one
    object."""

    def __init__(self, builder: RouteBuilder) -> None:
        self.builder = builder
        self.shape_of: list[int] = []  # per candidate, its shape (-1: made when added)
        self.made: list[Candidate | None] = []
        self.totals: list[dict[int, int]] = []  # per candidate, `Candidate.totals`
        self.masks: list[int] = []  # per candidate, `Candidate.mask`

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
    fits = builder.walked_fits(shapes)
    if fits is None:
        return None
    tables: dict[int, int] = {}  # a table's class in `node_rev` -> its place in the values
    tests: dict[int, tuple[frozenset[str], bool]] = {}  # a test's id -> what it reads
    places: dict[int, int] = {}
    plans: dict[tuple[int, ...], tuple[int, list[tuple[tuple[int, ...], int]]] | None] = {}
    for fit in set(fits):
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
    number = {nid: i for i, nid in enumerate(shapes.ids)}
    values, hits = shapes.values([shapes.row(builder.node_rev[g]) for g in tables],
                                 [([number[n] for n in read], ends) for read, ends in tests.values()], arrays=True)
    # per route: its classes' plan (by number), whether it is priced as usual, and its value from one table
    plan_of = {fit: i for i, fit in enumerate(plans)}
    plan_no = np.fromiter((plan_of[f] for f in fits), dtype=np.int64, count=len(fits))
    plan_list = list(plans.values())
    planned = np.asarray([p is not None for p in plan_list], dtype=bool)
    bits = np.asarray([p[0] if p is not None else 0 for p in plan_list], dtype=np.uint64)
    one_table = np.asarray([p[1][0][1] if p is not None and len(p[1]) == 1 else -1 for p in plan_list], dtype=np.int64)
    fitted = np.asarray([bool(f) for f in plans], dtype=bool)[plan_no]
    usual = planned[plan_no] & ((hits & bits[plan_no]) == 0)
    single = usual & (one_table[plan_no] >= 0)
    value = values[np.maximum(one_table[plan_no], 0), np.arange(len(fits))] if len(tables) else \
        np.zeros(len(fits), dtype=np.int64)
    kept = single & ((value > 0) | builder.keep_zero)
    others = fitted & ~single  # priced at once, or as usual from several tables
    shapes.make(np.flatnonzero(fitted & ~usual))  # the shapes priced at once, made together
    out = PricedOnRead(builder)
    keep_zero = builder.keep_zero
    add_shape_of, add_made, add_totals, add_mask = out.shape_of.append, out.made.append, out.totals.append, \
        out.masks.append
    value_of, is_kept = value.tolist(), kept.tolist()
    for i, k in enumerate(np.flatnonzero(kept | others).tolist()):
        if i % 256 == 255 and scan.expired():
            scan.walked += k
            break
        fit = fits[k]
        if is_kept[k]:  # priced as usual, every class paid alike: one sum (its track read at the end)
            add_shape_of(k)
            add_made(None)
            add_totals(dict.fromkeys(fit, value_of[k]))
            add_mask(0)
            continue
        plan = plans[fit]
        if plan is not None and usual[k]:  # priced as usual from several tables
            totals: dict[int, int] = {}
            for classes, t in plan[1]:
                paid = int(values[t, k])
                if paid > 0 or keep_zero:
                    totals.update(dict.fromkeys(classes, paid))
            totals = {ci: totals[ci] for ci in fit if ci in totals}  # the classes' order
            if totals:
                out.add_shape(k, totals, 0)
            continue
        for cand in builder.price(k, fit):
            if cand is not None and cand.revenue:
                out.add(cand)
    else:
        scan.walked += len(fits)
    masks = iter(shapes.masks_of([k for k in out.shape_of if k >= 0]))  # the routes priced as usual
    out.masks = [next(masks) if k >= 0 else m for k, m in zip(out.shape_of, out.masks)]
    return out


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
