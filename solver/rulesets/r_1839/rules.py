"""1839 (ruleset `1839`): revenue locations counted once per company, exchange markers, FLOOD
trains, foreigners and the private powers that change revenue. The evaluator and the optimiser
both price runs with these functions.

Readings (shared/seeds, "39 steps of 1839"):
- A revenue location counts once per company, at the best value any of its trains earns there;
  at the company's own exchange marker it counts once for every train that reaches it.
- Another company's exchange marker does not block: a route ending there counts it normally, a
  route passing through it counts it 0.
- A FLOOD train runs no route: it earns every location the company reaches with unlimited trains
  and unlimited track reuse, each once (and once more at the company's exchange marker).
- A train may not run from an off-board to another off-board of the same country. Each foreign
  company reached gets 20 % of the company's total run (rounded down) on its income slot.
- Request options (private powers): `location_bonus` (+10 for each location the company's trains
  reach), `towns_plus_10` (every town +10), `port_token` (a node id: +20 there when
  `port_token_own`, else +10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from solver.model.board import Board, Node, Train, route_may_pass
from solver.model.results import Finding
from solver.routes.leg_graph import build_leg_graph
from solver.routes.station_reach import reached_from
from solver.rules.train_rules import paying_stops, stop_revenue

LOCATION_KINDS = ("city", "town", "offboard", "halt", "pass")
FOREIGN_SHARE_PERCENT = 20


def is_location(node: Node) -> bool:
    return node.kind in LOCATION_KINDS


def route_pay(board: Board, train: Train, nodes: Sequence[str]) -> list[int]:
    """What each stop of one route pays this train, before counting once per company: a stop
    passed through at another company's exchange marker pays 0."""
    stops = []
    for i, nid in enumerate(nodes):
        node = board.nodes[nid]
        passed = 0 < i < len(nodes) - 1
        if passed and node.exchange_owner and node.exchange_owner != board.company:
            node = replace(node, revenue=0, revenue_by_train={})
        stops.append(node)
    paid = {id(n): v for n, v in paying_stops(train, stops)}
    return [paid.get(id(n), 0) for n in stops]


def same_country_finding(board: Board, nodes: Sequence[str], index: int = -1) -> Finding | None:
    """A route may not run from an off-board to another off-board of the same country."""
    if len(nodes) < 2:
        return None
    a, b = board.nodes[nodes[0]], board.nodes[nodes[-1]]
    if a.kind == b.kind == "offboard" and a.country and a.country == b.country:
        return Finding("SAME_COUNTRY", f"the route runs from {a.id} to {b.id}, both off-boards of {a.country}", index)
    return None


def is_plus_train(train: Train) -> bool:
    """An 1839 "n+" train: its cities count and pay (multiplier 1), off-boards pay without counting."""
    return (train.unit == "stops_by_type"
            and any("city" in r.kinds and r.multiplier == 1 for r in train.rows)
            and any("offboard" in r.kinds and "city" not in r.kinds for r in train.rows))


def plus_route_finding(board: Board, train: Train, nodes: Sequence[str], index: int = -1) -> Finding | None:
    """A "+" route needs two cities: off-boards (and towns) do not count against its length, and
    so do not make a route either (seed "39 steps": a city plus an off-board is no + route)."""
    if not is_plus_train(train) or len(nodes) < 2:
        return None
    cities = sum(1 for n in nodes if board.nodes[n].kind == "city")
    if cities >= 2:
        return None
    return Finding("PLUS_TOO_FEW_CITIES", f"a route of {train.id} (a + train) needs two cities; off-boards and "
                                          f"towns do not count for it (it has {cities})", index)


def flood_trains(board: Board) -> list[Train]:
    return [t for t in board.trains if t.unit == "flood"]


def flood_reach(board: Board) -> set[str]:
    """Every location the company reaches with unlimited trains and unlimited track reuse: walk
    from its stations, never through a node that blocks or only ends routes."""
    graph = build_leg_graph(board)
    nodes = board.nodes
    seen = reached_from([n.id for n in nodes.values() if n.tokened_by_company],
                        lambda nid: graph.legs_from.get(nid, ()), lambda nid: route_may_pass(nodes[nid]))
    return {n for n in seen if is_location(nodes[n])}


@dataclass
class Pricing:
    """A run priced once per company: per route the value credited to each of its stops, what
    the FLOOD trains add per location, and the total."""

    per_route: list[list[int]]
    flood: dict[str, int]
    total: int


def price_run(board: Board, routes: Sequence[tuple[Train, Sequence[str]]], reach: set[str]) -> Pricing:
    """Price a run: each location once at the best value a train earns there (the first such
    route gets it), every train at the company's exchange marker, and the location bonus."""
    floods = flood_trains(board)
    pays = [route_pay(board, train, nodes) for train, nodes in routes]
    credit = [[0] * len(nodes) for _, nodes in routes]
    flood: dict[str, int] = {}
    visitors: dict[str, list[tuple[int, int]]] = {}
    for r, (_train, nodes) in enumerate(routes):
        for i, nid in enumerate(nodes):
            visitors.setdefault(nid, []).append((r, i))
    bonus = location_bonus(board)
    for nid in sorted(set(visitors) | reach):
        node = board.nodes[nid]
        if not is_location(node):
            continue
        base = flood_value(node, floods, reach)
        here = visitors.get(nid, [])
        if node.exchange_owner == board.company:
            for r, i in here:
                credit[r][i] += pays[r][i]
            if base:
                flood[nid] = base * len(floods)
        else:
            best = max([pays[r][i] for r, i in here], default=0)
            if best > base:
                r, i = next((r, i) for r, i in here if pays[r][i] == best)
                credit[r][i] += best
            elif base:
                flood[nid] = base
        if bonus:
            if here:
                r, i = here[0]
                credit[r][i] += bonus
            else:
                flood[nid] = flood.get(nid, 0) + bonus
    total = sum(map(sum, credit)) + sum(flood.values())
    return Pricing(per_route=credit, flood=flood, total=total)


def location_bonus(board: Board) -> int:
    """The private power's bonus for each location reached (0 without it)."""
    return 10 if board.options.get("location_bonus") else 0


def flood_value(node: Node, floods: Sequence[Train], reach: set[str]) -> int:
    """What one FLOOD train earns at a location (0 outside its reach or without FLOOD trains)."""
    return stop_revenue(node, floods[0]) if floods and node.id in reach else 0


def foreign_income(board: Board, reached: set[str], total: int) -> dict[str, int]:
    """Income placed on each foreign company's slot: 20 % of the total run per off-board reached."""
    share = total * FOREIGN_SHARE_PERCENT // 100
    return {nid: share for nid in sorted(reached) if board.nodes[nid].kind == "offboard"}
