"""The generic 18xx route rules (FORMAT.md, "How a route is formed"), one small hand-built board each.

Every board is tiny enough that its optimum can be worked out by hand; the comment above each
expected value says why it is the optimum. Each rule is checked twice: the evaluator must price a
legal claim right and name the specific rule an illegal claim breaks, and the optimiser must find
exactly the hand-computed revenue, prove it (status OPTIMAL), and return routes the evaluator accepts.
"""

from __future__ import annotations

from typing import Any

import pytest

from solver.evaluator import evaluate
from solver.model.board import Board
from solver.model.results import ClaimedRoute, Evaluation, SolveOptions, SolveResult
from solver.optimiser import solve
from tests.support.boards import BoardBuilder, chain_board, line

Spec = tuple[str, int, dict[str, Any]]


# --------------------------------------------------------------------------- helpers


def row(b: BoardBuilder, specs: list[Spec | None], prefix: str = "H",
        track: str = "broad") -> tuple[list[str | None], list[list[str]]]:
    """Hexes `<prefix>0..` in a row joined by straight track (edge 4 of each meets edge 1 of the next).

    Each spec is `(kind, revenue, fields)` for the hex's one node (`kind` is a BoardBuilder method:
    city, town, offboard), or None for an empty hex with a straight 1-4 path. Returns the node ids
    (None for empty hexes) and, per gap between consecutive hexes, the two path ids crossing it.
    """
    hexes = [f"{prefix}{i}" for i in range(len(specs))]
    line(b, hexes)
    nodes: list[str | None] = []
    ins: list[str | None] = []
    outs: list[str | None] = []
    last = len(specs) - 1
    for i, (h, spec) in enumerate(zip(hexes, specs)):
        if spec is None:
            nodes.append(None)
            p = b.path(h, 1, 4, track=track)
            ins.append(p)
            outs.append(p)
            continue
        kind, revenue, fields = spec
        nid = getattr(b, kind)(h, revenue, **fields)
        nodes.append(nid)
        ins.append(b.path(h, 1, nid, track=track) if i > 0 else None)
        outs.append(b.path(h, nid, 4, track=track) if i < last else None)
    gaps = [[outs[i], ins[i + 1]] for i in range(last)]
    return nodes, gaps  # type: ignore[return-value]


def chain_legs(gaps: list[list[str]], idx: list[int]) -> list[list[str]]:
    """The legs of a route along a `row` that stops at the hexes `idx` in this order; empty hexes in
    between are passed through (their one path ends both gaps around it, so it is listed once)."""
    legs = []
    for a, c in zip(idx, idx[1:]):
        lo, hi = min(a, c), max(a, c)
        flat: list[str] = []
        for pid in (pid for g in gaps[lo:hi] for pid in g):
            if not flat or flat[-1] != pid:
                flat.append(pid)
        legs.append(flat if a < c else flat[::-1])
    return legs


def city(revenue: int, **fields: Any) -> Spec:
    return ("city", revenue, fields)


def town(revenue: int, **fields: Any) -> Spec:
    return ("town", revenue, fields)


def offboard(revenue: int, **fields: Any) -> Spec:
    return ("offboard", revenue, fields)


def claim(train: str, nodes: list[str], legs: list[list[str]]) -> ClaimedRoute:
    return ClaimedRoute(train=train, nodes=list(nodes), legs=[list(leg) for leg in legs])


def codes(ev: Evaluation) -> set[str]:
    return {f.code for f in ev.findings}


def assert_legal(board: Board, claims: list[ClaimedRoute], revenue: int) -> Evaluation:
    ev = evaluate(board, claims)
    assert ev.findings == [], [f.message for f in ev.findings]
    assert ev.legal
    assert ev.revenue == revenue
    return ev


def assert_illegal(board: Board, claims: list[ClaimedRoute], expected: set[str]) -> Evaluation:
    ev = evaluate(board, claims)
    assert not ev.legal
    assert codes(ev) == expected, [f.message for f in ev.findings]
    return ev


def assert_optimum(board: Board, revenue: int) -> SolveResult:
    """solve() proves exactly `revenue`, and its routes are legal and priced the same by evaluate()."""
    res = solve(board, SolveOptions(time_limit_s=10.0))
    assert res.status == "OPTIMAL"
    assert res.revenue == revenue
    assert sum(r.revenue for r in res.routes) == revenue
    trains = [r.train for r in res.routes]
    assert len(trains) == len(set(trains)), "a train runs two routes"
    assert set(trains) <= {t.id for t in board.trains}
    again = evaluate(board, [claim(r.train, r.nodes, [list(leg.paths) for leg in r.legs]) for r in res.routes])
    assert again.legal, [f.message for f in again.findings]
    assert again.revenue == revenue
    return res


def route_nodes(res: SolveResult) -> list[set[str]]:
    return sorted((set(r.nodes) for r in res.routes), key=lambda s: sorted(s))


# --------------------------------------------------------------------------- rule 1: at least two stops


def local_board() -> tuple[Board, list[str], list[list[str]]]:
    """T (tokened, 40) - B (30); a "2" train and a local "L" train of length 1."""
    b = BoardBuilder()
    nodes, gaps = row(b, [city(40, token=True), city(30)])
    b.train("2-0", 2)
    b.train("L-0", 1, local=True)
    return b.board(), nodes, gaps  # type: ignore[return-value]


def test_evaluator_route_needs_two_stops_unless_local() -> None:
    board, (t, c), gaps = local_board()
    assert_illegal(board, [claim("2-0", [t], [])], {"TOO_FEW_STOPS"})
    # the local train may run its tokened city alone ...
    assert_legal(board, [claim("L-0", [t], [])], 40)
    # ... but not an untokened one, and its length 1 does not admit two stops
    assert_illegal(board, [claim("L-0", [c], [])], {"TOO_FEW_STOPS", "NO_TOKEN"})
    assert_illegal(board, [claim("L-0", [t, c], gaps)], {"TOO_LONG"})
    assert_legal(board, [claim("2-0", [t, c], gaps), claim("L-0", [t], [])], 110)


def test_optimiser_local_train_runs_single_tokened_city() -> None:
    # The "2" train runs T-B = 40 + 30 = 70; the local train may only run T alone (length 1) for 40.
    # Both may visit T: routes share no track (a local route uses none). 70 + 40 = 110.
    board, (t, _c), _ = local_board()
    res = assert_optimum(board, 110)
    by_train = {r.train: r.nodes for r in res.routes}
    assert by_train["L-0"] == [t]


def test_optimiser_single_stop_is_no_route_for_a_normal_train() -> None:
    # A tokened city with no track at all: a "2" train can form no route of two stops, so 0;
    # a local train runs the city alone for 40.
    b = BoardBuilder()
    b.city("H0", 40, token=True)
    b.train("2-0", 2)
    res = assert_optimum(b.board(), 0)
    assert res.routes == []
    b.train("L-0", 1, local=True)
    assert_optimum(b.board(), 40)


# --------------------------------------------------------------------------- rule 2: token


def test_evaluator_route_needs_company_token() -> None:
    b, (a, c, d) = chain_board([10, 50, 40], token_at=0)
    b.train("2-0", 2)
    board = b.board()
    assert_illegal(board, [claim("2-0", [c, d], [["H1.p1", "H2.p0"]])], {"NO_TOKEN"})
    assert_legal(board, [claim("2-0", [a, c], [["H0.p0", "H1.p0"]])], 60)


def test_optimiser_route_needs_company_token() -> None:
    # B-C (50 + 40 = 90) would pay most, but only A has the token: the best 2-stop route with A is A-B = 60.
    b, _ = chain_board([10, 50, 40], token_at=0)
    b.train("2-0", 2)
    res = assert_optimum(b.board(), 60)
    assert route_nodes(res) == [{"H0.city0", "H1.city0"}]


def test_optimiser_token_may_be_in_the_middle() -> None:
    # The token is at B in the middle; a 3-train runs A-B-C = 50 + 10 + 40 = 100 (every node).
    b, _ = chain_board([50, 10, 40], token_at=1)
    b.train("3-0", 3)
    assert_optimum(b.board(), 100)


# --------------------------------------------------------------------------- rule 3: no node / group twice


def triangle_board() -> tuple[Board, dict[str, str], dict[str, list[str]]]:
    """Three mutually adjacent hexes: A (tokened, 10), B (20), C (30); a 4-train."""
    b = BoardBuilder()
    b.link("H0", 4, "H1")
    b.link("H0", 5, "H2")
    b.link("H1", 0, "H2")
    a = b.city("H0", 10, token=True)
    c_b = b.city("H1", 20)
    c_c = b.city("H2", 30)
    a4, a5 = b.path("H0", a, 4), b.path("H0", a, 5)
    b1, b0 = b.path("H1", 1, c_b), b.path("H1", c_b, 0)
    c2, c3 = b.path("H2", 2, c_c), b.path("H2", 3, c_c)
    b.train("4-0", 4)
    legs = {"AB": [a4, b1], "BC": [b0, c3], "CA": [c2, a5]}
    return b.board(), {"A": a, "B": c_b, "C": c_c}, legs


def test_evaluator_node_twice() -> None:
    board, n, legs = triangle_board()
    # round trip A-B-C-A: no track repeats, but A is visited twice
    assert_illegal(board, [claim("4-0", [n["A"], n["B"], n["C"], n["A"]], [legs["AB"], legs["BC"], legs["CA"]])],
                   {"NODE_TWICE"})
    assert_legal(board, [claim("4-0", [n["A"], n["B"], n["C"]], [legs["AB"], legs["BC"]])], 60)


def test_optimiser_node_twice() -> None:
    # The loop A-B-C-A would pay 10 + 20 + 30 + 10 = 70 within the 4-train's length; without A twice the
    # best is all three cities once: 60.
    board, _, _ = triangle_board()
    res = assert_optimum(board, 60)
    assert len(res.routes[0].nodes) == 3


def group_board(groups: bool) -> tuple[Board, list[str], list[list[str]]]:
    """E1 (offboard 40) - T (tokened 10) - E2 (offboard 50), both offboards in revenue group "E" if asked."""
    b = BoardBuilder()
    g: dict[str, Any] = {"groups": ["E"]} if groups else {}
    nodes, gaps = row(b, [offboard(40, **g), city(10, token=True), offboard(50, **g)])
    b.train("3-0", 3)
    return b.board(), nodes, gaps  # type: ignore[return-value]


def test_evaluator_group_twice() -> None:
    board, (e1, t, e2), gaps = group_board(groups=True)
    assert_illegal(board, [claim("3-0", [e1, t, e2], gaps)], {"GROUP_TWICE"})
    assert_legal(board, [claim("3-0", [t, e2], gaps[1:])], 60)
    board, (e1, t, e2), gaps = group_board(groups=False)
    assert_legal(board, [claim("3-0", [e1, t, e2], gaps)], 100)


@pytest.mark.parametrize(("groups", "expected"), [
    # both offboards in group E: one of them only, the better one: T-E2 = 10 + 50
    (True, 60),
    # no groups: E1-T-E2 = 40 + 10 + 50
    (False, 100),
])
def test_optimiser_group_twice(groups: bool, expected: int) -> None:
    board, _, _ = group_board(groups)
    assert_optimum(board, expected)


# --------------------------------------------------------------------------- rule 4: blocked / terminal nodes


def test_evaluator_blocked_city_only_at_the_ends() -> None:
    b = BoardBuilder()
    (t, x, c), gaps = row(b, [city(10, token=True), city(100, blocked=True), city(50)])
    b.train("3-0", 3)
    board = b.board()
    assert_illegal(board, [claim("3-0", [t, x, c], gaps)], {"PASSES_BLOCKED"})
    assert_legal(board, [claim("3-0", [t, x], gaps[:1])], 110)
    assert_legal(board, [claim("3-0", [x, t], gaps[:1])], 110)


@pytest.mark.parametrize(("blocked", "expected"), [
    # X is full of another company's tokens: T-X ends there, 10 + 100 = 110 (X-C has no token)
    (True, 110),
    # X open: T-X-C = 10 + 100 + 50
    (False, 160),
])
def test_optimiser_blocked_city_ends_route(blocked: bool, expected: int) -> None:
    b = BoardBuilder()
    row(b, [city(10, token=True), city(100, blocked=blocked), city(50)])
    b.train("3-0", 3)
    assert_optimum(b.board(), expected)


def test_optimiser_route_may_start_at_blocked_city() -> None:
    # X (blocked, 100) - T (tokened, 10) - C (50): X is an end, T is passed: X-T-C = 160.
    b = BoardBuilder()
    row(b, [city(100, blocked=True), city(10, token=True), city(50)])
    b.train("3-0", 3)
    assert_optimum(b.board(), 160)


def test_evaluator_offboard_and_terminal_node_only_at_the_ends() -> None:
    b = BoardBuilder()
    (t, o, c), gaps = row(b, [city(10, token=True), offboard(60), city(50)])
    b.train("3-0", 3)
    board = b.board()
    # an offboard always blocks
    assert_illegal(board, [claim("3-0", [t, o, c], gaps)], {"PASSES_BLOCKED"})
    assert_legal(board, [claim("3-0", [t, o], gaps[:1])], 70)

    b = BoardBuilder()
    (t, w, c), gaps = row(b, [city(10, token=True), town(60, terminal=True), city(50)])
    b.train("3-0", 3)
    board = b.board()
    assert_illegal(board, [claim("3-0", [t, w, c], gaps)], {"PASSES_TERMINAL"})
    assert_legal(board, [claim("3-0", [t, w], gaps[:1])], 70)


@pytest.mark.parametrize("middle", [offboard(60), town(60, terminal=True)], ids=["offboard", "terminal-town"])
def test_optimiser_offboard_and_terminal_node_end_route(middle: Spec) -> None:
    # T (10, tokened) - M (60, may only end a route) - C (50): T-M-C = 120 is not allowed;
    # M-C has no token; so T-M = 70.
    b = BoardBuilder()
    row(b, [city(10, token=True), middle, city(50)])
    b.train("3-0", 3)
    res = assert_optimum(b.board(), 70)
    assert route_nodes(res) == [{"H0.city0", f"H1.{middle[0]}0"}]


# --------------------------------------------------------------------------- rule 5: terminal paths


def terminal_inside_board() -> tuple[Board, dict[str, str]]:
    """T (tokened 10) -> X (40, reached from the west by a terminal path, leaves east normally) -> C (50)."""
    b = BoardBuilder()
    line(b, ["H0", "H1", "H2"])
    t = b.city("H0", 10, token=True)
    x = b.city("H1", 40)
    c = b.city("H2", 50)
    ids = {"T": t, "X": x, "C": c,
           "t4": b.path("H0", t, 4), "x1": b.path("H1", 1, x, terminal=True), "x4": b.path("H1", x, 4),
           "c1": b.path("H2", 1, c)}
    b.train("3-0", 3)
    return b.board(), ids


def test_evaluator_terminal_path_inside_route() -> None:
    board, p = terminal_inside_board()
    tx, xc = [p["t4"], p["x1"]], [p["x4"], p["c1"]]
    # T-X-C: the terminal path H1.p0 is the 2nd of 4 paths
    assert_illegal(board, [claim("3-0", [p["T"], p["X"], p["C"]], [tx, xc])], {"TERMINAL_PATH_INSIDE"})
    assert_illegal(board, [claim("3-0", [p["C"], p["X"], p["T"]], [xc[::-1], tx[::-1]])], {"TERMINAL_PATH_INSIDE"})
    # T-X: it is the route's last path
    assert_legal(board, [claim("3-0", [p["T"], p["X"]], [tx])], 50)


def test_optimiser_terminal_path_inside_route() -> None:
    # T-X-C (100) would use X's terminal path in the middle; X-C has no token; the best is T-X = 50.
    board, _ = terminal_inside_board()
    assert_optimum(board, 50)


def spur_board() -> tuple[Board, list[str], list[list[str]]]:
    """O (offboard 50, reached by a terminal spur) - T (tokened 10) - C (30)."""
    b = BoardBuilder()
    line(b, ["H0", "H1", "H2"])
    o = b.offboard("H0", 50)
    t = b.city("H1", 10, token=True)
    c = b.city("H2", 30)
    o4 = b.path("H0", o, 4, terminal=True)
    t1, t4 = b.path("H1", 1, t), b.path("H1", t, 4)
    c1 = b.path("H2", 1, c)
    b.train("3-0", 3)
    return b.board(), [o, t, c], [[o4, t1], [t4, c1]]


def test_evaluator_terminal_path_at_route_end() -> None:
    board, (o, t, c), gaps = spur_board()
    assert_legal(board, [claim("3-0", [o, t, c], gaps)], 90)
    assert_legal(board, [claim("3-0", [c, t, o], [gaps[1], gaps[0]])], 90)


def test_optimiser_terminal_path_at_route_end() -> None:
    # The terminal spur is the first (or last) path of O-T-C: legal, 50 + 10 + 30 = 90 (every node).
    board, _, _ = spur_board()
    assert_optimum(board, 90)


def test_terminal_edge_to_edge_path_cannot_be_passed() -> None:
    # T (tokened 10) - empty hex whose only track is a terminal 1-4 path - C (30): the only route T-C
    # would use the terminal path in its middle, so nothing can run: 0.
    b = BoardBuilder()
    line(b, ["H0", "H1", "H2"])
    t = b.city("H0", 10, token=True)
    c = b.city("H2", 30)
    leg = [b.path("H0", t, 4), b.path("H1", 1, 4, terminal=True), b.path("H2", 1, c)]
    b.train("2-0", 2)
    board = b.board()
    assert_illegal(board, [claim("2-0", [t, c], [leg])], {"TERMINAL_PATH_INSIDE"})
    res = assert_optimum(board, 0)
    assert res.routes == []


# --------------------------------------------------------------------------- rule 6: distance


def visit_cost_board(cost: int) -> tuple[Board, list[str], list[list[str]]]:
    """T (tokened 10) - W (town 20, visit_cost `cost`) - C (30); a 2-train."""
    b = BoardBuilder()
    nodes, gaps = row(b, [city(10, token=True), town(20, visit_cost=cost), city(30)])
    b.train("2-0", 2)
    return b.board(), nodes, gaps  # type: ignore[return-value]


def test_evaluator_visit_cost() -> None:
    board, nodes, gaps = visit_cost_board(1)
    assert_illegal(board, [claim("2-0", nodes, gaps)], {"TOO_LONG"})
    assert_legal(board, [claim("2-0", nodes[:2], gaps[:1])], 30)
    board, nodes, gaps = visit_cost_board(0)
    assert_legal(board, [claim("2-0", nodes, gaps)], 60)


@pytest.mark.parametrize(("cost", "expected"), [
    # the town costs a stop: the 2-train reaches T-W = 30 only (W-C has no token)
    (1, 30),
    # the town is free: T-W-C costs 2 stops, 10 + 20 + 30 = 60
    (0, 60),
])
def test_optimiser_visit_cost(cost: int, expected: int) -> None:
    board, _, _ = visit_cost_board(cost)
    assert_optimum(board, expected)


TWO_PLUS = [{"nodes": ["city", "offboard"], "pay": 2, "visit": 2}, {"nodes": ["town"], "pay": 99, "visit": 99}]
MIXED_1846 = [{"nodes": ["city", "offboard"], "pay": 3, "visit": 5}]


def plus_board() -> tuple[Board, list[str], list[list[str]]]:
    """T (tokened city 10) - W1 (town 20) - W2 (town 30) - C (city 40) - D (city 50); a "2+" train."""
    b = BoardBuilder()
    nodes, gaps = row(b, [city(10, token=True), town(20), town(30), city(40), city(50)])
    b.train("2+-0", TWO_PLUS, name="2+")
    return b.board(), nodes, gaps  # type: ignore[return-value]


def test_evaluator_plus_train_towns_do_not_count() -> None:
    board, nodes, gaps = plus_board()
    ev = assert_legal(board, [claim("2+-0", nodes[:4], gaps[:3])], 100)
    assert ev.routes[0].stop_revenues == [10, 20, 30, 40]
    # a third city is one too many
    assert_illegal(board, [claim("2+-0", nodes, gaps)], {"TOO_LONG"})


def test_optimiser_plus_train_towns_do_not_count() -> None:
    # Two cities plus any towns: T-W1-W2-C = 10 + 20 + 30 + 40 = 100. Adding D would be a third city;
    # dropping T (for C-D) loses the token; W1-W2-C-D has no token either.
    board, nodes, _ = plus_board()
    res = assert_optimum(board, 100)
    assert route_nodes(res) == [set(nodes[:4])]


def plus_free_city_board(cost: int) -> tuple[Board, list[str], list[list[str]]]:
    """T (tokened 10) - P (city 20, visit_cost `cost`) - C (city 30); a "2+" train."""
    b = BoardBuilder()
    nodes, gaps = row(b, [city(10, token=True), city(20, visit_cost=cost), city(30)])
    b.train("2+-0", TWO_PLUS, name="2+")
    return b.board(), nodes, gaps  # type: ignore[return-value]


def test_evaluator_plus_train_pours_visit_cost() -> None:
    board, nodes, gaps = plus_free_city_board(1)
    assert_illegal(board, [claim("2+-0", nodes, gaps)], {"TOO_LONG"})
    board, nodes, gaps = plus_free_city_board(0)
    # P is free, so the cities' visit cost is 1 + 0 + 1 = 2: the route fits. Only two cities pay,
    # and the paying pair must hold the token: T + C = 40 (P + C = 50 has no token).
    ev = assert_legal(board, [claim("2+-0", nodes, gaps)], 40)
    assert ev.routes[0].stop_revenues == [10, 0, 30]


@pytest.mark.parametrize(("cost", "expected"), [
    # P costs a visit: T-P-C needs 3 > 2, so T-P = 30
    (1, 30),
    # P is free: T-P-C fits and pays T + C = 40
    (0, 40),
])
def test_optimiser_plus_train_pours_visit_cost(cost: int, expected: int) -> None:
    board, _, _ = plus_free_city_board(cost)
    assert_optimum(board, expected)


def board_1846() -> tuple[Board, list[str], list[list[str]]]:
    """T (tokened 10) - B (20) - C (20) - D (20) - F (90) - G (80); an 1846-style train: visits 5, pays 3."""
    b = BoardBuilder()
    nodes, gaps = row(b, [city(10, token=True), city(20), city(20), city(20), city(90), city(80)])
    b.train("4/5-0", MIXED_1846, name="4/5")
    return b.board(), nodes, gaps  # type: ignore[return-value]


def test_evaluator_visit_five_pay_best_three_with_token() -> None:
    board, nodes, gaps = board_1846()
    t, f = nodes[0], nodes[4]
    # T..F visits 5: the best three would be F + two 20s = 130, but the paying set must hold the
    # token, so T + F + one 20 = 120
    ev = assert_legal(board, [claim("4/5-0", nodes[:5], gaps[:4])], 120)
    paid = {n: v for n, v in zip(ev.routes[0].nodes, ev.routes[0].stop_revenues) if v}
    assert len(paid) == 3
    assert paid[t] == 10 and paid[f] == 90
    # six visits are too many
    assert_illegal(board, [claim("4/5-0", nodes, gaps)], {"TOO_LONG"})


def test_optimiser_visit_five_pay_best_three_with_token() -> None:
    # The token is at the west end, so any route is T-.. and reaches at most F (5 visits); G (6th) is
    # out of reach. Paying set: T (forced by the token rule) + F 90 + a 20 = 120.
    board, _, _ = board_1846()
    assert_optimum(board, 120)


def hex_train_board(distance: int) -> tuple[Board, list[str], list[list[str]]]:
    """H0 holds T (tokened 10) and town W (20), joined inside the hex; W leaves east to B (30),
    C (40), D (50) in one hex each. An "H" train counting hex boundaries."""
    b = BoardBuilder()
    line(b, ["H0", "H1", "H2", "H3"])
    t = b.city("H0", 10, token=True)
    w = b.town("H0", 20)
    tw = b.path("H0", t, w)
    w4 = b.path("H0", w, 4)
    others, gaps = [], [[tw], [w4]]
    for i, rev in zip((1, 2, 3), (30, 40, 50)):
        n = b.city(f"H{i}", rev)
        others.append(n)
        gaps[-1].append(b.path(f"H{i}", 1, n))
        if i < 3:
            gaps.append([b.path(f"H{i}", n, 4)])
    b.train(f"{distance}H-0", distance, unit="hexes")
    return b.board(), [t, w, *others], gaps


def test_evaluator_hex_train_counts_boundaries() -> None:
    board, nodes, gaps = hex_train_board(2)
    # T-W-B-C crosses H0|H1 and H1|H2: 2 boundaries, four stops
    assert_legal(board, [claim("2H-0", nodes[:4], gaps[:3])], 100)
    assert_illegal(board, [claim("2H-0", nodes, gaps)], {"TOO_LONG"})


@pytest.mark.parametrize(("distance", "expected"), [
    # 1 boundary: T-W-B = 10 + 20 + 30 (T-W stays inside H0)
    (1, 60),
    # 2 boundaries: T-W-B-C = 100; D would be a third boundary
    (2, 100),
    # 3 boundaries: all five stops = 150
    (3, 150),
])
def test_optimiser_hex_train_counts_boundaries(distance: int, expected: int) -> None:
    board, _, _ = hex_train_board(distance)
    assert_optimum(board, expected)


@pytest.mark.parametrize(("distance", "expected"), [
    # T - (empty hex) - B: the leg crosses two hex boundaries although it has only two stops
    (1, 0),
    (2, 40),
])
def test_hex_train_counts_boundaries_of_empty_hexes(distance: int, expected: int) -> None:
    b = BoardBuilder()
    (t, _, c), gaps = row(b, [city(10, token=True), None, city(30)])
    b.train("H-0", distance, unit="hexes")
    board = b.board()
    legs = chain_legs(gaps, [0, 2])
    if expected:
        assert_legal(board, [claim("H-0", [t, c], legs)], expected)
    else:
        assert_illegal(board, [claim("H-0", [t, c], legs)], {"TOO_LONG"})
    assert_optimum(board, expected)


@pytest.mark.parametrize(("distance", "unit"), [(999, "stops"), (0, "none")])
def test_unlimited_train_runs_everything(distance: int, unit: str) -> None:
    # Eight cities in a row, token at the west end; an unlimited train runs them all: 10 + 20 + ... + 80.
    revenues = [10, 20, 30, 40, 50, 60, 70, 80]
    b, cities = chain_board(revenues)
    b.train("D-0", distance, unit=unit)
    board = b.board()
    res = assert_optimum(board, sum(revenues))
    assert res.routes[0].nodes in (cities, cities[::-1])


# --------------------------------------------------------------------------- rule 7: gauge


@pytest.mark.parametrize(("gauge", "expected"), [
    # narrow does not continue onto broad: no route at all
    ("broad", 0),
    # narrow onto narrow, and anything onto dual: T-B = 10 + 40
    ("narrow", 50),
    ("dual", 50),
])
def test_gauge_across_an_edge(gauge: str, expected: int) -> None:
    b = BoardBuilder()
    line(b, ["H0", "H1"])
    t = b.city("H0", 10, token=True)
    c = b.city("H1", 40)
    leg = [b.path("H0", t, 4, track="narrow"), b.path("H1", 1, c, track=gauge)]
    b.train("2-0", 2)
    board = b.board()
    if expected:
        assert_legal(board, [claim("2-0", [t, c], [leg])], expected)
    else:
        assert_illegal(board, [claim("2-0", [t, c], [leg])], {"BROKEN_LEG"})
    assert_optimum(board, expected)


@pytest.mark.parametrize(("middle", "expected"), [
    # narrow -> dual -> broad: dual joins either side, T-C = 10 + 30
    ("dual", 40),
    # narrow -> narrow -> broad fails at the second edge
    ("narrow", 0),
    # narrow -> broad fails at the first edge
    ("broad", 0),
])
def test_gauge_through_a_dual_hex(middle: str, expected: int) -> None:
    b = BoardBuilder()
    line(b, ["H0", "H1", "H2"])
    t = b.city("H0", 10, token=True)
    c = b.city("H2", 30)
    leg = [b.path("H0", t, 4, track="narrow"), b.path("H1", 1, 4, track=middle), b.path("H2", 1, c, track="broad")]
    b.train("2-0", 2)
    board = b.board()
    if expected:
        assert_legal(board, [claim("2-0", [t, c], [leg])], expected)
    else:
        assert_illegal(board, [claim("2-0", [t, c], [leg])], {"BROKEN_LEG"})
    assert_optimum(board, expected)


# --------------------------------------------------------------------------- rule 8: lanes


def two_lane_board(trains: int) -> tuple[Board, dict[str, str]]:
    """T (tokened 10) leaves east on a two-lane track; in the next hex lane 0 of the west edge goes to
    B (20), lane 1 to C (30). Crossing, same width: index' = 1 - index."""
    b = BoardBuilder()
    line(b, ["H0", "H1"])
    t = b.city("H0", 10, token=True)
    c_b = b.city("H1", 20)
    c_c = b.city("H1", 30)
    ids = {"T": t, "B": c_b, "C": c_c,
           "t_l0": b.path("H0", t, 4, lanes=[[1, 0], [2, 0]]),
           "t_l1": b.path("H0", t, 4, lanes=[[1, 0], [2, 1]]),
           "b_l0": b.path("H1", 1, c_b, lanes=[[2, 0], [1, 0]]),
           "c_l1": b.path("H1", 1, c_c, lanes=[[2, 1], [1, 0]])}
    for i in range(trains):
        b.train(f"2-{i}", 2)
    return b.board(), ids


def test_evaluator_lanes_same_width() -> None:
    board, p = two_lane_board(2)
    # lane 0 of H0 meets lane 1 of H1 (to C), lane 1 meets lane 0 (to B)
    assert_illegal(board, [claim("2-0", [p["T"], p["B"]], [[p["t_l0"], p["b_l0"]]])], {"BROKEN_LEG"})
    assert_illegal(board, [claim("2-0", [p["T"], p["C"]], [[p["t_l1"], p["c_l1"]]])], {"BROKEN_LEG"})
    assert_legal(board, [claim("2-0", [p["T"], p["C"]], [[p["t_l0"], p["c_l1"]]]),
                         claim("2-1", [p["T"], p["B"]], [[p["t_l1"], p["b_l0"]]])], 70)


@pytest.mark.parametrize(("trains", "expected"), [
    # one train: the better city, T-C = 40
    (1, 40),
    # two trains: the two lanes are separate track, T-C 40 + T-B 30 = 70
    (2, 70),
])
def test_optimiser_lanes_same_width(trains: int, expected: int) -> None:
    board, _ = two_lane_board(trains)
    assert_optimum(board, expected)


def test_lanes_narrower_side_is_centred() -> None:
    # A single track meets a three-lane edge: it is centred on lane 1, which leads to X1 (20).
    # X0 (100) and X2 (100) are out of reach, so the optimum is T-X1 = 10 + 20 = 30.
    b = BoardBuilder()
    line(b, ["H0", "H1"])
    t = b.city("H0", 10, token=True)
    xs = [b.city("H1", rev) for rev in (100, 20, 100)]
    t4 = b.path("H0", t, 4)
    ps = [b.path("H1", 1, x, lanes=[[3, i], [1, 0]]) for i, x in enumerate(xs)]
    b.train("2-0", 2)
    board = b.board()
    assert_illegal(board, [claim("2-0", [t, xs[0]], [[t4, ps[0]]])], {"BROKEN_LEG"})
    assert_illegal(board, [claim("2-0", [t, xs[2]], [[t4, ps[2]]])], {"BROKEN_LEG"})
    assert_legal(board, [claim("2-0", [t, xs[1]], [[t4, ps[1]]])], 30)
    assert_optimum(board, 30)


# --------------------------------------------------------------------------- rule 9: no shared track


def shared_edge_board(trains: list[tuple[str, int]]) -> tuple[Board, list[str], list[list[str]]]:
    """A (30) - T (tokened 10) - B (20) - C (60)."""
    b = BoardBuilder()
    nodes, gaps = row(b, [city(30), city(10, token=True), city(20), city(60)])
    for tid, dist in trains:
        b.train(tid, dist)
    return b.board(), nodes, gaps  # type: ignore[return-value]


def test_evaluator_shared_edge() -> None:
    board, (a, t, c_b, c_c), gaps = shared_edge_board([("3-0", 3), ("3-1", 3)])
    # A-T-B and T-B-C both run the T|B stretch
    assert_illegal(board, [claim("3-0", [a, t, c_b], gaps[:2]), claim("3-1", [t, c_b, c_c], gaps[1:])],
                   {"SHARED_TRACK"})
    # sharing only the city T is fine
    assert_legal(board, [claim("3-0", [t, c_b, c_c], gaps[1:]), claim("3-1", [a, t], gaps[:1])], 130)


@pytest.mark.parametrize(("trains", "expected"), [
    # one 3-train: T-B-C = 10 + 20 + 60 = 90 beats A-T-B = 60
    ([("3-0", 3)], 90),
    # two 3-trains want the T|B stretch (A-T-B and T-B-C); only one can have it. T-B-C 90 + A-T 40 = 130
    # beats A-T-B 60 + nothing (B-C has no token)
    ([("3-0", 3), ("3-1", 3)], 130),
    # a 2-train and a 3-train: 3: T-B-C 90 + 2: A-T 40 = 130 (the 2-train cannot reach C)
    ([("2-0", 2), ("3-0", 3)], 130),
])
def test_optimiser_shared_edge(trains: list[tuple[str, int]], expected: int) -> None:
    board, _, _ = shared_edge_board(trains)
    assert_optimum(board, expected)


def node_path_board(trains: int) -> tuple[Board, dict[str, str]]:
    """Y (40) | H0: T (tokened 10) joined inside the hex to town W (20) | X (50).

    Y - T - W - X in a row; the T-W path joins two nodes directly."""
    b = BoardBuilder()
    b.link("H0", 4, "HX")
    b.link("HY", 4, "H0")
    t = b.city("H0", 10, token=True)
    w = b.town("H0", 20)
    x = b.city("HX", 50)
    y = b.city("HY", 40)
    ids = {"T": t, "W": w, "X": x, "Y": y,
           "tw": b.path("H0", t, w), "w4": b.path("H0", w, 4), "t1": b.path("H0", t, 1),
           "x1": b.path("HX", 1, x), "y4": b.path("HY", y, 4)}
    for i in range(trains):
        b.train(f"3-{i}", 3)
    return b.board(), ids


def test_evaluator_shared_node_to_node_path() -> None:
    board, p = node_path_board(2)
    yt, tw, wx = [p["y4"], p["t1"]], [p["tw"]], [p["w4"], p["x1"]]
    assert_illegal(board, [claim("3-0", [p["Y"], p["T"], p["W"]], [yt, tw]),
                           claim("3-1", [p["T"], p["W"], p["X"]], [tw, wx])], {"SHARED_TRACK"})
    assert_legal(board, [claim("3-0", [p["Y"], p["T"]], [yt]), claim("3-1", [p["T"], p["W"], p["X"]], [tw, wx])],
                 130)


@pytest.mark.parametrize(("trains", "expected"), [
    # one 3-train: T-W-X = 80 beats Y-T-W = 70 (Y-T-W-X is four stops)
    (1, 80),
    # two 3-trains: Y-T-W + T-W-X would be 150 but both use the T-W path; T-W-X 80 + Y-T 50 = 130
    (2, 130),
])
def test_optimiser_shared_node_to_node_path(trains: int, expected: int) -> None:
    board, _ = node_path_board(trains)
    assert_optimum(board, expected)


def near_edge_board(near_edge: int | None, trains: list[tuple[str, int]]) -> tuple[Board, dict[str, str]]:
    """Town W (20) in H0 with track from edges 1, 3 and 4; beyond each a tokened city:
    L (10) west, U (30) north-east, R (5) east. W sits next to edge `near_edge`."""
    b = BoardBuilder()
    b.link("H0", 1, "HL")
    b.link("H0", 3, "HU")
    b.link("H0", 4, "HR")
    fields = {} if near_edge is None else {"near_edge": near_edge}
    w = b.town("H0", 20, **fields)
    c_l = b.city("HL", 10, token=True)
    c_u = b.city("HU", 30, token=True)
    c_r = b.city("HR", 5, token=True)
    ids = {"W": w, "L": c_l, "U": c_u, "R": c_r,
           "w1": b.path("H0", 1, w), "w3": b.path("H0", 3, w), "w4": b.path("H0", 4, w),
           "l4": b.path("HL", c_l, 4), "u0": b.path("HU", c_u, 0), "r1": b.path("HR", c_r, 1)}
    for tid, dist in trains:
        b.train(tid, dist)
    return b.board(), ids


def test_evaluator_near_edge_town() -> None:
    board, p = near_edge_board(4, [("2-0", 2), ("2-1", 2), ("3-0", 3)])
    lw, uw, rw = [p["l4"], p["w1"]], [p["u0"], p["w3"]], [p["r1"], p["w4"]]
    # W is next to edge 4: track from edges 1 and 3 joins before the town, so L-W and U-W share it
    assert_illegal(board, [claim("2-0", [p["U"], p["W"]], [uw]), claim("2-1", [p["L"], p["W"]], [lw])],
                   {"SHARED_TRACK"})
    # ... and a route through W from edge 1 to edge 3 reuses it itself
    assert_illegal(board, [claim("3-0", [p["L"], p["W"], p["U"]], [lw, uw[::-1]])], {"SHARED_TRACK"})
    # track from edge 4 (the near edge) is separate
    assert_legal(board, [claim("2-0", [p["U"], p["W"]], [uw]), claim("2-1", [p["R"], p["W"]], [rw])], 75)
    assert_legal(board, [claim("3-0", [p["L"], p["W"], p["R"]], [lw, rw[::-1]])], 35)
    # a centred town has no such rule
    board, p = near_edge_board(None, [("2-0", 2), ("2-1", 2), ("3-0", 3)])
    assert_legal(board, [claim("2-0", [p["U"], p["W"]], [uw]), claim("2-1", [p["L"], p["W"]], [lw])], 80)
    assert_legal(board, [claim("3-0", [p["L"], p["W"], p["U"]], [lw, uw[::-1]])], 60)


@pytest.mark.parametrize(("near_edge", "trains", "expected"), [
    # two 2-trains, W near edge 4: U-W (50) and L-W (30) collide, so U-W 50 + R-W 25 = 75
    (4, [("2-0", 2), ("2-1", 2)], 75),
    # centred W: U-W 50 + L-W 30 = 80
    (None, [("2-0", 2), ("2-1", 2)], 80),
    # one 3-train, W near edge 4: L-W-U (60) reuses the shared key; U-W-R = 30 + 20 + 5 = 55 beats L-W-R 35
    (4, [("3-0", 3)], 55),
    # centred W: L-W-U = 10 + 20 + 30 = 60
    (None, [("3-0", 3)], 60),
])
def test_optimiser_near_edge_town(near_edge: int | None, trains: list[tuple[str, int]], expected: int) -> None:
    board, _ = near_edge_board(near_edge, trains)
    assert_optimum(board, expected)


def looping_leg_board() -> tuple[Board, dict[str, str]]:
    """T (tokened 10) and X (20) share hex A but meet only at A's edge 4. The only way from T to X
    leaves A at edge 4, loops B -> C -> B (non-geometric links, allowed by FORMAT.md) and comes back
    into A at edge 4: the track end (A, 4, lane 0) would be used twice by one leg."""
    b = BoardBuilder()
    b.link("A", 4, "B")
    b.link("B", 0, "C")
    b.link("C", 0, "B")
    t = b.city("A", 10, token=True)
    x = b.city("A", 20)
    ids = {"T": t, "X": x,
           "a_t": b.path("A", t, 4), "a_x": b.path("A", 4, x),
           "b_10": b.path("B", 1, 0), "b_31": b.path("B", 3, 1), "c_30": b.path("C", 3, 0)}
    b.train("2-0", 2)
    return b.board(), ids


def test_evaluator_one_leg_reusing_an_edge() -> None:
    board, p = looping_leg_board()
    leg = [p["a_t"], p["b_10"], p["c_30"], p["b_31"], p["a_x"]]
    ev = evaluate(board, [claim("2-0", [p["T"], p["X"]], [leg])])
    assert not ev.legal, "A|B edge (and B's edge 1) used twice by one leg"
    # reported as track reuse, or as a leg that cannot be walked (the engine's walk never reuses an edge)
    assert codes(ev) and codes(ev) <= {"SHARED_TRACK", "BROKEN_LEG"}, [f.message for f in ev.findings]


def test_optimiser_one_leg_reusing_an_edge() -> None:
    # Every T-X leg runs A|B twice (rule 7: a track end is used at most once over all routes), and T, X
    # have no other track: nothing can run, 0.
    board, _ = looping_leg_board()
    res = assert_optimum(board, 0)
    assert res.routes == []


# --------------------------------------------------------------------------- rule 10: revenue


def test_revenue_by_train_overrides_revenue() -> None:
    # For train "D" the nodes pay their revenue_by_train values (25 + 100 = 125); a "2" train pays the
    # plain revenue (10 + 40 = 50).
    for name, expected, stops in (("D", 125, [25, 100]), ("2", 50, [10, 40])):
        b = BoardBuilder()
        (t, c), gaps = row(b, [city(10, token=True, revenue_by_train={"D": 25}),
                               city(40, revenue_by_train={"D": 100})])
        b.train(f"{name}-0", 2, name=name)
        board = b.board()
        ev = assert_legal(board, [claim(f"{name}-0", [t, c], gaps)], expected)
        assert ev.routes[0].stop_revenues == stops
        assert_optimum(board, expected)


def test_train_multiplier() -> None:
    # "2D" doubles plain revenue: (10 + 30) x 2 = 80.
    b = BoardBuilder()
    (t, c), gaps = row(b, [city(10, token=True), city(30)])
    b.train("2D-0", 2, name="2D", multiplier=2)
    board = b.board()
    ev = assert_legal(board, [claim("2D-0", [t, c], gaps)], 80)
    assert ev.routes[0].stop_revenues == [20, 60]
    assert_optimum(board, 80)


def test_revenue_by_train_already_includes_multiplier() -> None:
    # B's value for "2D" is given (45) and is not doubled again; T pays 10 x 2: 20 + 45 = 65.
    b = BoardBuilder()
    (t, c), gaps = row(b, [city(10, token=True), city(30, revenue_by_train={"2D": 45})])
    b.train("2D-0", 2, name="2D", multiplier=2)
    board = b.board()
    ev = assert_legal(board, [claim("2D-0", [t, c], gaps)], 65)
    assert ev.routes[0].stop_revenues == [20, 45]
    assert_optimum(board, 65)


def test_multiplier_train_chooses_its_own_best_route() -> None:
    # Y (60) - T (tokened 10) - X (40), one "2D" (x2) and one "2": both 2-stop routes must hold T and they
    # use different edges, so both run: the doubler takes the richer side, 2 x (10 + 60) = 140, the "2"
    # the other, 10 + 40 = 50; total 190 (the other assignment gives 2 x 50 + 70 = 170).
    b = BoardBuilder()
    (y, t, x), _ = row(b, [city(60), city(10, token=True), city(40)])
    b.train("2D-0", 2, name="2D", multiplier=2)
    b.train("2-0", 2)
    res = assert_optimum(b.board(), 190)
    by_train = {r.train: set(r.nodes) for r in res.routes}
    assert by_train == {"2D-0": {y, t}, "2-0": {t, x}}


# --------------------------------------------------------------------------- rule 11: trains


def star_board(trains: list[tuple[str, int]]) -> tuple[Board, dict[str, str]]:
    """Hub S (tokened 10) with three spokes to P (50, east), Q (40, west), R (30, south-east)."""
    b = BoardBuilder()
    b.link("S", 4, "HP")
    b.link("HQ", 4, "S")
    b.link("S", 5, "HR")
    s = b.city("S", 10, token=True)
    p = b.city("HP", 50)
    q = b.city("HQ", 40)
    r = b.city("HR", 30)
    ids = {"S": s, "P": p, "Q": q, "R": r,
           "s4": b.path("S", s, 4), "s1": b.path("S", s, 1), "s5": b.path("S", s, 5),
           "p1": b.path("HP", 1, p), "q4": b.path("HQ", q, 4), "r2": b.path("HR", 2, r)}
    for tid, dist in trains:
        b.train(tid, dist)
    return b.board(), ids


def test_evaluator_train_twice_and_unknown_train() -> None:
    board, p = star_board([("2-0", 2), ("2-1", 2)])
    sp, sq = [p["s4"], p["p1"]], [p["s1"], p["q4"]]
    assert_illegal(board, [claim("2-0", [p["S"], p["P"]], [sp]), claim("2-0", [p["S"], p["Q"]], [sq])],
                   {"TRAIN_TWICE"})
    assert_illegal(board, [claim("9-0", [p["S"], p["P"]], [sp])], {"UNKNOWN_TRAIN"})
    assert_legal(board, [claim("2-0", [p["S"], p["P"]], [sp]), claim("2-1", [p["S"], p["Q"]], [sq])], 110)
    # identical trains are interchangeable
    assert_legal(board, [claim("2-1", [p["S"], p["P"]], [sp]), claim("2-0", [p["S"], p["Q"]], [sq])], 110)


@pytest.mark.parametrize(("count", "expected"), [
    # one route per train: the best spoke S-P = 60
    (1, 60),
    # S-P 60 + S-Q 50
    (2, 110),
    # all three spokes: 60 + 50 + 40 (S pays once per route)
    (3, 150),
    # a fourth train has no track left and simply does not run
    (4, 150),
])
def test_optimiser_each_train_one_route(count: int, expected: int) -> None:
    board, _ = star_board([(f"2-{i}", 2) for i in range(count)])
    res = assert_optimum(board, expected)
    assert len(res.routes) == min(count, 3)
    assert all(len(r.nodes) == 2 for r in res.routes)


def test_optimiser_mixed_trains_get_the_right_routes() -> None:
    # Star with a 3-train and a 2-train. Every S-route uses one spoke per other stop and spokes cannot be
    # shared, so at most three non-hub stops in total: 3: P-S-Q (100) + 2: S-R (40) = 140; no split
    # does better (each spoke once, S twice = 50 + 40 + 30 + 2 x 10).
    board, _ = star_board([("3-0", 3), ("2-0", 2)])
    res = assert_optimum(board, 140)
    assert {r.train for r in res.routes} == {"3-0", "2-0"}


def test_optimiser_train_kind_matters_for_assignment() -> None:
    # A (20) - B (30) - T (tokened 10) - C (40), a "3" and a "2". Options: 3: A-B-T 60 + 2: T-C 50 = 110;
    # 3: B-T-C 80 leaves the 2-train nothing with a token (A-B), 80; 3: T-C + 2: B-T = 90. Optimum 110,
    # and only the 3-train can run A-B-T.
    b = BoardBuilder()
    (a, c_b, t, c), _ = row(b, [city(20), city(30), city(10, token=True), city(40)])
    b.train("2-0", 2)
    b.train("3-0", 3)
    res = assert_optimum(b.board(), 110)
    by_train = {r.train: set(r.nodes) for r in res.routes}
    assert by_train == {"3-0": {a, c_b, t}, "2-0": {t, c}}


def test_no_train_has_to_run() -> None:
    # Three "2" trains, but the token city A sits at the end of a row with a single exit: only one route
    # (A-B = 30) can hold the token; the other two trains stay home.
    b, _ = chain_board([10, 20, 30, 40], token_at=0)
    for i in range(3):
        b.train(f"2-{i}", 2)
    res = assert_optimum(b.board(), 30)
    assert len(res.routes) == 1


def test_no_legal_route_is_zero_and_optimal() -> None:
    # no token anywhere: no route
    b, _ = chain_board([10, 20, 30], token_at=-1)
    b.train("3-0", 3)
    res = assert_optimum(b.board(), 0)
    assert res.routes == []
    # no trains at all
    b, _ = chain_board([10, 20, 30], token_at=0)
    res = assert_optimum(b.board(), 0)
    assert res.routes == []


# --------------------------------------------------------------------------- malformed claims


def test_evaluator_malformed_claims() -> None:
    b, (a, c, d) = chain_board([10, 20, 30], token_at=0)
    b.train("3-0", 3)
    board = b.board()
    assert_illegal(board, [claim("3-0", [a, "H9.city0"], [["H0.p0", "H1.p0"]])], {"UNKNOWN_NODE"})
    assert_illegal(board, [claim("3-0", [a, c, d], [["H0.p0", "H1.p0"]])], {"LEG_COUNT"})
    # a leg that does not reach its next stop, or skips a stop in between
    assert_illegal(board, [claim("3-0", [a, d], [["H0.p0", "H1.p0"]])], {"BROKEN_LEG"})
    assert_illegal(board, [claim("3-0", [a, d], [["H0.p0", "H1.p0", "H1.p1", "H2.p0"]])], {"BROKEN_LEG"})
    assert_legal(board, [claim("3-0", [a, c, d], [["H0.p0", "H1.p0"], ["H1.p1", "H2.p0"]])], 60)


def test_node_whose_route_is_never_is_still_a_stop() -> None:
    # The engine's routes visit and pay nodes with route "never" (1841's passes and port towns: 62
    # recorded routes of the corpus, all legal), so T-H is a legal route worth 30.
    b = BoardBuilder()
    (t, h), gaps = row(b, [city(10, token=True), ("town", 20, {"route": "never"})])
    b.train("2-0", 2)
    board = b.board()
    assert_legal(board, [claim("2-0", [t, h], gaps)], 30)
    assert_optimum(board, 30)
