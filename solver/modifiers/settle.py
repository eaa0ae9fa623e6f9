"""Route-set rules of a priced run: BestRouteBonus awards, DropLowestRoute, RequiredRoute and
RouteSetRule.

They read only each route's train (id and name), the hexes and kinds of its visited stops (route
order) and its revenue, so every ruleset's evaluator can settle a run with `settle_run`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

import networkx as nx

from solver.modifiers.model import (
    BestRouteBonus,
    BonusLine,
    DropLowestRoute,
    Modifier,
    RequiredRoute,
    RouteSetRule,
    admits,
)

REQUIRED_ROUTE_MISSING = "REQUIRED_ROUTE_MISSING"
TOO_MANY_ROUTES_VISITING = "TOO_MANY_ROUTES_VISITING"


@dataclass(frozen=True)
class RunRoute:
    """What the run rules read of one priced route."""

    train: str
    hexes: tuple[str, ...]  # the hex of each visited stop, in route order
    revenue: int  # stops plus route bonuses
    name: str = ""  # the train's name (for the modifiers' `trains`)
    kinds: tuple[str, ...] = ()  # the kind of each visited stop, in route order


@dataclass
class RunSettlement:
    """The run's total and what the run rules did: awards per route, the dropped route, findings."""

    total: int
    awards: dict[int, list[BonusLine]] = field(default_factory=dict)
    dropped: tuple[int, BonusLine] | None = None  # (route index, line with the negative amount)
    findings: list[tuple[str, str]] = field(default_factory=list)  # (code, message)


def award_stop_count(m: BestRouteBonus, hexes: Sequence[str], kinds: Sequence[str]) -> int:
    """The route's visited stops as `m` counts them (only `stop_kinds`, when given)."""
    if m.stop_kinds is None:
        return len(hexes)
    return sum(1 for k in kinds if k in m.stop_kinds)


def best_route_bonus(m: BestRouteBonus, hexes: Sequence[str], kinds: Sequence[str] = (), name: str | None = None
                     ) -> int:
    """This route's bonus under `m`: 0 unless it qualifies (its train admitted, every required hex
    visited, a positive bonus). `kinds` is needed only with `stop_kinds`; `name` None: admitted."""
    if name is not None and not admits(m.trains, name):
        return 0
    if any(h not in hexes for h in m.requires_hexes):
        return 0
    if m.per_visited_stop:
        return m.per_visited_stop * award_stop_count(m, hexes, kinds)
    if m.per_distinct:
        table = dict(m.distinct_hex_values)
        return m.per_distinct * len({table[h] for h in hexes if h in table})
    return m.amount


def awarded_route(m: BestRouteBonus, routes: Sequence[RunRoute]) -> int | None:
    """The index of the route that gets the bonus: the most visited stops (ties: the greatest
    train id), the last qualifying route, or the largest bonus (ties: the first); None when no
    route qualifies."""
    bonus = [best_route_bonus(m, r.hexes, r.kinds, r.name) for r in routes]
    qualifying = [i for i, b in enumerate(bonus) if b > 0]
    if not qualifying:
        return None
    if m.award == "last":
        return qualifying[-1]
    if m.award == "first_max":
        return max(qualifying, key=lambda i: (bonus[i], -i))
    return max(qualifying, key=lambda i: (award_stop_count(m, routes[i].hexes, routes[i].kinds), routes[i].train))


def award_is_max(m: BestRouteBonus) -> bool:
    """Whether a run can always earn the largest bonus over its qualifying routes: the award goes to
    the largest bonus (`first_max`, or the most visited stops when the bonus grows with them), or to
    the last route, which the optimiser's run order makes the one with the largest bonus (with two
    awards "last" whose bonus varies, not always both: `best_last_winners`)."""
    return m.award in ("first_max", "last") or not m.per_distinct


def meets_required(m: RequiredRoute, hexes: Sequence[str], name: str | None = None) -> bool:
    """Whether a route with these visited-stop hexes (of a train of this name) is the run `m` requires."""
    if name is not None and not admits(m.trains, name):
        return False
    return len(hexes) >= 2 and hexes[0] in m.endpoint_hexes and hexes[-1] in m.endpoint_hexes


def visits_set_hexes(m: RouteSetRule, hexes: Sequence[str], name: str | None = None) -> bool:
    """Whether a route counts toward a RouteSetRule: its train admitted, a visited stop in its hexes."""
    return (name is None or admits(m.trains, name)) and any(h in m.hexes for h in hexes)


def drop_threshold(modifiers: Sequence[Modifier]) -> tuple[int, DropLowestRoute] | None:
    """The route count from which the lowest route is dropped (several: the smallest applies, once)."""
    drops = [m for m in modifiers if isinstance(m, DropLowestRoute)]
    if not drops:
        return None
    m = min(drops, key=lambda d: d.min_routes)
    return m.min_routes, m


def run_awards(modifiers: Sequence[Modifier], routes: Sequence[RunRoute]) -> dict[int, list[BonusLine]]:
    """The BestRouteBonus lines each route is awarded (by route index). They read the routes' trains and
    visited stops only, so they are known before the routes are priced."""
    out: dict[int, list[BonusLine]] = {}
    for m in modifiers:
        if isinstance(m, BestRouteBonus):
            i = awarded_route(m, routes)
            if i is not None:
                amount = best_route_bonus(m, routes[i].hexes, routes[i].kinds, routes[i].name)
                out.setdefault(i, []).append(BonusLine(m.label, amount, m.source))
    return out


def settle_run(modifiers: Sequence[Modifier], routes: Sequence[RunRoute]) -> RunSettlement:
    """Apply the run rules to priced routes: awards (added to a route), the drop, required runs."""
    revenue = [r.revenue for r in routes]
    out = RunSettlement(total=0, awards=run_awards(modifiers, routes))
    for i, lines in out.awards.items():
        revenue[i] += sum(line.amount for line in lines)
    for m in modifiers:
        if isinstance(m, RequiredRoute) and routes and not any(meets_required(m, r.hexes, r.name) for r in routes):
            out.findings.append((REQUIRED_ROUTE_MISSING, f"{m.error} ({m.label}: a route from and to "
                                                         f"{', '.join(m.endpoint_hexes)})"))
        elif isinstance(m, RouteSetRule):
            visiting = [r.train for r in routes if visits_set_hexes(m, r.hexes, r.name)]
            if len(visiting) > m.count:
                out.findings.append((TOO_MANY_ROUTES_VISITING, f"{m.error} ({m.label}: {len(visiting)} routes "
                                     f"({', '.join(visiting)}) stop in {', '.join(m.hexes)}, at most {m.count})"))
    out.total = sum(revenue)
    drop = drop_threshold(modifiers)
    if drop is not None and routes and len(routes) >= drop[0]:
        low = min(range(len(routes)), key=lambda i: revenue[i])
        out.dropped = (low, BonusLine(drop[1].label, -revenue[low], drop[1].source))
        out.total -= revenue[low]
    return out


def bonus_varies(m: BestRouteBonus) -> bool:
    """Whether an award "last" may pay different routes differently (per stop or per distinct value),
    so that the run order decides what it pays."""
    return m.award == "last" and bool(m.per_visited_stop or m.per_distinct)


def _precedence(bonus: Sequence[Sequence[int]], winners: Sequence[int | None]) -> list[tuple[int, int]]:
    """The run-order edges (before, after) that give each award "last" to its winner: every other route
    that qualifies for the award runs before the winner."""
    return [(i, w) for row, w in zip(bonus, winners, strict=True) if w is not None
            for i, b in enumerate(row) if b > 0 and i != w]


def _reachable(bonus: Sequence[Sequence[int]], winners: Sequence[int | None]) -> bool:
    """Whether some run order gives each award to its winner: the precedence has no cycle. Only winners
    have edges into them, so a cycle runs through winners alone and the winners' graph decides."""
    chosen = {w for w in winners if w is not None}
    after: dict[int, set[int]] = {w: set() for w in chosen}
    for before, w in _precedence(bonus, winners):
        if before in chosen:
            after[before].add(w)
    done: set[int] = set()

    def acyclic_from(w: int, path: set[int]) -> bool:
        if w in path:
            return False
        if w in done:
            return True
        path.add(w)
        ok = all(acyclic_from(v, path) for v in after[w])
        path.discard(w)
        done.add(w)
        return ok

    return all(acyclic_from(w, set()) for w in chosen)


def best_last_winners(bonus: Sequence[Sequence[int]]) -> tuple[int, list[int | None]]:
    """Over every run order, the most that awards "last" earn together. `bonus[k][i]`: route i's bonus
    under award k (0: it does not qualify). Returns that total and the winning route per award (None: no
    route qualifies). Each award goes to its last qualifying route, so a choice of winners is reachable
    when its precedence has no cycle; two awards may not go to two routes that both qualify for both
    (whichever runs later would take both). The winners of any run order are reachable, so some choice
    is."""
    choices = [[i for i, b in enumerate(row) if b > 0] or [None] for row in bonus]
    best: tuple[int, list[int | None]] | None = None
    for winners in product(*choices):
        total = sum(row[w] for row, w in zip(bonus, winners, strict=True) if w is not None)
        if (best is None or total > best[0]) and _reachable(bonus, winners):
            best = (total, list(winners))
    assert best is not None
    return best


def order_for_awards(modifiers: Sequence[Modifier], routes: Sequence[RunRoute]) -> list[int]:
    """A run order (a permutation of route indexes) in which the awards "last" whose bonus varies earn
    the most they can together (`best_last_winners`); routes keep their order where no award needs
    otherwise."""
    varying = [m for m in modifiers if isinstance(m, BestRouteBonus) and bonus_varies(m)]
    if not varying or not routes:
        return list(range(len(routes)))
    bonus = [[best_route_bonus(m, r.hexes, r.kinds, r.name) for r in routes] for m in varying]
    graph = nx.DiGraph(_precedence(bonus, best_last_winners(bonus)[1]))
    graph.add_nodes_from(range(len(routes)))
    return list(nx.lexicographical_topological_sort(graph))
