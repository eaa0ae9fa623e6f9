"""An independent brute force for boards with modifiers (corpus FORMAT.md "Modifiers").

Legs and the route shape rules come from `tests.support.bruteforce` (itself independent of the solver);
everything else is written here from FORMAT.md and shares no code with `solver`: both directions
of every route, list-distance trains (a kind may fit several rows: FORMAT.md's pour for the length and
first fit for the paying stops), the paying subset chosen with the bonuses, StopBonus / ComboBonus
lines, BestRouteBonus awards, RequiredRoute and
DropLowestRoute, and an exhaustive search over route-to-train assignments (pruned only by a bound
that the run rules cannot exceed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any

from solver.model.board import Board, Node, Train
from tests.support.bruteforce import BLeg, legs_from, route_problems, track_keys


@dataclass(frozen=True)
class MRoute:
    nodes: tuple[str, ...]
    legs: tuple[BLeg, ...]
    keys: frozenset
    hexes: tuple[str, ...]
    revenue: tuple[tuple[str, int], ...]  # (train id, stops + route bonuses) for every train that may run it


def _pay(node: Node, train: Train) -> int:
    if train.name in node.revenue_by_train:
        return node.revenue_by_train[train.name]
    return node.revenue * train.multiplier


def _stop_bonus(m: dict[str, Any], counted: list[tuple[Node, int]]) -> int:
    table = m["hexes"]
    if m.get("endpoint"):
        hits = [e for e in (counted[0], counted[-1]) if e[0].hex in table] if len(counted) >= 2 else []
    else:
        hits = [e for e in counted if e[0].hex in table]
    worth = [(n.hex, pay if table[n.hex] == "stop_revenue" else table[n.hex]) for n, pay in hits]
    if not worth:
        return 0
    if m["count"] == "once":
        return worth[0][1]
    if m["count"] == "per_hex":
        seen: dict[str, int] = {}
        for h, v in worth:
            seen.setdefault(h, v)
        return sum(seen.values())
    return sum(v for _, v in worth)


def _combo_bonus(m: dict[str, Any], counted: list[tuple[Node, int]]) -> int:
    got = 0
    for s in m["sets"]:
        first = [n.hex for n, _ in counted if n.hex in s]
        if not first:
            return 0
        got += s[first[0]]
    return got if m["amount"] == "sum" else m["amount"]


def bonus(mods: list[dict[str, Any]], counted: list[tuple[Node, int]]) -> int:
    total = 0
    for m in mods:
        if m["type"] == "StopBonus":
            total += _stop_bonus(m, counted)
        elif m["type"] == "ComboBonus":
            total += _combo_bonus(m, counted)
    return total


def fits_length(train: Train, stops: list[Node]) -> bool:
    """FORMAT.md's length check of a list train: the visit costs grouped by kind, the kinds fewer rows accept
    first, each group poured into the rows accepting its kind in row order, up to each row's visits (shared
    between kinds); anything left over makes the route too long."""
    cost: dict[str, int] = {}
    for s in stops:
        cost[s.kind] = cost.get(s.kind, 0) + s.visit_cost
    room = [r.visit for r in train.rows]
    accepting = {k: [i for i, r in enumerate(train.rows) if k in r.kinds] for k in cost}
    for kind in sorted(cost, key=lambda k: len(accepting[k])):
        left = cost[kind]
        for i in accepting[kind]:
            poured = min(left, room[i])
            room[i] -= poured
            left -= poured
        if left:
            return False
    return True


def pays_all(train: Train, stops: list[Node]) -> bool:
    """Whether these stops (route order) may all pay: each fits the first row accepting its kind with `pay`
    room left, the rows taken by the number of kinds they accept (FORMAT.md)."""
    rows = sorted(train.rows, key=lambda r: len(r.kinds))
    used = [0] * len(rows)
    for s in stops:
        for i, r in enumerate(rows):
            if s.kind in r.kinds and used[i] < r.pay:
                used[i] += 1
                break
        else:
            return False
    return True


def train_value(train: Train, stops: list[Node], mods: list[dict[str, Any]]) -> int | None:
    """What the train earns on these stops (route order), None when it may not run them."""
    if not any(s.tokened_by_company for s in stops):
        return None
    if train.unit == "stops":
        if sum(s.visit_cost for s in stops) > train.distance:
            return None
        counted = [(s, _pay(s, train)) for s in stops]
        return sum(p for _, p in counted) + bonus(mods, counted)
    if not fits_length(train, stops):
        return None
    for size in range(len(stops), 0, -1):
        best = -1
        for combo in combinations(range(len(stops)), size):
            chosen = [stops[i] for i in combo]
            if not any(s.tokened_by_company for s in chosen) or not pays_all(train, chosen):
                continue
            counted = [(s, _pay(s, train)) for s in chosen]
            best = max(best, sum(p for _, p in counted) + bonus(mods, counted))
        if best > 0:
            return best
    return 0


def enumerate_mroutes(board: Board, mods: list[dict[str, Any]]) -> list[MRoute]:
    """Every legal route in both directions, with what each train earns on it (zero included)."""
    legs = {nid: legs_from(board, nid) for nid in board.nodes}
    longest = max((t.distance if t.unit == "stops" else sum(r.visit for r in t.rows) for t in board.trains),
                  default=0)
    found: list[MRoute] = []

    def grow(nodes: tuple[str, ...], route_legs: tuple[BLeg, ...], used: frozenset, cost: int) -> None:
        if len(nodes) >= 2 and not route_problems(board, nodes, route_legs):
            stops = [board.nodes[n] for n in nodes]
            revenue = tuple((t.id, v) for t in board.trains if (v := train_value(t, stops, mods)) is not None)
            if revenue:
                found.append(MRoute(nodes, route_legs, used, tuple(s.hex for s in stops), revenue))
        last = board.nodes[nodes[-1]]
        if len(nodes) >= 2 and (last.blocks or last.terminal):
            return
        for lg in legs[nodes[-1]]:
            if lg.b in nodes or cost + board.nodes[lg.b].visit_cost > longest:
                continue
            keys = [k for pid in lg.paths for k in track_keys(board.paths[pid])]
            if len(set(keys)) != len(keys) or used.intersection(keys):
                continue
            grow(nodes + (lg.b,), route_legs + (lg,), used.union(keys), cost + board.nodes[lg.b].visit_cost)

    for nid in board.nodes:
        grow((nid,), (), frozenset(), board.nodes[nid].visit_cost)
    return found


def _award(m: dict[str, Any], hexes: tuple[str, ...]) -> int:
    if any(h not in hexes for h in m.get("requires_hexes", [])):
        return 0
    return m["per_visited_stop"] * len(hexes) if "per_visited_stop" in m else m["amount"]


def _awarded(mods: list[dict[str, Any]], run: list[tuple[str, MRoute, int]]) -> list[int]:
    """Each route's revenue with the BestRouteBonus awards, in this run order."""
    revenue = [v for _, _, v in run]
    for m in mods:
        if m["type"] != "BestRouteBonus":
            continue
        good = [i for i, (_, r, _) in enumerate(run) if _award(m, r.hexes) > 0]
        if good:
            if m["award"] == "last":
                i = good[-1]
            else:
                i = max(good, key=lambda j: (len(run[j][1].hexes), run[j][0]))
            revenue[i] += _award(m, run[i][1].hexes)
    return revenue


def run_value(mods: list[dict[str, Any]], run: list[tuple[str, MRoute, int]]) -> int | None:
    """A run's total by the run rules in its best run order, None when it breaks a RequiredRoute.
    `run`: (train, route, revenue)."""
    if run:
        for m in mods:
            if m["type"] == "RequiredRoute" and not any(
                    len(r.hexes) >= 2 and r.hexes[0] in m["endpoint_hexes"] and r.hexes[-1] in m["endpoint_hexes"]
                    for _, r, _ in run):
                return None
    drops = [m["min_routes"] for m in mods if m["type"] == "DropLowestRoute"]
    best = None
    for order in permutations(run):  # the player orders the run: an award "last" goes to the last qualifier
        revenue = _awarded(mods, list(order))
        total = sum(revenue)
        if drops and run and len(run) >= min(drops):
            total -= min(revenue)
        best = total if best is None else max(best, total)
    return best


def brute_force_modifiers(board: Board, mods: list[dict[str, Any]]) -> tuple[int, list[tuple[str, MRoute]]]:
    """The best run value over every assignment of routes to trains with no shared track."""
    routes = enumerate_mroutes(board, mods)
    trains = [t.id for t in board.trains]
    options = [sorted(((v, r) for r in routes for t, v in r.revenue if t == tid), key=lambda o: -o[0])
               for tid in trains]
    tops = [o[0][0] if o else 0 for o in options]
    rest = [sum(tops[i:]) for i in range(len(trains) + 1)]
    extra = sum(max((_award(m, r.hexes) for r in routes), default=0) for m in mods if m["type"] == "BestRouteBonus")
    if any(v < 0 for o in options for v, _ in o):  # a route earning less than nothing (a train may run none, a
        rest = [math.inf] * (len(trains) + 1)  # DropLowestRoute may drop it): no bound, every run is tried
    best: list[Any] = [0, []]

    def rec(i: int, used: frozenset, total: int, chosen: list[tuple[str, MRoute, int]]) -> None:
        if i == len(trains):
            value = run_value(mods, chosen)
            if value is not None and value > best[0]:
                best[0], best[1] = value, [(t, r) for t, r, _ in chosen]
            return
        if total + rest[i] + extra <= best[0]:
            return
        for v, r in options[i]:
            if total + v + rest[i + 1] + extra <= best[0]:
                break
            if used.intersection(r.keys):
                continue
            chosen.append((trains[i], r, v))
            rec(i + 1, used | r.keys, total + v, chosen)
            chosen.pop()
        rec(i + 1, used, total, chosen)

    rec(0, frozenset(), 0, [])
    return best[0], best[1]
