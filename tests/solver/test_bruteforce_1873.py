"""Randomized cross-check for 1873 ("Harzbahn 1873"): the optimiser against an independent brute force.

Each seed builds a small 1873-style board (4-8 pointy hexes, narrow track, cities some with the
company's token, framed "town" hexes, towns, two-city hexes, blocked cities, open and closed mines,
a factory, a concession route that some route covers exactly (or QLB without one), one or two
T super-trains and sometimes a diesel with a pool). `tests.support.bruteforce_1873` enumerates every leg,
route and run from the rules; for both objectives (REVENUE_ONLY: most revenue; RULEBOOK: most
routes, then revenue) the solver must find the same optimum and prove it, and its routes must
pass both the evaluator and the brute force's own judge. Boards whose route count would make the
brute force slow are regenerated deterministically from the seed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from solver.evaluator import evaluate
from solver.input.snapshot import SNAPSHOT_FORMAT, board_from_snapshot
from solver.model.results import ClaimedRoute, SolveOptions
from solver.optimiser import solve
from tests.support.boards import STEPS, blob_cells, close_hex_track, hex_id, row_cells
from tests.support.bruteforce_1873 import (
    all_legs,
    brute_force,
    describe,
    enumerate_routes,
    is_diesel_terminus,
    is_terminus,
    judge,
    read_facts,
)
from tests.support.crosscheck import (
    CrossCheck,
    answer_problems,
    assert_batch,
    claims_of,
    show_claims,
    solve_or_report,
)

SEEDS = 800
BATCH = 40
SEARCH_LIMIT = 5_000  # run combinations the brute force may try on one board
MAX_MINING_ROUTES = 60
MAX_DIESEL_ROUTES = 40
OTHER = "OTHER"

def _cells(rng: random.Random, n: int) -> list[tuple[int, int]]:
    return row_cells(n) if rng.random() < 0.2 else blob_cells(rng, n)


def _base(rng: random.Random, qlb: bool) -> dict[str, Any]:
    """A random 1873 snapshot without its concession data (filled in by `make_snapshot`)."""
    company = "QLB" if qlb else "HBE"
    cells = _cells(rng, rng.randint(4, 8))
    ids = [hex_id(c) for c in cells]
    hexes: dict[str, dict[str, Any]] = {
        hid: {"id": hid, "tile": hid, "color": "yellow", "rotation": 0, "neighbors": {}, "nodes": [], "paths": []}
        for hid in ids}
    links: list[tuple[str, int, str]] = []
    for c, hid in zip(cells, ids):
        for e in (3, 4, 5):  # each adjacent pair once
            other = (c[0] + STEPS[e][0], c[1] + STEPS[e][1])
            if other in cells and rng.random() < 0.95:
                oid = ids[cells.index(other)]
                hexes[hid]["neighbors"][str(e)] = oid
                hexes[oid]["neighbors"][str((e + 3) % 6)] = hid
                links.append((hid, e, oid))

    framed = set(rng.sample(ids, rng.choice((0, 1, 1, 2, 2))))
    # nodes: (hex, kind)
    plan: list[tuple[str, str]] = []
    for hid in ids:
        if hid in framed:
            plan.append((hid, "city"))
            continue
        roll = rng.random()
        if roll < 0.15:
            continue
        if roll < 0.75:
            plan.append((hid, "town" if rng.random() < 0.18 else "city"))
        else:
            plan += [(hid, "city"), (hid, "city")]
    cities = [i for i, (_, k) in enumerate(plan) if k == "city"]
    while len(cities) < 2:
        hid = rng.choice([h for h in ids if h not in framed and sum(1 for p in plan if p[0] == h) < 2])
        plan.append((hid, "city"))
        cities = [i for i, (_, k) in enumerate(plan) if k == "city"]
    tokened = set(rng.sample(cities, min(len(cities), rng.choice((1, 2, 3, 3)))))
    blocked = {i for i in cities if i not in tokened and rng.random() < 0.18}
    node_hexes = sorted({h for h, _ in plan})
    mine_hexes = rng.sample(node_hexes, min(len(node_hexes), rng.choice((0, 1, 2, 2, 3))))
    factory_hex = rng.choice([h for h in node_hexes if h not in mine_hexes] or [None]) if rng.random() < 0.4 else None
    for k, hid in enumerate(mine_hexes):
        hexes[hid]["h1873"] = {"mine": str(k + 1), "mine_open": rng.random() < 0.88,
                               "mine_multiplier": rng.choice((10, 20, 30))}
    if factory_hex:
        hexes[factory_hex]["h1873"] = {"factory": "SB", "factory_revenue": rng.choice((40, 50, 60, 70))}
    for hid in framed:
        hexes[hid].update(framed=True, frame_color="#800080")

    node_ids: dict[str, list[str]] = {hid: [] for hid in ids}
    tokens = []
    for i, (hid, kind) in enumerate(plan):
        h = hexes[hid]
        nid = f"{hid}.{kind}{sum(1 for n in h['nodes'] if n['kind'] == kind)}"
        node: dict[str, Any] = {"id": nid, "sig": f"{hid}-{len(h['nodes'])}", "kind": kind, "visit_cost": 1,
                                "exits": [], "blocks": False, "tokened_by_company": False,
                                "terminal": hid in framed}
        if kind == "town":
            node["revenue"] = rng.choice((0, 0, 10))
        else:
            node["revenue"] = rng.choice((40, 50, 60, 80)) if hid in framed else rng.choice((10, 20, 30, 40))
            slots = rng.choice((1, 1, 2))
            if i in tokened:
                node["tokens"] = [{"corp": company}] + [rng.choice((None, {"corp": OTHER}))] * (slots - 1)
                node["tokened_by_company"] = True
                tokens.append({"hex": hid, "node": nid})
            elif i in blocked:
                node["tokens"] = [{"corp": OTHER}] * slots
                node["blocks"] = node["terminal"] = True
            else:
                node["tokens"] = [None] * slots if slots == 1 else [rng.choice((None, {"corp": OTHER})), None]
            node["slots"] = slots
        h["nodes"].append(node)
        node_ids[hid].append(nid)

    # track: a link is "live" when both sides get track at it; every live edge gets a path
    live: dict[str, set[int]] = {hid: set() for hid in ids}
    for a, e, b in links:
        if rng.random() < 0.9:
            live[a].add(e)
            live[b].add((e + 3) % 6)
    for hid in ids:
        _lay_track(rng, hexes[hid], sorted(live[hid]), node_ids[hid])

    return {
        "format": SNAPSHOT_FORMAT,
        "source": {"title": "Harzbahn 1873", "fixture": "random", "action_id": 0, "company": company},
        "layout": "pointy",
        "phase": {"name": "4", "tiles": ["yellow", "green"]},
        "company": {"id": company, "type": "corporation", "home": [tokens[0]["hex"]], "tokens": tokens},
        "rules": {"overridden_route_hooks": ["revenue_for", "check_distance", "check_other", "check_overlap",
                                             "check_connected", "route_trains"]},
        "trains": [],
        "super_trains": [],
        "hexes": [hexes[h] for h in ids],
        "h1873": {"constants": {"STOP_REVENUE": 10, "DIESEL_STOP_REVENUE": 10, "HW_BONUS": 50},
                  "company_kind": "railway", "is_qlb": qlb, "concession": {"routes": []}},
        "plain_revenue": False,
    }


def _lay_track(rng: random.Random, h: dict[str, Any], edges: list[int], nodes: list[str]) -> None:
    """Narrow paths of one hex: 1-3 exits per node, every live edge covered, sometimes a
    node-to-node path in a two-city hex and extra edge-to-edge paths."""
    seen: set[frozenset] = set()
    touched: set[int] = set()

    def edge() -> int:
        return rng.choice(edges) if edges and rng.random() < 0.9 else rng.randrange(6)

    def add(a: int | str, z: int | str) -> None:
        key = frozenset((a, z))
        if a == z or key in seen:
            return
        seen.add(key)
        touched.update(x for x in (a, z) if isinstance(x, int))
        if rng.random() < 0.5:
            a, z = z, a
        h["paths"].append({"id": f"{h['id']}.p{len(h['paths'])}", "a": a, "b": z, "track": "narrow"})
        for end, other in ((a, z), (z, a)):
            if isinstance(end, str) and isinstance(other, int):
                node = next(n for n in h["nodes"] if n["id"] == end)
                node["exits"] = sorted(set(node["exits"]) | {other})

    for nid in nodes:
        for _ in range(rng.choices((1, 2, 3), weights=(2, 5, 3))[0]):
            add(nid, edge())
    close_hex_track(rng, nodes, edges, touched, add, edge, extra=(0, 1, 1, 2, 2))


def _add_trains(rng: random.Random, snap: dict[str, Any], diesel: bool) -> None:
    sizes = rng.choices(([1], [2], [1, 2], [2, 1], [3], [1, 1], [2, 2], [1, 3]), weights=(2, 4, 4, 2, 3, 1, 3, 2))[0]
    supers, trains = [], []
    for k, n in enumerate(sizes):
        sid = f"{n}T-{k}"
        subs = [f"{n}T-{k}-{j}" for j in range(n)]
        supers.append({"id": sid, "name": f"{n}T", "label": f"{n}T{'abc'[k]}", "distance": n, "diesel": False,
                       "subtrains": subs, "maintenance": 0})
        trains += [{"id": s, "name": f"{n}T", "distance": n, "distance_unit": "none", "requires_token": True,
                    "super": sid, "diesel": False, "type": "mining"} for s in subs]
    if diesel:
        supers.append({"id": "D-0", "name": "D", "label": "D", "distance": 999, "diesel": True,
                       "subtrains": ["D-10"], "maintenance": 0})
        trains.append({"id": "D-10", "name": "D", "distance": 999, "distance_unit": "none", "requires_token": True,
                       "super": "D-0", "diesel": True, "type": "passenger"})
        snap["h1873"]["diesel"] = {"super_train": "D-0", "allocated_subtrains": ["D-10"],
                                   "next_pool_ids": [f"D-{i}" for i in range(15, 23)]}
    snap["super_trains"], snap["trains"] = supers, trains


def _set_node_flags(rng: random.Random, snap: dict[str, Any], diesel: bool) -> None:
    """`nodes[].h1873`: terminus / diesel_terminus by the rules, diesel_connected mostly true."""
    board = board_from_snapshot(snap)
    facts = read_facts(board)
    for h in snap["hexes"]:
        for n in h["nodes"]:
            n["h1873"] = {"terminus": is_terminus(board, facts, n["id"]),
                          "diesel_terminus": is_diesel_terminus(board, n["id"]),
                          "diesel_connected": not diesel or n["tokened_by_company"] or rng.random() < 0.9}


def make_snapshot(seed: int) -> dict[str, Any]:
    """A small random 1873 board (deterministic in `seed`); regenerated while too big to brute-force."""
    for attempt in range(200):
        rng = random.Random(seed * 1_000 + attempt)
        qlb = rng.random() < 0.18
        diesel = rng.random() < 0.3
        snap = _base(rng, qlb)
        _add_trains(rng, snap, diesel)
        _set_node_flags(rng, snap, diesel)
        board = board_from_snapshot(snap)
        facts = read_facts(board)
        legs = all_legs(board)
        if not qlb:
            # the concession route: the track hexes of a route that may pass blocked cities
            # (a route covering the concession route may); with a diesel, preferably one a diesel can run too
            cands = enumerate_routes(board, facts, legs, False, exempt_all=True)
            if not cands:
                continue
            if diesel and rng.random() < 0.85:
                dhexes = {r.hexes for r in enumerate_routes(board, facts, legs, True, exempt_all=True)}
                cands = [r for r in cands if r.hexes in dhexes] or cands
            if rng.random() < 0.35:
                cands = [r for r in cands if r.passes_blocked] or cands
            chosen = rng.choice(cands)
            hexes = sorted(chosen.hexes)
            if rng.random() < 0.04:  # a concession route no route covers exactly: no legal run
                spare = sorted(set(board.hexes) - chosen.hexes)
                if spare:
                    hexes.append(rng.choice(spare))
            rng.shuffle(hexes)
            snap["h1873"]["concession"] = {"routes": [hexes], "route_hexes": sorted(hexes), "must_run": True}
            for h in snap["hexes"]:
                if h["id"] in hexes:
                    h.setdefault("h1873", {})["on_concession_route"] = True
            board = board_from_snapshot(snap)
            facts = read_facts(board)
        mining = enumerate_routes(board, facts, legs, False)
        if not mining and rng.random() < 0.8:
            continue
        if len(mining) > MAX_MINING_ROUTES:
            continue
        if diesel and len(enumerate_routes(board, facts, legs, True)) > MAX_DIESEL_ROUTES:
            continue
        snap["source"]["action_id"] = seed
        return snap
    raise AssertionError(f"seed {seed}: no small board in 200 attempts")


CHECK = CrossCheck(make_snapshot, lambda board, _snap: brute_force(board))


def _show(run: list[tuple[Any, str]]) -> str:
    return "\n".join(f"    {tid}: {' '.join(r.nodes)} legs {[list(lg.paths) for lg in r.legs]}" for r, tid in run)


def check_seed(seed: int) -> list[str]:
    """Problems found on this seed (empty when the solver agrees with the brute force)."""
    case = CHECK.case(seed)
    board, brute = case.board, case.brute
    out = []
    for objective in ("REVENUE_ONLY", "RULEBOOK"):
        problems = []
        res, crash = solve_or_report(board, f"seed {seed} {objective}", describe,
                                     SolveOptions(objective=objective, time_limit_s=30.0))
        if res is None:
            out.append(crash)
            continue
        if not brute.feasible:
            if res.status != "INFEASIBLE" or res.routes:
                problems.append(f"expected INFEASIBLE, got {res.status} revenue {res.revenue}")
        else:
            routes, revenue = (brute.rulebook if objective == "RULEBOOK"
                               else (None, brute.revenue_only))
            if routes is not None and len(res.routes) != routes:
                problems.append(f"{len(res.routes)} routes != brute force {routes}")
            problems += answer_problems(board, res, revenue, claims_of(res), judge)
        if problems:
            solver_routes = show_claims(claims_of(res))
            run = brute.rulebook_run if objective == "RULEBOOK" else brute.best_run
            ev_brute = evaluate(board, [ClaimedRoute(train=t, nodes=list(r.nodes),
                                                     legs=[list(lg.paths) for lg in r.legs]) for r, t in run])
            out.append(f"seed {seed} {objective}: {'; '.join(problems)}\n{describe(board)}\n"
                       f"  solver routes ({res.status} {res.revenue}):\n{solver_routes}\n"
                       f"  brute-force routes (revenue {brute.revenue_only}, rulebook {brute.rulebook}):\n"
                       f"{_show(run)}\n"
                       f"  the evaluator on the brute-force routes: legal={ev_brute.legal} revenue={ev_brute.revenue}")
    return out


@pytest.mark.parametrize("start", range(0, SEEDS, BATCH), ids=lambda s: f"seeds{s}-{s + BATCH - 1}")
def test_1873_optimiser_matches_brute_force(start: int) -> None:
    assert_batch(check_seed, range(start, start + BATCH))


def test_generator_is_deterministic() -> None:
    assert make_snapshot(7) == make_snapshot(7)
    assert make_snapshot(7) != make_snapshot(8)


def mix_stats() -> dict[str, float]:
    """What the seeded boards exercise (by the brute force's optima)."""
    cases = [(c.board, c.brute) for c in CHECK.cases(range(SEEDS))]
    feasible = [(b, r) for b, r in cases if r.feasible]
    return dict(
        feasible=len(feasible),
        infeasible=len(cases) - len(feasible),
        multi_route=sum(1 for _, r in feasible if len(r.best_run) >= 2),
        three_plus_rulebook=sum(1 for _, r in feasible if r.rulebook[0] >= 3),
        mines_pay=sum(1 for _, r in feasible if r.mine_money > 0),
        rulebook_differs=sum(1 for _, r in feasible if r.rulebook[1] != r.revenue_only),
        diesel_runs=sum(1 for _, r in feasible if any(t.startswith("D-") for _, t in r.best_run)),
        qlb=sum(1 for b, _ in feasible if read_facts(b).is_qlb),
        blocked_pass=sum(1 for _, r in feasible if any(rt.passes_blocked for rt, _ in r.rulebook_run + r.best_run)),
        two_trains=sum(1 for _, r in feasible if len({t.rsplit("-", 1)[0] for _, t in r.best_run if "T-" in t}) >= 2),
        largest_search=max(r.searched for _, r in cases),
    )


def test_boards_are_a_meaningful_mix() -> None:
    """The cross-check cannot pass vacuously."""
    stats = mix_stats()
    assert stats["feasible"] >= SEEDS * 0.8, stats
    assert stats["infeasible"] >= 3, stats
    assert stats["multi_route"] >= SEEDS * 0.3, stats
    assert stats["three_plus_rulebook"] >= SEEDS * 0.08, stats
    assert stats["mines_pay"] >= SEEDS * 0.3, stats
    assert stats["rulebook_differs"] >= 3, stats
    assert stats["diesel_runs"] >= SEEDS * 0.1, stats
    assert stats["qlb"] >= SEEDS * 0.1, stats
    assert stats["blocked_pass"] >= 10, stats
    assert stats["two_trains"] >= SEEDS * 0.03, stats
    assert stats["largest_search"] < SEARCH_LIMIT, stats  # the brute force stays small (a count, not a timing)


def _order_conflict_snapshot() -> dict[str, Any]:
    """Hand-built: hexes X and Y hold two tokened cities each (x0 50, x1 40; y0 50, y1 40). Route A
    runs x0-v0-y1 through V, route B x1-w0-y0 through Z and W (v0, w0: untokened cities, 10 each).
    A hex pays its city money to the first route that stops there, so A then B earns 50+10+40 + 10
    and B then A 40+10+50 + 10: both routes together earn 110 (not the 120 that "best city per hex"
    would suggest), either alone 100. Two 1T trains, QLB (no concession)."""
    def city(hid: str, i: int, revenue: int, token: bool = True) -> dict[str, Any]:
        return {"id": f"{hid}.city{i}", "sig": f"{hid}-{i}", "kind": "city", "revenue": revenue, "slots": 1,
                "tokens": [{"corp": "QLB"} if token else None], "tokened_by_company": token, "blocks": False,
                "terminal": False, "h1873": {"terminus": token, "diesel_terminus": token, "diesel_connected": True}}

    def path(hid: str, i: int, a: int | str, b: int | str) -> dict[str, Any]:
        return {"id": f"{hid}.p{i}", "a": a, "b": b, "track": "narrow"}

    # pointy axial cells: X (0,0), V (1,0), Y (2,0), Z (0,1), W (1,1)
    hexes = [
        {"id": "X", "neighbors": {"4": "V", "5": "Z"}, "nodes": [city("X", 0, 50), city("X", 1, 40)],
         "paths": [path("X", 0, "X.city0", 4), path("X", 1, "X.city1", 5)]},
        {"id": "V", "neighbors": {"1": "X", "4": "Y"}, "nodes": [city("V", 0, 30, token=False)],
         "paths": [path("V", 0, 1, "V.city0"), path("V", 1, "V.city0", 4)]},
        {"id": "Y", "neighbors": {"1": "V", "0": "W"}, "nodes": [city("Y", 0, 50), city("Y", 1, 40)],
         "paths": [path("Y", 0, 1, "Y.city1"), path("Y", 1, 0, "Y.city0")]},
        {"id": "Z", "neighbors": {"2": "X", "4": "W"}, "nodes": [], "paths": [path("Z", 0, 2, 4)]},
        {"id": "W", "neighbors": {"1": "Z", "3": "Y"}, "nodes": [city("W", 0, 30, token=False)],
         "paths": [path("W", 0, 1, "W.city0"), path("W", 1, "W.city0", 3)]},
    ]
    tokens = [{"hex": n["id"].split(".")[0], "node": n["id"]} for h in hexes for n in h["nodes"]
              if n["tokened_by_company"]]
    supers = [{"id": f"1T-{k}", "name": "1T", "distance": 1, "diesel": False, "subtrains": [f"1T-{k}-0"]}
              for k in range(2)]
    return {
        "format": SNAPSHOT_FORMAT, "source": {"title": "Harzbahn 1873", "fixture": "hand-built", "action_id": 0},
        "layout": "pointy", "phase": {"name": "4", "tiles": ["yellow"]},
        "company": {"id": "QLB", "type": "corporation", "home": ["X"], "tokens": tokens},
        "rules": {"overridden_route_hooks": []},
        "trains": [{"id": s["subtrains"][0], "name": "1T", "distance": 1, "distance_unit": "none",
                    "requires_token": True, "super": s["id"], "diesel": False, "type": "mining"} for s in supers],
        "super_trains": supers, "hexes": hexes,
        "h1873": {"constants": {"STOP_REVENUE": 10, "DIESEL_STOP_REVENUE": 10}, "is_qlb": True,
                  "concession": {"routes": []}},
    }


def test_hand_built_order_conflict() -> None:
    """The brute force's hand-checked value, the evaluator, and the solver under both objectives."""
    board = board_from_snapshot(_order_conflict_snapshot())
    brute = brute_force(board)
    assert (brute.revenue_only, brute.rulebook) == (110, (2, 110))
    a = ("1T-0-0", ["X.city0", "V.city0", "Y.city1"], [["X.p0", "V.p0"], ["V.p1", "Y.p0"]])
    b = ("1T-1-0", ["X.city1", "W.city0", "Y.city0"], [["X.p1", "Z.p0", "W.p0"], ["W.p1", "Y.p1"]])
    assert judge(board, [a, b]) == (110, [])
    assert judge(board, [b, a]) == (110, [])
    ev = evaluate(board, [ClaimedRoute(train=t, nodes=n, legs=lg) for t, n, lg in (a, b)])
    assert ev.legal and ev.revenue == 110, [f.message for f in ev.findings]
    for objective in ("REVENUE_ONLY", "RULEBOOK"):
        res = solve(board, SolveOptions(objective=objective, time_limit_s=30.0))
        got = (res.status, res.revenue, len(res.routes))
        assert got == ("OPTIMAL", 110, 2), (objective, got, [(r.train, r.nodes) for r in res.routes])
