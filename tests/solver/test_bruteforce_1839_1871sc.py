"""Randomized cross-check of rulesets 1839 and 1871 Steel Cities: the optimiser against an
independent brute force (`tests.support.bruteforce_1839_1871sc`) on small seeded boards.

1839 boards mix "2+", "3+" and "3D" trains, sometimes FLOOD trains, own and foreign exchange
markers (foreign ones often in full cities), off-boards of two countries and the private-power
options. 1871sc boards mix H, F, E and P trains over freight and passenger nodes and stations,
sometimes with `classes_share_track`. For every seed the optimiser must reach the brute-force
optimum and prove it (`OPTIMAL`), the evaluator must accept its routes at the same revenue, and the
brute force's own rules must find the routes legal and worth the same.
"""

from __future__ import annotations

import pytest

from solver.evaluator import evaluate
from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.results import ClaimedRoute, SolveOptions
from solver.optimiser import solve
from tests.support.boards import BoardBuilder
from tests.support.bruteforce_1839_1871sc import (
    TRAINS_1871,
    BruteResult,
    brute_force,
    describe_full,
    judge,
    make_snapshot_1839,
    make_snapshot_1871sc,
    serves,
)
from tests.support.crosscheck import CrossCheck, answer_problems, assert_batch, claims_of, solve_or_report

SEEDS = {"1839": 250, "1871sc": 250}
BATCH = 25
SEARCH_LIMIT = 100_000  # run combinations the brute force may try on one board
MAKERS = {"1839": make_snapshot_1839, "1871sc": make_snapshot_1871sc}


CHECKS = {name: CrossCheck(make, lambda board, _snap: brute_force(board)) for name, make in MAKERS.items()}


def check_seed(ruleset: str, seed: int) -> str | None:
    """None when the optimiser agrees with the brute force on this seed, else a report."""
    case = CHECKS[ruleset].case(seed)
    board, brute = case.board, case.brute
    res, crash = solve_or_report(board, f"{ruleset} seed {seed}", describe_full)
    if res is None:
        return crash
    problems = []
    # the 1839 FLOOD pseudo-route has no legs and is not a claim
    legless = [r.train for r in res.routes if not r.legs and board.train(r.train).unit != "flood"]
    if legless:
        problems.append(f"routes without legs for trains {legless}")
    claims = claims_of(res, keep=lambda r: bool(r.legs))
    problems += answer_problems(board, res, brute.optimum, claims, judge)
    if not problems:
        return None
    solver_routes = "\n".join(f"    {r.train}: {' '.join(r.nodes)} stops {r.stop_revenues} legs "
                              f"{[list(leg.paths) for leg in r.legs]}" for r in res.routes)
    brute_routes = "\n".join(f"    {r.train}: {' '.join(r.nodes)} pays {list(r.pays)} legs "
                             f"{[list(lg.paths) for lg in r.shape.legs]}" for r in brute.assignment)
    flood = f"  FLOOD reach {sorted(brute.reach)} (alone worth {brute.flood})\n" if brute.reach else ""
    return (f"{ruleset} seed {seed}: {'; '.join(problems)}\n{describe_full(board)}\n{flood}"
            f"  solver routes ({res.revenue}, {res.status}):\n{solver_routes}\n"
            f"  brute-force routes ({brute.optimum}):\n{brute_routes}")


BATCHES = [(rs, start) for rs, n in SEEDS.items() for start in range(0, n, BATCH)]


@pytest.mark.parametrize(("ruleset", "start"), BATCHES, ids=[f"{rs}-seeds{s}-{s + BATCH - 1}" for rs, s in BATCHES])
def test_optimiser_matches_brute_force(ruleset: str, start: int) -> None:
    assert_batch(lambda seed: check_seed(ruleset, seed), range(start, start + BATCH))


def test_generators_are_deterministic() -> None:
    for make in MAKERS.values():
        assert make(7) == make(7)
        assert make(7) != make(8)


def _locations_shared(board: Board, brute: BruteResult) -> bool:
    """Two chosen routes earn at one location that is not the company's own exchange marker: the
    once-per-company count applies."""
    paid: dict[str, int] = {}
    for run in brute.assignment:
        for nid, pay in zip(run.nodes, run.pays):
            if pay and board.nodes[nid].exchange_owner != board.company:
                paid[nid] = paid.get(nid, 0) + 1
    return any(v >= 2 for v in paid.values())


def test_1839_boards_are_a_meaningful_mix() -> None:
    """The 1839 cross-check cannot pass vacuously: boards pay, need two or more routes, count a
    location once, pay exchange markers, pass foreign markers and use FLOOD trains and options."""
    cases = [(c.board, c.brute) for c in CHECKS["1839"].cases(range(SEEDS["1839"]))]
    tally = dict.fromkeys(("paying", "multi", "shared", "own_exchange", "foreign_passed", "foreign_end", "flood",
                           "flood_plus_routes", "same_country", "options", "threeD"), 0)
    for board, brute in cases:
        company = board.company
        runs = brute.assignment
        tally["paying"] += brute.optimum > 0
        tally["multi"] += len(runs) >= 2 and brute.optimum > brute.best_single
        tally["shared"] += _locations_shared(board, brute)
        tally["own_exchange"] += any(board.nodes[n].exchange_owner == company and p > 0
                                     for r in runs for n, p in zip(r.nodes, r.pays))
        tally["foreign_passed"] += any(board.nodes[n].exchange_owner not in ("", company)
                                       for r in runs for n in r.nodes[1:-1])
        tally["foreign_end"] += any(board.nodes[n].exchange_owner not in ("", company) and p > 0
                                    for r in runs for n, p in ((r.nodes[0], r.pays[0]), (r.nodes[-1], r.pays[-1])))
        tally["flood"] += brute.flood > 0
        tally["flood_plus_routes"] += brute.flood > 0 and brute.optimum > brute.flood and bool(runs)
        tally["same_country"] += brute.country_rejected > 0
        tally["options"] += bool(board.options)
        tally["threeD"] += any(board.train(r.train).name == "3D" for r in runs)
    print("1839 mix:", tally)
    assert tally["paying"] >= 0.7 * len(cases), tally
    assert tally["multi"] >= 20, tally
    assert tally["shared"] >= 10, tally
    assert tally["own_exchange"] >= 10, tally
    assert tally["foreign_passed"] >= 5, tally
    assert tally["foreign_end"] >= 5, tally
    assert tally["flood"] >= 15 and tally["flood_plus_routes"] >= 5, tally
    assert tally["same_country"] >= 10, tally
    assert tally["options"] >= 30 and tally["threeD"] >= 15, tally
    assert max(brute.searched for _, brute in cases) < SEARCH_LIMIT  # the brute force stays small (a count)


def test_1871sc_boards_are_a_meaningful_mix() -> None:
    """The 1871sc cross-check cannot pass vacuously: boards pay, need two or more routes, run both
    classes, pass stops of the other class, double F/E revenue and share track between classes."""
    cases = [(c.board, c.brute) for c in CHECKS["1871sc"].cases(range(SEEDS["1871sc"]))]
    tally = dict.fromkeys(("paying", "multi", "both_classes", "passes_other_class", "doubled", "best_hexes",
                           "share_across_classes", "minor"), 0)
    for board, brute in cases:
        runs = brute.assignment
        tally["paying"] += brute.optimum > 0
        tally["multi"] += len(runs) >= 2 and brute.optimum > brute.best_single
        tally["both_classes"] += len({board.train(r.train).klass for r in runs}) == 2
        tally["passes_other_class"] += any(not serves(board.train(r.train), board.nodes[n]) and board.nodes[n].revenue
                                           for r in runs for n in r.nodes)
        tally["doubled"] += any(p > board.nodes[n].revenue for r in runs for n, p in zip(r.nodes, r.pays))
        tally["best_hexes"] += any(board.train(r.train).unit == "express" and not p and board.nodes[n].revenue
                                   and serves(board.train(r.train), board.nodes[n])
                                   for r in runs for n, p in zip(r.nodes, r.pays))
        tally["share_across_classes"] += any(a.group != b.group and a.shape.keys & b.shape.keys
                                             for a in runs for b in runs)
        tally["minor"] += board.company_type == "minor"
    print("1871sc mix:", tally)
    # a classed route must serve two stops of its class, so fewer random boards pay than in 1839
    assert tally["paying"] >= 0.65 * len(cases), tally
    assert tally["multi"] >= 20, tally
    assert tally["both_classes"] >= 15, tally
    assert tally["passes_other_class"] >= 15, tally
    assert tally["doubled"] >= 15, tally
    assert tally["best_hexes"] >= 5, tally
    assert tally["share_across_classes"] >= 3, tally
    assert tally["minor"] >= 5, tally
    assert max(brute.searched for _, brute in cases) < SEARCH_LIMIT  # the brute force stays small (a count)


# ---------------------------------------------------------------- the brute force on hand-made boards

ROWS_2PLUS = [{"nodes": ["city"], "pay": 2, "visit": 2}, {"nodes": ["town", "offboard"], "pay": 99, "visit": 99}]


def _finish(b: BoardBuilder, ruleset: str, options: dict | None = None) -> Board:
    snap = b.snapshot()
    snap["ruleset"] = ruleset
    snap["options"] = options or {}
    return board_from_snapshot(snap)


def _star_1839(own_marker: str = "", flood: bool = False, options: dict | None = None) -> Board:
    """Hex M holds the company's city (30) with three spokes: W (town 10), E (city 40) and S
    (off-board 20). Two 2+ trains, sometimes a FLOOD train; `own_marker` names the hex whose
    location holds the company's exchange marker."""
    b = BoardBuilder()
    b.link("M", 1, "W")
    b.link("M", 4, "E")
    b.link("M", 5, "S")
    mark = {"exchange_owner": "A"}
    home = b.city("M", 30, token=True, **(mark if own_marker == "M" else {}))
    for e in (1, 4, 5):
        b.path("M", home, e)
    b.path("W", 4, b.town("W", 10))
    # an exchange marker lies under one of the company's stations
    b.path("E", 1, b.city("E", 40, token=own_marker == "E", **(mark if own_marker == "E" else {})))
    b.path("S", 2, b.offboard("S", 20))
    b.train("2+-0", ROWS_2PLUS, name="2+")
    b.train("2+-1", ROWS_2PLUS, name="2+")
    if flood:
        b.train("FLOOD-0", 0, unit="flood", name="FLOOD")
    return _finish(b, "1839", options)


def _line(b: BoardBuilder, hexes: list[str], nodes: list[str]) -> None:
    """Join one node per hex, left to right (edge 4 meets edge 1)."""
    for i, (h, n) in enumerate(zip(hexes, nodes)):
        if i:
            b.link(hexes[i - 1], 4, h)
            b.path(h, 1, n)
        if i < len(hexes) - 1:
            b.path(h, n, 4)


@pytest.mark.parametrize(("own_marker", "flood", "options", "expected"), [
    # a + route needs two cities, M and E: every route uses the M-E track, so one train runs
    ("", False, {}, 90),  # E-M-S = 40 + 30 + 20 (W-M-E = 80; W-M and M-S are no + routes)
    ("M", False, {}, 90),  # the own exchange marker at M would count for each train, but one runs
    ("E", False, {}, 90),
    ("", True, {}, 100),  # the FLOOD train reaches all four locations; the route adds nothing
    ("M", True, {}, 130),  # M: once for the FLOOD train and once for the train
    ("", False, {"location_bonus": True}, 120),  # E-M-S 90 + 3 locations
    ("", False, {"towns_plus_10": True, "port_token": "S.offboard0", "port_token_own": True}, 110),  # S 40
    ("", False, {"port_token": "S.offboard0"}, 100),  # S 30
])
def test_hand_made_1839_star(own_marker: str, flood: bool, options: dict, expected: int) -> None:
    board = _star_1839(own_marker, flood, options)
    assert brute_force(board).optimum == expected
    assert solve(board, SolveOptions()).revenue == expected


@pytest.mark.parametrize(("owner", "expected"), [("B", 80), ("", 70)])
def test_hand_made_1839_foreign_marker(owner: str, expected: int) -> None:
    """A (20, home) - X (50, full of other tokens) - Z (60), one 3+ train. With another company's
    exchange marker at X the train passes it for 0 (A-X-Z 80); without, X blocks (A-X 70)."""
    b = BoardBuilder()
    marker = {"exchange_owner": owner} if owner else {}
    nodes = [b.city("L1", 20, token=True), b.city("L2", 50, blocked=True, **marker), b.city("L3", 60)]
    _line(b, ["L1", "L2", "L3"], nodes)
    b.train("3+-0", [{"nodes": ["city"], "pay": 3, "visit": 3}, {"nodes": ["town", "offboard"], "pay": 99,
                                                                   "visit": 99}], name="3+")
    board = _finish(b, "1839")
    assert brute_force(board).optimum == expected
    assert solve(board, SolveOptions()).revenue == expected


@pytest.mark.parametrize(("country", "expected"), [("X", 120), ("Y", 180)])
def test_hand_made_1839_countries(country: str, expected: int) -> None:
    """Off-board (30, country X) - home city (20) - off-board (40, `country`), one 2D train (a 2+
    train could run none of these: a + route needs two cities). Same country: L2-L3 = 2 x 60."""
    b = BoardBuilder()
    nodes = [b.offboard("L1", 30, country="X"), b.city("L2", 20, token=True), b.offboard("L3", 40, country=country)]
    _line(b, ["L1", "L2", "L3"], nodes)
    b.train("2D-0", [{"nodes": ["city"], "pay": 2, "visit": 2, "multiplier": 2},
                     {"nodes": ["offboard"], "pay": 99, "visit": 99, "multiplier": 2},
                     {"nodes": ["town"], "pay": 0, "visit": 99}], name="2D")
    board = _finish(b, "1839")
    assert brute_force(board).optimum == expected
    assert solve(board, SolveOptions()).revenue == expected


@pytest.mark.parametrize(("trains", "share", "expected"), [
    (["2F"], False, 60),  # H1-H2-H3: H1 doubled (freight station hex) + dah doubled; H2 passed
    (["2H"], False, 30),  # two crossings, H2 passed
    (["2E"], False, 80),  # H2-H3-H4: H2 doubled (station hex) + H4; the dah is passed
    (["3P"], False, 50),  # H2 + H4
    (["2F", "2E"], False, 80),  # each needs the H2-H3 track (two stops of its class): E alone
    (["2F", "2E"], True, 140),  # the classes share track: F H1-H2-H3 and E H2-H3-H4
    (["2F", "2H"], True, 60),  # one class: no sharing
])
def test_hand_made_1871sc(trains: list[str], share: bool, expected: int) -> None:
    """H1 freight city 20 (freight station) - H2 passenger city 30 (passenger station) - H3 dah 10
    - H4 passenger city 20. A classed route serves two stops of its own class at least."""
    b = BoardBuilder()
    nodes = [b.city("H1", 20, token=True, token_class="freight", **{"class": "freight"}),
             b.city("H2", 30, token=True, token_class="passenger", **{"class": "passenger"}),
             b.town("H3", 10, **{"class": "freight"}), b.city("H4", 20, **{"class": "passenger"})]
    _line(b, ["H1", "H2", "H3", "H4"], nodes)
    for i, name in enumerate(trains):
        b.trains.append({"id": f"{name}-{i}", "name": name, "requires_token": True, **TRAINS_1871[name]})
    board = _finish(b, "1871sc", {"classes_share_track": True} if share else {})
    assert brute_force(board).optimum == expected
    assert solve(board, SolveOptions()).revenue == expected


def test_hand_made_1871sc_one_route_two_classes() -> None:
    """H1 freight city 20 (freight station) - H2 passenger city 30 (passenger station) - H3 city 10
    of both classes: the only route is H1-H2-H3. With `classes_share_track` the F train (H1
    doubled 40 + H3 10) and the E train (H2 doubled 60 + H3 10) may both run it, over the same
    track: 120. (Found by seed 91 of the 1871sc cross-check, before a classed route had to serve
    two stops of its class.)"""
    b = BoardBuilder()
    nodes = [b.city("H1", 20, token=True, token_class="freight", **{"class": "freight"}),
             b.city("H2", 30, token=True, token_class="passenger", **{"class": "passenger"}), b.city("H3", 10)]
    _line(b, ["H1", "H2", "H3"], nodes)
    for i, name in enumerate(("2F", "2E")):
        b.trains.append({"id": f"{name}-{i}", "name": name, "requires_token": True, **TRAINS_1871[name]})
    board = _finish(b, "1871sc", {"classes_share_track": True})
    claims = [ClaimedRoute(train=t, nodes=nodes, legs=[["H1.p0", "H2.p0"], ["H2.p1", "H3.p0"]])
              for t in ("2F-0", "2E-1")]
    ev = evaluate(board, claims)
    assert ev.legal and ev.revenue == 120, [f.message for f in ev.findings]
    assert brute_force(board).optimum == 120
    res = solve(board, SolveOptions())
    assert (res.revenue, res.status) == (120, "OPTIMAL"), [(r.train, r.nodes) for r in res.routes]
    # without H3 neither train serves two stops of its class: no route at all
    one = evaluate(board, [ClaimedRoute(train="2F-0", nodes=nodes[:2], legs=[["H1.p0", "H2.p0"]])])
    assert [f.code for f in one.findings] == ["TOO_FEW_SERVED_STOPS"]
