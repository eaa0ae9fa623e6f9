"""The generic 18xx route rules, each check naming the rule a route breaks.

`check_route` covers one route (stops, token, repeats, terminals, distance); `shared_track`
covers the company's whole route set. The evaluator reports every finding; the optimiser's
candidate generator keeps only routes for which `check_route` finds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.model.board import Board, Node, Train, route_may_pass
from solver.model.legs import Leg
from solver.model.results import Finding
from solver.rules.train_rules import has_token_for, serves, within_distance


def train_findings(train: Train, stops: Sequence[Node], crossings: int, cost: int | None = None,
                   has_token: bool | None = None) -> list[tuple[str, str]]:
    """The rules that depend on the train: number of stops, token, distance. `cost` (sum of visit
    costs) and `has_token` may be given when the caller already knows them."""
    out: list[tuple[str, str]] = []
    if len(stops) < 2 and not (train.local and len(stops) == 1 and stops[0].tokened_by_company):
        out.append(("TOO_FEW_STOPS", f"a route of {train.id} needs at least two stops"
                    + (" (a local train: one tokened city)" if train.local else "")))
    elif train.klass and len(stops) >= 2 and sum(1 for s in stops if serves(train, s)) < 2:
        out.append(("TOO_FEW_SERVED_STOPS", f"a {train.klass} train ({train.id}) must serve at least two "
                    f"{train.klass} stops; the other class's stops serve nothing"))
    if has_token is None or train.klass:
        has_token = any(has_token_for(train, s) for s in stops)
    if train.requires_token and not has_token:
        out.append(("NO_TOKEN", f"the route of {train.id} visits no city with the company's token"))
    if not within_distance(train, stops, crossings, cost):
        out.append(("TOO_LONG", f"the route of {train.id} is too long for a {train.name}: "
                                f"{_length_text(train, stops, crossings)}"))
    return out


def _length_text(train: Train, stops: Sequence[Node], crossings: int) -> str:
    """How long a route is, against how far the train runs, in the train's own unit."""
    if train.unit == "hexes":
        return f"it crosses {crossings} hex edges, the train {train.distance}"
    served = [s for s in stops if serves(train, s)]
    if train.unit == "stops_by_type":
        rows = ", ".join(f"{r.visit} {'/'.join(r.kinds)}" for r in train.rows)
        kinds = ", ".join(f"{sum(1 for s in served if s.kind == k)} {k}" for k in sorted({s.kind for s in served}))
        return f"it visits {kinds}; the train may visit {rows}"
    return f"it counts {sum(s.visit_cost for s in served)} stops, the train {train.distance}"


def shape_findings(stops: Sequence[Node], legs: Sequence[Leg]) -> list[tuple[str, str]]:
    """The rules on the route's shape: repeats, stops that may not be passed, terminal paths."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    groups: set[str] = set()
    for s in stops:
        if s.id in seen:
            out.append(("NODE_TWICE", f"the route visits {s.id} twice"))
        seen.add(s.id)
        for g in s.groups:
            if g in groups:
                out.append(("GROUP_TWICE", f"the route visits revenue group {g} twice (at {s.id})"))
            groups.add(g)
    for s in stops[1:-1]:
        if route_may_pass(s):
            continue
        if s.blocks:
            out.append(("PASSES_BLOCKED", f"the route passes through {s.id}, which blocks the company"))
        else:
            out.append(("PASSES_TERMINAL", f"the route passes through {s.id}, which may only end a route"))
    for i, leg in enumerate(legs):
        if not leg.may_stand(i, len(legs)):
            out.append(("TERMINAL_PATH_INSIDE", f"leg {i + 1} uses a terminal path inside the route"))
    return out


def check_route(board: Board, train: Train, nodes: Sequence[str], legs: Sequence[Leg],
                index: int = -1) -> list[Finding]:
    """Every generic rule one route breaks; empty when the route is legal on its own."""
    stops = [board.nodes[n] for n in nodes]
    crossings = sum(leg.crossings for leg in legs)
    found = shape_findings(stops, legs) + train_findings(train, stops, crossings)
    return [Finding(code, msg, index) for code, msg in found]


def shared_track(legs_by_route: Sequence[Sequence[Leg]], groups: Sequence[str] | None = None,
                 trains: Sequence[str] | None = None) -> list[Finding]:
    """One finding per pair of routes (or route with itself) of one track group using the same track;
    routes are named by their train when `trains` is given, else by their number (from 1)."""
    owner: dict[tuple, int] = {}
    clashes: dict[tuple[int, int], list[tuple]] = {}
    for r, legs in enumerate(legs_by_route):
        group = groups[r] if groups else ""
        for leg in legs:
            for key in sorted(leg.keys, key=repr):
                gkey = (group, key)
                if gkey in owner:
                    clashes.setdefault((owner[gkey], r), []).append(key)
                else:
                    owner[gkey] = r
    out: list[Finding] = []
    def name(r: int) -> str:
        return f"the route of {trains[r]}" if trains else f"route {r + 1}"

    for (first, r), keys in clashes.items():
        where = "itself" if first == r else name(first)
        places = ", ".join(_key_text(k) for k in keys)
        out.append(Finding("SHARED_TRACK", f"{name(r)} reuses track of {where}: {places}", r))
    return out


def _key_text(key: tuple) -> str:
    if key[0] == "path":
        return f"path {key[1]}"
    hex_id, where, lane = key
    return f"{hex_id} {'edge ' + str(where) if isinstance(where, int) else where} lane {lane}"
