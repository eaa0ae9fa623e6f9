"""`route_bound.reach_bound` for a list train that one row limits ("2 cities and any towns"), on random small
track graphs with free stops (towns): for every (previous stop, stop) and count of cities left, the table is
never below what the best continuation earns, found by trying every continuation (a walk that enters no stop
twice, passes only stops it may pass, and spends at most that count on cities). Where the towns that pay
hold no cycle, there is a table."""

from __future__ import annotations

from types import SimpleNamespace

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.model.board import DistanceRow, Node, Train
from solver.routes.route_bound import reach_bound

NODES = 7
CITIES = DistanceRow(kinds=("city",), pay=2, visit=2)
TOWNS = DistanceRow(kinds=("town",), pay=99, visit=99)
TRAIN = Train(id="t", name="2", unit="stops_by_type", distance=101, rows=(CITIES, TOWNS))


@st.composite
def boards(draw: st.DrawFn) -> tuple[SimpleNamespace, dict[str, list], dict[str, int], frozenset[str]]:
    """A board of cities (visit cost 1 or 2) and towns with revenues, legs (some one way only, some parallel),
    each stop's most pay, and the stops a route may pass."""
    names = [f"n{i}" for i in range(NODES)]
    nodes = {n: Node(id=n, hex=n, kind=draw(st.sampled_from(["city", "town", "town"])),
                     revenue=draw(st.integers(0, 50)), visit_cost=draw(st.integers(1, 2))) for n in names}
    pairs = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names), st.booleans()),
                          min_size=3, max_size=14))
    legs_from: dict[str, list] = {n: [] for n in names}
    for a, b, both_ways in pairs:
        if a != b:
            for x, y in ((a, b), (b, a)) if both_ways else ((a, b),):
                legs_from[x].append(SimpleNamespace(a=x, b=y, hexes=()))
    passable = frozenset(n for n in names if draw(st.booleans()) or n == names[0])
    most = {n: nodes[n].revenue for n in names}
    return SimpleNamespace(nodes=nodes), legs_from, most, passable


def _towns_hold_no_cycle(legs_from: dict, towns: set[str]) -> bool:
    """Whether the towns, joined by their legs either way, hold no cycle (networkx)."""
    graph = nx.Graph()
    graph.add_nodes_from(towns)
    graph.add_edges_from((leg.a, leg.b) for legs in legs_from.values() for leg in legs
                         if leg.a in towns and leg.b in towns)
    return not graph or nx.is_forest(graph)


def _best_continuation(legs_from: dict, weight: dict, cost: dict, passable: frozenset[str], seen: set[str],
                       at: str, left: int) -> int:
    """The most any continuation from `at` adds with `left` to spend, by trying them all."""
    best = 0
    for leg in legs_from[at]:
        if leg.b in seen or cost[leg.b] > left:
            continue
        onward = _best_continuation(legs_from, weight, cost, passable, seen | {leg.b}, leg.b, left - cost[leg.b]) \
            if leg.b in passable else 0
        best = max(best, weight[leg.b] + onward)
    return best


@settings(max_examples=300, deadline=None)
@given(boards())
def test_no_continuation_earns_more_than_the_table(case: tuple) -> None:
    board, legs_from, most, passable = case
    visitable = frozenset(board.nodes)
    table = reach_bound(board, legs_from, visitable, passable, TRAIN, most, {}, {}, 0)
    towns = {n for n, node in board.nodes.items() if node.kind == "town"}
    paying = any(most[n] for n in towns)
    assert (table is not None) == (not paying or _towns_hold_no_cycle(legs_from, towns & passable))
    if table is None:
        return
    assert table.cost == {n: (node.visit_cost if n not in towns else 0) for n, node in board.nodes.items()}
    for (p, u), per_left in table.ahead.items():
        seen = {u} if p is None else {p, u}
        for left, bound in enumerate(per_left):
            assert _best_continuation(legs_from, table.node, table.cost, passable, seen, u, left) <= bound
