"""An independent brute force for boards with modifiers of vocabulary v2 (corpus FORMAT.md "Modifiers").

Legs and the route shape rules come from `tests.support.bruteforce` (itself independent of the solver);
everything else is written here from FORMAT.md and shares no code with `solver` beyond the board model:
every route in both directions, `stops`, `hexes` and list-distance trains (a kind may fit several rows:
`bruteforce_modifiers.fits_length` and `pays_all`), the paying subset chosen with the revenue bonuses
(or by `CountedStops` mandatory_first), every StopBonus / ComboBonus field (nodes, negative values,
-stop_revenue, scope, endpoint, target subsidy, exclusive, trains), every RouteRule (scopes counted,
visited, endpoints, path_hexes, candidates), and the run: at most one route per train, track exclusive
per OverlapRule (run, route, pools), valued by BestRouteBonus (first_max, last, most_visited_stops,
stop_kinds, per_distinct, trains), RequiredRoute, DropLowestRoute, RouteSetRule and StopPaysOnce, in
every run order (the best one counts). The value of a run is its revenue plus its subsidy.

Scope: at most one BestRouteBonus (a route's award is then 0 or its own bonus, and a list train is
priced for both), no StopPaysOnce with list trains (FORMAT: the order would decide the paying subset;
the optimiser refuses it too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Any

from solver.model.board import Board, Node, Train
from tests.support.bruteforce import BLeg, legs_from, route_problems, track_keys
from tests.support.bruteforce_modifiers import fits_length, pays_all

Mod = dict[str, Any]


class OutOfScope(ValueError):
    """A board this brute force does not model."""


@dataclass(frozen=True)
class VRoute:
    """A route (one direction) and what its pricing reads of it."""

    nodes: tuple[str, ...]
    legs: tuple[BLeg, ...]
    keys: frozenset
    hexes: tuple[str, ...]  # the hex of each visited stop
    kinds: tuple[str, ...]
    path_hexes: tuple[str, ...]  # distinct hexes of the legs' paths, route order
    crossings: int  # hex boundaries crossed


@dataclass(frozen=True)
class Priced:
    revenue: int  # stops + revenue bonuses (+ the award it was priced with)
    subsidy: int
    counted: tuple[int, ...]  # indexes of the counted stops


@dataclass
class V2Result:
    optimum: int
    assignment: list[tuple[str, VRoute, Priced]]  # (train id, route, its price in the best run)
    routes: int
    searched: int = 0
    notes: list[str] = field(default_factory=list)


def admits(m: Mod, name: str) -> bool:
    return "trains" not in m or name in m["trains"]


def pay(node: Node, train: Train) -> int:
    if train.name in node.revenue_by_train:
        return node.revenue_by_train[train.name]
    return node.revenue * train.multiplier


# ---------------------------------------------------------------- route bonuses


def _value(v: int | str, node: Node, train: Train) -> int:
    if v == "stop_revenue":
        return pay(node, train)
    if v == "-stop_revenue":
        return -pay(node, train)
    return int(v)


def stop_bonus(m: Mod, route: VRoute, stops: list[Node], counted: tuple[int, ...], train: Train) -> int:
    count = m["count"]
    if m.get("scope") == "path_hexes":
        hits = [(h, m["hexes"][h]) for h in route.path_hexes if h in m["hexes"]]
    else:
        scope = list(counted) if m.get("scope", "counted") == "counted" else list(range(len(stops)))
        if m.get("endpoint"):
            scope = [scope[0], scope[-1]] if len(scope) >= 2 else []
        if "nodes" in m:
            hits = [(stops[i].hex, _value(m["nodes"][stops[i].id], stops[i], train))
                    for i in scope if stops[i].id in m["nodes"]]
        else:
            hits = [(stops[i].hex, _value(m["hexes"][stops[i].hex], stops[i], train))
                    for i in scope if stops[i].hex in m["hexes"]]
    if not hits:
        return 0
    if count == "once":
        return hits[0][1]
    if count == "per_hex":
        first: dict[str, int] = {}
        for h, v in hits:
            first.setdefault(h, v)
        return sum(first.values())
    return sum(v for _, v in hits)


def combo_match(m: Mod, stops: list[Node], counted: tuple[int, ...]) -> int | None:
    """The combo's amount when every set matches, else None."""
    scope = counted if m.get("scope", "counted") == "counted" else tuple(range(len(stops)))
    got = 0
    for s in m["sets"]:
        first = [stops[i].hex for i in scope if stops[i].hex in s]
        if not first:
            return None
        got += s[first[0]]
    return got if m["amount"] == "sum" else m["amount"]


def route_bonuses(mods: list[Mod], route: VRoute, stops: list[Node], counted: tuple[int, ...], train: Train,
                  target: str) -> int:
    """The StopBonus / ComboBonus lines of one target for these counted stops (`mods`: admitted ones)."""
    total = 0
    taken: set[str] = set()
    for m in mods:
        if m["type"] == "StopBonus" and m.get("target", "revenue") == target:
            total += stop_bonus(m, route, stops, counted, train)
        elif m["type"] == "ComboBonus" and target == "revenue":
            key = m.get("exclusive")
            if key is not None and key in taken:
                continue
            got = combo_match(m, stops, counted)
            if got is not None:
                total += got
                if key is not None:
                    taken.add(key)
    return total


# ---------------------------------------------------------------- route rules


def _selected(rule: Mod, node: Node) -> bool:
    return (("kinds" not in rule or node.kind in rule["kinds"]) and ("hexes" not in rule or node.hex in rule["hexes"])
            and node.id not in rule.get("exclude_nodes", []))


def breaks(rule: Mod, stops: list[Node], scope_idx: list[int], path_hexes: tuple[str, ...] = ()) -> bool:
    """Whether the stops at `scope_idx` (and `path_hexes`, forbidden_hexes with scope path_hexes) break it."""
    inscope = [stops[i] for i in scope_idx]
    kind = rule["rule"]
    if kind == "min_stops":
        return sum(1 for n in inscope if _selected(rule, n)) < rule["count"]
    if kind == "max_stops":
        return sum(1 for n in inscope if _selected(rule, n)) > rule["count"]
    if kind == "no_hex_revisit":
        hexes = [n.hex for n in inscope]
        return any(hexes.count(h) >= 2 and ("hexes" not in rule or h in rule["hexes"]) for h in set(hexes))
    assert kind == "forbidden_hexes"
    return any(n.hex in rule["hexes"] for n in inscope) or any(h in rule["hexes"] for h in path_hexes)


def rules_break(rules: list[Mod], route: VRoute, stops: list[Node], counted: tuple[int, ...],
                evaluated: list[tuple[int, ...]]) -> bool:
    every = list(range(len(stops)))
    for r in rules:
        scope = r["scope"]
        if scope == "counted" and breaks(r, stops, list(counted)):
            return True
        if scope == "visited" and breaks(r, stops, every):
            return True
        if scope == "endpoints" and breaks(r, stops, sorted({0, len(stops) - 1})):
            return True
        if scope == "path_hexes" and breaks(r, stops, every, route.path_hexes):
            return True
        if scope == "candidates" and any(breaks(r, stops, list(c)) for c in evaluated + [counted]):
            return True
    return False


# ---------------------------------------------------------------- pricing one route for one train


def _fits(train: Train, stops: list[Node]) -> bool:
    if train.unit == "stops":
        return sum(s.visit_cost for s in stops) <= train.distance
    return fits_length(train, stops)  # a kind no row accepts fits only where it costs nothing (and never pays)


def price(board: Board, mods: list[Mod], route: VRoute, train: Train, award: int = 0) -> Priced | None:
    """What `train` earns on `route` when the run awards it `award` (None: it may not run it)."""
    stops = [board.nodes[n] for n in route.nodes]
    if train.requires_token and not any(s.tokened_by_company for s in stops):
        return None
    if train.unit == "hexes":
        if route.crossings > train.distance:
            return None
    elif not _fits(train, stops):
        return None
    mine = [m for m in mods if admits(m, train.name)]
    rules = [m for m in mine if m["type"] == "RouteRule"]
    pays = [pay(s, train) for s in stops]

    def value(c: tuple[int, ...]) -> int:
        return sum(pays[i] for i in c) + route_bonuses(mine, route, stops, c, train, "revenue")

    evaluated: list[tuple[int, ...]] = []
    if train.unit in ("stops", "hexes"):
        counted = tuple(range(len(stops)))
    elif any(m["type"] == "CountedStops" for m in mine):
        p = next(r for r in train.rows if r.pay > 0)
        mandatory = tuple(i for i, s in enumerate(stops) if s.kind in p.kinds)
        optional = tuple(i for i, s in enumerate(stops) if s.kind not in p.kinds)
        if len(mandatory) == p.pay:
            cands = [()]
        else:
            need = p.pay - len(mandatory)
            assert need > 0, "the brute force's CountedStops trains never visit more mandatory stops than pay"
            cands = list(combinations(optional, need)) if len(optional) >= need else [optional]
            if not any(stops[i].tokened_by_company for i in mandatory):
                cands = [c for c in cands if any(stops[i].tokened_by_company for i in c)]
        best: tuple[int, tuple[int, ...]] | None = None
        for c in cands:
            full = mandatory + c
            evaluated.append(tuple(sorted(full)))
            v = value(tuple(sorted(full)))
            if best is None or v > best[0]:
                best = (v, tuple(sorted(full)))
        # the engine returns exactly P.pay mandatory stops as they are, whatever they earn (1867 compute_stops
        # checks the value of a choice of optional stops only): the exact case is never illegal by its value
        if best is None or (len(mandatory) != p.pay and best[0] + award <= 0):
            return None
        counted = best[1]
    else:
        counted = ()
        for size in range(len(stops), 0, -1):
            top: tuple[int, tuple[int, ...]] | None = None
            for combo in combinations(range(len(stops)), size):
                if train.requires_token and not any(stops[i].tokened_by_company for i in combo):
                    continue
                if not pays_all(train, [stops[i] for i in combo]):
                    continue
                evaluated.append(combo)
                v = value(combo)
                if top is None or v > top[0]:
                    top = (v, combo)
            if top is not None and top[0] + award > 0:
                counted = top[1]
                break
    if rules_break(rules, route, stops, counted, evaluated):
        return None
    return Priced(value(counted) + award, route_bonuses(mine, route, stops, counted, train, "subsidy"), counted)


# ---------------------------------------------------------------- routes


def _crossings(board: Board, legs: tuple[BLeg, ...]) -> int:
    return sum(1 for lg in legs for a, b in zip(lg.paths, lg.paths[1:]) if board.paths[a].hex != board.paths[b].hex)


def _path_hexes(board: Board, legs: tuple[BLeg, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for lg in legs:
        for pid in lg.paths:
            if board.paths[pid].hex not in out:
                out.append(board.paths[pid].hex)
    return tuple(out)


def enumerate_vroutes(board: Board) -> list[VRoute]:
    """Every route of legal shape in both directions that some train's length may allow."""
    legs = {nid: legs_from(board, nid) for nid in board.nodes}
    by_stops = max((t.distance for t in board.trains if t.unit != "hexes"), default=-1)
    by_hexes = max((t.distance for t in board.trains if t.unit == "hexes"), default=-1)
    found: list[VRoute] = []

    def grow(nodes: tuple[str, ...], route_legs: tuple[BLeg, ...], used: frozenset, cost: int, cross: int) -> None:
        if len(nodes) >= 2 and not route_problems(board, nodes, route_legs):
            stops = [board.nodes[n] for n in nodes]
            found.append(VRoute(nodes, route_legs, used, tuple(s.hex for s in stops), tuple(s.kind for s in stops),
                                _path_hexes(board, route_legs), cross))
        last = board.nodes[nodes[-1]]
        if len(nodes) >= 2 and (last.blocks or last.terminal):
            return
        for lg in legs[nodes[-1]]:
            if lg.b in nodes:
                continue
            c2, x2 = cost + board.nodes[lg.b].visit_cost, cross + _crossings(board, (lg,))
            if c2 > by_stops and x2 > by_hexes:
                continue
            keys = [k for pid in lg.paths for k in track_keys(board.paths[pid])]
            if len(set(keys)) != len(keys) or used.intersection(keys):
                continue
            grow(nodes + (lg.b,), route_legs + (lg,), used.union(keys), c2, x2)

    for nid in board.nodes:
        grow((nid,), (), frozenset(), board.nodes[nid].visit_cost, 0)
    return found


# ---------------------------------------------------------------- the run


def best_bonus(m: Mod, route: VRoute, name: str) -> int:
    """The route's bonus under a BestRouteBonus (0: it does not qualify)."""
    if not admits(m, name) or any(h not in route.hexes for h in m.get("requires_hexes", [])):
        return 0
    if "per_visited_stop" in m:
        kinds = m.get("stop_kinds")
        return m["per_visited_stop"] * sum(1 for k in route.kinds if kinds is None or k in kinds)
    if "per_distinct" in m:
        table = m["distinct_hex_values"]
        return m["per_distinct"] * len({table[h] for h in route.hexes if h in table})
    return m["amount"]


def _awarded(m: Mod, run: list[tuple[Train, VRoute]]) -> int | None:
    """Which route of the run (in this order) gets the award, None when none qualifies."""
    bonus = [best_bonus(m, r, t.name) for t, r in run]
    good = [i for i, b in enumerate(bonus) if b > 0]
    if not good:
        return None
    if m["award"] == "last":
        return good[-1]
    if m["award"] == "first_max":
        return max(good, key=lambda i: (bonus[i], -i))
    kinds = m.get("stop_kinds")
    return max(good, key=lambda i: (sum(1 for k in run[i][1].kinds if kinds is None or k in kinds), run[i][0].id))


class Pricer:
    def __init__(self, board: Board, mods: list[Mod]) -> None:
        self.board, self.mods = board, mods
        self.cache: dict[tuple[int, str, int], Priced | None] = {}

    def __call__(self, route: VRoute, train: Train, award: int = 0) -> Priced | None:
        key = (id(route), train.id, award)
        if key not in self.cache:
            self.cache[key] = price(self.board, self.mods, route, train, award)
        return self.cache[key]


def run_value(board: Board, mods: list[Mod], pricer: Pricer, run: list[tuple[Train, VRoute]]
              ) -> tuple[int, list[Priced]] | None:
    """The best value of a run over its orders (None: illegal in every order) and the routes' prices."""
    if run:
        for m in mods:
            if m["type"] == "RequiredRoute" and not any(
                    len(r.hexes) >= 2 and r.hexes[0] in m["endpoint_hexes"] and r.hexes[-1] in m["endpoint_hexes"]
                    for _, r in run):
                return None
    for m in mods:
        if m["type"] == "RouteSetRule":
            if sum(1 for t, r in run if admits(m, t.name) and any(h in m["hexes"] for h in r.hexes)) > m["count"]:
                return None
    best_mods = [m for m in mods if m["type"] == "BestRouteBonus"]
    once = next((m for m in mods if m["type"] == "StopPaysOnce"), None)
    drops = [m["min_routes"] for m in mods if m["type"] == "DropLowestRoute"]
    best: tuple[int, list[Priced]] | None = None
    for order in permutations(range(len(run))):
        seq = [run[i] for i in order]
        award = [0] * len(seq)
        for m in best_mods:
            i = _awarded(m, seq)
            if i is not None:
                award[i] += best_bonus(m, seq[i][1], seq[i][0].name)
        prices = [pricer(r, t, a) for (t, r), a in zip(seq, award)]
        if any(p is None for p in prices):
            continue
        revenue = [p.revenue for p in prices]  # type: ignore[union-attr]
        if once is not None:
            paid_nodes: set[str] = set()
            paid_groups: set[str] = set()
            for k, ((t, r), p) in enumerate(zip(seq, prices)):
                for i in p.counted:  # type: ignore[union-attr]
                    n = board.nodes[r.nodes[i]]
                    if n.id in paid_nodes or (once.get("groups") and paid_groups.intersection(n.groups)):
                        revenue[k] -= pay(n, t)
                for i in p.counted:  # type: ignore[union-attr]
                    paid_nodes.add(r.nodes[i])
                    paid_groups.update(board.nodes[r.nodes[i]].groups)
        total = sum(revenue) + sum(p.subsidy for p in prices)  # type: ignore[union-attr]
        if drops and seq and len(seq) >= min(drops):
            total -= min(revenue)
        if best is None or total > best[0]:
            back = sorted(range(len(order)), key=lambda k: order[k])
            best = (total, [Priced(revenue[k], prices[k].subsidy, prices[k].counted)  # type: ignore[union-attr]
                            for k in back])
    return best


def check_scope(board: Board, mods: list[Mod]) -> None:
    if sum(1 for m in mods if m["type"] == "BestRouteBonus") > 1:
        raise OutOfScope("at most one BestRouteBonus")
    if any(m["type"] == "StopPaysOnce" for m in mods) and any(t.unit == "stops_by_type" for t in board.trains):
        raise OutOfScope("StopPaysOnce with list trains")
    for t in board.trains:
        if t.unit not in ("stops", "hexes", "stops_by_type") or t.local:
            raise OutOfScope(f"train {t.id}")


def brute_force_v2(board: Board, mods: list[Mod]) -> V2Result:
    """The best run value (revenue + subsidy) over every set of at most one route per train."""
    check_scope(board, mods)
    routes = enumerate_vroutes(board)
    pricer = Pricer(board, mods)
    brb = next((m for m in mods if m["type"] == "BestRouteBonus"), None)
    trains = list(board.trains)
    overlap = next((m for m in mods if m["type"] == "OverlapRule"), {"scope": "run"})

    def group(i: int, t: Train) -> str:
        if overlap["scope"] == "run":
            return ""
        if overlap["scope"] == "route":
            return f"route{i}"
        return next((f"pool{k}" for k, p in enumerate(overlap["pools"]) if t.name in p), "pool-")

    options: list[list[tuple[int, VRoute]]] = []
    for t in trains:
        opts = []
        for r in routes:
            awards = [0] + ([b] if brb is not None and (b := best_bonus(brb, r, t.name)) > 0 else [])
            prices = [p for a in awards if (p := pricer(r, t, a)) is not None]
            if prices:
                opts.append((max(0, max(p.revenue + p.subsidy for p in prices)), r))
        options.append(sorted(opts, key=lambda o: -o[0]))
    tops = [o[0][0] if o else 0 for o in options]
    rest = [sum(tops[i:]) for i in range(len(trains) + 1)]
    best: list[Any] = [0, []]
    searched = [0]

    def rec(i: int, used: dict[str, frozenset], bound: int, chosen: list[tuple[Train, VRoute]]) -> None:
        if i == len(trains):
            searched[0] += 1
            got = run_value(board, mods, pricer, chosen)
            if got is not None and got[0] > best[0]:
                best[0], best[1] = got[0], [(t.id, r, p) for (t, r), p in zip(chosen, got[1])]
            return
        if bound + rest[i] <= best[0]:
            return
        g = group(i, trains[i])
        taken = used.get(g, frozenset())
        for ub, r in options[i]:
            if bound + ub + rest[i + 1] <= best[0]:
                break
            if taken.intersection(r.keys):
                continue
            chosen.append((trains[i], r))
            rec(i + 1, {**used, g: taken | r.keys}, bound + ub, chosen)
            chosen.pop()
        rec(i + 1, used, bound, chosen)

    rec(0, {}, 0, [])
    return V2Result(best[0], best[1], len(routes), searched[0])


def judge_v2(board: Board, mods: list[Mod], runs: list[tuple[str, list[str], list[list[str]]]]
             ) -> tuple[int, list[str]]:
    """Judge a route set `(train id, nodes, per-leg path ids)` by this module's rules: its value and problems."""
    problems: list[str] = []
    run: list[tuple[Train, VRoute]] = []
    for tid, nodes, leg_paths in runs:
        legs = []
        for i, paths in enumerate(leg_paths):
            fwd, back = BLeg(nodes[i], nodes[i + 1], tuple(paths)), BLeg(nodes[i + 1], nodes[i], tuple(paths[::-1]))
            if fwd in legs_from(board, fwd.a):
                legs.append(fwd)
            elif back in legs_from(board, back.a):
                legs.append(back.reversed())
            else:
                problems.append(f"{tid}: {nodes[i]}->{nodes[i + 1]} over {paths} is not a leg")
        legs_t = tuple(legs)
        problems += [f"{tid}: {p}" for p in route_problems(board, tuple(nodes), legs_t)]
        keys = frozenset(k for lg in legs_t for pid in lg.paths for k in track_keys(board.paths[pid]))
        stops = [board.nodes[n] for n in nodes]
        run.append((board.train(tid), VRoute(tuple(nodes), legs_t, keys, tuple(s.hex for s in stops),
                                             tuple(s.kind for s in stops), _path_hexes(board, legs_t),
                                             _crossings(board, legs_t))))
    if len({t.id for t, _ in run}) != len(run):
        problems.append("a train runs twice")
    overlap = next((m for m in mods if m["type"] == "OverlapRule"), {"scope": "run"})
    if overlap["scope"] != "route":
        pool = {t.id: next((k for k, p in enumerate(overlap.get("pools", [])) if t.name in p), -1) for t, _ in run}
        for i, (t, r) in enumerate(run):
            for u, q in run[:i]:
                if (overlap["scope"] == "run" or pool[t.id] == pool[u.id]) and r.keys & q.keys:
                    problems.append(f"{t.id} and {u.id} share track")
    got = run_value(board, mods, Pricer(board, mods), run)
    if got is None:
        problems.append("illegal run (a route no train may run, or a run rule broken in every order)")
    return (got[0] if got else 0), problems
