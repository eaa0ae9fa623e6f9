"""An independent brute-force route optimiser for small boards, to cross-check `solver.optimiser`.

Written straight from the corpus FORMAT.md ("How a route is formed", rules 1-7) over the Board
model only. It shares no code with `solver.model.legs`, `solver.routes.candidates`, `solver.rules.route_rules`,
`solver.rules.train_rules` or `solver.optimiser`: legs, routes, track keys, distance and revenue are
all computed here, as plainly as possible, and every assignment of routes to trains is searched
(branch and bound on revenue only, which cannot lose the optimum).

Scope: the generic rules with `stops` distance (and unlimited trains), broad track, default lanes,
no `near_edge` towns and no junctions; `brute_force` refuses boards outside that scope.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.model.board import Board, Node, Path, PathEnd, Train

DEFAULT_LANES = ((1, 0), (1, 0))


@dataclass(frozen=True)
class BLeg:
    """A chain of paths from node `a` to node `b` (path ids in walking order from a)."""

    a: str
    b: str
    paths: tuple[str, ...]

    def reversed(self) -> BLeg:
        return BLeg(self.b, self.a, self.paths[::-1])


@dataclass(frozen=True)
class BRoute:
    """A route (one direction), its track keys and what each train that may run it earns."""

    nodes: tuple[str, ...]
    legs: tuple[BLeg, ...]
    keys: frozenset
    revenue: tuple[tuple[str, int], ...]  # (train id, revenue) for every train that may run it


@dataclass
class BruteResult:
    optimum: int
    assignment: list[tuple[str, BRoute]]  # (train id, route)
    routes: list[BRoute]
    legs: int
    best_single: int  # the best revenue any one train earns alone
    searched: int = 0
    notes: list[str] = field(default_factory=list)


class OutOfScope(ValueError):
    """The board uses a feature this brute force does not model."""


def check_scope(board: Board) -> None:
    for t in board.trains:
        if t.unit != "stops" or t.local or not t.requires_token:
            raise OutOfScope(f"train {t.id}: only plain `stops` trains that require a token are modelled")
    for n in board.nodes.values():
        if n.kind not in ("city", "town", "offboard"):
            raise OutOfScope(f"node {n.id}: kind {n.kind}")
        if n.near_edge is not None or n.route != "mandatory":
            raise OutOfScope(f"node {n.id}: near_edge / route flag")
    for p in board.paths.values():
        if p.track != "broad" or p.lanes != DEFAULT_LANES or p.ignore or p.ignore_gauge_walk:
            raise OutOfScope(f"path {p.id}: only plain broad single-lane track is modelled")
        if p.a == p.b:
            raise OutOfScope(f"path {p.id}: both ends equal")


# ---------------------------------------------------------------- track


def track_keys(p: Path) -> list[tuple]:
    """FORMAT rule 7: every edge end is (hex, edge, lane index); a node-to-node path is the path itself."""
    keys = []
    for end, lane in ((p.a, p.lanes[0]), (p.b, p.lanes[1])):
        if end.edge is not None:
            keys.append((p.hex, end.edge, lane[1]))
    if p.a.edge is None and p.b.edge is None:
        keys.append(("path", p.id))
    return keys


def _far_end(p: Path, near: PathEnd) -> PathEnd:
    if p.a == near:
        return p.b
    assert p.b == near
    return p.a


def _paths_touching(board: Board, hex_id: str, end: PathEnd) -> list[Path]:
    return [board.paths[pid] for pid in board.hexes[hex_id].paths
            if board.paths[pid].a == end or board.paths[pid].b == end]


def legs_from(board: Board, start: str) -> list[BLeg]:
    """Every leg from `start`: out along one of its paths, across edges e -> (e+3)%6, through
    edge-to-edge paths, ending at the first node reached; no path twice."""
    out: list[BLeg] = []
    node = board.nodes[start]

    def walk(p: Path, entered: PathEnd, chain: tuple[str, ...]) -> None:
        far = _far_end(p, entered)
        if far.node is not None:
            if far.node != start:
                out.append(BLeg(start, far.node, chain))
            return
        nb = board.hexes[p.hex].neighbors.get(far.edge)
        if nb is None:
            return
        arrive = PathEnd(edge=(far.edge + 3) % 6)
        for q in _paths_touching(board, nb, arrive):
            if q.id not in chain:
                walk(q, arrive, chain + (q.id,))

    for p in _paths_touching(board, node.hex, PathEnd(node=start)):
        walk(p, PathEnd(node=start), (p.id,))
    return out


def leg_is_walkable(board: Board, leg: BLeg) -> bool:
    """Whether `leg.paths` really walk from leg.a to leg.b (used to judge the solver's answer)."""
    return leg in legs_from(board, leg.a)


# ---------------------------------------------------------------- routes


def route_problems(board: Board, nodes: tuple[str, ...], legs: tuple[BLeg, ...]) -> list[str]:
    """Train-independent rules (2, 4, 5 and rule 7 inside the route)."""
    out = []
    if len(nodes) < 2:
        out.append("fewer than two stops")
    if len(set(nodes)) != len(nodes):
        out.append("a node twice")
    groups = [g for n in nodes for g in board.nodes[n].groups]
    if len(set(groups)) != len(groups):
        out.append("a revenue group twice")
    for n in nodes[1:-1]:
        if board.nodes[n].blocks or board.nodes[n].terminal:
            out.append(f"passes through {n}")
    if len(legs) != len(nodes) - 1 or any((lg.a, lg.b) != (nodes[i], nodes[i + 1]) for i, lg in enumerate(legs)):
        out.append("legs do not join the stops")
    ordered = [pid for lg in legs for pid in lg.paths]
    if any(board.paths[pid].terminal for pid in ordered[1:-1]):
        out.append("terminal path inside the route")
    keys = [k for pid in ordered for k in track_keys(board.paths[pid])]
    if len(set(keys)) != len(keys):
        out.append("track used twice within the route")
    return out


def train_problems(train: Train, stops: list[Node]) -> list[str]:
    out = []
    if not any(s.tokened_by_company for s in stops):
        out.append("no tokened city")
    if sum(s.visit_cost for s in stops) > train.distance:
        out.append("too long")
    return out


def route_revenue(train: Train, stops: list[Node]) -> int:
    return sum(s.revenue_by_train[train.name] if train.name in s.revenue_by_train else s.revenue * train.multiplier
               for s in stops)


def enumerate_routes(board: Board, legs: dict[str, list[BLeg]]) -> list[BRoute]:
    """Every legal route (stored once, in the direction whose first node id is smaller) that
    some train may run for positive revenue."""
    longest = max((t.distance for t in board.trains), default=0)
    found: list[BRoute] = []

    def grow(nodes: tuple[str, ...], route_legs: tuple[BLeg, ...], used: frozenset, cost: int) -> None:
        if len(nodes) >= 2 and nodes[0] < nodes[-1]:
            record(nodes, route_legs)
        last = board.nodes[nodes[-1]]
        if len(nodes) >= 2 and (last.blocks or last.terminal):
            return  # the last stop could not be passed through
        for lg in legs[nodes[-1]]:
            nxt = board.nodes[lg.b]
            if lg.b in nodes or cost + nxt.visit_cost > longest:
                continue
            keys = [k for pid in lg.paths for k in track_keys(board.paths[pid])]
            if len(set(keys)) != len(keys) or used.intersection(keys):
                continue
            grow(nodes + (lg.b,), route_legs + (lg,), used.union(keys), cost + nxt.visit_cost)

    def record(nodes: tuple[str, ...], route_legs: tuple[BLeg, ...]) -> None:
        if route_problems(board, nodes, route_legs):
            return
        stops = [board.nodes[n] for n in nodes]
        revenue = tuple((t.id, route_revenue(t, stops)) for t in board.trains if not train_problems(t, stops))
        revenue = tuple((tid, v) for tid, v in revenue if v > 0)
        if revenue:
            keys = frozenset(k for lg in route_legs for pid in lg.paths for k in track_keys(board.paths[pid]))
            found.append(BRoute(nodes, route_legs, keys, revenue))

    for nid in board.nodes:
        grow((nid,), (), frozenset(), board.nodes[nid].visit_cost)
    return found


# ---------------------------------------------------------------- assignment


def best_assignment(board: Board, routes: list[BRoute]) -> tuple[int, list[tuple[str, BRoute]], int]:
    """At most one route per train, no track key twice over all routes: the maximum revenue."""
    bit_of: dict[tuple, int] = {}
    masks = []
    for r in routes:
        m = 0
        for k in r.keys:
            m |= 1 << bit_of.setdefault(k, len(bit_of))
        masks.append(m)
    trains = [t.id for t in board.trains]
    options: list[list[tuple[int, int]]] = []
    for tid in trains:
        opts = [(v, i) for i, r in enumerate(routes) for t, v in r.revenue if t == tid]
        options.append(sorted(opts, reverse=True))
    tops = [o[0][0] if o else 0 for o in options]
    rest = [sum(tops[i:]) for i in range(len(trains) + 1)]
    best = [0, []]
    searched = [0]

    def rec(i: int, used: int, total: int, chosen: list[tuple[int, int]]) -> None:
        searched[0] += 1
        if total > best[0]:
            best[0], best[1] = total, list(chosen)
        if i == len(trains) or total + rest[i] <= best[0]:
            return
        for v, r in options[i]:
            if total + v + rest[i + 1] <= best[0]:
                break
            if masks[r] & used:
                continue
            chosen.append((i, r))
            rec(i + 1, used | masks[r], total + v, chosen)
            chosen.pop()
        rec(i + 1, used, total, chosen)

    rec(0, 0, 0, [])
    return best[0], [(trains[i], routes[r]) for i, r in best[1]], searched[0]


def brute_force(board: Board) -> BruteResult:
    check_scope(board)
    legs = {nid: legs_from(board, nid) for nid in board.nodes}
    routes = enumerate_routes(board, legs)
    optimum, assignment, searched = best_assignment(board, routes)
    single = max((v for r in routes for _, v in r.revenue), default=0)
    return BruteResult(optimum, assignment, routes, sum(len(v) for v in legs.values()), single, searched)


def claimed_legs(board: Board, tid: str, nodes: Sequence[str], leg_paths: Sequence[Sequence[str]],
                 problems: list[str]) -> list[BLeg]:
    """The legs of a claimed route, each read in whichever direction its paths walk; a leg that walks
    neither way is a problem (appended) and left out."""
    legs = []
    for i, paths in enumerate(leg_paths):
        a, b = nodes[i], nodes[i + 1]
        fwd, back = BLeg(a, b, tuple(paths)), BLeg(b, a, tuple(paths)).reversed()
        if leg_is_walkable(board, fwd):
            legs.append(fwd)
        elif leg_is_walkable(board, back):
            legs.append(back)
        else:
            problems.append(f"{tid}: {a}->{b} over {list(paths)} is not a leg")
    return legs


def judge(board: Board, runs: list[tuple[str, list[str], list[list[str]]]]) -> tuple[int, list[str]]:
    """Judge a route set `(train id, nodes, per-leg path ids)` by this module's rules: revenue and problems."""
    problems: list[str] = []
    total = 0
    seen_keys: set[tuple] = set()
    seen_trains: set[str] = set()
    for tid, nodes, leg_paths in runs:
        if tid in seen_trains:
            problems.append(f"train {tid} runs twice")
        seen_trains.add(tid)
        train = board.train(tid)
        legs = claimed_legs(board, tid, nodes, leg_paths, problems)
        stops = [board.nodes[n] for n in nodes]
        problems += [f"{tid}: {p}" for p in route_problems(board, tuple(nodes), tuple(legs))]
        problems += [f"{tid}: {p}" for p in train_problems(train, stops)]
        keys = [k for paths in leg_paths for pid in paths for k in track_keys(board.paths[pid])]
        if seen_keys.intersection(keys):
            problems.append(f"{tid}: shares track {sorted(map(str, seen_keys.intersection(keys)))}")
        seen_keys.update(keys)
        total += route_revenue(train, stops)
    return total, problems


def describe(board: Board) -> str:
    """A compact text dump of a board, for failure messages."""
    lines = []
    for hid, hx in board.hexes.items():
        nbs = " ".join(f"{e}:{h}" for e, h in sorted(hx.neighbors.items()))
        nodes = []
        for nid in hx.nodes:
            n = board.nodes[nid]
            flags = "".join(f for f, on in (("T", n.tokened_by_company), ("B", n.blocks), ("X", n.terminal)) if on)
            extra = f" cost{n.visit_cost}" if n.visit_cost != 1 else ""
            extra += f" groups{list(n.groups)}" if n.groups else ""
            extra += f" by_train{n.revenue_by_train}" if n.revenue_by_train else ""
            nodes.append(f"{nid.split('.')[1]}={n.revenue}{flags}{extra}")

        def end(e: PathEnd) -> str:
            return str(e.edge) if e.edge is not None else e.node.split(".")[1]

        paths = [f"{pid.split('.')[1]}:{end(board.paths[pid].a)}-{end(board.paths[pid].b)}"
                 + ("(term)" if board.paths[pid].terminal else "") for pid in hx.paths]
        lines.append(f"  {hid} nb[{nbs}] nodes[{', '.join(nodes)}] paths[{', '.join(paths)}]")
    trains = ", ".join(f"{t.id}(d={t.distance},x{t.multiplier})" for t in board.trains)
    return "\n".join(lines + [f"  trains: {trains}"])
