"""An independent brute force for rulesets `1839` and `1871sc`, to cross-check `solver.optimiser`.

Legs and track keys come from the generic brute force (`tests.support.bruteforce`); everything specific to
the two rulesets is computed here from their documented readings (`solver/rulesets/r_1839/rules.py` and
`solver/rulesets/r_1871sc/view.py` docstrings), without `solver.routes.candidates`, `solver.optimiser`,
`solver.rulesets.r_1839` or `solver.rulesets.r_1871sc`:

1839
- A revenue location counts once per company, at the best value a chosen route pays there; at the
  company's own exchange marker it counts once for every train that reaches it.
- Another company's exchange marker does not block; a route passing through it earns 0 there, a
  route ending there earns it normally.
- No route from an off-board to another off-board of the same country.
- FLOOD trains run no route: they earn every location reachable from the company's stations (track
  may be reused; never through a node that blocks or only ends routes), each once (and once per
  FLOOD train at the company's own exchange marker); a location takes the larger of that and what
  the routes earn there.
- Options: `location_bonus` (+10 per location reached by a route or a FLOOD train),
  `towns_plus_10` (towns +10), `port_token` (+20 there with `port_token_own`, else +10).
- Train kinds here: "n+" (n cities counted and paid, towns and off-boards free) and "nD" (n cities,
  off-boards free, both x2; towns free and unpaid) as disjoint `stops_by_type` rows.

1871 Steel Cities
- A classed train serves only stops of its class (and unclassed stops); it passes the others,
  which neither count toward its distance nor pay. A route needs a company station of its class.
- H: distance in hex boundaries crossed. P: an ordinary `stops` train. F/E: express by hex, no
  length limit, the best `distance` hexes pay (a hex earns its stops together); F doubles dahs
  (towns) and stops in hexes with a company station, E doubles stops in station hexes except dits.
- No track is shared over all routes; with the option `classes_share_track`, only routes of one
  class may not share track.

The optimum is found by branch and bound over every assignment of legal routes to trains.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from solver.model.board import Board, Node, Train
from tests.support.boards import STEPS, BoardBuilder, blob_cells, close_hex_track, hex_id, row_cells
from tests.support.bruteforce import (
    BLeg,
    claimed_legs,
    describe,
    legs_from,
    route_problems,
    track_keys,
)

LOCATIONS = ("city", "town", "offboard", "halt", "pass")


# ---------------------------------------------------------------- routes


@dataclass(frozen=True)
class Shape:
    """A route shape (one direction), independent of the train."""

    nodes: tuple[str, ...]
    legs: tuple[BLeg, ...]
    keys: frozenset
    crossings: int


@dataclass(frozen=True)
class Run:
    """A shape a given train may run, and what the train earns at each stop of it (in 1839 before
    counting locations once per company)."""

    train: str
    shape: Shape
    pays: tuple[int, ...]
    group: str  # track group: routes of one group share no track

    @property
    def nodes(self) -> tuple[str, ...]:
        return self.shape.nodes


@dataclass
class BruteResult:
    optimum: int
    assignment: list[Run]
    best_single: int  # the best value of one route alone (1839: with the FLOOD reach)
    runs: int
    shapes: int
    flood: int = 0  # 1839: the value of the FLOOD reach with no route run
    reach: frozenset = frozenset()
    searched: int = 0
    country_rejected: int = 0  # 1839: runs the off-board country rule forbids


def route_view(board: Board) -> Board:
    """The board as routes see it: in 1839 another company's exchange marker does not block."""
    if board.ruleset != "1839":
        return board
    nodes = {}
    for nid, n in board.nodes.items():
        foreign = n.exchange_owner and n.exchange_owner != board.company and n.kind != "offboard"
        nodes[nid] = replace(n, blocks=False, terminal=False) if foreign else n
    return replace(board, nodes=nodes)


def leg_keys(board: Board, leg: BLeg) -> list[tuple]:
    return [k for pid in leg.paths for k in track_keys(board.paths[pid])]


def leg_crossings(board: Board, leg: BLeg) -> int:
    hexes = [board.paths[pid].hex for pid in leg.paths]
    return sum(1 for a, b in zip(hexes, hexes[1:]) if a != b)


def all_legs(board: Board) -> dict[str, list[BLeg]]:
    """Every leg from every node, without the legs that occupy some track twice."""
    out = {}
    for nid in board.nodes:
        legs = legs_from(board, nid)
        out[nid] = [lg for lg in legs if len(set(keys := leg_keys(board, lg))) == len(keys)]
    return out


def enumerate_shapes(view: Board, legs: dict[str, list[BLeg]]) -> list[Shape]:
    """Every train-independent legal route (stored in the direction whose first node id is
    smaller), of any length."""
    found: list[Shape] = []

    def grow(nodes: tuple[str, ...], route_legs: tuple[BLeg, ...], used: frozenset) -> None:
        if len(nodes) >= 2 and nodes[0] < nodes[-1] and not route_problems(view, nodes, route_legs):
            found.append(Shape(nodes, route_legs, used, sum(leg_crossings(view, lg) for lg in route_legs)))
        last = view.nodes[nodes[-1]]
        if len(nodes) >= 2 and (last.blocks or last.terminal):
            return
        for lg in legs[nodes[-1]]:
            if lg.b in nodes:
                continue
            keys = leg_keys(view, lg)
            if used.intersection(keys):
                continue
            grow(nodes + (lg.b,), route_legs + (lg,), used.union(keys))

    for nid in view.nodes:
        grow((nid,), (), frozenset())
    return found


# ---------------------------------------------------------------- trains


def serves(train: Train, node: Node) -> bool:
    return not (train.klass and node.klass and node.klass != train.klass)


def station_for(train: Train, node: Node) -> bool:
    if not node.tokened_by_company:
        return False
    return not (train.klass and node.token_class and node.token_class != train.klass)


def row_of(train: Train, node: Node) -> int | None:
    """The (unique) row of a `stops_by_type` train that accepts this node's kind."""
    rows = [i for i, r in enumerate(train.rows) if node.kind in r.kinds]
    assert len(rows) <= 1, f"{train.name}: the brute force models disjoint rows only"
    return rows[0] if rows else None


def fits(train: Train, stops: Sequence[Node], crossings: int) -> bool:
    served = [s for s in stops if serves(train, s)]
    if train.unit in ("express", "none"):
        return True
    if train.unit == "hexes":
        return crossings <= train.distance
    if train.unit == "stops":
        return sum(s.visit_cost for s in served) <= train.distance
    if train.unit == "stops_by_type":
        used = [0] * len(train.rows)
        for s in served:
            i = row_of(train, s)
            if i is None:
                return False
            used[i] += s.visit_cost
        return all(u <= r.visit for u, r in zip(used, train.rows))
    raise AssertionError(f"unit {train.unit} not modelled")


def value_1839(board: Board, node: Node) -> int:
    """A location's value with the private powers applied."""
    v = node.revenue
    if board.options.get("towns_plus_10") and node.kind == "town":
        v += 10
    if board.options.get("port_token") == node.id:
        v += 20 if board.options.get("port_token_own") else 10
    return v


def pays_1839(board: Board, train: Train, stops: Sequence[Node]) -> list[int]:
    values = []
    for i, s in enumerate(stops):
        passed = 0 < i < len(stops) - 1
        foreign = s.exchange_owner and s.exchange_owner != board.company
        values.append(0 if passed and foreign else value_1839(board, s))
    out = [0] * len(stops)
    if train.unit != "stops_by_type":
        return [v * train.multiplier for v in values]
    for ri, row in enumerate(train.rows):
        mine = sorted((i for i, s in enumerate(stops) if row_of(train, s) == ri), key=lambda i: -values[i])
        for i in mine[: row.pay]:
            out[i] = values[i] * row.multiplier * train.multiplier
    return out


def pays_1871(board: Board, train: Train, stops: Sequence[Node]) -> list[int]:
    station_hexes = {n.hex for n in board.nodes.values() if n.tokened_by_company}
    values = []
    for s in stops:
        if not serves(train, s):
            values.append(0)
            continue
        double = False
        if train.unit == "express" and train.klass == "freight":
            double = s.kind == "town" or s.hex in station_hexes
        elif train.unit == "express" and train.klass == "passenger":
            double = s.hex in station_hexes and s.kind != "town"
        values.append(s.revenue * (2 if double else 1) * train.multiplier)
    if train.unit != "express":
        return values
    assert train.by_hex, "the brute force models express trains by hex only"
    hex_total: dict[str, int] = {}
    for s, v in zip(stops, values):
        hex_total[s.hex] = hex_total.get(s.hex, 0) + v
    best = sorted(hex_total, key=lambda h: -hex_total[h])[: train.distance]
    return [v if s.hex in best else 0 for s, v in zip(stops, values)]


def track_group(board: Board, train: Train) -> str:
    if board.ruleset == "1871sc" and board.options.get("classes_share_track"):
        return train.klass
    return ""


def run_for(board: Board, view: Board, train: Train, shape: Shape, rejected: list[int] | None = None) -> Run | None:
    """The run of `train` over `shape`, or None when the train may not run it (`rejected` counts
    the runs only the off-board country rule forbids)."""
    stops = [view.nodes[n] for n in shape.nodes]
    if train.requires_token and not any(station_for(train, s) for s in stops):
        return None
    if not fits(train, stops, shape.crossings):
        return None
    if train.klass and sum(1 for s in stops if serves(train, s)) < 2:
        return None  # a classed train serves two stops of its class at least
    if board.ruleset == "1839" and train.name.endswith("+") and sum(1 for s in stops if s.kind == "city") < 2:
        return None  # a + route needs two cities: off-boards and towns do not make one
    if board.ruleset == "1839":
        a, b = stops[0], stops[-1]
        if a.kind == b.kind == "offboard" and a.country and a.country == b.country:
            if rejected is not None:
                rejected[0] += 1
            return None
        pays = pays_1839(board, train, stops)
    else:
        pays = pays_1871(board, train, stops)
    return Run(train.id, shape, tuple(pays), track_group(board, train))


# ---------------------------------------------------------------- 1839 pricing


def flood_reach(view: Board, legs: dict[str, list[BLeg]]) -> frozenset:
    """Every location reachable from the company's stations, track reuse allowed, never through a
    node that blocks or only ends routes."""
    start = {n.id for n in view.nodes.values() if n.tokened_by_company}
    seen, todo = set(start), list(start)
    while todo:
        nid = todo.pop()
        n = view.nodes[nid]
        if nid not in start and (n.blocks or n.terminal):
            continue
        for lg in legs[nid]:
            if lg.b not in seen:
                seen.add(lg.b)
                todo.append(lg.b)
    return frozenset(n for n in seen if view.nodes[n].kind in LOCATIONS)


def price_1839(board: Board, runs: Sequence[Run], reach: frozenset) -> int:
    floods = [t for t in board.trains if t.unit == "flood"]
    best: dict[str, int] = {}
    total = 0
    for run in runs:
        for nid, pay in zip(run.nodes, run.pays):
            if board.nodes[nid].kind not in LOCATIONS:
                continue
            if board.nodes[nid].exchange_owner == board.company:
                total += pay  # the company's own exchange marker: every train
            else:
                best[nid] = max(best.get(nid, 0), pay)
    for nid in reach:
        node = board.nodes[nid]
        base = sum(value_1839(board, node) * t.multiplier for t in floods)
        if node.exchange_owner == board.company:
            total += base
        else:
            best[nid] = max(best.get(nid, 0), value_1839(board, node) * floods[0].multiplier if floods else 0)
    total += sum(best.values())
    if board.options.get("location_bonus"):
        reached = {n for run in runs for n in run.nodes if board.nodes[n].kind in LOCATIONS} | set(reach)
        total += 10 * len(reached)
    return total


def increment_1839(board: Board, run: Run) -> int:
    """An upper bound on what adding `run` to any run set adds."""
    bonus = 10 if board.options.get("location_bonus") else 0
    return sum(run.pays) + bonus * sum(1 for n in run.nodes if board.nodes[n].kind in LOCATIONS)


# ---------------------------------------------------------------- search


def search(trains: list[Train], runs_of: list[list[Run]], value: Callable[[list[Run]], int],
           increment: Callable[[Run], int]) -> tuple[int, list[Run], int]:
    """Branch and bound: at most one run per train, no track twice within a track group. `value`
    prices a run set; adding a run raises it by at most `increment(run)` and never lowers it."""
    opts = [sorted(((increment(r), i) for i, r in enumerate(rs)), reverse=True) for rs in runs_of]
    tops = [o[0][0] if o else 0 for o in opts]
    rest = [sum(tops[i:]) for i in range(len(trains) + 1)]
    masks: dict[int, dict] = {}
    bit: dict[tuple, int] = {}
    for rs in runs_of:
        for r in rs:
            if id(r) not in masks:
                m = 0
                for k in r.shape.keys:
                    m |= 1 << bit.setdefault(k, len(bit))
                masks[id(r)] = m
    best: list = [value([]), []]
    count = [0]

    def rec(i: int, used: dict[str, int], chosen: list[Run], picked: list[int | None]) -> None:
        count[0] += 1
        now = value(chosen)
        if now > best[0]:
            best[0], best[1] = now, list(chosen)
        if i == len(trains) or now + rest[i] <= best[0]:
            return
        same_as_prev = i > 0 and trains[i].spec_key() == trains[i - 1].spec_key()
        if not (same_as_prev and picked[-1] is None):  # identical trains take runs in index order
            floor = picked[-1] if same_as_prev else -1
            for inc, ri in opts[i]:
                if now + inc + rest[i + 1] <= best[0]:
                    break
                if ri <= floor:  # type: ignore[operator]
                    continue
                r = runs_of[i][ri]
                m = masks[id(r)]
                if used.get(r.group, 0) & m:
                    continue
                rec(i + 1, {**used, r.group: used.get(r.group, 0) | m}, chosen + [r], picked + [ri])
        rec(i + 1, used, chosen, picked + [None])

    rec(0, {}, [], [])
    return best[0], best[1], count[0]


def brute_force(board: Board) -> BruteResult:
    assert board.ruleset in ("1839", "1871sc"), board.ruleset
    view = route_view(board)
    legs = all_legs(view)
    shapes = enumerate_shapes(view, legs)
    runners = [t for t in board.trains if t.unit != "flood"]
    cache: dict[tuple, list[Run]] = {}
    runs_of = []
    rejected = [0]
    for t in runners:
        key = t.spec_key()
        if key not in cache:
            cache[key] = [r for s in shapes if (r := run_for(board, view, t, s, rejected))]
        runs_of.append([replace(r, train=t.id) for r in cache[key]])
    if board.ruleset == "1839":
        floods = any(t.unit == "flood" for t in board.trains)
        reach = flood_reach(view, legs) if floods else frozenset()

        def value(chosen: list[Run]) -> int:
            return price_1839(board, chosen, reach)

        def increment(run: Run) -> int:
            return increment_1839(board, run)
    else:
        reach = frozenset()

        def value(chosen: list[Run]) -> int:
            return sum(sum(r.pays) for r in chosen)

        def increment(run: Run) -> int:
            return sum(run.pays)

    optimum, assignment, searched = search(runners, runs_of, value, increment)
    single = max((value([r]) for rs in runs_of for r in rs), default=value([]))
    return BruteResult(optimum, assignment, single, sum(map(len, runs_of)), len(shapes), value([]), reach, searched,
                       rejected[0])


# ---------------------------------------------------------------- judging a claimed run


def judge(board: Board, claims: Sequence[tuple[str, Sequence[str], Sequence[Sequence[str]]]]) -> tuple[int, list[str]]:
    """Price a claimed run `(train id, nodes, per-leg path ids)` by this module's rules; the value
    and every problem found."""
    view = route_view(board)
    problems: list[str] = []
    runs: list[Run] = []
    seen: set[str] = set()
    for tid, nodes, leg_paths in claims:
        train = board.train(tid)
        if train.unit == "flood":
            problems.append(f"{tid}: a FLOOD train runs no route")
            continue
        if tid in seen:
            problems.append(f"train {tid} runs twice")
        seen.add(tid)
        legs = claimed_legs(view, tid, nodes, leg_paths, problems)
        if len(legs) != len(nodes) - 1:
            continue
        problems += [f"{tid}: {p}" for p in route_problems(view, tuple(nodes), tuple(legs))]
        keys = [k for lg in legs for k in leg_keys(view, lg)]
        shape = Shape(tuple(nodes), tuple(legs), frozenset(keys), sum(leg_crossings(view, lg) for lg in legs))
        run = run_for(board, view, train, shape)
        if run is None:
            problems.append(f"{tid}: the train may not run {list(nodes)} (token, class, distance or country)")
            continue
        runs.append(run)
    for i, a in enumerate(runs):
        for b in runs[i + 1:]:
            if a.group == b.group and a.shape.keys & b.shape.keys:
                problems.append(f"{a.train} and {b.train} share track {sorted(map(str, a.shape.keys & b.shape.keys))}")
    if board.ruleset == "1839":
        floods = any(t.unit == "flood" for t in board.trains)
        reach = flood_reach(view, all_legs(view)) if floods else frozenset()
        total = price_1839(board, runs, reach)
    else:
        total = sum(sum(r.pays) for r in runs)
    return total, problems


def describe_full(board: Board) -> str:
    """`tests.support.bruteforce.describe` plus the 1839 / 1871sc fields."""
    lines = [describe(board)]
    extra = []
    for n in board.nodes.values():
        bits = [f"{k}={v}" for k, v in (("class", n.klass), ("token_class", n.token_class),
                                         ("country", n.country), ("exchange", n.exchange_owner)) if v]
        if bits:
            extra.append(f"{n.id}[{' '.join(bits)}]")
    if extra:
        lines.append("  node fields: " + ", ".join(extra))
    lines.append("  trains: " + ", ".join(
        f"{t.id}({t.name} {t.unit} d={t.distance}{' ' + t.klass if t.klass else ''}{' by_hex' if t.by_hex else ''}"
        f"{' rows=' + str([(list(r.kinds), r.pay, r.visit, r.multiplier) for r in t.rows]) if t.rows else ''})"
        for t in board.trains))
    lines.append(f"  ruleset {board.ruleset}, company {board.company} ({board.company_type}), options {board.options}")
    return "\n".join(lines)


# ---------------------------------------------------------------- random boards

def _cells(rng: random.Random, n: int) -> list[tuple[int, int]]:
    return row_cells(n) if rng.random() < 0.2 else blob_cells(rng, n)


def _lay_track(rng: random.Random, b: BoardBuilder, hid: str, edges: list[int], nodes: list[str]) -> None:
    """Paths of one hex: 1-3 exits per node, every live edge covered, sometimes a node-to-node path
    and extra edge-to-edge paths; off-board spurs are sometimes terminal paths."""
    seen: set[frozenset] = set()
    touched: set[int] = set()

    def edge() -> int:
        return rng.choice(edges) if edges and rng.random() < 0.9 else rng.randrange(6)

    def add(a: int | str, z: int | str, **fields) -> None:
        key = frozenset((a, z))
        if a == z or key in seen:
            return
        seen.add(key)
        touched.update(x for x in (a, z) if isinstance(x, int))
        if rng.random() < 0.5:
            b.path(hid, a, z, **fields)
        else:
            b.path(hid, z, a, **fields)

    for nid in nodes:
        offboard = ".offboard" in nid
        for _ in range(rng.choices((1, 2, 3), weights=(3, 4, 3))[0]):
            add(nid, edge(), **({"terminal": True} if offboard and rng.random() < 0.5 else {}))
    close_hex_track(rng, nodes, edges, touched, add, edge)


def _skeleton(rng: random.Random, n_min: int, n_max: int,
              offboards: float = 0.2) -> tuple[BoardBuilder, list[str], list[list]]:
    """Hexes, links and a node plan `[hex, kind, revenue]` with at least one city; `offboards`: the
    chance that a hex with one node holds an off-board."""
    b = BoardBuilder()
    cells = _cells(rng, rng.randint(n_min, n_max))
    ids = [hex_id(c) for c in cells]
    for h in ids:
        b.hex(h)
    for (q, r), hid in zip(cells, ids):
        for e in (3, 4, 5):
            other = (q + STEPS[e][0], r + STEPS[e][1])
            if other in cells and rng.random() < 0.93:
                b.link(hid, e, hex_id(other))
    plan: list[list] = []
    for hid in ids:
        k = rng.choices((0, 1, 2), weights=(2, 5, 3))[0]
        for i in range(k):
            roll = rng.random()
            if i == 0 and k == 1 and roll < offboards:
                plan.append([hid, "offboard", rng.choice((20, 30, 40, 60))])
            elif roll < 0.6:
                plan.append([hid, "city", rng.choice((10, 20, 30, 40, 50))])
            else:
                plan.append([hid, "town", rng.choice((10, 20, 30))])
    if not any(p[1] == "city" for p in plan):
        hid = rng.choice(ids)
        plan = [p for p in plan if p[0] != hid] + [[hid, "city", rng.choice((20, 30, 40))]]
    return b, ids, plan


def _track(rng: random.Random, b: BoardBuilder, ids: list[str], nodes_of: dict[str, list[str]]) -> None:
    live: dict[str, set[int]] = {h: set() for h in ids}
    for h in ids:
        for e_str, other in b.hex(h)["neighbors"].items():
            e = int(e_str)
            if e in (3, 4, 5) and rng.random() < 0.85:
                live[h].add(e)
                live[other].add((e + 3) % 6)
    for h in ids:
        _lay_track(rng, b, h, sorted(live[h]), nodes_of[h])


def _spine(rng: random.Random, b: BoardBuilder, ids: list[str]) -> list[tuple[str, int | None, int | None]]:
    """A random walk of 3-5 linked hexes, as `(hex, entry edge, exit edge)`; [] when none is found."""
    for _ in range(10):
        walk = [rng.choice(ids)]
        edges: list[int] = []
        while len(walk) < rng.randint(3, 5):
            options = [(int(e), h) for e, h in b.hex(walk[-1])["neighbors"].items() if h not in walk]
            if not options:
                break
            e, h = rng.choice(options)
            walk.append(h)
            edges.append(e)
        if len(walk) >= 3:
            return [(h, None if i == 0 else (edges[i - 1] + 3) % 6, edges[i] if i < len(edges) else None)
                    for i, h in enumerate(walk)]
    return []


def _shape_spine(rng: random.Random, spine: list, plan: list[list], end_offboards: bool) -> tuple[list[list], int]:
    """Make the plan fit the spine: interior hexes hold no off-board and the middle one a city;
    with `end_offboards` both ends are lone off-boards. Returns the plan and the middle city's index."""
    interior = {h for h, a, z in spine if a is not None and z is not None}
    ends = [spine[0][0], spine[-1][0]]
    plan = [[h, "city" if k == "offboard" else k, r] if h in interior else [h, k, r] for h, k, r in plan]
    if end_offboards:
        plan = [p for p in plan if p[0] not in ends] + [[h, "offboard", rng.choice((30, 40, 60))] for h in ends]
    middle = spine[len(spine) // 2][0]
    cities = [i for i, p in enumerate(plan) if p[0] == middle and p[1] == "city"]
    if not cities:
        plan = [p for p in plan if p[0] != middle] + [[middle, "city", rng.choice((20, 30))]]
        cities = [len(plan) - 1]
    return plan, cities[0]


def _lay_spine(b: BoardBuilder, spine: list, nodes_of: dict[str, list[str]]) -> None:
    """Through track along the spine: entry edge to the hex's first node to the exit edge."""
    for h, entry, exit_ in spine:
        have = {frozenset((p["a"], p["b"])) for p in b.hex(h)["paths"]}
        node = nodes_of[h][0] if nodes_of[h] else None
        pairs = [(entry, node), (node, exit_)] if node else [(entry, exit_)]
        for a, z in pairs:
            if a is not None and z is not None and frozenset((a, z)) not in have:
                b.path(h, a, z)
                have.add(frozenset((a, z)))


PLUS_ROWS = {n: [{"nodes": ["city"], "pay": n, "visit": n}, {"nodes": ["town", "offboard"], "pay": 99, "visit": 99}]
             for n in (2, 3)}
D_ROWS = [{"nodes": ["city"], "pay": 3, "visit": 3, "multiplier": 2},
          {"nodes": ["offboard"], "pay": 99, "visit": 99, "multiplier": 2},
          {"nodes": ["town"], "pay": 0, "visit": 99}]


def make_snapshot_1839(seed: int) -> dict:
    rng = random.Random(seed * 7919 + 1839)
    b, ids, plan = _skeleton(rng, 4, 8, offboards=0.35)
    spine = _spine(rng, b, ids) if rng.random() < 0.5 else []
    if spine:
        plan, home = _shape_spine(rng, spine, plan, end_offboards=rng.random() < 0.6)
    cities = [i for i, p in enumerate(plan) if p[1] == "city"]
    tokened = set(rng.sample(cities, min(len(cities), rng.choice((1, 1, 2)))))
    if spine:
        tokened = {home} | set(list(tokened)[:1])
    free = [i for i in cities if i not in tokened]
    interior = {h for h, a, z in spine if a is not None and z is not None}
    foreign = {i for i in free if rng.random() < (0.6 if plan[i][0] in interior else 0.4)}
    blocked = {i for i in free if rng.random() < (0.5 if i in foreign else 0.2)}
    own = {i for i in cities if i not in foreign and i not in blocked and rng.random() < 0.3}
    # a company has at most one exchange marker, placed under one of its own stations
    own = set(sorted(own)[:1])
    tokened |= own
    nodes_of: dict[str, list[str]] = {h: [] for h in ids}
    for i, (hid, kind, rev) in enumerate(plan):
        fields: dict = {}
        if i in foreign:
            fields["exchange_owner"] = rng.choice(("B", "C"))
        if i in own:
            fields["exchange_owner"] = "A"
        if kind == "city":
            nid = b.city(hid, rev, token=i in tokened, blocked=i in blocked, **fields)
        elif kind == "town":
            nid = b.town(hid, rev, **fields)
        else:
            nid = b.offboard(hid, rev, country=rng.choice(("X", "X", "X", "Y", "")), **fields)
        nodes_of[hid].append(nid)
    _track(rng, b, ids, nodes_of)
    _lay_spine(b, spine, nodes_of)
    snap = b.snapshot()
    snap["ruleset"] = "1839"
    trains = []
    for i in range(rng.choices((1, 2, 3), weights=(3, 4, 3))[0]):
        if trains and rng.random() < 0.25:
            name, dist = trains[-1]["name"], trains[-1]["distance"]
        else:
            name = rng.choice(("2+", "3+", "3D"))
            dist = D_ROWS if name == "3D" else PLUS_ROWS[int(name[0])]
        trains.append({"id": f"{name}-{i}", "name": name, "distance": dist, "distance_unit": "stops_by_type",
                       "requires_token": True})
    for j in range(rng.choices((0, 1, 2), weights=(70, 27, 3))[0]):
        trains.append({"id": f"FLOOD-{j}", "name": "FLOOD", "distance": 0, "distance_unit": "flood"})
    snap["trains"] = trains
    options: dict = {}
    if rng.random() < 0.2:
        options["location_bonus"] = True
    if rng.random() < 0.25:
        options["towns_plus_10"] = True
    if rng.random() < 0.25:
        all_nodes = [n["id"] for h in snap["hexes"] for n in h["nodes"]]
        options["port_token"] = rng.choice(all_nodes)
        options["port_token_own"] = rng.random() < 0.5
    if options:
        snap["options"] = options
    return snap


TRAINS_1871 = {
    "2H": {"distance": 2, "distance_unit": "hexes", "class": "freight"},
    "3H": {"distance": 3, "distance_unit": "hexes", "class": "freight"},
    "2F": {"distance": 2, "distance_unit": "express", "by_hex": True, "class": "freight"},
    "2E": {"distance": 2, "distance_unit": "express", "by_hex": True, "class": "passenger"},
    "2P": {"distance": 2, "distance_unit": "stops", "class": "passenger"},
    "3P": {"distance": 3, "distance_unit": "stops", "class": "passenger"},
}


def make_snapshot_1871sc(seed: int) -> dict:
    rng = random.Random(seed * 7919 + 1871)
    b, ids, plan = _skeleton(rng, 4, 8)
    spine = _spine(rng, b, ids) if rng.random() < 0.4 else []
    if spine:
        plan, home = _shape_spine(rng, spine, plan, end_offboards=rng.random() < 0.3)
    cities = [i for i, p in enumerate(plan) if p[1] == "city"]
    classes = [rng.choice(("freight", "passenger")) if p[1] != "offboard" or rng.random() < 0.5 else ""
               for p in plan]
    tokened = set(rng.sample(cities, min(len(cities), rng.choice((1, 2, 2)))))
    if spine:
        tokened = {home} | set(list(tokened)[:1])
    blocked = {i for i in cities if i not in tokened and rng.random() < 0.15}
    nodes_of: dict[str, list[str]] = {h: [] for h in ids}
    for i, (hid, kind, rev) in enumerate(plan):
        fields: dict = {"class": classes[i]} if classes[i] else {}
        if kind == "city":
            if i in tokened:
                fields["token_class"] = classes[i]
            nid = b.city(hid, rev, token=i in tokened, blocked=i in blocked, **fields)
        elif kind == "town":
            nid = b.town(hid, rev, **fields)
        else:
            nid = b.offboard(hid, rev, **fields)
        nodes_of[hid].append(nid)
    _track(rng, b, ids, nodes_of)
    _lay_spine(b, spine, nodes_of)
    snap = b.snapshot()
    snap["ruleset"] = "1871sc"
    names: list[str] = []
    for _ in range(rng.choices((1, 2, 3), weights=(2, 4, 4))[0]):
        names.append(names[-1] if names and rng.random() < 0.2 else rng.choice(list(TRAINS_1871)))
    snap["trains"] = [{"id": f"{n}-{i}", "name": n, "requires_token": True, **TRAINS_1871[n]}
                      for i, n in enumerate(names)]
    one_class = len({TRAINS_1871[n]["class"] for n in names}) == 1
    if one_class and rng.random() < 0.3:
        snap["company"]["type"] = "minor"
    if rng.random() < 0.5:
        snap["options"] = {"classes_share_track": True}
    return snap
