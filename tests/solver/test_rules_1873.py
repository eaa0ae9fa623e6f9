"""The 1873 ("Harzbahn 1873") route and revenue rules, one small hand-built board each.

Sources: FORMAT.md "1873" (the 18xx.games engine's behaviour) and the rules summary ("Operation of
Railway Companies": running trains, calculating revenue). Every board is small enough to work out
its optimum by hand; the comment next to each expected value says why it is the optimum.

Revenue recap (FORMAT.md "Revenue"): a mining (T train) route earns, per hex, city money once per
company (the station's value where the company has a token, else 10; town dots nothing), an open
mine's multiplier x the largest train visiting it (once), a factory once; blocked villages earn 0.
A diesel route earns 10 per city hex not yet visited by a diesel route. Net revenue = revenue -
maintenance (+ the QLB bonus for QLB).

Each rule is checked on both sides: the evaluator prices a legal claim right and names the rule an
illegal claim breaks; the optimiser finds exactly the hand-computed revenue, proves it (OPTIMAL),
and returns a run the evaluator accepts whose routes of each train form one network.
"""

from __future__ import annotations

import pytest

from solver.evaluator import evaluate
from solver.model.board import Board
from solver.model.results import ClaimedRoute, Evaluation, SolveOptions, SolveResult
from solver.optimiser import solve
from tests.support.boards_1873 import Harz

REVENUE_ONLY = "REVENUE_ONLY"
RULEBOOK = "RULEBOOK"


# --------------------------------------------------------------------------- helpers


def codes(ev: Evaluation) -> set[str]:
    return {f.code for f in ev.findings}


def stop_revenues(ev: Evaluation) -> list[list[int]]:
    return [list(r.stop_revenues) for r in ev.routes]


def super_of(h: Harz) -> dict[str, str]:
    out = {sub: st["id"] for st in h.supers for sub in st["subtrains"]}
    out.update({tid: "D-0" for tid in h.diesel_pool})
    return out


def meets(routes: list[list[str]], board: Board) -> bool:
    """Whether routes (node lists) form one network through shared unblocked stops."""
    if len(routes) < 2:
        return True
    stops = [{n for n in r if not board.nodes[n].blocks} for r in routes]
    reached, frontier = {0}, [0]
    while frontier:
        i = frontier.pop()
        for j in range(len(routes)):
            if j not in reached and stops[i] & stops[j]:
                reached.add(j)
                frontier.append(j)
    return len(reached) == len(routes)


def run(h: Harz, objective: str, expected: int) -> SolveResult:
    """Solve, and check the answer: the hand-computed revenue, OPTIMAL, accepted by the evaluator when
    claimed again route by route, one network per train, no train running two routes."""
    board = h.board()
    res = solve(board, SolveOptions(time_limit_s=15.0, objective=objective))
    assert res.status == "OPTIMAL", (res.status, res.extras)
    assert res.revenue == expected, [(r.train, r.nodes, r.revenue) for r in res.routes]
    claims = [ClaimedRoute(train=r.train, nodes=list(r.nodes), legs=[list(leg.paths) for leg in r.legs])
              for r in res.routes]
    again = evaluate(board, claims)
    assert again.legal, [f.message for f in again.findings]
    assert again.revenue == expected
    trains = [r.train for r in res.routes]
    assert len(trains) == len(set(trains)), trains
    sup = super_of(h)
    by_super: dict[str, list[list[str]]] = {}
    for r in res.routes:
        by_super.setdefault(sup[r.train], []).append(list(r.nodes))
    for sid, routes in by_super.items():
        assert meets(routes, board), (sid, routes)
    return res


# --------------------------------------------------------------------------- an nT: n routes, one network


def network_board(trains: list[int]) -> Harz:
    """Cluster 1: hub L (station 10) with three spokes L1, L2, L3 (stations 30 each); one route can
    reach at most two spokes through L, so all of cluster 1 (100) takes two or three routes, all
    meeting at L. Cluster 2, not linked to cluster 1: P - Q (stations 40 each, 80)."""
    h = Harz(home=["C5"])
    h.L = h.city("C5", 10, token=True)
    h.L1 = h.city("C3", 30, token=True)
    h.L2 = h.city("B6", 30, token=True)
    h.L3 = h.city("D6", 30, token=True)
    h.lay(h.L, (1, h.L1))
    h.lay(h.L, (3, h.L2))
    h.lay(h.L, (5, h.L3))
    h.P = h.city("H5", 40, token=True)
    h.Q = h.city("H7", 40, token=True)
    h.lay(h.P, (4, h.Q))
    for size in trains:
        h.train(size)
    return h


def test_3t_routes_must_meet() -> None:
    h = network_board([3])
    board = h.board()
    a, b, c = h.supers[0]["subtrains"]
    apart = evaluate(board, [h.route(a, h.L1, h.L, h.L2), h.route(b, h.L, h.L3), h.route(c, h.P, h.Q)])
    assert "NOT_CONNECTED" in codes(apart)
    assert not apart.legal
    assert [f.route for f in apart.findings if f.code == "NOT_CONNECTED"] == [2]
    together = evaluate(board, [h.route(a, h.L1, h.L, h.L2), h.route(b, h.L, h.L3)])
    assert together.legal, [f.message for f in together.findings]
    assert together.revenue == 100
    # The 3T's routes must form one network, so it serves cluster 1 (100) or cluster 2 (80), never
    # both (180): the best connected run is all of cluster 1 = 10 + 3 x 30 = 100.
    res = run(h, REVENUE_ONLY, 100)
    assert {n for r in res.routes for n in r.nodes} == {h.L, h.L1, h.L2, h.L3}
    # RULEBOOK: the most routes the 3T can run together is three (L-L1, L-L2, L-L3, meeting at L);
    # they earn the same 100.
    res = run(h, RULEBOOK, 100)
    assert len(res.routes) == 3


def test_routes_of_different_trains_need_not_meet() -> None:
    h = network_board([2, 1])
    board = h.board()
    a, b = h.supers[0]["subtrains"]
    (c,) = h.supers[1]["subtrains"]
    ev = evaluate(board, [h.route(a, h.L1, h.L, h.L2), h.route(b, h.L, h.L3), h.route(c, h.P, h.Q)])
    assert ev.legal, [f.message for f in ev.findings]
    assert ev.revenue == 180
    # The 2T serves cluster 1 (two routes, 100), the 1T cluster 2 (80): 180, every stop on the board.
    run(h, REVENUE_ONLY, 180)


# --------------------------------------------------------------------------- mines


def mine_board(trains: list[int]) -> Harz:
    """T1 (station 30) - M - T2 (station 20); M is an untokened city (printed 50, so it pays the stop
    value 10) with an open mine, multiplier 20."""
    h = Harz(home=["E5"])
    h.T1 = h.city("E5", 30, token=True)
    h.M = h.city("E7", 50)
    h.T2 = h.city("E9", 20, token=True)
    h.mine("E7", 20)
    h.lay(h.T1, (4, h.M))
    h.lay(h.M, (4, h.T2))
    for size in trains:
        h.train(size)
    return h


def test_mine_pays_largest_train_once() -> None:
    h = mine_board([2, 4])
    board = h.board()
    two, four = h.supers[0]["subtrains"][0], h.supers[1]["subtrains"][0]
    # 2T first: it gets M's city money (10), the 4T gets the mine: 20 x 4 = 80, paid once.
    ev = evaluate(board, [h.route(two, h.T1, h.M), h.route(four, h.M, h.T2)])
    assert ev.legal, [f.message for f in ev.findings]
    assert stop_revenues(ev) == [[30, 10], [80, 20]]
    assert ev.revenue == 140
    # the other order: the 4T is first at M (city money and mine), the 2T earns nothing there
    ev = evaluate(board, [h.route(four, h.T2, h.M), h.route(two, h.M, h.T1)])
    assert stop_revenues(ev) == [[20, 90], [0, 30]]
    assert ev.revenue == 140
    # Optimum: every stop once (30 + 10 + 20) plus the mine at the largest train visiting it,
    # 20 x 4 = 80: 140. A 4T route alone (T1-M-T2) gets the same; nothing can earn the mine twice.
    run(h, REVENUE_ONLY, 140)
    run(h, RULEBOOK, 140)


def test_mine_with_only_a_2t() -> None:
    h = mine_board([2])
    board = h.board()
    a, b = h.supers[0]["subtrains"]
    ev = evaluate(board, [h.route(a, h.T1, h.M), h.route(b, h.M, h.T2)])
    assert ev.legal, [f.message for f in ev.findings]
    assert ev.revenue == 30 + 10 + 20 * 2 + 20
    # Only the 2T visits the mine: 20 x 2 = 40, so the best is 30 + 10 + 40 + 20 = 100.
    run(h, REVENUE_ONLY, 100)


def test_every_route_needs_a_station() -> None:
    """T (station 10) - M1 (untokened, open mine x10) - M2 (untokened, open mine x20): both mines are
    termini, but a route between them alone has none of the company's stations."""
    h = Harz(home=["E5"])
    t = h.city("E5", 10, token=True)
    m1 = h.city("E7", 10)
    m2 = h.city("E9", 10)
    h.mine("E7", 10)
    h.mine("E9", 20)
    h.lay(t, (4, m1))
    h.lay(m1, (4, m2))
    a, b = h.train(2)
    ev = evaluate(h.board(), [h.route(a, t, m1), h.route(b, m1, m2)])
    assert [f.route for f in ev.findings if f.code == "NO_TOKEN"] == [1]
    assert not ev.legal
    # T-M1-M2 in one route: 10 + (10 + 10 x 2) + (10 + 20 x 2) = 90, every stop and both mines.
    run(h, REVENUE_ONLY, 90)


def test_mine_tie_goes_to_the_first_route() -> None:
    h = mine_board([2, 2])
    board = h.board()
    (a, _), (b, _) = h.supers[0]["subtrains"], h.supers[1]["subtrains"]
    ev = evaluate(board, [h.route(a, h.T1, h.M), h.route(b, h.M, h.T2)])
    assert ev.legal, [f.message for f in ev.findings]
    # two 2Ts at the mine: it pays 20 x 2 once, to the first route in action order
    assert stop_revenues(ev) == [[30, 10 + 40], [0, 20]]
    run(h, REVENUE_ONLY, 100)


def test_diesel_neither_takes_the_mine_nor_mining_money() -> None:
    h = mine_board([2])
    d1 = h.diesel()[0]
    board = h.board()
    a, b = h.supers[0]["subtrains"]
    # the diesel runs first and passes the mine: it still earns only 10 per city, and the mine and
    # the city money go to the mining routes (the two pools are priced apart)
    ev = evaluate(board, [h.route(d1, h.T1, h.M, h.T2), h.route(a, h.T1, h.M), h.route(b, h.M, h.T2)])
    assert ev.legal, [f.message for f in ev.findings]
    assert stop_revenues(ev) == [[10, 10, 10], [30, 10 + 40], [0, 20]]
    assert ev.revenue == 130
    # Mining: every stop and the mine at the 2T: 30 + 10 + 40 + 20 = 100. Diesel: T1-M-T2 is its only
    # route (M is no diesel end): 3 x 10 = 30. Total 130; RULEBOOK runs all three routes.
    run(h, REVENUE_ONLY, 130)
    res = run(h, RULEBOOK, 130)
    assert len(res.routes) == 3
    # no concession route here, but a company that owns a diesel must run at least one diesel route
    idle = evaluate(board, [h.route(a, h.T1, h.M), h.route(b, h.M, h.T2)])
    assert "MUST_RUN" in codes(idle)
    assert not idle.legal


def test_factory_pays_once_and_ends_routes() -> None:
    """S (station 20) - Fz (a town dot in a factory hex, factory 60) - E (station 10)."""
    h = Harz(home=["C3"])
    s = h.city("C3", 20, token=True)
    fz = h.town("C5", 30)
    h.factory("C5", 60)
    e = h.city("C7", 10, token=True)
    h.lay(s, (4, fz))
    h.lay(fz, (4, e))
    a, b = h.train(2)
    board = h.board()
    assert board.nodes[fz].extra["h1873"]["terminus"]  # a factory town is a terminus
    ev = evaluate(board, [h.route(a, s, fz), h.route(b, fz, e)])
    assert ev.legal, [f.message for f in ev.findings]
    assert stop_revenues(ev) == [[20, 60], [0, 10]]  # the factory once; the dot earns no city money
    # Every stop once: 20 + 60 + 10 = 90 (S-Fz-E in one route gets the same).
    run(h, REVENUE_ONLY, 90)


# --------------------------------------------------------------------------- each stop once


def stops_board(trains: list[int]) -> Harz:
    """S (station 50) with two branches: S - U - E1 and S - V - W - E2. U, V untokened cities (printed
    40, 30: they pay 10 each), W a town dot (printed 20: a dot earns no city money), E1, E2 stations 20."""
    h = Harz(home=["C5"])
    h.S = h.city("C5", 50, token=True)
    h.U = h.city("C7", 40)
    h.E1 = h.city("C9", 20, token=True)
    h.V = h.city("D4", 30)
    h.W = h.town("E3", 20)
    h.E2 = h.city("F2", 20, token=True)
    h.lay(h.S, (4, h.U))
    h.lay(h.U, (4, h.E1))
    h.lay(h.S, (0, h.V))
    h.lay(h.V, (0, h.W))
    h.lay(h.W, (0, h.E2))
    for size in trains:
        h.train(size)
    return h


def test_each_stop_counts_once_per_company() -> None:
    h = stops_board([2])
    board = h.board()
    a, b = h.supers[0]["subtrains"]
    ev = evaluate(board, [h.route(a, h.S, h.U, h.E1), h.route(b, h.S, h.V, h.W, h.E2)])
    assert ev.legal, [f.message for f in ev.findings]
    # S pays its 50 once (the second route through it earns 0 there); U and V pay 10, not 40 / 30;
    # the dot W pays nothing.
    assert stop_revenues(ev) == [[50, 10, 20], [0, 10, 0, 20]]
    assert ev.revenue == 110
    # All six stops once: 50 + 10 + 20 + 10 + 0 + 20 = 110 (one route E1-U-S-V-W-E2 gets the same).
    run(h, REVENUE_ONLY, 110)


def test_each_stop_counts_once_across_trains() -> None:
    h = stops_board([1, 1])
    board = h.board()
    (a,), (b,) = h.supers[0]["subtrains"], h.supers[1]["subtrains"]
    ev = evaluate(board, [h.route(a, h.E1, h.U, h.S), h.route(b, h.S, h.V, h.W, h.E2)])
    assert ev.legal, [f.message for f in ev.findings]
    assert stop_revenues(ev) == [[20, 10, 50], [0, 10, 0, 20]]
    assert ev.revenue == 110
    run(h, REVENUE_ONLY, 110)


# --------------------------------------------------------------------------- blocked villages


def blocked_board(trains: list[int], concession: bool) -> Harz:
    """F (station 10) - S (station 30, home) - B - E (station 20). B is a blocked village: its one slot
    holds another company's token (printed 50, with an open mine x20 that it must not pay)."""
    h = Harz(home=["C5"])
    h.S = h.city("C5", 30, token=True)
    h.B = h.city("C7", 50, blocked=True)
    h.mine("C7", 20)
    h.E = h.city("C9", 20, token=True)
    h.F = h.city("B4", 10, token=True)
    h.lay(h.S, (4, h.B))
    h.lay(h.B, (4, h.E))
    h.lay(h.S, (2, h.F))
    if concession:
        h.concession_route("C5", "C7", "C9")
    for size in trains:
        h.train(size)
    return h


def test_blocked_village_off_the_concession_route() -> None:
    h = blocked_board([2], concession=False)
    board = h.board()
    assert not board.nodes[h.B].extra["h1873"]["terminus"]  # the builder follows the engine's terminus?
    a, b = h.supers[0]["subtrains"]
    through = evaluate(board, [h.route(a, h.S, h.B, h.E)])
    assert "PASSES_BLOCKED" in codes(through)
    assert not through.legal
    assert stop_revenues(through)[0][1] == 0  # a blocked village earns nothing, not even its mine
    ending = evaluate(board, [h.route(a, h.F, h.S, h.B)])
    assert "NOT_A_TERMINUS" in codes(ending)
    assert not ending.legal
    assert stop_revenues(ending)[0][2] == 0
    # B can be neither passed nor ended at, so E is out of reach and the only legal route is
    # F-S: 10 + 30 = 40.
    res = run(h, REVENUE_ONLY, 40)
    assert {n for r in res.routes for n in r.nodes} == {h.F, h.S}


def test_blocked_village_on_the_concession_route() -> None:
    h = blocked_board([2], concession=True)
    board = h.board()
    a, b = h.supers[0]["subtrains"]
    ev = evaluate(board, [h.route(a, h.S, h.B, h.E), h.route(b, h.S, h.F)])
    assert ev.legal, [f.message for f in ev.findings]
    assert "PASSES_BLOCKED" not in codes(ev)
    assert stop_revenues(ev) == [[30, 0, 20], [0, 10]]  # B passed but pays 0 (nor its mine)
    assert ev.revenue == 60
    ending = evaluate(board, [h.route(a, h.S, h.B, h.E), h.route(b, h.F, h.S, h.B)])
    assert "NOT_A_TERMINUS" in codes(ending)  # still no end, even on the concession route
    # The concession route S-B-E (30 + 0 + 20) must be run exactly; the 2T's other route F-S meets it
    # at S and adds F: 60. (F-S-B-E in one route covers more hexes than the concession route.)
    run(h, REVENUE_ONLY, 60)
    run(h, RULEBOOK, 60)


def test_blocked_village_concession_with_one_route() -> None:
    h = blocked_board([1], concession=True)
    board = h.board()
    (a,) = h.supers[0]["subtrains"]
    longer = evaluate(board, [h.route(a, h.F, h.S, h.B, h.E)])
    assert "PASSES_BLOCKED" not in codes(longer)  # it covers the concession route, so may pass B
    assert "CONCESSION_NOT_RUN" in codes(longer)  # but its hex set is not exactly the concession route
    assert not longer.legal
    # The 1T's one route must be exactly the concession route S-B-E: 30 + 0 + 20 = 50.
    run(h, REVENUE_ONLY, 50)


def crossing_board(trains: list[int]) -> Harz:
    """The concession route S (station 30) - B (blocked village) - E (station 20), hexes C5, C7, C9.
    A second line G (station 10) - B - H (station 10) crosses B on its own track, running edge to edge
    through C5 and C9 (not through S or E), so its hexes include the whole concession route and it,
    too, may pass B. The two lines share only the blocked B."""
    h = Harz(home=["C5"])
    h.S = h.city("C5", 30, token=True)
    h.B = h.city("C7", 50, blocked=True)
    h.E = h.city("C9", 20, token=True)
    h.G = h.city("B4", 10, token=True)
    h.H = h.city("D10", 10, token=True)
    h.lay(h.S, (4, h.B))
    h.lay(h.B, (4, h.E))
    h.lay(h.G, (5, "C5"), (5, "D6"), (3, h.B))
    h.lay(h.B, (5, "D8"), (3, "C9"), (5, h.H))
    h.concession_route("C5", "C7", "C9")
    for size in trains:
        h.train(size)
    return h


def test_blocked_village_is_no_meeting_point() -> None:
    h = crossing_board([2])
    board = h.board()
    a, b = h.supers[0]["subtrains"]
    ev = evaluate(board, [h.route(a, h.S, h.B, h.E), h.route(b, h.G, h.B, h.H)])
    assert "PASSES_BLOCKED" not in codes(ev)
    assert "NOT_CONNECTED" in codes(ev)  # they share only B, which blocks the company
    assert not ev.legal
    # The 2T must run the concession route S-B-E (30 + 0 + 20); its second route would have to meet it
    # at S or E, whose only track is the concession route's: 50.
    run(h, REVENUE_ONLY, 50)


def test_blocked_village_crossed_by_two_trains() -> None:
    h = crossing_board([1, 1])
    board = h.board()
    (a,), (b,) = h.supers[0]["subtrains"], h.supers[1]["subtrains"]
    ev = evaluate(board, [h.route(a, h.S, h.B, h.E), h.route(b, h.G, h.B, h.H)])
    assert ev.legal, [f.message for f in ev.findings]
    assert stop_revenues(ev) == [[30, 0, 20], [10, 0, 10]]
    # Two trains need not meet: the concession route (50) and G-B-H (20): 70, every paying stop.
    run(h, REVENUE_ONLY, 70)


# --------------------------------------------------------------------------- two-city hexes


def two_city_board(trains: list[int]) -> Harz:
    """Hex C5 holds two cities: D0 (the company's station, 40) and D1 (untokened, printed 50: pays 10),
    joined inside the hex. S (station 20) - D0; E (station 20) - D1 - F (station 10)."""
    h = Harz(home=["B4"])
    h.S = h.city("B4", 20, token=True)
    h.D0 = h.city("C5", 40, token=True)
    h.D1 = h.city("C5", 50)
    h.E = h.city("C3", 20, token=True)
    h.F = h.city("C7", 10, token=True)
    h.lay(h.S, (5, h.D0))
    h.lay(h.E, (4, h.D1))
    h.lay(h.D1, (4, h.F))
    h.lay_inside(h.D0, h.D1)
    for size in trains:
        h.train(size)
    return h


def test_two_city_hex_pays_once() -> None:
    h = two_city_board([1, 1])
    board = h.board()
    (a,), (b,) = h.supers[0]["subtrains"], h.supers[1]["subtrains"]
    best_first = evaluate(board, [h.route(a, h.S, h.D0), h.route(b, h.E, h.D1, h.F)])
    assert best_first.legal, [f.message for f in best_first.findings]
    assert stop_revenues(best_first) == [[20, 40], [20, 0, 10]]
    assert best_first.revenue == 90
    # in action order the first route at the hex takes its city money: D1's 10, and D0 then pays 0
    worse_first = evaluate(board, [h.route(b, h.E, h.D1, h.F), h.route(a, h.S, h.D0)])
    assert stop_revenues(worse_first) == [[20, 10, 10], [20, 0]]
    assert worse_first.revenue == 60
    # Optimum: every stop, hex C5 once at its better city (40): 20 + 40 + 20 + 10 = 90.
    run(h, REVENUE_ONLY, 90)


def test_mining_route_may_not_visit_both_cities_of_a_hex() -> None:
    h = two_city_board([1, 1])
    board = h.board()
    (a,) = h.supers[0]["subtrains"]
    ev = evaluate(board, [h.route(a, h.S, h.D0, h.D1, h.F)])
    assert "HEX_TWICE" in codes(ev)
    assert not ev.legal


def test_two_city_hex_routes_meet_only_at_one_city() -> None:
    h = two_city_board([2])
    board = h.board()
    a, b = h.supers[0]["subtrains"]
    ev = evaluate(board, [h.route(a, h.S, h.D0), h.route(b, h.E, h.D1, h.F)])
    assert "NOT_CONNECTED" in codes(ev)  # same hex, different stops: the routes do not meet
    # The 2T's routes must share a stop, and no route may use both D0 and D1, so S-D0 (60) and
    # E-D1-F (40) cannot both run: the best is S-D0 = 60.
    run(h, REVENUE_ONLY, 60)


def test_diesel_may_visit_both_cities_of_a_hex() -> None:
    h = two_city_board([1, 1])
    d1 = h.diesel()[0]
    board = h.board()
    (a,), (b,) = h.supers[0]["subtrains"], h.supers[1]["subtrains"]
    ev = evaluate(board, [h.route(a, h.S, h.D0), h.route(b, h.E, h.D1, h.F), h.route(d1, h.S, h.D0, h.D1, h.F)])
    assert "HEX_TWICE" not in codes(ev)  # the one-visit-per-hex rule is for mining routes
    assert ev.legal, [f.message for f in ev.findings]
    assert stop_revenues(ev)[2] == [10, 10, 10, 10]  # both cities of C5 pay 10 on the one diesel route
    assert ev.revenue == 90 + 40


def test_crossed_two_city_hexes() -> None:
    """Hexes P5 and Q5 each hold a station (40) and an untokened city (pays 10). Route r1 runs
    P0 - Q1 - T1, route r2 Q0 - P1 - T2 (T1, T2 stations 10), each on a 1T of its own."""
    h = Harz(home=["P5"])
    p0, p1 = h.city("P5", 40, token=True), h.city("P5", 10)
    q0, q1 = h.city("Q5", 40, token=True), h.city("Q5", 10)
    t1, t2 = h.city("T1", 10, token=True), h.city("T2", 10, token=True)
    h.lay(p0, (4, q1))
    h.lay(q1, (4, t1))
    h.lay(q0, (0, "X1"), (2, p1))
    h.lay(p1, (1, t2))
    (a,), (b,) = h.train(1), h.train(1)
    board = h.board()
    r1, r2 = h.route(a, p0, q1, t1), h.route(b, q0, p1, t2)
    # whichever route comes first takes the city money of both hexes (40 + 10), the other only its T
    for claims in ([r1, r2], [r2, r1]):
        ev = evaluate(board, claims)
        assert ev.legal, [f.message for f in ev.findings]
        assert stop_revenues(ev) == [[40, 10, 10], [0, 0, 10]]
        assert ev.revenue == 70
    # These are the only two routes. Both together earn 70 in either order (the "best city of each
    # hex", 40 + 40 + 10 + 10 = 100, is reached by no order); one alone earns 60. Optimum 70, two routes.
    for objective in (REVENUE_ONLY, RULEBOOK):
        res = run(h, objective, 70)
        assert len(res.routes) == 2


def test_mine_tie_in_a_two_city_hex() -> None:
    """Hex M5: a station X0 (40) and an untokened city X1 (10), with an open mine x20. X0 - T1 and
    T2 - X1 (T1, T2 stations 10), each on a 1T of its own. Run with two namings of T1 and T2 (the
    candidate order follows the node ids)."""
    for t1_hex, t2_hex in (("A1", "Z1"), ("Z9", "A1")):
        h = Harz(home=["M5"])
        x0, x1 = h.city("M5", 40, token=True), h.city("M5", 10)
        h.mine("M5", 20)
        t1, t2 = h.city(t1_hex, 10, token=True), h.city(t2_hex, 10, token=True)
        h.lay(x0, (4, t1))
        h.lay(x1, (1, t2))
        (a,), (b,) = h.train(1), h.train(1)
        board = h.board()
        # the first route at M5 takes its city money and (two 1Ts tie) the mine
        good = evaluate(board, [h.route(a, x0, t1), h.route(b, t2, x1)])
        assert good.legal, [f.message for f in good.findings]
        assert stop_revenues(good) == [[40 + 20, 10], [10, 0]]
        bad = evaluate(board, [h.route(b, t2, x1), h.route(a, x0, t1)])
        assert stop_revenues(bad) == [[10, 10 + 20], [0, 10]]
        # Optimum: both routes with X0's route first: 40 + 20 + 10 + 10 = 80 (X0 - T1 alone is 70).
        for objective in (REVENUE_ONLY, RULEBOOK):
            res = run(h, objective, 80)
            assert len(res.routes) == 2, (t1_hex, t2_hex)


# --------------------------------------------------------------------------- towns (framed hexes)


def town_board(trains: list[int]) -> Harz:
    """S (station 20) - T (station 40 in a framed hex, a "town") - E (station 30)."""
    h = Harz(home=["C5"])
    h.S = h.city("C3", 20, token=True)
    h.T = h.city("C5", 40, token=True, framed=True)
    h.E = h.city("C7", 30, token=True)
    h.lay(h.S, (4, h.T))
    h.lay(h.T, (4, h.E))
    for size in trains:
        h.train(size)
    return h


def test_town_ends_a_route() -> None:
    h = town_board([2])
    board = h.board()
    a, b = h.supers[0]["subtrains"]
    through = evaluate(board, [h.route(a, h.S, h.T, h.E)])
    assert "PASSES_TOWN" in codes(through)
    assert not through.legal
    ends = evaluate(board, [h.route(a, h.S, h.T), h.route(b, h.T, h.E)])
    assert ends.legal, [f.message for f in ends.findings]
    assert ends.revenue == 90
    # Two routes ending at T (meeting there): 20 + 40 + 30 = 90.
    run(h, REVENUE_ONLY, 90)


def test_town_ends_the_only_route() -> None:
    # One route cannot pass T: the better half is T-E = 40 + 30 = 70 (S-T is 60).
    run(town_board([1]), REVENUE_ONLY, 70)


# --------------------------------------------------------------------------- diesels


def diesel_board() -> Harz:
    """Concession route A - B - C (hexes B3, B5, B7). A station 30 (home), B untokened (printed 40: 10),
    C station 20. From C: G (station 50) - H (station 10), and M (untokened city, printed 10, open mine
    x20: a mining terminus but not a diesel one). Trains: a 2T and the diesel."""
    h = Harz(home=["B3"])
    h.A = h.city("B3", 30, token=True)
    h.B = h.city("B5", 40)
    h.C = h.city("B7", 20, token=True)
    h.G = h.city("A8", 50, token=True)
    h.H = h.city("A10", 10, token=True)
    h.M = h.city("C8", 10)
    h.mine("C8", 20)
    h.lay(h.A, (4, h.B))
    h.lay(h.B, (4, h.C))
    h.lay(h.C, (3, h.G))
    h.lay(h.G, (3, h.H))
    h.lay(h.C, (5, h.M))
    h.concession_route("B3", "B5", "B7")
    h.train(2)
    h.diesel()
    return h


def diesel_mining(h: Harz) -> list[ClaimedRoute]:
    a, b = h.supers[0]["subtrains"]
    return [h.route(a, h.A, h.B, h.C), h.route(b, h.H, h.G, h.C, h.M)]


def test_diesel_legal_run_prices() -> None:
    h = diesel_board()
    board = h.board()
    d1, d2 = h.diesel_pool[:2]
    # the diesel runs the concession route on the very track the 2T uses: separate pools
    ev = evaluate(board, diesel_mining(h) + [h.route(d1, h.A, h.B, h.C), h.route(d2, h.C, h.G, h.H)])
    assert ev.legal, [f.message for f in ev.findings]
    # mining: A 30, B 10, C 20 | H 10, G 50, C already paid, M 10 + mine 20 x 2;
    # diesel: 10 per city hex not yet visited by a diesel, printed values ignored.
    assert stop_revenues(ev) == [[30, 10, 20], [10, 50, 0, 50], [10, 10, 10], [0, 10, 10]]
    assert ev.revenue == 220


def test_diesel_visits_keep_tokens_active() -> None:
    h = diesel_board()
    board = h.board()
    a, b = h.supers[0]["subtrains"]
    d1, d2 = h.diesel_pool[:2]
    ev = evaluate(board, [h.route(a, h.A, h.B, h.C), h.route(b, h.C, h.M), h.route(d1, h.A, h.B, h.C),
                          h.route(d2, h.C, h.G, h.H)])
    assert ev.legal, [f.message for f in ev.findings]
    # G and H are visited by the diesel only: visited by a route of any type, they stay active
    assert ev.extras.token_status == {h.A: "active", h.C: "active", h.G: "active", h.H: "active"}
    ev = evaluate(board, [h.route(a, h.A, h.B, h.C), h.route(b, h.C, h.M), h.route(d1, h.A, h.B, h.C)])
    assert ev.extras.token_status == {h.A: "active", h.C: "active", h.G: "flipped", h.H: "flipped"}


def test_diesel_ends_at_own_stations() -> None:
    h = diesel_board()
    board = h.board()
    d1, d2 = h.diesel_pool[:2]
    ev = evaluate(board, diesel_mining(h) + [h.route(d1, h.A, h.B, h.C), h.route(d2, h.C, h.M)])
    assert "NOT_A_TERMINUS" in codes(ev)  # M is an open mine, a terminus for mining routes only
    assert [f.route for f in ev.findings if f.code == "NOT_A_TERMINUS"] == [3]
    assert not ev.legal


def test_diesel_must_run_the_concession_route() -> None:
    h = diesel_board()
    board = h.board()
    d1 = h.diesel_pool[0]
    other = evaluate(board, diesel_mining(h) + [h.route(d1, h.C, h.G, h.H)])
    assert "CONCESSION_NOT_RUN" in codes(other)
    assert not other.legal
    none = evaluate(board, diesel_mining(h))
    assert "CONCESSION_NOT_RUN" in codes(none)
    assert not none.legal


def test_diesel_routes_form_one_network() -> None:
    h = diesel_board()
    board = h.board()
    d1, d2 = h.diesel_pool[:2]
    ev = evaluate(board, diesel_mining(h) + [h.route(d1, h.A, h.B, h.C), h.route(d2, h.G, h.H)])
    assert "NOT_CONNECTED" in codes(ev)
    assert [f.route for f in ev.findings if f.code == "NOT_CONNECTED"] == [3]
    assert not ev.legal


def test_diesel_routes_share_no_track() -> None:
    h = diesel_board()
    board = h.board()
    d1, d2, d3 = h.diesel_pool[:3]
    ev = evaluate(board, diesel_mining(h) + [h.route(d1, h.A, h.B, h.C), h.route(d2, h.C, h.G, h.H),
                                             h.route(d3, h.H, h.G)])
    assert "SHARED_TRACK" in codes(ev)
    assert not ev.legal


def test_diesel_optimum() -> None:
    h = diesel_board()
    # Mining: the concession route A-B-C (60) is compulsory; the 2T's second route H-G-C-M meets it
    # at C and adds H 10 + G 50 + M 10 + mine 20 x 2 = 110: 170, every mining stop on the board.
    # Diesel: A-B-C (compulsory, 30) and C-G-H (20) meet at C; M is no diesel end, so 50 is all the
    # diesel can reach. Total 220.
    res = run(h, REVENUE_ONLY, 220)
    diesel_routes = [r for r in res.routes if r.train.startswith("D-")]
    assert sum(r.revenue for r in diesel_routes) == 50
    # RULEBOOK: at most 2 mining routes (a 2T) and 3 diesel routes (A-B-C, C-G, G-H: each diesel
    # route needs its own track and diesel ends); the 5-route run still earns 220.
    res = run(h, RULEBOOK, 220)
    assert len(res.routes) == 5
    assert res.extras.routes_serviced == 5


# --------------------------------------------------------------------------- concession routes


def concession_board(trains: list[int], variant: str = "plain") -> Harz:
    """A (station 30, home) - X - C (station 20) - D (station 40); X is a hex with only straight track.
    The concession route is A-X-C (hexes B3, B5, B7). Variants: "dead_end": C untokened (no terminus),
    "town": X holds a framed town (station 10) that a route cannot pass."""
    h = Harz(home=["B3"])
    h.A = h.city("B3", 30, token=True)
    h.C = h.city("B7", 20, token=variant != "dead_end")
    h.D = h.city("B9", 40, token=True)
    if variant == "town":
        h.X = h.city("B5", 10, token=True, framed=True)
        h.lay(h.A, (4, h.X))
        h.lay(h.X, (4, h.C))
    else:
        h.lay(h.A, (4, "B5"), (4, h.C))
    h.lay(h.C, (4, h.D))
    h.concession_route("B3", "B5", "B7")
    for size in trains:
        h.train(size)
    return h


def test_concession_route_exact_hex_set() -> None:
    h = concession_board([1])
    board = h.board()
    (a,) = h.supers[0]["subtrains"]
    exact = evaluate(board, [h.route(a, h.A, h.C)])  # its track runs through B5, a hex without a stop
    assert exact.legal, [f.message for f in exact.findings]
    assert exact.revenue == 50
    longer = evaluate(board, [h.route(a, h.A, h.C, h.D)])
    assert "CONCESSION_NOT_RUN" in codes(longer)
    assert not longer.legal
    # The 1T's one route must be the concession route A-X-C: 30 + 20 = 50 (A-X-C-D, 90, is not it).
    run(h, REVENUE_ONLY, 50)


def test_concession_route_plus_second_route() -> None:
    h = concession_board([2])
    board = h.board()
    a, b = h.supers[0]["subtrains"]
    ev = evaluate(board, [h.route(a, h.A, h.C), h.route(b, h.C, h.D)])
    assert ev.legal, [f.message for f in ev.findings]
    # A-X-C (50) and C-D meeting at C (+40): 90.
    run(h, REVENUE_ONLY, 90)
    run(h, RULEBOOK, 90)


def test_concession_route_by_another_train() -> None:
    h = concession_board([1, 1])
    board = h.board()
    (a,), (b,) = h.supers[0]["subtrains"], h.supers[1]["subtrains"]
    ev = evaluate(board, [h.route(a, h.C, h.D), h.route(b, h.A, h.C)])
    assert ev.legal, [f.message for f in ev.findings]
    assert ev.revenue == 90
    run(h, REVENUE_ONLY, 90)


def test_concession_route_unrunnable_is_infeasible() -> None:
    for variant in ("dead_end", "town"):
        h = concession_board([2], variant)
        board = h.board()
        a, b = h.supers[0]["subtrains"]
        if variant == "dead_end":
            ev = evaluate(board, [h.route(a, h.A, h.C)])
            assert "NOT_A_TERMINUS" in codes(ev)
        else:
            ev = evaluate(board, [h.route(a, h.A, h.X, h.C)])
            assert "PASSES_TOWN" in codes(ev)
        assert not ev.legal
        # No legal route has exactly the hex set B3-B5-B7 (it would end at the untokened C, or pass the
        # town X), so no legal run exists at all.
        for objective in (REVENUE_ONLY, RULEBOOK):
            res = solve(board, SolveOptions(time_limit_s=15.0, objective=objective))
            assert res.status == "INFEASIBLE", (variant, objective, res.status, res.revenue)
            assert res.revenue == 0
            assert res.routes == []


# --------------------------------------------------------------------------- QLB


def qlb_board(qlb: bool) -> Harz:
    """R (station 20) - Q (Quedlinburg E20: framed, station 60, home). QLB: no concession route,
    bonus 60 (E20's value for a 1T); a 1T with maintenance 50 (phase 3)."""
    h = Harz(company="QLB" if qlb else "HBE", home=["E20"], qlb=qlb, qlb_bonus=60 if qlb else 0, phase="3")
    h.R = h.city("E18", 20, token=True)
    h.Q = h.city("E20", 60, token=True, framed=True)
    h.lay(h.R, (4, h.Q))
    h.train(1, maintenance=50)
    return h


def test_qlb_bonus_and_exemptions() -> None:
    h = qlb_board(True)
    board = h.board()
    (a,) = h.supers[0]["subtrains"]
    ev = evaluate(board, [h.route(a, h.R, h.Q)])
    assert ev.legal, [f.message for f in ev.findings]
    assert ev.revenue == 80
    assert ev.extras.maintenance == 50
    assert ev.extras.qlb_bonus == 60
    assert ev.extras.net_revenue == 80 - 50 + 60
    # QLB is exempt from the concession and must-run rules: no run at all is legal, and the bonus
    # still comes.
    idle = evaluate(board, [])
    assert idle.legal, [f.message for f in idle.findings]
    assert idle.extras.net_revenue == 0 - 50 + 60
    # nothing visited: the home token (E20) stays active, R flips (QLB has no concession route)
    assert idle.extras.token_status == {h.R: "flipped", h.Q: "active"}
    # R-Q is the only route: 20 + 60 = 80; net 80 - 50 + 60 = 90.
    res = run(h, REVENUE_ONLY, 80)
    assert res.extras.qlb_bonus == 60
    assert res.extras.net_revenue == 90


def test_non_qlb_must_run() -> None:
    h = qlb_board(False)
    board = h.board()
    idle = evaluate(board, [])
    assert "MUST_RUN" in codes(idle)
    assert not idle.legal
    assert idle.extras.qlb_bonus == 0
    # same route, no bonus: net 80 - 50 = 30
    res = run(h, REVENUE_ONLY, 80)
    assert res.extras.net_revenue == 30


# --------------------------------------------------------------------------- maintenance, token status


def token_board() -> Harz:
    """H (home, station 30) - K (station 10): the concession route (C5, C7). V (station 20) hangs off H.
    W (station 40) has no track. A 2T and a 1T, maintenance 100 each (phase 4)."""
    h = Harz(home=["C5"], phase="4")
    h.H = h.city("C5", 30, token=True)
    h.K = h.city("C7", 10, token=True)
    h.V = h.city("C3", 20, token=True)
    h.W = h.city("F9", 40, token=True)
    h.lay(h.H, (4, h.K))
    h.lay(h.H, (1, h.V))
    h.concession_route("C5", "C7")
    h.train(2, maintenance=100)
    h.train(1, maintenance=100)
    return h


def test_maintenance_and_token_status() -> None:
    h = token_board()
    board = h.board()
    (one,) = h.supers[1]["subtrains"]
    ev = evaluate(board, [h.route(one, h.H, h.K)])
    assert ev.legal, [f.message for f in ev.findings]
    assert ev.revenue == 40
    assert ev.extras.maintenance == 200
    assert ev.extras.net_revenue == 40 - 200
    assert ev.extras.token_status == {h.H: "active", h.K: "active", h.V: "flipped", h.W: "flipped"}
    # The concession route H-K (40) must be run on its own (V-H-K is not its hex set); a second route
    # H-V (of the 2T, or the other train) adds V: 60. W cannot be reached. Net 60 - 200 = -140.
    res = run(h, REVENUE_ONLY, 60)
    assert res.extras.maintenance == 200
    assert res.extras.net_revenue == -140
    assert res.extras.token_status == {h.H: "active", h.K: "active", h.V: "active", h.W: "flipped"}


def test_token_status_without_a_run() -> None:
    h = token_board()
    ev = evaluate(h.board(), [])
    assert "CONCESSION_NOT_RUN" in codes(ev)
    assert ev.extras.net_revenue == -200
    # nothing visited: the home token and the concession-route token stay active, the others flip
    assert ev.extras.token_status == {h.H: "active", h.K: "active", h.V: "flipped", h.W: "flipped"}


# --------------------------------------------------------------------------- the service rule


def service_board() -> Harz:
    """A 2T. Cluster 1: S (station 10, home) with spokes A, B (stations 10): two routes, 30.
    Cluster 2, not linked to it: Y (station 10) - Z (station 100): one route, 110."""
    h = Harz(home=["C5"])
    h.S = h.city("C5", 10, token=True)
    h.A = h.city("C3", 10, token=True)
    h.B = h.city("C7", 10, token=True)
    h.lay(h.S, (1, h.A))
    h.lay(h.S, (4, h.B))
    h.Y = h.city("G5", 10, token=True)
    h.Z = h.city("G7", 100, token=True)
    h.lay(h.Y, (4, h.Z))
    h.train(2)
    return h


def test_rulebook_services_most_routes() -> None:
    h = service_board()
    # The 2T's routes must meet, so it serves one cluster. Cluster 1 takes two routes (S-A, S-B) for 30;
    # cluster 2 one route for 110. RULEBOOK (as many routes as possible, then revenue): 2 routes, 30.
    res = run(h, RULEBOOK, 30)
    assert len(res.routes) == 2
    assert res.extras.routes_serviced == 2
    assert {n for r in res.routes for n in r.nodes} == {h.S, h.A, h.B}
    # REVENUE_ONLY: Y-Z, 110, one route.
    res = run(h, REVENUE_ONLY, 110)
    assert len(res.routes) == 1
    assert set(res.routes[0].nodes) == {h.Y, h.Z}


def test_default_objective_is_rulebook() -> None:
    h = service_board()
    res = solve(h.board(), SolveOptions(time_limit_s=15.0))
    assert res.status == "OPTIMAL"
    assert res.revenue == 30
    assert len(res.routes) == 2


def test_the_core_prepares_the_1873_context_once_per_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Ruleset.prepare` gathers the Harzbahn facts once; solve, its re-check, the evaluation and the
    service rule's advice all read that one context."""
    import solver.rulesets.r_1873.ruleset as ruleset_1873
    from solver.evaluator import evaluate_with_advice

    calls: list[int] = []
    real = ruleset_1873.harzbahn

    def counted(board):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(board)

    board = network_board([3, 2]).board()  # read and validated (the validation checks the facts too)
    monkeypatch.setattr(ruleset_1873, "harzbahn", counted)
    res = solve(board, SolveOptions(time_limit_s=15.0))
    assert res.status == "OPTIMAL" and len(calls) == 1
    claims = [ClaimedRoute(train=r.train, nodes=list(r.nodes), legs=[list(leg.paths) for leg in r.legs])
              for r in res.routes[:1]]
    evaluate_with_advice(board, claims, time_limit_s=15.0)
    assert len(calls) == 2
