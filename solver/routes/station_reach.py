"""How far the company's routes reach from its stations: the stops a route of its trains may visit,
when every train needs a token (a route holds one, so each of its stops is within the train's distance
of a station along the route). The leg graph is walked over these stops only (`leg_graph.build_leg_graph`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence

from solver.model.board import Board, Train, route_may_pass
from solver.model.legs import Leg

# per train class: the node kinds whose stops cost a route their visit cost (None: every kind; the others cost
# nothing) and the most a route spends; None: no budget, every stop joined to a station
Budget = tuple["frozenset[str] | None", int]
Reach = list["Budget | None"]


def stops_within(board: Board, reach: Reach, legs_of: Callable[[str], list[Leg]]) -> set[str]:
    """The stops some train class may reach from a tokened stop (`legs_of`: a stop's legs, walked once;
    none without a class). A class with a budget reaches a stop when the cheapest way there from a tokened
    stop, counting the cost of every stop on it (both ends too), is within its budget; a class without one
    reaches every stop joined to a station. No way goes on through a stop a route may only end at (a
    blocking or terminal one: `route_may_pass`), other than the tokened stop it starts from. When every
    stop costs one, that is a breadth-first search by legs (most boards); else a shortest-path search
    (`heapq`)."""
    if not reach:
        return set()
    tokened = [nid for nid, n in board.nodes.items() if n.kind != "junction" and n.tokened_by_company]
    nodes = board.nodes
    ends_only = {nid for nid, n in nodes.items() if n.kind != "junction" and not route_may_pass(n)}
    if all(b is not None and b[0] is None for b in reach) and \
            all(n.visit_cost == 1 for n in nodes.values() if n.kind != "junction"):
        most = max(b[1] for b in reach if b is not None) - 1  # legs from a tokened stop (none when negative)
        return reached_from(tokened, legs_of, lambda nid: nid not in ends_only, most) if most >= 0 else set()
    inside: set[str] = set()
    for budget in reach:
        inside |= _within_budget(board, tokened, budget, legs_of, ends_only)
    return inside


def reached_from(starts: Iterable[str], legs_of: Callable[[str], Iterable[Leg]], passes: Callable[[str], bool],
                 most: int | None = None) -> set[str]:
    """The stops reached from `starts` (themselves included) by at most `most` legs (None: any number),
    breadth first, going on from a stop other than a start only when `passes` it. `legs_of` is asked for
    the legs of every stop reached, the farthest too (a leg graph's walk: `_legs_in_reach`)."""
    frontier = list(dict.fromkeys(starts))  # in the order given
    inside = set(frontier)
    depth = 0
    while frontier and (most is None or depth < most):
        ahead = []
        for nid in frontier:
            legs = legs_of(nid)
            if depth and not passes(nid):
                continue  # a route ends here (or starts): it reaches nothing beyond
            for leg in legs:
                if leg.b not in inside:
                    inside.add(leg.b)
                    ahead.append(leg.b)
        frontier = ahead
        depth += 1
    for nid in frontier:  # the farthest stops' legs too (to stops within reach)
        legs_of(nid)
    return inside


def _within_budget(board: Board, tokened: list[str], budget: Budget | None,
                   legs_of: Callable[[str], list[Leg]], ends_only: set[str]) -> set[str]:
    """The stops a class with this budget may reach from a tokened stop (cheapest ways first), never
    through a stop a route may only end at."""
    kinds, most = budget if budget is not None else (frozenset(), 0)
    nodes = board.nodes

    def cost(nid: str) -> int:
        node = nodes[nid]
        return node.visit_cost if kinds is None or node.kind in kinds else 0

    spent = {nid: c for nid in tokened if (c := cost(nid)) <= most}
    starts = set(spent)
    heap = [(c, nid) for nid, c in spent.items()]
    heapq.heapify(heap)
    while heap:
        have, nid = heapq.heappop(heap)
        if have > spent[nid]:
            continue
        legs = legs_of(nid)
        if nid in ends_only and nid not in starts:
            continue  # a route ends here (or starts): it reaches nothing beyond
        for leg in legs:
            more = have + cost(leg.b)
            if more <= most and more < spent.get(leg.b, more + 1):
                spent[leg.b] = more
                heapq.heappush(heap, (more, leg.b))
    return set(spent)


def token_reach(board: Board, trains: Sequence[Train]) -> Reach | None:
    """How far a route of these train classes may reach from a stop with the company's token, when every
    train needs a token (a route holds one, so each of its stops is that far at most); None when some
    train needs no token (every stop of the board). Per class:
    - a train counting plain stops: each stop costs its visit cost, and a route spends at most the distance;
    - a list train: a stop whose kind only its bounded rows take costs its visit cost, the others nothing,
      and a route spends at most what those rows visit. A row is bounded when it visits fewer stops than
      the board has nodes: any choice of rows gives a true bound, and a row of more visits (the towns of
      an "n + any towns" train) would bound nothing;
    - any other train (a class, a local, hexes, express): no budget, every stop joined to a station."""
    if not trains or not all(t.requires_token for t in trains):
        return None
    out: Reach = []
    for t in trains:
        if t.klass or t.local or t.unit not in ("stops", "stops_by_type"):
            out.append(None)
        elif t.unit == "stops":
            out.append((None, t.distance))
        else:  # the rows the board's stops may fill: fewer visits than the board has nodes (a bound either way)
            bounded = [r.visit < len(board.nodes) for r in t.rows]
            kinds = {k for r in t.rows for k in r.kinds}
            limited = frozenset(k for k in kinds if all(b for r, b in zip(t.rows, bounded) if k in r.kinds))
            out.append((limited, sum(r.visit for r, b in zip(t.rows, bounded) if b)))
    return out
