"""The 1839 route and revenue rules (ruleset `1839`), one small hand-built board each.

Source: shared/seeds "39 steps of 1839" ("Track and stations", "Train notes", privates #1, #5 and
#8 of the random draw, "Foreigners"), as read in `solver/r1839/rules.py`:
- a revenue location counts once per company, at the best value any of its trains earns there;
  at the company's own exchange marker it counts once for every train that reaches it;
- another company's exchange marker does not block; a route ending there counts it normally, a
  route passing through it counts it 0;
- "+" trains count only cities and pay everything; D trains count and pay only cities, pay
  off-boards without counting them, neither count nor pay towns, and pay double;
- a FLOOD train runs no route: it earns every location reachable from the company's stations with
  unlimited track reuse, each once;
- no route from an off-board to another off-board of the same country; each foreign company
  reached gets 20 % of the company's total run, rounded down;
- options `location_bonus` (+10 per location reached), `towns_plus_10`, `port_token` (+20 for the
  owner `port_token_own`, else +10).

Every board is small enough to work out its optimum by hand; the comment next to each expected
value says why it is the optimum. The evaluator must price legal claims right and name the rule an
illegal claim breaks; the optimiser must find exactly the hand-computed revenue, prove it (OPTIMAL)
and return routes the evaluator accepts at the same revenue.
"""

from __future__ import annotations

from typing import Any

import pytest

from solver.evaluator import evaluate
from solver.model.board import Board
from tests.support.boards_1839 import (
    Net,
    assert_illegal,
    assert_legal,
    assert_optimum,
    codes,
    diesel_rows,
    plus_rows,
    routes_by_train,
    stop_revenues,
)

COMPANY = "NB"


# --------------------------------------------------------------------------- once per company; exchange markers


def star(exchange: bool = False, options: dict[str, Any] | None = None) -> tuple[Net, Board]:
    """Hub C (30, the company's station) with three one-city spokes L (50), R (40), U (20);
    a 5D and a 2+ train. `exchange`: the company's own exchange marker is at C."""
    net = Net(COMPANY)
    net.city("C", 30, token=True, **({"exchange_owner": COMPANY} if exchange else {}))
    net.city("L", 50)
    net.city("R", 40)
    net.city("U", 20)
    net.link("C", 1, "L")
    net.link("C", 4, "R")
    net.link("C", 0, "U")
    net.train("5D-0", diesel_rows(5))
    net.train("2+-0", plus_rows(2))
    return net, net.board("1839", options)


def test_evaluator_location_counts_once_at_the_better_trains_value() -> None:
    net, board = star()
    d_route, p_route = net.claim("5D-0", "L", "C", "R"), net.claim("2+-0", "C", "U")
    # 5D: (50 + 30 + 40) x 2 = 240; the 2+ also reaches C (30 for it) but C was already earned by
    # the 5D at 60, so the 2+ adds only U = 20: 260 (not 290).
    ev = assert_legal(board, [d_route, p_route], 260)
    assert stop_revenues(ev) == {"5D-0": [100, 60, 80], "2+-0": [0, 20]}
    # the order of the claims does not matter: C still goes to the better (5D) value
    ev = assert_legal(board, [p_route, d_route], 260)
    assert stop_revenues(ev) == {"2+-0": [0, 20], "5D-0": [100, 60, 80]}
    # the 2+ alone earns C normally
    assert_legal(board, [p_route], 50)


def test_optimiser_location_counts_once() -> None:
    # A route uses at most two spokes through C. Total = 2 x (C + the 5D's spokes) + the 2+'s spoke
    # (its C is already paid better): 60 + 2 x (50 + 40) + 20 = 260 (5D on L-C-R, 2+ on C-U);
    # any other split is lower (5D L-C-U + 2+ C-R: 200 + 40 = 240; 5D U-C-R + 2+ C-L: 180 + 50 = 230).
    net, board = star()
    res = assert_optimum(board, 260)
    assert routes_by_train(res) == {"5D-0": {net["L"], net["C"], net["R"]}, "2+-0": {net["C"], net["U"]}}


def test_evaluator_own_exchange_marker_counts_once_per_train() -> None:
    net, board = star(exchange=True)
    # the company's own exchange marker at C: each train reaching C earns it: 240 + (30 + 20) = 290
    ev = assert_legal(board, [net.claim("5D-0", "L", "C", "R"), net.claim("2+-0", "C", "U")], 290)
    assert stop_revenues(ev) == {"5D-0": [100, 60, 80], "2+-0": [30, 20]}


def test_optimiser_own_exchange_marker_counts_once_per_train() -> None:
    # As in the plain star, but C pays every train: 60 + 30 + 2 x (50 + 40) + 20 = 290.
    net, board = star(exchange=True)
    res = assert_optimum(board, 290)
    assert routes_by_train(res) == {"5D-0": {net["L"], net["C"], net["R"]}, "2+-0": {net["C"], net["U"]}}


def other_exchange(y: int, exchange: bool = True) -> tuple[Net, Board]:
    """T (20, station) - X (50, full of another company's tokens, with its exchange marker when
    `exchange`) - Y (y); a 3+ train."""
    net = Net(COMPANY)
    net.city("T", 20, token=True)
    net.city("X", 50, blocked=True, **({"exchange_owner": "OTHER"} if exchange else {}))
    net.city("Y", y)
    net.row(["T", "X", "Y"])
    net.train("3+-0", plus_rows(3))
    return net, net.board("1839")


def test_evaluator_other_companys_exchange_marker() -> None:
    net, board = other_exchange(60)
    # X does not block: passing through it is legal, and X counts 0 there: 20 + 0 + 60 = 80
    ev = assert_legal(board, [net.claim("3+-0", "T", "X", "Y")], 80)
    assert stop_revenues(ev) == {"3+-0": [20, 0, 60]}
    # a route ending at X counts X normally: 20 + 50
    assert_legal(board, [net.claim("3+-0", "T", "X")], 70)
    # without the exchange marker X blocks as usual
    net, board = other_exchange(60, exchange=False)
    assert_illegal(board, [net.claim("3+-0", "T", "X", "Y")], {"PASSES_BLOCKED"})
    assert_legal(board, [net.claim("3+-0", "T", "X")], 70)


@pytest.mark.parametrize(("y", "exchange", "expected", "stops"), [
    # through X (worth 0 when passed) to Y: 20 + 0 + 60 = 80 beats ending at X (20 + 50 = 70)
    (60, True, 80, ("T", "X", "Y")),
    # Y is worth little: 20 + 0 + 20 = 40 < ending at X 20 + 50 = 70
    (20, True, 70, ("T", "X")),
    # no exchange marker: X blocks, so T-X = 70 is all there is
    (60, False, 70, ("T", "X")),
])
def test_optimiser_other_companys_exchange_marker(y: int, exchange: bool, expected: int,
                                                  stops: tuple[str, ...]) -> None:
    net, board = other_exchange(y, exchange)
    res = assert_optimum(board, expected)
    assert routes_by_train(res) == {"3+-0": {net[h] for h in stops}}


# --------------------------------------------------------------------------- "+" trains


def plus_board(train: int) -> tuple[Net, Board]:
    """O (off-board 40) - T (20, station) - t (town 10) - C1 (30) - C2 (50); one `train`+ train."""
    net = Net(COMPANY)
    net.offboard("O", 40)
    net.city("T", 20, token=True)
    net.town("t", 10)
    net.city("C1", 30)
    net.city("C2", 50)
    net.row(["O", "T", "t", "C1", "C2"])
    net.train(f"{train}+-0", plus_rows(train))
    return net, net.board("1839")


def test_evaluator_plus_train_counts_cities_only_and_pays_all() -> None:
    net, board = plus_board(2)
    # four stops on a 2+: only the cities T and C1 count; everything pays: 40 + 20 + 10 + 30
    ev = assert_legal(board, [net.claim("2+-0", "O", "T", "t", "C1")], 100)
    assert stop_revenues(ev) == {"2+-0": [40, 20, 10, 30]}
    # a third city is one too many
    assert_illegal(board, [net.claim("2+-0", "O", "T", "t", "C1", "C2")], {"TOO_LONG"})
    net, board = plus_board(3)
    assert_legal(board, [net.claim("3+-0", "O", "T", "t", "C1", "C2")], 150)


@pytest.mark.parametrize(("train", "expected", "stops"), [
    # a 2+ holds T and one more city; the off-board and the town are free: O-T-t-C1 = 40+20+10+30 = 100
    # (a plain 2-train counting every stop would get at most O-T = 60)
    (2, 100, ("O", "T", "t", "C1")),
    # a 3+ holds all three cities: everything, 40 + 20 + 10 + 30 + 50 = 150
    (3, 150, ("O", "T", "t", "C1", "C2")),
])
def test_optimiser_plus_train(train: int, expected: int, stops: tuple[str, ...]) -> None:
    net, board = plus_board(train)
    res = assert_optimum(board, expected)
    assert routes_by_train(res) == {f"{train}+-0": {net[h] for h in stops}}


# --------------------------------------------------------------------------- D trains


def diesel_board() -> tuple[Net, Board]:
    """O (off-board 40) - T (20, station) - t (town 30) - C1 (30) - C2 .. C5 (10 each); a 5D."""
    net = Net(COMPANY)
    net.offboard("O", 40)
    net.city("T", 20, token=True)
    net.town("t", 30)
    net.city("C1", 30)
    hexes = ["O", "T", "t", "C1"]
    for i in range(2, 6):
        net.city(f"C{i}", 10)
        hexes.append(f"C{i}")
    net.row(hexes)
    net.train("5D-0", diesel_rows(5))
    return net, net.board("1839")


def test_evaluator_diesel_train() -> None:
    net, board = diesel_board()
    # five cities (T, C1..C4) count and pay double; the off-board pays double but does not count;
    # the town neither counts nor pays: 80 + 40 + 0 + 60 + 20 + 20 + 20 = 240
    ev = assert_legal(board, [net.claim("5D-0", "O", "T", "t", "C1", "C2", "C3", "C4")], 240)
    assert stop_revenues(ev) == {"5D-0": [80, 40, 0, 60, 20, 20, 20]}
    # a sixth city is too many (the off-board and the town were not counted)
    assert_illegal(board, [net.claim("5D-0", "O", "T", "t", "C1", "C2", "C3", "C4", "C5")], {"TOO_LONG"})


def test_optimiser_diesel_train() -> None:
    # The route must hold T, the first city, so its cities are at most T..C4; adding the off-board
    # is free and pays 80: 240. (If towns paid: 300; if off-boards counted, C4 would have to go: 220.)
    net, board = diesel_board()
    res = assert_optimum(board, 240)
    assert routes_by_train(res) == {"5D-0": {net[h] for h in ("O", "T", "t", "C1", "C2", "C3", "C4")}}


# --------------------------------------------------------------------------- FLOOD trains


def flood_board(trains: tuple[str, ...] = ("FLOOD",), b_blocked: bool = True,
                exchange: bool = False) -> tuple[Net, Board]:
    """Hub T (20, station) with three spokes: A (30); B (40, full of another company's tokens when
    `b_blocked`) then Z (50) behind it; town t (10) then off-board O (60)."""
    net = Net(COMPANY)
    net.city("T", 20, token=True, **({"exchange_owner": COMPANY} if exchange else {}))
    net.city("A", 30)
    net.city("B", 40, blocked=b_blocked)
    net.city("Z", 50)
    net.town("t", 10)
    net.offboard("O", 60)
    net.link("T", 1, "A")
    net.link("T", 4, "B")
    net.link("B", 4, "Z")
    net.link("T", 2, "t")
    net.link("t", 2, "O")
    for name in trains:
        if name == "FLOOD":
            net.train("FLOOD-0", 0, unit="flood")
        else:
            net.train("5D-0", diesel_rows(5))
    return net, net.board("1839")


def test_evaluator_flood_train_earns_its_reach_without_a_route() -> None:
    net, board = flood_board()
    # every location reached from T with track reuse: T, A, B (reached, but it blocks), t and O;
    # Z lies behind the blocked B: 20 + 30 + 40 + 10 + 60 = 160
    ev = assert_legal(board, [], 160)
    assert [(r.train, set(r.nodes)) for r in ev.routes] == [("FLOOD-0", {net[h] for h in "TABtO"})]
    # a FLOOD train runs no route
    ev = evaluate(board, [net.claim("FLOOD-0", "T", "A")])
    assert not ev.legal
    assert "FLOOD_RUNS_NO_ROUTE" in codes(ev)


@pytest.mark.parametrize(("b_blocked", "expected", "reach"), [
    # the three spokes need track reuse at T: all of T, A, B, t, O = 160 (Z is behind the blocked B)
    (True, 160, "TABtO"),
    # B does not block: Z is reached too, 160 + 50 = 210
    (False, 210, "TABZtO"),
])
def test_optimiser_flood_train(b_blocked: bool, expected: int, reach: str) -> None:
    net, board = flood_board(b_blocked=b_blocked)
    res = assert_optimum(board, expected)
    assert routes_by_train(res) == {"FLOOD-0": {net[h] for h in reach}}


def test_evaluator_flood_with_a_diesel_counts_each_location_once() -> None:
    net, board = flood_board(("FLOOD", "5D"))
    # 5D B-T-t-O: B 80, T 40, t 0, O 120 = 240, each above the FLOOD's value there; the FLOOD keeps
    # A (30) and t (10, the 5D pays nothing there): 240 + 40 = 280
    ev = assert_legal(board, [net.claim("5D-0", "B", "T", "t", "O")], 280)
    assert stop_revenues(ev) == {"5D-0": [80, 40, 0, 120], "FLOOD-0": [30, 10]}
    assert set(ev.routes[-1].nodes) == {net["A"], net["t"]}
    # with the company's exchange marker at T, both trains earn T: 280 + 20 = 300
    net, board = flood_board(("FLOOD", "5D"), exchange=True)
    assert_legal(board, [net.claim("5D-0", "B", "T", "t", "O")], 300)


@pytest.mark.parametrize(("exchange", "expected"), [
    # FLOOD base 160; the 5D adds what it earns above the FLOOD at each location. B-T-t-O adds
    # (80-40) + (40-20) + (120-60) = 120; A-T-t-O adds 30 + 20 + 60 = 110; A-T-B adds 30 + 20 + 40 = 90.
    # Best: 160 + 120 = 280.
    (False, 280),
    # own exchange marker at T: the 5D adds its full 40 at T: B-T-t-O adds 40 + 40 + 60 = 140 -> 300
    (True, 300),
])
def test_optimiser_flood_with_a_diesel(exchange: bool, expected: int) -> None:
    net, board = flood_board(("FLOOD", "5D"), exchange=exchange)
    res = assert_optimum(board, expected)
    assert routes_by_train(res)["5D-0"] == {net[h] for h in ("B", "T", "t", "O")}


# --------------------------------------------------------------------------- foreigners


def foreign_board(countries: bool = True) -> tuple[Net, Board]:
    """Hub T (27, station) with three off-board spokes: G1 (40) and G2 (30) of Germany, Be (10)
    of Belgium; a 2D train (off-boards pay double without counting). A 2+ train could run none of
    these routes: they hold one city, and a + route needs two."""
    net = Net(COMPANY)
    net.city("T", 27, token=True)
    net.offboard("G1", 40, **({"country": "Germany"} if countries else {}))
    net.offboard("G2", 30, **({"country": "Germany"} if countries else {}))
    net.offboard("Be", 10, **({"country": "Belgium"} if countries else {}))
    net.link("T", 1, "G1")
    net.link("T", 4, "G2")
    net.link("T", 2, "Be")
    net.train("2D-0", diesel_rows(2))
    return net, net.board("1839")


def test_evaluator_same_country_and_foreign_income() -> None:
    net, board = foreign_board()
    assert_illegal(board, [net.claim("2D-0", "G1", "T", "G2")], {"SAME_COUNTRY"})
    ev = assert_legal(board, [net.claim("2D-0", "G1", "T", "Be")], 154)
    # each foreign company reached gets 20 % of the total run 154 = 30.8, rounded down: 30
    assert ev.extras.foreign_income == {net["G1"]: 30, net["Be"]: 30}
    # without countries the two German off-boards may end one route
    net, board = foreign_board(countries=False)
    ev = assert_legal(board, [net.claim("2D-0", "G1", "T", "G2")], 194)
    assert ev.extras.foreign_income == {net["G1"]: 38, net["G2"]: 38}


def test_plus_route_needs_two_cities() -> None:
    """Seed "39 steps": off-boards do not count against a + train's length and do not make a route:
    a city plus off-boards is no + route (the evaluator's finding, and no candidate either)."""
    net = Net(COMPANY)
    net.city("T", 27, token=True)
    net.offboard("G1", 40)
    net.offboard("G2", 30)
    net.city("A", 10)
    net.link("T", 1, "G1")
    net.link("T", 4, "G2")
    net.link("T", 2, "A")
    net.train("2+-0", plus_rows(2))
    board = net.board("1839")
    assert_illegal(board, [net.claim("2+-0", "G1", "T", "G2")], {"PLUS_TOO_FEW_CITIES"})
    assert_illegal(board, [net.claim("2+-0", "G1", "T")], {"PLUS_TOO_FEW_CITIES"})
    assert_legal(board, [net.claim("2+-0", "G1", "T", "A")], 77)
    res = assert_optimum(board, 77)  # G1-T-G2 (97) would pay more but is no + route
    assert routes_by_train(res) == {"2+-0": {net[h] for h in ("G1", "T", "A")}}


@pytest.mark.parametrize(("countries", "expected", "income"), [
    # G1-T-G2 (2 x 97) is barred (both German): the best is G1-T-Be = 2 x (40 + 27 + 10) = 154
    # (G2-T-Be = 134); G1 and Be each get 154 * 20 // 100 = 30
    (True, 154, {"G1": 30, "Be": 30}),
    # no countries: G1-T-G2 = 194, 38 each
    (False, 194, {"G1": 38, "G2": 38}),
])
def test_optimiser_same_country_and_foreign_income(countries: bool, expected: int, income: dict[str, int]) -> None:
    net, board = foreign_board(countries)
    res = assert_optimum(board, expected)
    assert res.extras.foreign_income == {net[h]: v for h, v in income.items()}


# --------------------------------------------------------------------------- private powers (options)


def options_board(options: dict[str, Any]) -> tuple[Net, Board]:
    """Hub T (20, station) with three spokes: city A (30); towns b1 (10), b2 (15) and city E (0)
    at the end (so that a + route along it holds two cities); off-board C (35); a 2+ train (it
    may use two spokes)."""
    net = Net(COMPANY)
    net.city("T", 20, token=True)
    net.city("A", 30)
    net.town("b1", 10)
    net.town("b2", 15)
    net.offboard("C", 35)
    net.city("E", 0)
    net.link("T", 1, "A")
    net.link("T", 4, "b1")
    net.link("b1", 4, "b2")
    net.link("b2", 4, "E")
    net.link("T", 2, "C")
    net.train("2+-0", plus_rows(2))
    if "port_token" in options:
        options = {**options, "port_token": net["b2"]}
    return net, net.board("1839", options)


OPTION_CASES = [
    # (options, value of route E-b2-b1-T-C, value of route A-T-C, optimum, its stops)
    # no power: spokes A 30, B 25, C 35: the best two are A and C: 20 + 30 + 35 = 85
    ({}, 80, 85, 85, "A T C"),
    # towns +10: spoke B = 20 + 25 = 45: B and C: 20 + 45 + 35 = 100 (A and B: 95)
    ({"towns_plus_10": True}, 100, 85, 100, "E b2 b1 T C"),
    # another company's port token at b2: +10, spoke B = 35: 20 + 35 + 35 = 90
    ({"port_token": "b2"}, 90, 85, 90, "E b2 b1 T C"),
    # our own port token at b2: +20, spoke B = 45: 100
    ({"port_token": "b2", "port_token_own": True}, 100, 85, 100, "E b2 b1 T C"),
    # both: B = 20 + 45 = 65: 20 + 65 + 35 = 120
    ({"port_token": "b2", "port_token_own": True, "towns_plus_10": True}, 120, 85, 120, "E b2 b1 T C"),
    # +10 per location: A-T-C 85 + 3 x 10 = 115; E-b2-b1-T-C 80 + 5 x 10 = 130; A-T-b1-b2 75 + 40 = 115
    ({"location_bonus": True}, 130, 115, 130, "E b2 b1 T C"),
]


@pytest.mark.parametrize(("options", "via_b", "via_a", "expected", "stops"), OPTION_CASES)
def test_evaluator_private_powers(options: dict[str, Any], via_b: int, via_a: int, expected: int,
                                  stops: str) -> None:
    net, board = options_board(options)
    assert_legal(board, [net.claim("2+-0", "E", "b2", "b1", "T", "C")], via_b)
    assert_legal(board, [net.claim("2+-0", "A", "T", "C")], via_a)


@pytest.mark.parametrize(("options", "via_b", "via_a", "expected", "stops"), OPTION_CASES)
def test_optimiser_private_powers(options: dict[str, Any], via_b: int, via_a: int, expected: int,
                                  stops: str) -> None:
    net, board = options_board(options)
    res = assert_optimum(board, expected)
    assert routes_by_train(res) == {"2+-0": {net[h] for h in stops.split()}}


def test_location_bonus_counts_each_location_once() -> None:
    # The star with +10 per location: L, C, R, U reached; C by both trains but the bonus once:
    # 260 + 4 x 10 = 300; the optimiser's split is unchanged (every location is reached anyway).
    net, board = star(options={"location_bonus": True})
    assert_legal(board, [net.claim("5D-0", "L", "C", "R"), net.claim("2+-0", "C", "U")], 300)
    assert_optimum(board, 300)
