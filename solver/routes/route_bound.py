"""At most what a route can still earn a train, for the walk's bounds (`ReachBound`).

With one train and no run rules the best run is the best route. The walk is then a branch and
bound (`enumerate_routes`' `bound`): it does not grow a route whose stops so far, plus the most
any continuation could add, earn less than the best route priced so far. With two trains, the
walk does not grow a route that cannot earn a floor (`candidates._walk_floor`); a train no table
bounds (a D) has a `flat_bound`, which keeps only the routes that may earn the best price so far.

A stop adds at most its pay (in the train's best row) and the bonuses keyed to it, a leg at most
the path-hex bonuses of the hexes it passes, and the combinations a constant. The most a
continuation of r more stops adds from node u, reached from p, is worked out for walks that never
turn straight back (every route is such a walk, so this is a bound):

    ahead[r][(p, u)] = max(0, max over legs u -> v, v != p: node[v] + leg + ahead[r - cost(v)][(u, v)])

where only a node a route may pass through continues.

A list train with one row that limits it ("4 cities and any towns") is bounded the same way, with the
stops of that row's kinds costing their visits and the others nothing (`bound_costs`): the table is
then worked out per r until it settles (a walk through free stops stays at r), which it does when the
free stops a walk may pass through hold no cycle (a walk could go round one in the table).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import networkx as nx

from solver.model.board import Board, DistanceRow, Node, Train
from solver.model.legs import Leg
from solver.rules.train_rules import stop_revenue

MAX_BOUNDED_STOPS = 12  # longer trains (a D, an 8+8) are walked without a bound: the table grows with the length
UNLIMITED_ROW = 99  # a list train's row that visits this many stops or more never ends a route ("any number")


@dataclass
class ReachBound:
    """What a stop and a leg add to a route at most, and what a continuation adds at most (see the module)."""

    node: dict[str, int]  # node id -> the most its stop adds (its pay and its bonuses)
    leg: dict[int, int]  # id(leg) -> the most the hexes it passes add (path-hex bonuses)
    ahead: dict[tuple[str | None, str], list[int]]  # (previous node, node) -> per stops left, the most ahead
    const: int  # what no stop or leg carries (combinations): added to every route's bound
    distance: int
    flat: bool = False  # no table: a continuation may add anything (`flat_bound`)
    cost: dict[str, int] | None = None  # node id -> what it costs the table (None: its visit cost)
    # what a continuation adds where the table has no entry: nothing (a dead end), or anything when flat
    otherwise: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.otherwise = [UNBOUNDED if self.flat else 0] * (self.distance + 1)

    def step_ahead(self, leg: Leg) -> list[int]:
        """Per stops left after reaching `leg.b` over `leg`, the most a continuation adds."""
        return self.ahead.get((leg.a, leg.b), self.otherwise)

    def start_ahead(self, nid: str) -> list[int]:
        """Per stops left at a route's first stop, the most a continuation adds."""
        return self.ahead.get((None, nid), self.otherwise)


UNBOUNDED = 1 << 60  # what a continuation adds at most, when nothing bounds it


def _leg_weights(legs_from: dict[str, list[Leg]], visitable: frozenset[str], bonus_hex: dict[str, int]
                 ) -> dict[int, int]:
    """id(leg) -> the most the path-hex bonuses of the hexes it passes add (legs to a stop a route may visit)."""
    return {id(leg): sum(bonus_hex.get(h, 0) for h in set(leg.hexes)) if bonus_hex else 0
            for legs in legs_from.values() for leg in legs if leg.b in visitable}


def flat_bound(legs_from: dict[str, list[Leg]], visitable: frozenset[str], distance: int, stop_pay: dict[str, int],
               bonus_node: dict[str, int], bonus_hex: dict[str, int], const: int) -> ReachBound:
    """A bound with no table, for a train no table bounds (a D, a list train with no row that limits it or
    with free stops on a cycle, see `reach_bound`): what each
    stop and leg adds at most, and no limit on what a continuation adds. The one-train walk with it
    keeps only the routes that may earn as much as the best priced before (priced at once), and no
    route is ever cut short: it saves listing and ranking every route, not walking them."""
    node = {n: stop_pay.get(n, 0) + bonus_node.get(n, 0) for n in visitable}
    return ReachBound(node, _leg_weights(legs_from, visitable, bonus_hex), {}, const, distance, flat=True)


def reach_left(legs_from: dict[str, list[Leg]], passable: frozenset[str], bound: ReachBound,
               node_bit: dict[str, int]) -> Callable[[str, int], int]:
    """For a `flat_bound`: the most a continuation from node u adds, given the stops the route has seen
    (bits as `node_bit`): each stop it may still reach adds at most its weight and its best leg in. A
    route never revisits a stop and goes on only through stops it may pass, so the stops it may reach
    are those a search from u finds without entering a seen stop or leaving one it may not pass; and a
    stop it reaches but could not pass through ends it, so of those one at most adds. Its first step
    decides the part of the board it stays in (it never comes back through u): where u joins parts that
    meet nowhere else, only the best part counts."""
    weight: dict[int, int] = {}  # a stop's bit -> the most it adds
    step_to: dict[int, int] = {}  # a node's bit -> the stops one leg away, as bits
    step_from: dict[int, int] = {}  # a stop's bit -> the nodes one leg before it (legs need not go both ways)
    for u, legs in legs_from.items():
        for leg in legs:
            if leg.b in bound.node:
                bit = node_bit[leg.b]
                weight[bit] = max(weight.get(bit, 0), bound.node[leg.b] + bound.leg[id(leg)])  # 0: may be left out
                step_to[node_bit[u]] = step_to.get(node_bit[u], 0) | bit
                step_from[bit] = step_from.get(bit, 0) | node_bit[u]
    through = sum(node_bit[n] for n in passable)
    known: dict[tuple[str, int], int] = {}

    def left(u: str, seen: int) -> int:
        total = known.get((u, seen))
        if total is not None:
            return total
        total = 0
        ubit = node_bit[u]
        firsts = step_to.get(ubit, 0) & ~seen  # the stops a continuation may step to first
        while firsts:  # the continuation stays in the part of the board its first step enters
            reached = frontier = firsts & -firsts
            while frontier:
                grown = 0
                onward = frontier & through
                while onward:
                    low = onward & -onward
                    grown |= step_to.get(low, 0)
                    onward ^= low
                frontier = grown & ~seen & ~reached
                reached |= frontier
            firsts &= ~reached
            part = _part_value(reached, reached | ubit)
            if part > total:
                total = part
        known[(u, seen)] = total
        return total

    def _part_value(reached: int, region: int) -> int:
        """At most what a continuation within `reached` adds: a stop the continuation may not pass through
        ends it (one such stop at most): one it may not pass, or one it cannot leave for a stop other than
        the one it came from (the ways in come from u or a stop in reach, the ways out go to a stop in reach)."""
        total = last = 0
        left_over = reached
        while left_over:
            low = left_over & -left_over
            out = step_to.get(low, 0) & reached
            if low & through and out and (out | step_from[low] & region).bit_count() > 1:
                total += weight[low]
            elif weight[low] > last:
                last = weight[low]
            left_over ^= low
        return total + last
    return left


def limiting_row(train: Train) -> DistanceRow | None:
    """The one row that limits an unclassed list train's routes, when it has one: every other row visits
    any number of stops (UNLIMITED_ROW), and no kind of it fits another row (so its stops never pour into
    one), at most MAX_BOUNDED_STOPS; None otherwise."""
    if train.unit != "stops_by_type" or train.klass or train.local or train.by_hex:
        return None
    limited = [r for r in train.rows if r.visit < UNLIMITED_ROW]
    if len(limited) != 1 or limited[0].visit > MAX_BOUNDED_STOPS:
        return None
    row = limited[0]
    if any(kind in other.kinds for other in train.rows if other is not row for kind in row.kinds):
        return None
    return row


def plain_bounded(train: Train) -> bool:
    """Whether a train counting plain stops has a bound: unclassed, not local, at most MAX_BOUNDED_STOPS."""
    return train.unit == "stops" and not (train.klass or train.local or train.by_hex) and \
        train.distance <= MAX_BOUNDED_STOPS


def bound_costs(board: Board, train: Train, visitable: frozenset[str]) -> tuple[dict[str, int], int] | None:
    """What each stop costs a train in the table, and its distance so counted, for a train the table bounds: one
    counting plain stops (`plain_bounded`), its visit costs; a list train with one row that limits it
    (`limiting_row`), the visit cost of a stop of that row's kinds and nothing for the others, within that
    row's visits. None for other trains (any other list train is priced by its best stops, at a cost the
    bound would spend on many more routes)."""
    nodes = board.nodes
    row = limiting_row(train)
    if row is not None:
        return {n: nodes[n].visit_cost if nodes[n].kind in row.kinds else 0 for n in visitable}, row.visit
    if plain_bounded(train):
        return {n: nodes[n].visit_cost for n in visitable}, train.distance
    return None


def free_pay(train: Train, node: Node, most: int) -> int:
    """At most what a free stop (one a list train's table does not count) pays: in the rows that take its kind
    (no more than `most`, what any row pays)."""
    return min(most, max([0, *(stop_revenue(node, train, r) for r in train.rows if node.kind in r.kinds)]))


def _free_forest(legs_from: dict[str, list[Leg]], through: set[str]) -> bool:
    """Whether the free stops a walk may pass through, joined by their legs, hold no cycle: then a walk that
    never turns straight back passes each at most once between two stops that cost, so the table may count
    what they pay (its sweep at one r settles)."""
    joined = nx.utils.UnionFind()
    for a, b in {(u, leg.b) if u < leg.b else (leg.b, u)
                 for u in through for leg in legs_from.get(u, ()) if leg.b in through and leg.b != u}:
        if joined[a] == joined[b]:
            return False  # a second way between them: a cycle
        joined.union(a, b)
    return True


def reach_bound(board: Board, legs_from: dict[str, list[Leg]], visitable: frozenset[str], passable: frozenset[str],
                train: Train, stop_pay: dict[str, int], bonus_node: dict[str, int], bonus_hex: dict[str, int],
                const: int) -> ReachBound | None:
    """The bound for one train the table bounds (`bound_costs`; `stop_pay`: the most each node pays it; `bonus_node`,
    `bonus_hex`, `const`: the most its bonuses add per stop, per hex passed and otherwise). None for another
    train, for a train counting plain stops with stops that cost nothing, and for a list train whose free
    stops hold a cycle (`_free_forest`) where a free stop pays or a path-hex bonus weighs a leg: a walk could
    go round it in the table (the sweep's guard returns None too, should the table not settle)."""
    found = bound_costs(board, train, visitable)
    if found is None:
        return None
    cost, dist = found
    free = [n for n, c in cost.items() if c < 1]
    if free and train.unit == "stops":
        return None  # stops that cost nothing: a `flat_bound` with its search bounds such a train better
    node = {n: stop_pay.get(n, 0) + bonus_node.get(n, 0) for n in visitable}
    leg_w = _leg_weights(legs_from, visitable, bonus_hex)
    if free:
        for n in free:
            node[n] = max(0, free_pay(train, board.nodes[n], stop_pay.get(n, 0)) + bonus_node.get(n, 0))
        if (any(leg_w.values()) or any(node[n] for n in free)) and not _free_forest(legs_from, set(free) & passable):
            return None  # a walk could go round free stops that pay in the table (a `flat_bound` bounds it)
    best_leg: dict[tuple[str, str], int] = {}  # (u, v) -> the most a leg between them adds (parallel track)
    for u, legs in legs_from.items():
        for leg in legs:
            if leg.b in visitable:
                best_leg[(u, leg.b)] = max(best_leg.get((u, leg.b), -1), leg_w[id(leg)])
    ahead: dict[tuple[str | None, str], list[int]] = {}
    for pair in list(best_leg) + [(None, u) for u in legs_from]:
        ahead[pair] = [0] * (dist + 1)  # type: ignore[index]
    pairs_at: dict[str, list[tuple[str | None, list[int]]]] = {}  # u -> every (p, its list) of a pair (p, u)
    for (p, u), per_r in ahead.items():
        pairs_at.setdefault(u, []).append((p, per_r))
    # u -> its steps: (v, what the stop and the leg add, v's cost, the list ahead of (u, v) when v may be passed)
    steps_of: dict[str, list[tuple[str, int, int, list[int] | None]]] = {}
    for (u, v), w in best_leg.items():
        steps_of.setdefault(u, []).append((v, node[v] + w, cost[v], ahead[(u, v)] if v in passable else None))
    # per r: for every node u its two best steps (v, value), so that (p, u) takes the best with v != p; with free
    # stops a step may read the same r (from r = 0: a route with no stop left to pay for may still take free
    # ones), so the sweep repeats until nothing grows: the values only grow, and no higher than a walk through
    # the free stops reaches, which passes each once (`_free_forest`)
    for r in range(0 if free else 1, dist + 1):
        grew, sweeps = True, 0
        while grew:
            grew, sweeps = False, sweeps + 1
            if sweeps > len(free) + 2:  # more than a walk through every free stop once needs: never (a guard)
                return None
            for u, steps in steps_of.items():
                first, first_v, second = 0, None, 0
                for v, add, c, onward in steps:
                    if c > r:
                        continue
                    value = add + onward[r - c] if onward is not None else add
                    if value > first:
                        first, first_v, second = value, v, first
                    elif value > second:
                        second = value
                for p, per_r in pairs_at.get(u, ()):
                    value = first if first_v != p else second
                    if value != per_r[r]:
                        per_r[r] = value
                        grew = bool(free)
    return ReachBound(node, leg_w, ahead, const, dist, cost=cost if train.unit != "stops" else None)
