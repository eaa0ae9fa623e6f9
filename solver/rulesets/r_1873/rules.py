"""The 1873 Harzbahn route rules and revenue, shared by the 1873 evaluator and optimiser.

Readings (FORMAT.md "1873", the rules summaries in shared/seeds):
- a mining route runs between termini, a diesel route between the company's own stations;
- framed hexes ("towns") only end routes; blocked villages are neither passed nor ends, except
  that a route may pass a blocked village in a hex of the company's own concession route (rules:
  "you can't be tokened out of your own concession route"; the engine instead lets a route that
  covers a whole concession route pass any blocked village, and no other route pass one);
- a mining route visits each hex once; only narrow (or dual) track is used, never the state railway;
- no track (hex edge and lane) is shared among mining routes, nor among diesel routes;
- the routes of one train, and the diesel's routes, form one network meeting at unblocked stops;
- each concession route is run exactly (same hex set) by a mining route, and by a diesel route
  when the company owns a diesel (not QLB).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.model.board import Board, Node
from solver.model.legs import Leg
from solver.model.results import Finding
from solver.rulesets.r_1873.view import Harzbahn


@dataclass(frozen=True)
class ResolvedRoute:
    """A resolved route of a run: its train, super-train, kind and track."""

    train: str
    super_id: str
    distance: int
    diesel: bool
    nodes: tuple[str, ...]
    legs: tuple[Leg, ...]

    @property
    def hexes(self) -> frozenset[str]:
        """The hexes of every path the route uses (the engine's connection hexes)."""
        return frozenset(h for leg in self.legs for h in leg.hexes)


def edge_keys(leg: Leg) -> frozenset[tuple]:
    """1873 shares track by hex edge and lane only."""
    return frozenset(k for k in leg.keys if k[0] != "path" and isinstance(k[1], int))


def route_findings(board: Board, ctx: Harzbahn, diesel: bool, nodes: Sequence[str], legs: Sequence[Leg],
                   index: int = -1) -> list[Finding]:
    """Every 1873 rule one route breaks on its own."""
    out: list[Finding] = []

    def bad(code: str, msg: str) -> None:
        out.append(Finding(code, msg, index))

    stops = [board.nodes[n] for n in nodes]
    kind = "diesel" if diesel else "mining"
    if len(stops) < 2:
        bad("TOO_FEW_STOPS", "a route needs at least two stops")
    if not any(s.tokened_by_company for s in stops):
        bad("NO_TOKEN", "the route visits none of the company's stations")
    if len(set(nodes)) != len(nodes):
        bad("NODE_TWICE", "the route visits a stop twice")
    ends = ctx.diesel_terminus if diesel else ctx.terminus
    for s in (stops[0], stops[-1]) if stops else ():
        if s.id not in ends:
            what = "the company's stations" if diesel else "a station, an open mine or a factory"
            bad("NOT_A_TERMINUS", f"a {kind} route must start and end at {what}; {s.id} is not one")
    for s in stops[1:-1]:
        if s.hex in ctx.framed:
            bad("PASSES_TOWN", f"the route passes through the town {s.hex}; a town hex ends a route")
        elif s.blocks and s.hex not in ctx.concession_hexes:
            bad("PASSES_BLOCKED", f"the route passes the blocked village {s.id}, which is not on the "
                                  "company's concession route")
    if not diesel:
        seen: set[str] = set()
        for s in stops:
            if s.hex in seen:
                bad("HEX_TWICE", f"a mining route may not visit hex {s.hex} twice")
            seen.add(s.hex)
    else:
        for s in stops:
            if s.id not in ctx.diesel_connected:
                bad("DIESEL_NOT_CONNECTED", f"diesel stop {s.id} does not connect to the concession route")
        if ctx.is_qlb and not any(s.hex in ctx.home_hexes for s in stops):
            bad("QLB_DIESEL", "a QLB diesel must run to Quedlinburg")
    for i, leg in enumerate(legs):
        if not leg.may_stand(i, len(legs)):
            bad("TERMINAL_PATH_INSIDE", f"leg {i + 1} uses a terminal path inside the route")
        if any(board.paths[p].track == "broad" for p in leg.paths):
            bad("STATE_RAILWAY", f"leg {i + 1} uses state railway track, which is never part of a route")
    return out


def run_findings(board: Board, ctx: Harzbahn, routes: Sequence[ResolvedRoute]) -> list[Finding]:
    """The rules on the whole run: shared track, networks, concession routes, must-run."""
    out: list[Finding] = []
    for diesel in (False, True):
        owner: dict[tuple, int] = {}
        for i, r in enumerate(routes):
            if r.diesel != diesel:
                continue
            for leg in r.legs:
                for k in edge_keys(leg):
                    if k in owner:
                        out.append(Finding("SHARED_TRACK", f"route {i + 1} reuses track {k[0]} edge {k[1]} "
                                                           f"of route {owner[k] + 1}", i))
                    else:
                        owner[k] = i
    by_super: dict[str, list[int]] = {}
    for i, r in enumerate(routes):
        by_super.setdefault(r.super_id, []).append(i)
    for members in by_super.values():
        for i in unconnected(board, [routes[m] for m in members]):
            out.append(Finding("NOT_CONNECTED", f"route {members[i] + 1} does not meet the other routes of "
                                                f"train {routes[members[i]].super_id} at an unblocked stop",
                               members[i]))
    if not ctx.is_qlb:
        for diesel, owned in ((False, bool(ctx.mining_trains)), (True, ctx.diesel_train is not None)):
            if not owned:
                continue
            kind = "diesel" if diesel else "standard train"
            for c in ctx.concession_routes:
                if not any(r.diesel == diesel and r.hexes == c for r in routes):
                    out.append(Finding("CONCESSION_NOT_RUN",
                                       f"the concession route {'-'.join(sorted(c))} is not run by a {kind}"))
            if not ctx.concession_routes and not any(r.diesel == diesel for r in routes):
                out.append(Finding("MUST_RUN", f"the company must run its {kind}"))
    return out


def networks(board: Board, stops_of: Sequence[Sequence[str]]) -> list[list[int]]:
    """Group routes (given by their stops) into networks: routes meet at a shared unblocked stop.
    The first network holds route 0."""
    stops = [{n for n in nodes if not board.nodes[n].blocks} for nodes in stops_of]
    left = list(range(len(stops)))
    out = []
    while left:
        seed = left.pop(0)
        net, frontier = [seed], [seed]
        while frontier:
            i = frontier.pop()
            for j in [j for j in left if stops[i] & stops[j]]:
                left.remove(j)
                net.append(j)
                frontier.append(j)
        out.append(net)
    return out


def unconnected(board: Board, routes: Sequence[ResolvedRoute]) -> list[int]:
    """Indexes of routes not reached from the first one through shared unblocked stops."""
    nets = networks(board, [r.nodes for r in routes])
    return sorted(i for net in nets[1:] for i in net)


def run_revenue(board: Board, ctx: Harzbahn, routes: Sequence[ResolvedRoute]) -> list[list[int]]:
    """Revenue of every stop of every route, in run order (the order decides who is first)."""
    out: list[list[int]] = []
    first_hex: dict[tuple[bool, str], int] = {}  # (diesel, hex) -> index of the first route there
    for i, r in enumerate(routes):
        for n in r.nodes:
            first_hex.setdefault((r.diesel, board.nodes[n].hex), i)
    best_at_mine: dict[str, int] = {}
    for i, r in enumerate(routes):
        if r.diesel:
            continue
        for h in {board.nodes[n].hex for n in r.nodes}:
            if h in ctx.mine_multiplier and (h not in best_at_mine
                                             or r.distance > routes[best_at_mine[h]].distance):
                best_at_mine[h] = i
    for i, r in enumerate(routes):
        values = []
        for n in r.nodes:
            node = board.nodes[n]
            values.append(_stop_value(ctx, node, r, i, first_hex, best_at_mine))
        out.append(values)
    return out


def _stop_value(ctx: Harzbahn, node: Node, r: ResolvedRoute, i: int, first_hex: dict[tuple[bool, str], int],
                best_at_mine: dict[str, int]) -> int:
    if node.blocks:
        return 0
    first = first_hex[(r.diesel, node.hex)] == i
    if r.diesel:
        return ctx.diesel_stop_revenue if node.kind == "city" and first else 0
    value = 0
    if first and node.kind == "city":
        value += node.revenue if node.tokened_by_company else ctx.stop_revenue
    if best_at_mine.get(node.hex) == i:
        value += ctx.mine_multiplier[node.hex] * r.distance
    if first:
        value += ctx.factory_revenue.get(node.hex, 0)
    return value


def token_status(board: Board, ctx: Harzbahn, routes: Sequence[ResolvedRoute]) -> dict[str, str]:
    """Status of each company station after the run: visited ones, and those in home or
    concession-route hexes, are active; the others are flipped (inactive)."""
    visited = {n for r in routes for n in r.nodes}
    out = {}
    for node in board.nodes.values():
        if not node.tokened_by_company:
            continue
        keep = node.id in visited or node.hex in ctx.home_hexes or node.hex in ctx.concession_hexes
        out[node.id] = "active" if keep else "flipped"
    return out
