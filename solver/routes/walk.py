"""The route walk: every route shape (stops, legs, track bits) the company's trains could run over the leg
graph, grown stop by stop by a depth-first walk that obeys the shape rules (`WalkRules`) and the trains'
distances, and with a bound (`route_bound`) abandons a route that cannot earn what it must.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from solver.model.board import Board, Node, Train, route_may_pass
from solver.model.cancel import CancelToken
from solver.model.legs import Leg
from solver.routes.leg_graph import LegGraph
from solver.routes.route_bound import ReachBound, reach_left
from solver.routes.route_shape import CHECK_EVERY, KIND_BITS, KIND_SHIFT, RouteShape, WalkRules
from solver.routes.walk_native import walk_natively
from solver.rules.train_rules import pour_fits_costs, within_distance


def standard_walk_rules(board: Board, one_per_hex: bool = False, forbidden: frozenset[str] = frozenset()) -> WalkRules:
    """Generic 18xx: any stop may end a route; blocking and terminal nodes only end one (a node whose
    `route` is "never", such as 1841's passes and port towns, is still visited and paid by the engine's
    routes). A route rule
    every route must meet may narrow it: one stop per hex, hexes no route may stop in."""
    stops = [n for n in board.nodes.values() if n.kind != "junction" and n.hex not in forbidden]
    visitable = frozenset([n.id for n in stops])
    passable = frozenset([n.id for n in stops if route_may_pass(n)])
    return WalkRules(visitable=visitable, passable=passable, starts=visitable, ends=visitable, one_per_hex=one_per_hex)


REACH_LEFT_MAX_STOPS = 40  # a flat walk over more stops does without `reach_left`: its search per step costs more


class _Stop(Exception):
    """Raised inside the walk when the cap or the deadline is reached."""



def kind_code(nodes: Sequence[Node]) -> int:
    """A route's visit cost per node kind as one integer (`KIND_SHIFT`), which the walk keeps by adding."""
    return sum(n.visit_cost << KIND_SHIFT[n.kind] for n in nodes)


def _costs_of(code: int) -> dict[str, int]:
    """The visit cost per node kind held in a `kind_code`."""
    return {k: c for k, shift in KIND_SHIFT.items() if (c := (code >> shift) & ((1 << KIND_BITS) - 1))}


class PourByKind:
    """Whether some of these list trains takes a route of this `kind_code` (their pours, cached in `known`,
    which the route walk reads directly: a dict lookup per step instead of a call)."""

    def __init__(self, trains: Sequence[Train]) -> None:
        self.rows = [t.rows for t in trains]
        self.known: dict[int, bool] = {}

    def __call__(self, code: int) -> bool:
        found = self.known.get(code)
        if found is None:
            costs = _costs_of(code)
            found = self.known[code] = any(pour_fits_costs(r, costs) for r in self.rows)
        return found


def _list_pour(trains: Sequence[Train]) -> PourByKind | None:
    """When every train is an unclassed list train: whether some takes a route of this `kind_code` (one
    cached pour); None otherwise."""
    return PourByKind(trains) if trains and all(t.unit == "stops_by_type" and not t.klass for t in trains) \
        else None


def _distance_gate(trains: Sequence[Train]):
    """A test `(stops, crossings, cost, code) -> bool`: does some train's distance admit this route?
    Uses the running visit cost when every train counts plain stops, and the running visit cost per
    node kind (`kind_code`) for unclassed list trains."""
    if any(t.unit in ("none", "express") for t in trains):
        return lambda stops, crossings, cost, code: True
    if all(t.unit == "stops" and not t.klass for t in trains):
        longest = max(t.distance for t in trains)
        return lambda stops, crossings, cost, code: cost <= longest
    pour = _list_pour(trains)
    if pour is not None:
        return lambda stops, crossings, cost, code: pour(code)
    listed = [t for t in trains if t.unit == "stops_by_type" and not t.klass]
    # plain stop and hex counts as two numbers, list trains by their cached pour; the others one by one
    by_stops = max((t.distance for t in trains if t.unit == "stops" and not t.klass), default=-1)
    by_hexes = max((t.distance for t in trains if t.unit == "hexes"), default=-1)
    lists = PourByKind(listed) if listed else (lambda code: False)
    others = [t for t in trains if not (t.unit == "hexes" or (t.unit in ("stops", "stops_by_type") and not t.klass))]
    return lambda stops, crossings, cost, code: (cost <= by_stops or crossings <= by_hexes or lists(code)
                                                 or any(within_distance(t, stops, crossings, cost) for t in others))


def enumerate_routes(board: Board, graph: LegGraph, trains: Sequence[Train], cap: int = 2_000_000,
                     deadline: float | None = None, rules: WalkRules | None = None,
                     cancel: CancelToken | None = None, bound: ReachBound | None = None,
                     improve: Callable[[RouteShape, tuple[int, ...]], int] | None = None,
                     floors: Sequence[tuple[int, int]] = (), avoid: int = 0, arrays: bool = False,
                     native: bool = True) -> tuple[Sequence[RouteShape], bool]:
    """Every route (one direction only) that passes the shape rules and fits some train's distance,
    and whether the list is complete (False when the cap, the deadline or `cancel` cut it short).

    Routes are grown stop by stop and abandoned as soon as no train's distance admits them. With
    `bound` (trains counting plain stops; one train: also a list train with one limiting row, whose
    `ReachBound.cost` the walk counts) and `floors` (per train class, its distance and the least a
    route must earn it), also as soon as for every class what they earn so far and the most a
    continuation within its distance adds fall below its floor: a route is kept only if some class
    that may run it may earn its floor. With `improve` instead (one train: a branch and bound), the
    floor is the best price `improve` has given a route walked before. `improve` is handed each route
    kept (to price it, or pass it over when its tight bound is below the best price), given its place
    in the walk without a bound (the most promising steps are walked first); the routes kept are
    handed back in that order. So every route that may earn the best price is kept, and its place is
    known.
    `avoid`: track bits no route may use.
    The compiled walk runs where it applies (`walk_native`): the same routes, given as a list, or with
    `arrays` as its arrays (`WalkedShapes`, each route made when read); a branch and bound there walks in
    the plain order (the same best route). `native=False` keeps to the Python walk (a caller whose walks keep
    few routes over many legs, where the kernel's tables cost more than the walk).
    """
    rules = rules or standard_walk_rules(board)
    walked = walk_natively(board, graph, trains, cap, deadline, rules, cancel, bound, floors, improve, avoid) \
        if native else None
    if walked is not None:
        if arrays:  # the same routes in the same order, as arrays
            return walked
        # made a block at a time until a cancel (a prefix then); not cut by the deadline: the kernel kept no
        # more routes than the Python walk would have made by then
        shapes, complete = walked
        whole = shapes.make_all(None if cancel is None else (lambda: cancel.cancelled))  # type: ignore[union-attr]
        return (shapes.made if whole else [s for s in shapes.made if s is not None]), complete and whole  # type: ignore[return-value]
    nodes = board.nodes
    out: list[RouteShape] = []
    order = {nid: i for i, nid in enumerate(sorted(graph.legs_from))}
    by_code = _list_pour(trains)  # list trains only: their pour over the visit cost per kind, asked directly
    by_code_known = by_code.known if by_code is not None else {}
    fits = _distance_gate(trains) if trains and by_code is None else (lambda stops, crossings, cost, by_kind: False)
    passable, ends, per_hex = rules.passable, rules.ends, rules.one_per_hex
    node_bit = {nid: 1 << i for i, nid in enumerate(nodes)}  # the stops a route has seen, as bits
    # a step: (leg, its track bits, the node reached, the node's `kind_code`, what the stop and the leg add
    # at most and the most a continuation adds (with a bound), the node's bit, its id, its groups, its hex,
    # its visit cost, the leg's crossings, whether the company has a token there, the node's order when a
    # route may end there (else -1), whether a route may pass it, whether the leg has a terminal path)
    def node_steps(nid: str) -> list[tuple]:
        return [(leg, graph.mask(leg), node, node.visit_cost << KIND_SHIFT[node.kind],
                 bound.node[leg.b] + bound.leg[id(leg)] if bound else 0, bound.step_ahead(leg) if bound else None,
                 node_bit[leg.b], leg.b, node.groups or None, node.hex, visit_of(node), leg.crossings,
                 node.tokened_by_company, order.get(leg.b, -1) if leg.b in ends else -1, leg.b in passable,
                 leg.has_terminal)
                for leg in graph.legs_from[nid] if leg.b in rules.visitable and not graph.mask(leg) & avoid
                for node in (nodes[leg.b],)]
    longest = bound.distance if bound is not None else 0
    # what a stop costs the walk: its visit cost, or what the bound counts (`ReachBound.cost`: a list train's
    # limiting row); the route's `cost` counts the same (a list train's fit is its `kind_code`'s)
    bound_cost = bound.cost if bound is not None else None
    visit_of: Callable[[Node], int] = (lambda node: node.visit_cost) if bound_cost is None else \
        (lambda node: bound_cost[node.id])  # type: ignore[index]
    need = -bound.const if bound is not None else 0  # with `improve`: what a kept route's stops and legs add up to
    # with `floors`, per visit cost: the least a route of that cost must add up to, and the classes it may still
    # grow for, each as (its stops left, its floor)
    keep_need = [min((f - bound.const for d, f in floors if d >= cost), default=math.inf)
                 for cost in range(longest + 1)] if floors else []
    grow_needs = [[(d - cost, f - bound.const) for d, f in floors if d > cost]
                  for cost in range(longest + 1)] if floors else []
    grow_one = [needs[0] if len(needs) == 1 else None for needs in grow_needs]  # one class: no generator per step
    keys: list[tuple[int, ...]] = []  # with a bound: each kept route's place in the plain walk order
    ordered_walk = improve is not None  # a branch and bound: the most promising steps first
    steps: dict[str, list[tuple]] = {} if ordered_walk else {nid: node_steps(nid) for nid in graph.legs_from}
    # a branch and bound's steps per (node, stops left), most promising first, made when the walk first
    # reaches the node (most nodes it never reaches); each step's place in the plain walk, by id of its leg
    ordered: dict[tuple[str, int], list[tuple]] = {}
    natural: dict[int, int] = {}
    flat = ordered_walk and bound.flat  # type: ignore[union-attr]

    def ordered_steps(nid: str, left: int) -> list[tuple]:
        st = steps.get(nid)
        if st is None:
            st = steps[nid] = node_steps(nid)
            natural.update((id(step[0]), i) for i, step in enumerate(st))
        if flat:  # one order whatever the stops left
            found = ordered[(nid, 0)] = sorted(st, key=lambda s: -s[4])
        else:
            found = ordered[(nid, left)] = sorted(st, key=lambda s: -_promise(s, left))
        return found

    if ordered_walk:
        rank = {nid: i for i, nid in enumerate(graph.legs_from)}  # the plain order of the first stops
    # a flat bound's continuation: the stops still in reach (`reach_left`, a search per step), for trains whose
    # distance does not end a route sooner (a D; a list train with free stops and no table that may take most
    # stops in reach, `_takes_most`) on a graph small enough that the search costs less than the walk it saves
    # (measured on the corpus)
    left = reach_left(graph.legs_from, rules.passable, bound, node_bit) if flat and not any(  # type: ignore[arg-type]
        (t.unit == "stops" and t.distance < bound.distance) or not _takes_most(board, graph, t)  # type: ignore[union-attr]
        for t in trains) and len(graph.legs_from) <= REACH_LEFT_MAX_STOPS else None
    need_token = all(t.requires_token for t in trains)  # then a route without a station is no candidate
    walked = 0  # calls of grow, between looks at the clock
    new_shape = tuple.__new__  # RouteShape(...) through its Python __new__ costs twice as much in this loop
    # a visit cost within a plain stop train's distance passes `fits` (asked only beyond it)
    sure_cost = max((t.distance for t in trains if t.unit == "stops" and not t.klass), default=-1)
    first = 0  # the order of the route's first stop (a route is kept from its lower end only)
    best_place: tuple[int, ...] | None = None  # with `improve`: the place of a route earning the best price

    hexes_seen: dict[str, int] = {}  # with one stop per hex: the route's stops per hex

    def grow(path: list[str], seen: int, legs: list[Leg], mask: int, stops: list[Node], groups: set[str],
             crossings: int, cost: int, token: bool, code: int, value: int) -> None:
        nonlocal walked, need, best_place
        walked += 1
        if walked % CHECK_EVERY == 0 and ((deadline is not None and time.monotonic() > deadline)
                                          or (cancel is not None and cancel.cancelled)):
            raise _Stop
        n_legs = len(legs)
        if left is not None and value < need and value + left(path[-1], seen) < need:
            return  # no continuation from here earns the best price found
        for (leg, leg_mask, node, node_code, weight, ahead, bit, nid, node_groups, hex_id, visit, leg_cross,
             tokened, end_order, may_pass, terminal) in (steps[path[-1]] if not ordered_walk else
                                                        ordered.get((path[-1], 0 if flat else longest - cost))
                                                        or ordered_steps(path[-1], longest - cost)):
            if leg_mask & mask or bit & seen or (terminal and not leg.may_stand(n_legs, n_legs + 1)):
                continue
            if node_groups is not None and any(g in groups for g in node_groups):
                continue
            if per_hex and hexes_seen.get(hex_id):
                continue
            new_cost = cost + visit
            new_code = code + node_code
            if new_cost > sure_cost:
                if by_code is not None:  # list trains only: the visit cost per kind decides (cached: read here)
                    fit = by_code_known.get(new_code)
                    if not (fit if fit is not None else by_code(new_code)):
                        continue
                else:
                    stops.append(node)
                    admitted = fits(stops, crossings + leg_cross, new_cost, new_code)
                    stops.pop()
                    if not admitted:
                        continue
            new_value = value + weight
            new_token = token or tokened
            if ahead is None:
                keep = first < end_order and (new_token or not need_token)
                go_on = may_pass and not (terminal and not leg.may_stand(n_legs, n_legs + 2))
            elif floors:
                keep = first < end_order and (new_token or not need_token) and new_value >= keep_need[new_cost]
                one = grow_one[new_cost]
                go_on = may_pass and not (terminal and not leg.may_stand(n_legs, n_legs + 2)) and \
                    (new_value + ahead[one[0]] >= one[1] if one is not None else
                     any(new_value + ahead[left] >= f for left, f in grow_needs[new_cost]))
            else:
                keep = first < end_order and (new_token or not need_token) and new_value >= need
                go_on = may_pass and not (terminal and not leg.may_stand(n_legs, n_legs + 2)) and \
                    new_value + ahead[longest - new_cost] >= need
            if not (keep or go_on):
                continue
            path.append(nid)
            legs.append(leg)
            new_mask = mask | leg_mask
            new_cross = crossings + leg_cross
            place = (rank[path[0]], *(natural[id(step)] for step in legs)) if keep and improve is not None else None
            if place is not None and new_value == need and best_place is not None and place > best_place:
                pass  # it earns at most the best price, and a route earning that comes before it: never the answer
            elif keep:
                out.append(new_shape(RouteShape, (tuple(path), tuple(legs), new_mask, new_cross, new_cost,
                                                  new_token, new_code)))
                if improve is not None:
                    keys.append(place)  # type: ignore[arg-type]
                    found = improve(out[-1], place) - bound.const  # type: ignore[union-attr, arg-type]
                    if found > need:  # this route raised the best price: the first route earning it, so far
                        need, best_place = found, place
                if len(out) >= cap or (deadline is not None and len(out) % 64 == 0
                                       and time.monotonic() > deadline):
                    raise _Stop
            # a route goes on through this stop only if it may pass it (asked here: no call for a dead end)
            if go_on and (improve is None or new_value + ahead[longest - new_cost] >= need):  # type: ignore[index]
                stops.append(node)
                if per_hex:
                    hexes_seen[hex_id] = hexes_seen.get(hex_id, 0) + 1
                grow(path, seen | bit, legs, new_mask, stops, groups | set(node_groups) if node_groups else groups,
                     new_cross, new_cost, new_token, new_code, new_value)
                if per_hex:
                    hexes_seen[hex_id] -= 1
                stops.pop()
            path.pop()
            legs.pop()

    starts = [s for s in graph.legs_from if s in rules.starts]
    if ordered_walk:  # the most promising first
        starts.sort(key=lambda s: -(bound.node[s] + bound.start_ahead(s)[max(0, longest - visit_of(nodes[s]))]))
    try:
        for start in starts:
            node = nodes[start]
            value = bound.node[start] if bound is not None else 0
            if bound is not None and (not any(value + bound.start_ahead(start)[left] >= f
                                              for left, f in grow_needs[min(visit_of(node), longest)])
                                      if floors else
                                      value + bound.start_ahead(start)[max(0, longest - visit_of(node))] < need):
                continue  # no route from here earns the threshold
            first = order[start]
            hexes_seen.clear()
            hexes_seen[node.hex] = 1
            grow([start], node_bit[start], [], 0, [node], set(node.groups), 0, visit_of(node),
                 node.tokened_by_company, kind_code([node]), value)
    except _Stop:
        return _plain_order(out, keys), False
    finally:  # the recursive closure refers to itself: break that cycle, so that reference counting frees
        grow = None  # noqa: F841  everything it holds, with no work left for the cyclic collector
    return _plain_order(out, keys), True


def _takes_most(board: Board, graph: LegGraph, train: Train) -> bool:
    """Whether a train may take most of the graph's stops, so that a flat bound (every stop in reach adds)
    is near what it earns: always, but for a list train whose rows of fewer visits than the graph has
    stops meet more than twice as many stops of their kinds (a "5 cities + any towns" train among
    twenty cities: `reach_left` would cost more than the walk it saves)."""
    if train.unit != "stops_by_type":
        return True
    limited = [r for r in train.rows if r.visit < len(graph.legs_from)]
    kinds = {k for r in limited for k in r.kinds}
    met = sum(1 for nid in graph.legs_from if board.nodes[nid].kind in kinds)
    return met <= 2 * sum(r.visit for r in limited)


def _promise(step: tuple, left: int) -> int:
    """What a walk step (`enumerate_routes`' steps with a bound) may add with `left` stops to go."""
    weight, ahead, visit = step[4], step[5], step[10]
    return weight + ahead[left - visit] if visit <= left else -1


def _plain_order(out: list[RouteShape], keys: list[tuple[int, ...]]) -> list[RouteShape]:
    """The routes in the order of the walk without a bound (`keys`: their places in it), or as they are."""
    return [out[i] for i in sorted(range(len(out)), key=keys.__getitem__)] if keys else out
