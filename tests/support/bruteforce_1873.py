"""An independent brute force for 1873 ("Harzbahn 1873") on small boards, to cross-check the solver.

Written from the corpus FORMAT.md ("How a route is formed" and the "1873" section) and the engine
notes over the Board model only. It imports nothing from `solver.rulesets.r_1873`, `solver.routes.candidates`,
`solver.model.legs`, `solver.rules.route_rules` or `solver.optimiser`: the 1873 facts are read straight from
the snapshot fields (`Board.extra`, `Hex.extra`, `Node.extra`), and legs, routes, track keys,
termini, networks, concession runs and revenue are all computed here, as plainly as possible.

Rules modelled (engine behaviour, see FORMAT.md "1873"):

* a leg walks from a node along narrow track across edges (e meets (e+3)%6) to the next node;
* a mining route starts and ends at a terminus (a city with the company's token; a town in a
  factory hex; an unblocked city in a hex with an open mine or a factory); a diesel route at
  cities with the company's token, and every diesel stop must be `diesel_connected`;
* no node twice; a mining route visits at most one node per hex; every route has a tokened city;
* nodes of framed hexes only at the ends; blocked cities never in the middle, except (BLOCKED_PASS):
  "concession_hex" (routemax's README reading of the rules, "you can't be tokened out of your own
  concession route"): a blocked city in a hex of the company's own concession route(s) may be
  passed by any route; "engine" (18xx.games, FORMAT.md): a route whose track hexes contain all hexes
  of one of the company's concession routes may pass any blocked city;
* track: a (hex, edge) end is used at most once among all mining routes, and separately among
  all diesel routes (a route included);
* the routes of one super-train, and all diesel routes, form one network of routes that share
  an unblocked stop;
* each concession route is run exactly (track hex set == concession hexes) by a mining route,
  and by a diesel route if the company owns a diesel; with no concession route a non-QLB company
  runs at least one route of each kind it owns; QLB is exempt;
* a QLB diesel route must visit Quedlinburg, the QLB's home hex (a rules-book rule the engine does
  not check; the rules summary in shared/seeds: "diesel owned by QLB must run to Quedlinburg");
* revenue per route in action order (engine `revenue_for` / `diesel_revenue`): a blocked stop
  earns nothing; city money (token: node revenue, else STOP_REVENUE; towns none) and factory money
  only for the first route of the kind that stops in the hex; mine money (multiplier x distance)
  for the first route, among the mining routes stopping in the hex, whose train is the largest;
  diesel: DIESEL_STOP_REVENUE per unblocked city in a hex no earlier diesel route stopped in.
  A run's best total is the best over the orders of its routes (the client chooses the order).

Scope: narrow single-lane track, cities and towns only, no terminal/ignored paths; anything else
raises OutOfScope.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from solver.model.board import Board, Path, PathEnd

BLOCKED_PASS = "concession_hex"  # or "engine"; see the module docstring


class OutOfScope(ValueError):
    """The board uses a feature this brute force does not model."""


@dataclass(frozen=True)
class Super:
    id: str
    distance: int
    diesel: bool
    subtrains: tuple[str, ...]


@dataclass(frozen=True)
class Facts:
    """The 1873 facts of a board, read from the snapshot fields."""

    supers: tuple[Super, ...]  # mining super-trains that can run
    diesel: Super | None
    diesel_ids: tuple[str, ...]  # every train id a diesel route may use
    concessions: tuple[frozenset[str], ...]
    is_qlb: bool
    home: frozenset[str]
    mines: dict[str, int]  # hex -> multiplier, open mines only
    factories: dict[str, int]  # hex -> revenue
    framed: frozenset[str]
    diesel_connected: frozenset[str]
    stop_revenue: int
    diesel_stop_revenue: int


def read_facts(board: Board) -> Facts:
    data = board.extra.get("h1873") or {}
    consts = data.get("constants") or {}
    supers, diesel = [], None
    for raw in board.extra.get("super_trains", []):
        st = Super(raw["id"], int(raw.get("distance", 1)), bool(raw.get("diesel")), tuple(raw.get("subtrains", ())))
        if not st.subtrains:
            continue
        if st.diesel:
            diesel = st
        else:
            supers.append(st)
    pool = data.get("diesel") or {}
    diesel_ids: tuple[str, ...] = ()
    if diesel is not None:
        diesel_ids = tuple(dict.fromkeys(tuple(diesel.subtrains) + tuple(pool.get("allocated_subtrains", ()))
                                         + tuple(pool.get("next_pool_ids", ()))))
    is_qlb = bool(data.get("is_qlb"))
    concessions = () if is_qlb else tuple(frozenset(r) for r in (data.get("concession") or {}).get("routes", []))
    mines, factories = {}, {}
    for hx in board.hexes.values():
        h = hx.extra.get("h1873") or {}
        if h.get("mine") and h.get("mine_open"):
            mines[hx.id] = int(h.get("mine_multiplier", 0))
        if h.get("factory"):
            factories[hx.id] = int(h.get("factory_revenue", 0))
    connected = frozenset(n.id for n in board.nodes.values() if (n.extra.get("h1873") or {}).get("diesel_connected"))
    home = board.extra.get("company_home") or []
    home = frozenset([home] if isinstance(home, str) else home)
    return Facts(tuple(supers), diesel, diesel_ids, concessions, is_qlb, home, mines, factories,
                 frozenset(h.id for h in board.hexes.values() if h.framed), connected,
                 int(consts.get("STOP_REVENUE", 10)), int(consts.get("DIESEL_STOP_REVENUE", 10)))


def check_scope(board: Board) -> None:
    for n in board.nodes.values():
        if n.kind not in ("city", "town"):
            raise OutOfScope(f"node {n.id}: kind {n.kind}")
    for p in board.paths.values():
        if p.track != "narrow" or p.lanes != ((1, 0), (1, 0)) or p.ignore or p.ignore_gauge_walk or p.terminal:
            raise OutOfScope(f"path {p.id}: only plain narrow single-lane track is modelled")
        if p.a == p.b:
            raise OutOfScope(f"path {p.id}: both ends equal")


def is_terminus(board: Board, facts: Facts, nid: str) -> bool:
    """Engine `terminus?`: where a mining route may start or end."""
    n = board.nodes[nid]
    if n.kind == "city" and n.tokened_by_company:
        return True
    if n.kind == "town" and n.hex in facts.factories:
        return True
    return n.kind == "city" and not n.blocks and (n.hex in facts.mines or n.hex in facts.factories)


def is_diesel_terminus(board: Board, nid: str) -> bool:
    n = board.nodes[nid]
    return n.kind == "city" and n.tokened_by_company


# ---------------------------------------------------------------- legs


@dataclass(frozen=True)
class BLeg:
    a: str
    b: str
    paths: tuple[str, ...]


def edge_keys(p: Path) -> list[tuple[str, int]]:
    """1873 `check_overlap`: only path ends on hex edges count as track."""
    return [(p.hex, end.edge) for end in (p.a, p.b) if end.edge is not None]


def _touching(board: Board, hex_id: str, end: PathEnd) -> list[Path]:
    return [board.paths[pid] for pid in board.hexes[hex_id].paths
            if board.paths[pid].a == end or board.paths[pid].b == end]


def legs_from(board: Board, start: str) -> list[BLeg]:
    """Every leg from `start`: along one of its paths, across edges e -> (e+3)%6, through
    edge-to-edge paths, to the first node reached; no path twice in a leg."""
    out: list[BLeg] = []

    def walk(p: Path, entered: PathEnd, chain: tuple[str, ...]) -> None:
        far = p.b if p.a == entered else p.a
        if far.node is not None:
            if far.node != start:
                out.append(BLeg(start, far.node, chain))
            return
        nb = board.hexes[p.hex].neighbors.get(far.edge)
        if nb is None or nb not in board.hexes:
            return
        arrive = PathEnd(edge=(far.edge + 3) % 6)
        for q in _touching(board, nb, arrive):
            if q.id not in chain:
                walk(q, arrive, chain + (q.id,))

    here = PathEnd(node=start)
    for p in _touching(board, board.nodes[start].hex, here):
        walk(p, here, (p.id,))
    return out


# ---------------------------------------------------------------- routes


@dataclass(frozen=True)
class BRoute:
    nodes: tuple[str, ...]
    legs: tuple[BLeg, ...]
    keys: frozenset[tuple[str, int]]
    hexes: frozenset[str]  # hexes of every path of the route (engine `connection_hexes`)
    diesel: bool
    passes_blocked: bool

    def key(self) -> tuple:
        return (self.diesel, self.nodes, tuple(lg.paths for lg in self.legs))


def enumerate_routes(board: Board, facts: Facts, legs: dict[str, list[BLeg]], diesel: bool,
                     exempt_all: bool = False) -> list[BRoute]:
    """Every legal route of one kind, once (stored in the direction whose first node id is the
    smaller). `exempt_all` lets every route pass blocked cities (used to invent concession routes)."""
    nodes = board.nodes
    found: list[BRoute] = []

    def end_ok(nid: str) -> bool:
        if diesel:
            return is_diesel_terminus(board, nid) and nid in facts.diesel_connected
        return is_terminus(board, facts, nid)

    own = frozenset(h for c in facts.concessions for h in c)

    def record(seq: tuple[str, ...], rlegs: tuple[BLeg, ...], keys: frozenset, passed: frozenset[str]) -> None:
        if not any(nodes[n].kind == "city" and nodes[n].tokened_by_company for n in seq):
            return
        hexes = frozenset(board.paths[pid].hex for lg in rlegs for pid in lg.paths)
        if passed and not exempt_all:
            if BLOCKED_PASS == "engine" and not any(c <= hexes for c in facts.concessions):
                return
            if BLOCKED_PASS != "engine" and not passed <= own:
                return
        if diesel and facts.is_qlb and not any(nodes[n].hex in facts.home for n in seq):
            return
        found.append(BRoute(seq, rlegs, keys, hexes, diesel, bool(passed)))

    def grow(seq: tuple[str, ...], rlegs: tuple[BLeg, ...], keys: frozenset, passed: frozenset[str]) -> None:
        last = seq[-1]
        if len(seq) >= 2:
            if seq[0] < last and end_ok(last):
                record(seq, rlegs, keys, passed)
            if nodes[last].hex in facts.framed:
                return  # a town (framed hex) only ends a route
            if nodes[last].blocks:
                passed = passed | {nodes[last].hex}  # the hexes of the blocked cities passed
        stop_hexes = {nodes[n].hex for n in seq}
        for lg in legs[last]:
            nxt = lg.b
            if nxt in seq:
                continue
            if not diesel and nodes[nxt].hex in stop_hexes:
                continue
            if diesel and nxt not in facts.diesel_connected:
                continue
            lk = [k for pid in lg.paths for k in edge_keys(board.paths[pid])]
            if len(set(lk)) != len(lk) or keys.intersection(lk):
                continue
            grow(seq + (nxt,), rlegs + (lg,), keys.union(lk), passed)

    for nid in nodes:
        if end_ok(nid):
            grow((nid,), (), frozenset(), frozenset())
    return found


# ---------------------------------------------------------------- revenue


def _stop_money(board: Board, facts: Facts, nid: str, diesel: bool) -> int:
    n = board.nodes[nid]
    if n.blocks or n.kind != "city":
        return 0
    if diesel:
        return facts.diesel_stop_revenue
    return n.revenue if n.tokened_by_company else facts.stop_revenue


def ordered_revenue(board: Board, facts: Facts, run: list[tuple[BRoute, int]]) -> list[int]:
    """Per-route revenue of routes of one kind in this (action) order; `int` is the train distance."""
    nodes = board.nodes
    payer: dict[str, tuple[int, int]] = {}  # mine hex -> (distance, position) of the paid route
    for pos, (r, dist) in enumerate(run):
        if r.diesel:
            continue
        for n in r.nodes:
            h = nodes[n].hex
            if h in facts.mines and (h not in payer or dist > payer[h][0]):
                payer[h] = (dist, pos)
    seen: set[str] = set()
    out = []
    for pos, (r, dist) in enumerate(run):
        total = 0
        for n in r.nodes:
            node = nodes[n]
            if node.blocks:
                continue
            first = node.hex not in seen
            if first:
                total += _stop_money(board, facts, n, r.diesel)
                if not r.diesel:
                    total += facts.factories.get(node.hex, 0)
            if not r.diesel and node.hex in facts.mines and payer[node.hex][1] == pos:
                total += facts.mines[node.hex] * dist
        seen.update(nodes[n].hex for n in r.nodes)
        out.append(total)
    return out


def _upper(board: Board, facts: Facts, run: list[tuple[BRoute, int]]) -> int:
    """What the best order could at most earn: per hex the best visit, per mine the largest train."""
    nodes = board.nodes
    hex_best: dict[str, int] = {}
    mine_top: dict[str, tuple[int, bool]] = {}
    for r, dist in run:
        per_hex: dict[str, int] = {}
        for n in r.nodes:
            node = nodes[n]
            per_hex.setdefault(node.hex, 0)
            if not node.blocks:
                per_hex[node.hex] += _stop_money(board, facts, n, r.diesel) + (
                    0 if r.diesel else facts.factories.get(node.hex, 0))
            if not r.diesel and node.hex in facts.mines:
                top = mine_top.get(node.hex)
                if top is None or dist > top[0]:
                    mine_top[node.hex] = (dist, not node.blocks)
                elif dist == top[0] and not node.blocks:
                    mine_top[node.hex] = (dist, True)
        for h, v in per_hex.items():
            hex_best[h] = max(hex_best.get(h, 0), v)
    return sum(hex_best.values()) + sum(facts.mines[h] * d for h, (d, ok) in mine_top.items() if ok)


def best_order(board: Board, facts: Facts, run: list[tuple[BRoute, int]]) -> tuple[int, list[int]]:
    """The best total over the orders of these routes, and that order (indexes into `run`)."""
    upper = _upper(board, facts, run)
    best = (-1, list(range(len(run))))
    for perm in itertools.permutations(range(len(run))):
        v = sum(ordered_revenue(board, facts, [run[i] for i in perm]))
        if v > best[0]:
            best = (v, list(perm))
            if v == upper:
                break
    return best


# ---------------------------------------------------------------- run checks


def connected(board: Board, routes: list[BRoute]) -> bool:
    """The routes form one network: linked when they share a stop that does not block."""
    if len(routes) <= 1:
        return True
    stops = [{n for n in r.nodes if not board.nodes[n].blocks} for r in routes]
    reached, frontier = {0}, [0]
    while frontier:
        i = frontier.pop()
        for j in range(len(routes)):
            if j not in reached and stops[i] & stops[j]:
                reached.add(j)
                frontier.append(j)
    return len(reached) == len(routes)


def concession_ok(facts: Facts, routes: list[BRoute], owns: bool) -> bool:
    """Each concession route run exactly by one of these routes (one kind); the must-run rule."""
    if facts.is_qlb or not owns:
        return True
    if not facts.concessions:
        return bool(routes)
    return all(any(r.hexes == c for r in routes) for c in facts.concessions)


# ---------------------------------------------------------------- search


@dataclass
class KindBest:
    """Per number of routes: the best revenue of a legal set of that size, and the set."""

    by_count: dict[int, tuple[int, list[tuple[BRoute, str]]]] = field(default_factory=dict)
    searched: int = 0

    def offer(self, count: int, revenue: int, run: list[tuple[BRoute, str]]) -> None:
        self.searched += 1
        if count not in self.by_count or revenue > self.by_count[count][0]:
            self.by_count[count] = (revenue, run)

    @property
    def feasible(self) -> bool:
        return bool(self.by_count)

    def max_revenue(self) -> int:
        return max(v for v, _ in self.by_count.values())

    def rulebook(self) -> tuple[int, int]:
        c = max(self.by_count)
        return c, self.by_count[c][0]


def _masks(routes: list[BRoute]) -> list[int]:
    bit: dict[tuple[str, int], int] = {}
    out = []
    for r in routes:
        m = 0
        for k in r.keys:
            m |= 1 << bit.setdefault(k, len(bit))
        out.append(m)
    return out


def search_mining(board: Board, facts: Facts, routes: list[BRoute]) -> KindBest:
    """Every set of mining routes with no shared track, each assigned to a super-train within its
    number of subtrains, every train's routes one network, the concession routes run."""
    best = KindBest()
    masks = _masks(routes)
    supers = facts.supers
    caps = [len(s.subtrains) for s in supers]
    chosen: list[tuple[int, int]] = []

    def evaluate() -> None:
        rs = [routes[i] for i, _ in chosen]
        if not concession_ok(facts, rs, bool(supers)):
            return
        for si in range(len(supers)):
            if not connected(board, [routes[i] for i, s in chosen if s == si]):
                return
        run = [(routes[i], supers[s].distance) for i, s in chosen]
        value, order = best_order(board, facts, run)
        # train ids: each super-train's subtrains in order of appearance
        next_sub = [0] * len(supers)
        named = []
        for k in order:
            s = chosen[k][1]
            named.append((routes[chosen[k][0]], supers[s].subtrains[next_sub[s]]))
            next_sub[s] += 1
        best.offer(len(chosen), max(value, 0), named)

    def rec(start: int, used: int) -> None:
        evaluate()
        if not any(caps):
            return
        for i in range(start, len(routes)):
            if masks[i] & used:
                continue
            for s in range(len(supers)):
                if caps[s]:
                    caps[s] -= 1
                    chosen.append((i, s))
                    rec(i + 1, used | masks[i])
                    chosen.pop()
                    caps[s] += 1

    rec(0, 0)
    return best


def search_diesel(board: Board, facts: Facts, routes: list[BRoute]) -> KindBest:
    """Every set of diesel routes with no shared track among them, one network, concession run."""
    best = KindBest()
    if facts.diesel is None:
        best.offer(0, 0, [])
        return best
    masks = _masks(routes)
    chosen: list[int] = []

    def evaluate() -> None:
        rs = [routes[i] for i in chosen]
        if not concession_ok(facts, rs, True) or not connected(board, rs):
            return
        value, order = best_order(board, facts, [(r, 0) for r in rs])
        ids = list(facts.diesel_ids) + [f"D-extra-{k}" for k in range(len(rs))]
        best.offer(len(rs), max(value, 0), [(rs[k], ids[j]) for j, k in enumerate(order)])

    def rec(start: int, used: int) -> None:
        evaluate()
        for i in range(start, len(routes)):
            if not masks[i] & used:
                chosen.append(i)
                rec(i + 1, used | masks[i])
                chosen.pop()

    rec(0, 0)
    return best


@dataclass
class BruteResult:
    feasible: bool
    revenue_only: int  # max revenue (0 when infeasible)
    rulebook: tuple[int, int]  # (routes, revenue) lexicographic max ((0, 0) when infeasible)
    best_run: list[tuple[BRoute, str]]  # a REVENUE_ONLY optimum (mining then diesel), with train ids
    rulebook_run: list[tuple[BRoute, str]]
    mining_routes: int
    diesel_routes: int
    searched: int
    mine_money: int  # mine money in `best_run`


def all_legs(board: Board) -> dict[str, list[BLeg]]:
    return {nid: legs_from(board, nid) for nid in board.nodes}


def brute_force(board: Board) -> BruteResult:
    check_scope(board)
    facts = read_facts(board)
    legs = all_legs(board)
    mining = enumerate_routes(board, facts, legs, False) if facts.supers else []
    diesel = enumerate_routes(board, facts, legs, True) if facts.diesel else []
    bm = search_mining(board, facts, mining) if facts.supers else KindBest({0: (0, [])})
    bd = search_diesel(board, facts, diesel)
    searched = bm.searched + bd.searched
    if not (bm.feasible and bd.feasible):
        return BruteResult(False, 0, (0, 0), [], [], len(mining), len(diesel), searched, 0)
    cm = max(bm.by_count, key=lambda c: bm.by_count[c][0])
    cd = max(bd.by_count, key=lambda c: bd.by_count[c][0])
    best_run = bm.by_count[cm][1] + bd.by_count[cd][1]
    (rm, vm), (rd, vd) = bm.rulebook(), bd.rulebook()
    rulebook_run = bm.by_count[rm][1] + bd.by_count[rd][1]
    mine_money = _mine_money(board, facts, bm.by_count[cm][1])
    return BruteResult(True, bm.max_revenue() + bd.max_revenue(), (rm + rd, vm + vd), best_run, rulebook_run,
                       len(mining), len(diesel), searched, mine_money)


def _mine_money(board: Board, facts: Facts, run: list[tuple[BRoute, str]]) -> int:
    dist = {sub: s.distance for s in facts.supers for sub in s.subtrains}
    with_mines = ordered_revenue(board, facts, [(r, dist[t]) for r, t in run])
    bare = Facts(**{**facts.__dict__, "mines": {}})
    without = ordered_revenue(board, bare, [(r, dist[t]) for r, t in run])
    return sum(with_mines) - sum(without)


# ---------------------------------------------------------------- judging a claimed run


def judge(board: Board, runs: list[tuple[str, list[str], list[list[str]]]]) -> tuple[int, list[str]]:
    """Judge a run `(train id, nodes, per-leg path ids)` in action order by this module's rules:
    its revenue in that order, and every rule it breaks."""
    check_scope(board)
    facts = read_facts(board)
    legs = all_legs(board)
    legal: dict[tuple, BRoute] = {}
    for diesel, owned in ((False, bool(facts.supers)), (True, facts.diesel is not None)):
        if owned:
            for r in enumerate_routes(board, facts, legs, diesel):
                legal[r.key()] = r
                rev = BRoute(r.nodes[::-1], tuple(BLeg(lg.b, lg.a, lg.paths[::-1]) for lg in r.legs[::-1]),
                             r.keys, r.hexes, r.diesel, r.passes_blocked)
                legal[rev.key()] = rev
    super_of = {sub: s for s in facts.supers for sub in s.subtrains}
    if facts.diesel is not None:
        super_of.update({tid: facts.diesel for tid in facts.diesel_ids})
    problems: list[str] = []
    seen_trains: set[str] = set()
    mining: list[tuple[BRoute, int]] = []
    diesel_run: list[tuple[BRoute, int]] = []
    by_super: dict[str, list[BRoute]] = {}
    for tid, nodes, leg_paths in runs:
        st = super_of.get(tid)
        if st is None:
            problems.append(f"unknown train {tid}")
            continue
        if tid in seen_trains:
            problems.append(f"train {tid} runs twice")
        seen_trains.add(tid)
        if len(leg_paths) != len(nodes) - 1:
            problems.append(f"{tid}: {len(leg_paths)} legs for {len(nodes)} stops")
            continue
        rlegs = []
        for i, paths in enumerate(leg_paths):
            a, b = nodes[i], nodes[i + 1]
            if BLeg(a, b, tuple(paths)) in legs.get(a, []):
                rlegs.append(BLeg(a, b, tuple(paths)))
            elif BLeg(a, b, tuple(paths[::-1])) in legs.get(a, []):
                rlegs.append(BLeg(a, b, tuple(paths[::-1])))
            else:
                problems.append(f"{tid}: {a}->{b} over {paths} is not a leg")
        route = legal.get((st.diesel, tuple(nodes), tuple(lg.paths for lg in rlegs)))
        if route is None:
            problems.append(f"{tid}: {' '.join(nodes)} is not a legal {'diesel' if st.diesel else 'mining'} route")
            continue
        (diesel_run if st.diesel else mining).append((route, st.distance))
        by_super.setdefault(st.id, []).append(route)
    for kind, run in (("mining", mining), ("diesel", diesel_run)):
        keys = [k for r, _ in run for k in r.keys]
        if len(set(keys)) != len(keys):
            problems.append(f"{kind} routes share track")
    for sid, rs in by_super.items():
        if not connected(board, rs):
            problems.append(f"routes of {sid} do not form one network")
    if not concession_ok(facts, [r for r, _ in mining], bool(facts.supers)):
        problems.append("concession route / must-run not satisfied by mining routes")
    if not concession_ok(facts, [r for r, _ in diesel_run], facts.diesel is not None):
        problems.append("concession route / must-run not satisfied by diesel routes")
    total = sum(ordered_revenue(board, facts, mining)) + sum(ordered_revenue(board, facts, diesel_run))
    return total, problems


def describe(board: Board) -> str:
    """A compact text dump of an 1873 board, for failure messages."""
    facts = read_facts(board)
    lines = []
    for hid, hx in board.hexes.items():
        nbs = " ".join(f"{e}:{h}" for e, h in sorted(hx.neighbors.items()))
        tags = ("F" if hx.framed else "") + (f" mine x{facts.mines[hid]}" if hid in facts.mines else "")
        h = hx.extra.get("h1873") or {}
        if h.get("mine") and not h.get("mine_open"):
            tags += " closed-mine"
        tags += f" factory {facts.factories[hid]}" if hid in facts.factories else ""
        nodes = []
        for nid in hx.nodes:
            n = board.nodes[nid]
            flags = "".join(f for f, on in (("T", n.tokened_by_company), ("B", n.blocks),
                                             ("d", nid not in facts.diesel_connected)) if on)
            nodes.append(f"{nid.split('.')[1]}={n.revenue}{flags}")

        def end(e: PathEnd) -> str:
            return str(e.edge) if e.edge is not None else e.node.split(".")[1]

        paths = [f"{pid.split('.')[1]}:{end(board.paths[pid].a)}-{end(board.paths[pid].b)}" for pid in hx.paths]
        lines.append(f"  {hid}[{tags.strip()}] nb[{nbs}] nodes[{', '.join(nodes)}] paths[{', '.join(paths)}]")
    trains = ", ".join(f"{s.id}(d={s.distance}, {len(s.subtrains)} routes)" for s in facts.supers)
    if facts.diesel:
        trains += f", diesel {facts.diesel.id} pool {list(facts.diesel_ids)}"
    conc = "QLB" if facts.is_qlb else [sorted(c) for c in facts.concessions]
    return "\n".join(lines + [f"  trains: {trains}; concession: {conc}"])
