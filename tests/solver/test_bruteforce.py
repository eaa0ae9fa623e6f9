"""Randomized cross-check: the optimiser against an independent brute force on small seeded boards.

Each seed builds a small pointy-hex board (4-9 hexes, 0-2 nodes per hex, random node-to-edge,
edge-to-edge and node-to-node paths, branching track, tokens, blocked cities, offboards, 1-3
`stops` trains). `tests.support.bruteforce` enumerates every leg, route and train assignment from the
FORMAT.md rules; the optimiser must find the same maximum, prove it optimal, and its routes must
pass both the evaluator and the brute force's own rule check.
"""

from __future__ import annotations

import random

import pytest

from solver.evaluator import evaluate
from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.results import ClaimedRoute, SolveOptions
from solver.optimiser import solve
from tests.support.boards import STEPS, BoardBuilder, blob_cells, close_hex_track, hex_id, row_cells
from tests.support.bruteforce import brute_force, describe, judge
from tests.support.bruteforce_modifiers import brute_force_modifiers
from tests.support.crosscheck import (
    CrossCheck,
    answer_problems,
    assert_batch,
    claims_of,
    show_claims,
    solve_or_report,
)

SEEDS = 800
BATCH = 20
SEARCH_LIMIT = 20_000  # route sets the brute force may try on one board

def _cells(rng: random.Random, n: int) -> list[tuple[int, int]]:
    shape = rng.random()
    if shape < 0.15:  # a row
        return row_cells(n)
    if shape < 0.3:  # a zigzag: alternately E and SE / NE
        cells, (q, r) = [(0, 0)], (0, 0)
        for i in range(n - 1):
            dq, dr = STEPS[4] if i % 2 == 0 else STEPS[rng.choice((3, 5))]
            q, r = q + dq, r + dr
            if (q, r) in cells:
                q, r = q + 1, r
            cells.append((q, r))
        return cells
    return blob_cells(rng, n)


def _lay_track(rng: random.Random, b: BoardBuilder, hid: str, edges: list[int], nodes: list[str]) -> list[str]:
    """Paths of one hex: 1-3 exits per node, every live edge covered, sometimes a node-to-node
    path and extra edge-to-edge paths. Returns the node-to-edge paths of cities/towns with 2+ exits."""
    seen: set[frozenset] = set()
    touched: set[int] = set()
    multi_exit: list[str] = []

    def edge() -> int:
        return rng.choice(edges) if edges and rng.random() < 0.9 else rng.randrange(6)

    def add(a: int | str, z: int | str, **fields) -> str | None:
        key = frozenset((a, z))
        if a == z or key in seen:
            return None
        seen.add(key)
        touched.update(x for x in (a, z) if isinstance(x, int))
        return b.path(hid, a, z, **fields) if rng.random() < 0.5 else b.path(hid, z, a, **fields)

    for nid in nodes:
        kind = nid.split(".")[1].rstrip("0123456789")
        exits = rng.choices((1, 2, 3), weights=(3, 4, 3))[0]
        made = [add(nid, edge(), **({"terminal": True} if kind == "offboard" and rng.random() < 0.5 else {}))
                for _ in range(exits)]
        made = [p for p in made if p]
        if kind != "offboard" and len(made) >= 2:
            multi_exit.extend(made)
    close_hex_track(rng, nodes, edges, touched, add, edge)
    return multi_exit


def make_snapshot(seed: int) -> dict:
    """A small random board as a corpus snapshot (deterministic in `seed`)."""
    rng = random.Random(seed)
    b = BoardBuilder()
    n_hexes = rng.randint(4, 9)
    cells = _cells(rng, n_hexes)
    ids = {c: hex_id(c) for c in cells}
    for c in cells:
        b.hex(ids[c])
    for (q, r) in cells:
        for e in (3, 4, 5):  # each adjacent pair once
            other = (q + STEPS[e][0], r + STEPS[e][1])
            if other in ids and rng.random() < 0.93:
                b.link(ids[(q, r)], e, ids[other])

    # plan the nodes: (hex, kind, revenue)
    plan: list[list] = []
    for c in cells:
        k = rng.choices((0, 1, 2), weights=(2, 5, 3))[0]
        for i in range(k):
            roll = rng.random()
            if i == 0 and k == 1 and roll < 0.1:
                plan.append([ids[c], "offboard", rng.choice((20, 40, 60, 80))])
            elif roll < 0.6:
                plan.append([ids[c], "city", rng.choice((10, 20, 30, 40, 50))])
            else:
                plan.append([ids[c], "town", rng.choice((10, 20, 30))])
    cities = [i for i, p in enumerate(plan) if p[1] == "city"]
    if not cities:
        hid = ids[rng.choice(cells)]
        if sum(1 for p in plan if p[0] == hid) >= 2 or any(p[0] == hid and p[1] == "offboard" for p in plan):
            plan = [p for p in plan if p[0] != hid]
        plan.append([hid, "city", rng.choice((20, 30, 40))])
        cities = [len(plan) - 1]
    tokened = set(rng.sample(cities, min(len(cities), rng.choice((1, 2)))))
    blocked = {i for i in cities if i not in tokened and rng.random() < 0.2}
    grouped = set()
    if rng.random() < 0.2:
        free = [i for i in range(len(plan)) if i not in tokened]
        if len(free) >= 2:
            grouped = set(rng.sample(free, 2))

    # trains
    trains: list[tuple[str, int, int]] = []  # (name, distance, multiplier)
    for _ in range(rng.choices((1, 2, 3), weights=(2, 4, 4))[0]):
        if trains and rng.random() < 0.3:
            trains.append(rng.choice(trains))
            continue
        roll = rng.random()
        if roll < 0.06:
            trains.append(("D", 999, 1))
            continue
        dist = 999 if roll < 0.18 and n_hexes <= 7 else rng.choice((2, 2, 3, 3, 4))
        mult = 2 if rng.random() < 0.15 else 1
        name = ("U" if dist == 999 else str(dist)) + ("x2" if mult == 2 else "")
        trains.append((name, dist, mult))
    has_d = any(t[0] == "D" for t in trains)

    nodes_of: dict[str, list[str]] = {ids[c]: [] for c in cells}
    for i, (hid, kind, rev) in enumerate(plan):
        fields: dict = {}
        if i in grouped:
            fields["groups"] = ["G"]
        if has_d and kind != "offboard" and rng.random() < 0.4:
            fields["revenue_by_train"] = {"D": rev + rng.choice((0, 10, 20))}
        if kind == "town" and rng.random() < 0.15:
            fields["visit_cost"] = 0
        if kind == "city":
            nid = b.city(hid, rev, token=i in tokened, blocked=i in blocked, **fields)
        elif kind == "town":
            nid = b.town(hid, rev, **fields)
        else:
            nid = b.offboard(hid, rev, **fields)
        nodes_of[hid].append(nid)

    # paths: a link is "live" when both sides get track at it; every live edge gets some path
    live: dict[str, set[int]] = {ids[c]: set() for c in cells}
    for c in cells:
        for e_str, other in b.hex(ids[c])["neighbors"].items():
            e = int(e_str)
            if e in (3, 4, 5) and rng.random() < 0.85:
                live[ids[c]].add(e)
                live[other].add((e + 3) % 6)
    node_edge_paths: list[str] = []  # node-to-edge paths of cities/towns with two or more exits
    for c in cells:
        node_edge_paths += _lay_track(rng, b, ids[c], sorted(live[ids[c]]), nodes_of[ids[c]])
    snap = b.snapshot()
    if node_edge_paths and rng.random() < 0.1:  # a terminal path on a node that keeps other exits
        pid = rng.choice(node_edge_paths)
        for h in snap["hexes"]:
            for p in h["paths"]:
                if p["id"] == pid:
                    p["terminal"] = True
    snap["trains"] = [{"id": f"{name}-{i}", "name": name, "distance": dist, "distance_unit": "stops",
                       "multiplier": mult, "requires_token": True}
                      for i, (name, dist, mult) in enumerate(trains)]
    return snap


CHECK = CrossCheck(make_snapshot, lambda board, _snap: brute_force(board))


def check_seed(seed: int) -> str | None:
    """None when the optimiser agrees with the brute force on this seed, else a report."""
    case = CHECK.case(seed)
    board, brute = case.board, case.brute
    res, crash = solve_or_report(board, f"seed {seed}", describe)
    if res is None:
        return crash
    claims = claims_of(res)
    problems = answer_problems(board, res, brute.optimum, claims, judge)
    if not problems:
        return None
    brute_routes = "\n".join(f"    {tid}: {' '.join(r.nodes)} legs {[list(lg.paths) for lg in r.legs]}"
                             for tid, r in brute.assignment)
    return (f"seed {seed}: {'; '.join(problems)}\n{describe(board)}\n  solver routes ({res.revenue}):\n"
            f"{show_claims(claims)}\n  brute-force routes ({brute.optimum}):\n{brute_routes}")


@pytest.mark.parametrize("start", range(0, SEEDS, BATCH), ids=lambda s: f"seeds{s}-{s + BATCH - 1}")
def test_optimiser_matches_brute_force(start: int) -> None:
    assert_batch(check_seed, range(start, start + BATCH))


def test_generator_is_deterministic() -> None:
    assert make_snapshot(7) == make_snapshot(7)
    assert make_snapshot(7) != make_snapshot(8)


def test_boards_are_a_meaningful_mix() -> None:
    """The cross-check cannot pass vacuously: most boards pay, many need two or more trains."""
    cases = [(c.board, c.brute) for c in CHECK.cases(range(SEEDS))]
    paying = sum(1 for _, r in cases if r.optimum > 0)
    multi = sum(1 for _, r in cases if len(r.assignment) >= 2 and r.optimum > r.best_single)
    three = sum(1 for _, r in cases if len(r.assignment) >= 3)
    multi_train_boards = sum(1 for b, _ in cases if len(b.trains) >= 2)
    blocked = sum(1 for b, _ in cases if any(n.blocks and n.kind == "city" for n in b.nodes.values()))
    branching = sum(1 for b, _ in cases if any(
        sum(1 for pid in hx.paths for end in (b.paths[pid].a, b.paths[pid].b) if end.edge == e) >= 2
        for hx in b.hexes.values() for e in range(6)))
    largest = max(r.searched for _, r in cases)  # the brute force stays small (a count, not a timing)
    assert paying >= SEEDS * 0.6, paying
    assert multi >= SEEDS * 0.15, multi
    assert three >= 10, three
    assert multi_train_boards >= SEEDS * 0.5, multi_train_boards
    assert blocked >= 20, blocked
    assert branching >= SEEDS * 0.3, branching
    assert largest < SEARCH_LIMIT, largest


def test_loop_leg_may_not_cross_an_edge_twice() -> None:
    """Hand-built: the only track from A's city to A's town leaves A at edge 4 and comes back in at
    edge 4 after a loop B-C-D-B, so (A, 4) and (B, 1) are used twice. FORMAT rule 7 (engine
    `check_overlap` over all paths of all routes) forbids it: the optimum is 0."""
    b = BoardBuilder()
    # pointy axial cells: A (0,0), B (1,0) east of A, C (0,1) south-east of A, D (1,1) south-east of B
    b.link("A", 4, "B")
    b.link("B", 0, "C")
    b.link("C", 4, "D")
    b.link("D", 2, "B")
    b.link("A", 5, "C")
    city, town = b.city("A", 20, token=True), b.town("A", 30)
    b.path("A", city, 4)
    b.path("A", 4, town)
    b.path("B", 1, 0)
    b.path("C", 3, 4)
    b.path("D", 1, 2)
    b.path("B", 5, 1)
    b.train("2-0", 2)
    board = b.board()
    assert brute_force(board).optimum == 0
    res = solve(board, SolveOptions())
    assert res.revenue == 0, [(r.nodes, [leg.paths for leg in r.legs]) for r in res.routes]
    loop = ClaimedRoute(train="2-0", nodes=[city, town], legs=[["A.p0", "B.p1", "D.p0", "C.p0", "B.p0", "A.p1"]])
    assert not evaluate(board, [loop]).legal


# ---------------------------------------------------------------- modifiers

MOD_SEEDS = 300
TOWNS_FREE = {"nodes": ["town"], "pay": 99, "visit": 99}
LIST_TRAINS = {"2/3": [{"nodes": ["city", "offboard"], "pay": 2, "visit": 3}],
               "2+": [{"nodes": ["city", "offboard"], "pay": 2, "visit": 2}, TOWNS_FREE],
               "3+": [{"nodes": ["city", "offboard"], "pay": 3, "visit": 3}, TOWNS_FREE]}


def _random_modifier(rng: random.Random, kind: str, hexes: list[str]) -> dict:
    def some(k: int) -> list[str]:
        return rng.sample(hexes, min(len(hexes), k))

    if kind == "StopBonus":
        values = {h: "stop_revenue" if rng.random() < 0.25 else rng.choice((10, 20, 30, 50))
                  for h in some(rng.randint(1, 3))}
        return {"type": "StopBonus", "source": "s", "label": "Stop", "hexes": values,
                "count": rng.choice(("once", "per_hex", "per_stop")), "endpoint": rng.random() < 0.3}
    if kind == "ComboBonus":
        a, b = some(2) if len(hexes) >= 2 else (hexes[0], hexes[0])
        sets = [{a: rng.choice((0, 10, 20))}, {b: rng.choice((0, 30, 40))}]
        if rng.random() < 0.5:
            sets[0][rng.choice(hexes)] = rng.choice((5, 25))
        return {"type": "ComboBonus", "source": "ew", "label": "E/W", "sets": sets,
                "amount": "sum" if rng.random() < 0.5 else rng.choice((50, 100))}
    if kind == "BestRouteBonus":
        out: dict = {"type": "BestRouteBonus", "source": "b", "label": "Best",
                     "award": rng.choice(("most_visited_stops", "last"))}
        if rng.random() < 0.5:
            out["per_visited_stop"] = rng.choice((10, 20))
        else:
            out["amount"] = rng.choice((20, 40, 60))
        if rng.random() < 0.5:
            out["requires_hexes"] = some(rng.randint(1, 2))
        return out
    if kind == "RequiredRoute":
        return {"type": "RequiredRoute", "source": "r", "label": "Run", "endpoint_hexes": some(rng.randint(2, 3)),
                "error": "a connection run is required"}
    return {"type": "DropLowestRoute", "source": "d", "label": "Drop", "min_routes": rng.randint(1, 3)}


MOD_KINDS = ("StopBonus", "ComboBonus", "BestRouteBonus", "RequiredRoute", "DropLowestRoute")


def make_snapshot_modifiers(seed: int) -> dict:
    """A small random board (`make_snapshot`) with one to three random modifiers, and sometimes a
    list-distance train (2/3, 2+ or 3+). Seed i % 5 always includes modifier type MOD_KINDS[i % 5];
    BestRouteBonus and DropLowestRoute never meet, nor three awards "last" whose bonus varies (the
    optimiser refuses both)."""
    snap = make_snapshot(seed)
    rng = random.Random(seed * 7919 + 1)
    hexes = [h["id"] for h in snap["hexes"] if h["nodes"]]
    kinds = [MOD_KINDS[seed % 5]] + [rng.choice(MOD_KINDS) for _ in range(rng.randint(0, 2))]
    if "DropLowestRoute" in kinds and "BestRouteBonus" in kinds:
        kinds = [k for k in kinds if k != ("BestRouteBonus" if kinds[0] == "DropLowestRoute" else "DropLowestRoute")]
    snap["modifiers"] = [_random_modifier(rng, k, hexes) for k in kinds]
    varying_last = [m for m in snap["modifiers"] if m.get("award") == "last" and "per_visited_stop" in m]
    for m in varying_last[2:]:  # the optimiser prices at most two (packing_terms.MAX_VARYING_LAST)
        m["award"] = "most_visited_stops"
    snap["revenue_model"] = "modifiers"
    as_list_trains(snap, rng, LIST_TRAINS, 0.3)
    return snap


def as_list_trains(snap: dict, rng: random.Random, table: dict[str, list[dict]], odds: float) -> None:
    """Each train counting stops (never a diesel, one with a multiplier or an H train), with these odds,
    becomes one of the list trains of `table` (its name and rows)."""
    for t in snap["trains"]:
        if t["distance_unit"] != "hexes" and t["distance"] != 999 and t["multiplier"] == 1 and rng.random() < odds:
            t["name"] = rng.choice(sorted(table))
            t["distance"], t["distance_unit"] = table[t["name"]], "stops_by_type"


def _brute_optimum(board: Board, snap: dict) -> int:
    return brute_force_modifiers(board, snap["modifiers"])[0]


MOD_CHECK = CrossCheck(make_snapshot_modifiers, _brute_optimum)


def check_seed_modifiers(seed: int, check: CrossCheck = MOD_CHECK) -> str | None:
    case = check.case(seed)
    board, optimum = case.board, case.brute
    res, crash = solve_or_report(board, f"seed {seed}", describe)
    if res is None:
        return crash
    problems = answer_problems(board, res, optimum, claims_of(res))
    if not problems:
        return None
    routes = "; ".join(f"{r.train}: {' '.join(r.nodes)} = {r.revenue}" for r in res.routes)
    return (f"seed {seed}: {'; '.join(problems)}\n  modifiers {case.snapshot['modifiers']}\n"
            f"  solver: {routes}\n{describe(board)}")


@pytest.mark.parametrize("start", range(0, MOD_SEEDS, BATCH), ids=lambda s: f"mod-seeds{s}-{s + BATCH - 1}")
def test_optimiser_matches_brute_force_with_modifiers(start: int) -> None:
    assert_batch(check_seed_modifiers, range(start, start + BATCH))


@pytest.mark.parametrize("seed", [50198, 50314, 50662, 50707, 50844])
def test_a_free_stop_no_row_takes_is_visited_unpaid(seed: int) -> None:
    """A list train may visit a stop of a kind none of its rows takes where the stop costs nothing (FORMAT.md:
    its cost pours into no row, nothing is left over) and never pays it: seeds of a sweep past MOD_SEEDS on
    which the brute force refused such routes and the optimiser did not."""
    assert check_seed_modifiers(seed) is None


# list trains whose towns fit two rows, as 1837's 3+1 and 1847 AE's n+n (FORMAT.md: the length pours the towns
# into the rows in row order, the paying stops take the row of fewer kinds first): the small row listed first
# or last, and rows that pay fewer or more stops than they visit (then not every stop need pay)
TOWN_ROW = {"nodes": ["town"]}
ANY_ROW = {"nodes": ["city", "offboard", "town"]}
NESTED_TRAINS = {"2+1": [{**TOWN_ROW, "pay": 1, "visit": 1}, {**ANY_ROW, "pay": 2, "visit": 2}],
                 "1+2": [{**ANY_ROW, "pay": 1, "visit": 1}, {**TOWN_ROW, "pay": 2, "visit": 2}],
                 "2+2": [{**TOWN_ROW, "pay": 2, "visit": 2}, {**ANY_ROW, "pay": 2, "visit": 2}],
                 "1+2/3": [{**TOWN_ROW, "pay": 1, "visit": 1}, {**ANY_ROW, "pay": 2, "visit": 3}],  # visits 3, pays 2
                 "2/1+2": [{**TOWN_ROW, "pay": 2, "visit": 1}, {**ANY_ROW, "pay": 2, "visit": 2}]}  # pays 2, visits 1
NESTED_SEEDS = 300


def make_snapshot_nested(seed: int) -> dict:
    """A board of `make_snapshot_modifiers` whose trains are, each with odds of 4 in 5, one of NESTED_TRAINS."""
    snap = make_snapshot_modifiers(seed)
    as_list_trains(snap, random.Random(seed * 104729 + 3), NESTED_TRAINS, 0.8)
    return snap


NESTED_CHECK = CrossCheck(make_snapshot_nested, _brute_optimum)


@pytest.mark.parametrize("start", range(0, NESTED_SEEDS, BATCH), ids=lambda s: f"nested-seeds{s}-{s + BATCH - 1}")
def test_optimiser_matches_brute_force_with_towns_in_two_rows(start: int) -> None:
    assert_batch(lambda seed: check_seed_modifiers(seed, NESTED_CHECK), range(start, start + BATCH))


def test_boards_with_towns_in_two_rows_run_such_trains() -> None:
    """On many of those boards the brute force's optimum gives a nested-row train a paying route, and on most of
    these that route visits a town (the kind two rows take)."""
    used = towns = 0
    for seed in range(NESTED_SEEDS):
        case = NESTED_CHECK.case(seed)
        nested = {t.id for t in case.board.trains if t.name in NESTED_TRAINS}
        run = brute_force_modifiers(case.board, case.snapshot["modifiers"])[1]
        paying = [route for train, route in run if train in nested and dict(route.revenue).get(train, 0) > 0]
        used += bool(paying)
        towns += any(case.board.nodes[n].kind == "town" for route in paying for n in route.nodes)
    assert used >= NESTED_SEEDS // 3, used
    assert towns >= NESTED_SEEDS // 4, towns


def test_modifier_boards_are_a_meaningful_mix() -> None:
    """Every type occurs often, list trains occur, and the modifiers change the optimum on many boards."""
    kinds: dict[str, int] = {}
    changed = listed = 0
    for seed in range(MOD_SEEDS):
        case = MOD_CHECK.case(seed)
        board, optimum, snap = case.board, case.brute, case.snapshot
        for m in snap["modifiers"]:
            kinds[m["type"]] = kinds.get(m["type"], 0) + 1
        listed += any(t.unit == "stops_by_type" for t in board.trains)
        plain = board_from_snapshot({**snap, "modifiers": []})
        changed += optimum != brute_force_modifiers(plain, [])[0]
    assert all(kinds.get(k, 0) >= MOD_SEEDS // 6 for k in MOD_KINDS), kinds
    assert listed >= MOD_SEEDS // 5, listed
    assert changed >= MOD_SEEDS // 4, changed
