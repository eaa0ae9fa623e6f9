"""Route-set rules of a priced run: BestRouteBonus awards, DropLowestRoute, RequiredRoute.

They read only each route's train id, the hexes of its visited stops (route order) and its
revenue, so every ruleset's evaluator can settle a run with `settle_run`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.modifiers.model import BestRouteBonus, BonusLine, DropLowestRoute, Modifier, RequiredRoute

REQUIRED_ROUTE_MISSING = "REQUIRED_ROUTE_MISSING"


@dataclass(frozen=True)
class RunRoute:
    """What the run rules read of one priced route."""

    train: str
    hexes: tuple[str, ...]  # the hex of each visited stop, in route order
    revenue: int  # stops plus route bonuses


@dataclass
class RunSettlement:
    """The run's total and what the run rules did: awards per route, the dropped route, findings."""

    total: int
    awards: dict[int, list[BonusLine]] = field(default_factory=dict)
    dropped: tuple[int, BonusLine] | None = None  # (route index, line with the negative amount)
    findings: list[tuple[str, str]] = field(default_factory=list)  # (code, message)


def best_route_bonus(m: BestRouteBonus, hexes: Sequence[str]) -> int:
    """This route's bonus under `m`: 0 unless it qualifies (visits every required hex, bonus > 0)."""
    if any(h not in hexes for h in m.requires_hexes):
        return 0
    return m.per_visited_stop * len(hexes) if m.per_visited_stop else m.amount


def awarded_route(m: BestRouteBonus, routes: Sequence[RunRoute]) -> int | None:
    """The index of the route that gets the bonus: the most visited stops (ties: the greatest
    train id) or the last qualifying route; None when no route qualifies."""
    qualifying = [i for i, r in enumerate(routes) if best_route_bonus(m, r.hexes) > 0]
    if not qualifying:
        return None
    if m.award == "last":
        return qualifying[-1]
    return max(qualifying, key=lambda i: (len(routes[i].hexes), routes[i].train))


def meets_required(m: RequiredRoute, hexes: Sequence[str]) -> bool:
    """Whether a route with these visited-stop hexes is the run `m` requires."""
    return len(hexes) >= 2 and hexes[0] in m.endpoint_hexes and hexes[-1] in m.endpoint_hexes


def drop_threshold(modifiers: Sequence[Modifier]) -> tuple[int, DropLowestRoute] | None:
    """The route count from which the lowest route is dropped (several: the smallest applies, once)."""
    drops = [m for m in modifiers if isinstance(m, DropLowestRoute)]
    if not drops:
        return None
    m = min(drops, key=lambda d: d.min_routes)
    return m.min_routes, m


def settle_run(modifiers: Sequence[Modifier], routes: Sequence[RunRoute]) -> RunSettlement:
    """Apply the run rules to priced routes: awards (added to a route), the drop, required runs."""
    revenue = [r.revenue for r in routes]
    out = RunSettlement(total=0)
    for m in modifiers:
        if isinstance(m, BestRouteBonus):
            i = awarded_route(m, routes)
            if i is not None:
                amount = best_route_bonus(m, routes[i].hexes)
                out.awards.setdefault(i, []).append(BonusLine(m.label, amount, m.source))
                revenue[i] += amount
        elif isinstance(m, RequiredRoute) and routes and not any(meets_required(m, r.hexes) for r in routes):
            out.findings.append((REQUIRED_ROUTE_MISSING, f"{m.error} ({m.label}: a route from and to "
                                                         f"{', '.join(m.endpoint_hexes)})"))
    out.total = sum(revenue)
    drop = drop_threshold(modifiers)
    if drop is not None and routes and len(routes) >= drop[0]:
        low = min(range(len(routes)), key=lambda i: revenue[i])
        out.dropped = (low, BonusLine(drop[1].label, -revenue[low], drop[1].source))
        out.total -= revenue[low]
    return out


def order_for_awards(modifiers: Sequence[Modifier], hexes: Sequence[Sequence[str]]) -> list[int]:
    """A run order (a permutation of route indexes) in which an award "last" goes to the route with
    the largest bonus: that route moves to the end (the first such modifier decides)."""
    order = list(range(len(hexes)))
    for m in modifiers:
        if isinstance(m, BestRouteBonus) and m.award == "last" and m.per_visited_stop:
            values = [best_route_bonus(m, h) for h in hexes]
            if any(values):
                best = max(order, key=lambda i: values[i])
                return [i for i in order if i != best] + [best]
    return order
