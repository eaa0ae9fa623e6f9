"""The 1871 Steel Cities train rules (ruleset `1871sc`), one small hand-built board each.

Source: shared/seeds "1871 Steel Cities" (two classes of trains, four types), as read in
`solver/rulesets/r_1871sc/view.py`:
- every stop and every company station has a class, freight (square) or passenger (round); a
  class "" stop is served by both. A train serves its class's stops and passes the other class's,
  which neither count nor pay for it; a route needs a company station of its train's class;
- H (hex freight): distance in hexes crossed, every freight stop pays;
- F (fast freight): express by hex, its best n hexes pay; double for dahs (freight towns) and for
  hexes with the company's stations;
- P (passenger): an ordinary train counting passenger stops;
- E (express passenger): express by hex, double for hexes with the company's stations, but not for
  dits (passenger towns);
- a minor company runs one class only; freight and passenger routes share no track unless the
  option `classes_share_track` is set (routes of one class never do).

Every board is small enough to work out its optimum by hand; the comment next to each expected
value says why it is the optimum. The evaluator must price legal claims right and name the rule an
illegal claim breaks; the optimiser must find exactly the hand-computed revenue, prove it (OPTIMAL)
and return routes the evaluator accepts at the same revenue.
"""

from __future__ import annotations

from typing import Any

import pytest

from solver.evaluator import evaluate
from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.errors import BoardError
from solver.model.results import ClaimedRoute, SolveOptions
from solver.optimiser import solve
from tests.support.boards import BoardBuilder
from tests.support.boards_1839 import (
    FREIGHT,
    PASSENGER,
    Net,
    assert_illegal,
    assert_legal,
    assert_optimum,
    routes_by_train,
    stop_revenues,
)

COMPANY = "PRR"
TRAIN_KINDS = {  # name suffix -> (distance unit, by hex, class)
    "H": ("hexes", False, "freight"),
    "F": ("express", True, "freight"),
    "P": ("stops", False, "passenger"),
    "E": ("express", True, "passenger"),
}


def add_train(b: Net | BoardBuilder, name: str) -> str:
    """A train `<n><kind>-0`, e.g. "2H": 2 hexes of freight; "3E": an express passenger train paying 3 hexes."""
    unit, by_hex, klass = TRAIN_KINDS[name[-1]]
    fields: dict[str, Any] = {"class": klass}
    if by_hex:
        fields["by_hex"] = True
    return b.train(f"{name}-0", int(name[:-1]), unit=unit, **fields)


def station(klass: str) -> dict[str, Any]:
    """A class "" city holding the company's station of class `klass`."""
    return {"token": True, "token_class": klass, "class": ""}


# --------------------------------------------------------------------------- classes; P trains


def passenger_board(train: str) -> tuple[Net, Board]:
    """T (30, passenger station) - Fc (freight city 60) - Pc (passenger city 40) - Pd (dit 20)."""
    net = Net(COMPANY)
    net.city("T", 30, **station("passenger"))
    net.city("Fc", 60, **FREIGHT)
    net.city("Pc", 40, **PASSENGER)
    net.town("Pd", 20, **PASSENGER)
    net.row(["T", "Fc", "Pc", "Pd"])
    add_train(net, train)
    return net, net.board("1871sc")


def test_evaluator_passenger_train_passes_freight_stops() -> None:
    net, board = passenger_board("2P")
    # the freight city is passed: it neither counts nor pays; T and Pc are the 2P's two stops
    ev = assert_legal(board, [net.claim("2P-0", "T", "Fc", "Pc")], 70)
    assert stop_revenues(ev) == {"2P-0": [30, 0, 40]}
    # a third passenger stop is too many for a 2P
    assert_illegal(board, [net.claim("2P-0", "T", "Fc", "Pc", "Pd")], {"TOO_LONG"})
    net, board = passenger_board("3P")
    ev = assert_legal(board, [net.claim("3P-0", "T", "Fc", "Pc", "Pd")], 90)
    assert stop_revenues(ev) == {"3P-0": [30, 0, 40, 20]}


@pytest.mark.parametrize(("train", "expected", "stops"), [
    # 2P: T-Fc-Pc = 30 + 0 + 40 = 70 (the freight city is free but pays nothing; T-Fc alone is 30;
    # if Fc counted, T-Fc would be all and pay 30 or 90)
    ("2P", 70, "T Fc Pc"),
    # 3P: every passenger stop: 30 + 40 + 20 = 90
    ("3P", 90, "T Fc Pc Pd"),
])
def test_optimiser_passenger_train(train: str, expected: int, stops: str) -> None:
    net, board = passenger_board(train)
    res = assert_optimum(board, expected)
    assert routes_by_train(res) == {f"{train}-0": {net[h] for h in stops.split()}}


# --------------------------------------------------------------------------- H trains


def hex_board(trains: tuple[str, ...]) -> tuple[Net, Board]:
    """T (30, freight station) - A (dah 20) - B (dah 10) - p (dit 50) - empty hex - C (freight 60)."""
    net = Net(COMPANY)
    net.city("T", 30, **station("freight"))
    net.town("A", 20, **FREIGHT)
    net.town("B", 10, **FREIGHT)
    net.town("p", 50, **PASSENGER)
    net.empty("E")
    net.city("C", 60, **FREIGHT)
    net.row(["T", "A", "B", "p", "E", "C"])
    for t in trains:
        add_train(net, t)
    return net, net.board("1871sc")


def test_evaluator_hex_train() -> None:
    net, board = hex_board(("2H", "5H"))
    # 2 hexes crossed, three stops: an H train counts hexes, not stops: 30 + 20 + 10
    ev = assert_legal(board, [net.claim("2H-0", "T", "A", "B")], 60)
    assert stop_revenues(ev) == {"2H-0": [30, 20, 10]}
    # on to the dit: 3 hexes, one too many for a 2H
    assert_illegal(board, [net.claim("2H-0", "T", "A", "B", "p")], {"TOO_LONG"})
    # 5H over 5 hexes (the empty hex counts): the dit is passed for 0
    ev = assert_legal(board, [net.claim("5H-0", "T", "A", "B", "p", "E", "C")], 120)
    assert stop_revenues(ev) == {"5H-0": [30, 20, 10, 0, 60]}
    assert_illegal(board, [net.claim("2H-0", "T", "A", "B"), net.claim("5H-0", "T", "A", "B", "p", "E", "C")],
                   {"SHARED_TRACK"})


@pytest.mark.parametrize(("train", "expected"), [
    # 2H reaches B (2 hexes): 30 + 20 + 10 = 60
    ("2H", 60),
    # 4H reaches p (the dit pays a freight train nothing) but not C, 5 hexes away: still 60
    ("4H", 60),
    # 5H reaches C: 30 + 20 + 10 + 0 + 60 = 120
    ("5H", 120),
])
def test_optimiser_hex_train(train: str, expected: int) -> None:
    _, board = hex_board((train,))
    assert_optimum(board, expected)


# --------------------------------------------------------------------------- F trains


def fast_freight_board(train: str) -> tuple[Net, Board]:
    """T (30, freight station) - A (freight city 50) - d (dah 30) - B (freight city 30) - p (passenger city 100)."""
    net = Net(COMPANY)
    net.city("T", 30, **station("freight"))
    net.city("A", 50, **FREIGHT)
    net.town("d", 30, **FREIGHT)
    net.city("B", 30, **FREIGHT)
    net.city("p", 100, **PASSENGER)
    net.row(["T", "A", "d", "B", "p"])
    add_train(net, train)
    return net, net.board("1871sc")


def test_evaluator_fast_freight() -> None:
    net, board = fast_freight_board("2F")
    # hex values for the 2F: T 60 (station, doubled), A 50, d 60 (dah, doubled), B 30, p 0
    # (passenger): the best two hexes T and d pay, 120
    ev = assert_legal(board, [net.claim("2F-0", "T", "A", "d", "B", "p")], 120)
    assert stop_revenues(ev) == {"2F-0": [60, 0, 60, 0, 0]}
    assert_legal(board, [net.claim("2F-0", "T", "A")], 110)


@pytest.mark.parametrize(("train", "expected"), [
    # best two hexes on a route from T: T 60 + d 60 = 120 (no doubling of the dah: 110; no doubling
    # of the station: 110)
    ("2F", 120),
    # best three: 60 + 60 + 50 = 170 (the passenger city never pays a freight train)
    ("3F", 170),
])
def test_optimiser_fast_freight(train: str, expected: int) -> None:
    _, board = fast_freight_board(train)
    assert_optimum(board, expected)


def two_stop_hex_board(train: str, express_class: str) -> tuple[Board, list[str], list[list[str]]]:
    """Hex H0 and H1, adjacent, two stops in one of them, joined by paths inside the hex.

    freight: H0 = T (30, freight station); H1 = dah (20) then freight city (30). Route T-dah-city.
    passenger: H0 = dit (20) and T (30, passenger station); H1 = passenger city (70). Route dit-T-city.
    """
    b = BoardBuilder(COMPANY)
    b.link("H0", 4, "H1")
    if express_class == "freight":
        t = b.city("H0", 30, **station("freight"))
        town = b.town("H1", 20, **FREIGHT)
        c = b.city("H1", 30, **FREIGHT)
        p0, p1, p2 = b.path("H0", t, 4), b.path("H1", 1, town), b.path("H1", town, c)
        nodes, legs = [t, town, c], [[p0, p1], [p2]]
    else:
        town = b.town("H0", 20, **PASSENGER)
        t = b.city("H0", 30, **station("passenger"))
        c = b.city("H1", 70, **PASSENGER)
        p0, p1, p2 = b.path("H0", town, t), b.path("H0", t, 4), b.path("H1", 1, c)
        nodes, legs = [town, t, c], [[p0], [p1, p2]]
    add_train(b, train)
    snap = b.snapshot()
    snap["ruleset"] = "1871sc"
    return board_from_snapshot(snap), nodes, legs


def test_evaluator_fast_freight_pays_by_hex() -> None:
    board, nodes, legs = two_stop_hex_board("1F", "freight")
    # H1 earns its two stops together: dah 40 (doubled) + city 30 = 70 > H0 (station) 60; a best
    # single stop would be the station's 60
    ev = assert_legal(board, [ClaimedRoute("1F-0", nodes, legs)], 70)
    assert stop_revenues(ev) == {"1F-0": [0, 40, 30]}


@pytest.mark.parametrize(("train", "express_class", "expected"), [
    # 1F: the best hex is H1, dah 40 + city 30 = 70
    ("1F", "freight", 70),
    # 2F: both hexes, 60 + 70 = 130
    ("2F", "freight", 130),
    # 1E: the station hex H0 earns T doubled 60 + the dit NOT doubled 20 = 80 > H1 70
    ("1E", "passenger", 80),
    # 2E: both hexes, 80 + 70 = 150
    ("2E", "passenger", 150),
])
def test_optimiser_express_pays_by_hex(train: str, express_class: str, expected: int) -> None:
    board, _, _ = two_stop_hex_board(train, express_class)
    assert_optimum(board, expected)


# --------------------------------------------------------------------------- E trains


def express_board(train: str) -> tuple[Net, Board]:
    """T (30, passenger station) - dit (40) - A (passenger city 35) - f (freight city 90)."""
    net = Net(COMPANY)
    net.city("T", 30, **station("passenger"))
    net.town("dit", 40, **PASSENGER)
    net.city("A", 35, **PASSENGER)
    net.city("f", 90, **FREIGHT)
    net.row(["T", "dit", "A", "f"])
    add_train(net, train)
    return net, net.board("1871sc")


def test_evaluator_express_passenger() -> None:
    net, board = express_board("2E")
    # hex values for the 2E: T 60 (station, doubled), dit 40 (dits are not doubled), A 35, f 0
    # (freight): the best two pay, 100
    ev = assert_legal(board, [net.claim("2E-0", "T", "dit", "A", "f")], 100)
    assert stop_revenues(ev) == {"2E-0": [60, 40, 0, 0]}
    board, nodes, legs = two_stop_hex_board("1E", "passenger")
    # a dit in the station's hex is not doubled either: 20 + 60 = 80
    ev = assert_legal(board, [ClaimedRoute("1E-0", nodes, legs)], 80)
    assert stop_revenues(ev) == {"1E-0": [20, 60, 0]}


@pytest.mark.parametrize(("train", "expected"), [
    # best two hexes: T 60 + dit 40 = 100 (a doubled dit would make it 140)
    ("2E", 100),
    # best three: 60 + 40 + 35 = 135 (the freight city never pays a passenger train)
    ("3E", 135),
])
def test_optimiser_express_passenger(train: str, expected: int) -> None:
    _, board = express_board(train)
    assert_optimum(board, expected)


# --------------------------------------------------------------------------- a station of the train's class


def token_class_board(trains: tuple[str, ...]) -> tuple[Net, Board]:
    """Tf (40, freight station) - A (class "" city 50) - B (passenger city 10) - Tp (10, passenger station)."""
    net = Net(COMPANY)
    net.city("Tf", 40, **station("freight"))
    net.city("A", 50, **{"class": ""})
    net.city("B", 10, **PASSENGER)
    net.city("Tp", 10, **station("passenger"))
    net.row(["Tf", "A", "B", "Tp"])
    for t in trains:
        add_train(net, t)
    return net, net.board("1871sc")


def test_evaluator_route_needs_a_station_of_its_class() -> None:
    net, board = token_class_board(("2P", "2H"))
    assert_illegal(board, [net.claim("2P-0", "Tf", "A")], {"NO_TOKEN"})
    assert_illegal(board, [net.claim("2H-0", "A", "B", "Tp")], {"NO_TOKEN"})
    assert_legal(board, [net.claim("2P-0", "B", "Tp")], 20)
    assert_legal(board, [net.claim("2H-0", "Tf", "A")], 90)
    assert_legal(board, [net.claim("2H-0", "Tf", "A", "B"), net.claim("2P-0", "B", "Tp")], 110)


@pytest.mark.parametrize(("trains", "expected"), [
    # the 2P needs Tp: B-Tp = 20 (A-B-Tp is three stops; Tf-A = 90 has only a freight station)
    (("2P",), 20),
    # the 2H needs Tf: Tf-A = 90 (Tf-A-B: B pays a freight train nothing; Tp is 3 hexes away)
    (("2H",), 90),
    # both, on separate track: 90 + 20 = 110
    (("2P", "2H"), 110),
])
def test_optimiser_route_needs_a_station_of_its_class(trains: tuple[str, ...], expected: int) -> None:
    net, board = token_class_board(trains)
    res = assert_optimum(board, expected)
    if "2P" in trains:
        assert routes_by_train(res)["2P-0"] == {net["B"], net["Tp"]}


# --------------------------------------------------------------------------- minor companies


def minor_snapshot(trains: tuple[str, ...], company_type: str) -> dict[str, Any]:
    """Hub T (30, freight station) with spokes A (dah 20) and B (freight city 40)."""
    net = Net(COMPANY)
    net.city("T", 30, **station("freight"))
    net.town("A", 20, **FREIGHT)
    net.city("B", 40, **FREIGHT)
    net.link("T", 1, "A")
    net.link("T", 4, "B")
    for t in trains:
        add_train(net, t)
    return net.snapshot("1871sc", company_type=company_type)


def test_minor_company_with_both_classes_is_rejected() -> None:
    snap = minor_snapshot(("2H", "2P"), "minor")
    with pytest.raises(BoardError):
        evaluate(board_from_snapshot(snap), [])
    with pytest.raises(BoardError):
        solve(board_from_snapshot(snap), SolveOptions(time_limit_s=5.0))


def test_train_without_class_is_rejected() -> None:
    snap = minor_snapshot(("2H",), "corporation")
    snap["trains"].append({"id": "2-0", "name": "2", "distance": 2, "distance_unit": "stops", "requires_token": True})
    with pytest.raises(BoardError):
        evaluate(board_from_snapshot(snap), [])
    with pytest.raises(BoardError):
        solve(board_from_snapshot(snap), SolveOptions(time_limit_s=5.0))


@pytest.mark.parametrize(("trains", "company_type", "expected"), [
    # a minor with freight trains only: 2H T-A (20 + 30 = 50) and 2F T-B (60 + 40 = 100) = 150, or
    # 2H T-B (70) and 2F T-A (60 + dah 40 = 100) = 170; one train on A-T-B: 2H 90, 2F 100. Best 170.
    (("2H", "2F"), "minor", 170),
    # a corporation may own both classes: the 2H runs A-T-B = 90; the 2P has no passenger station
    (("2H", "2P"), "corporation", 90),
])
def test_optimiser_minor_with_one_class(trains: tuple[str, ...], company_type: str, expected: int) -> None:
    assert_optimum(board_from_snapshot(minor_snapshot(trains, company_type)), expected)


# --------------------------------------------------------------------------- freight and passenger track


def share_board(share: bool) -> tuple[Net, Board]:
    """Tp (10, passenger station) - Tf (20, freight station) - A (class "" city 50); trains 3P, 2P, 1H."""
    net = Net(COMPANY)
    net.city("Tp", 10, **station("passenger"))
    net.city("Tf", 20, **station("freight"))
    net.city("A", 50, **{"class": ""})
    net.row(["Tp", "Tf", "A"])
    for t in ("3P", "2P", "1H"):
        add_train(net, t)
    return net, net.board("1871sc", {"classes_share_track": True} if share else {})


def test_evaluator_classes_share_track_option() -> None:
    net, board = share_board(share=False)
    both = [net.claim("3P-0", "Tp", "Tf", "A"), net.claim("1H-0", "Tf", "A")]
    assert_illegal(board, both, {"SHARED_TRACK"})
    assert_legal(board, [net.claim("3P-0", "Tp", "Tf"), net.claim("1H-0", "Tf", "A")], 100)
    net, board = share_board(share=True)
    # with the option the freight route may reuse the passenger route's track: 80 + 70
    assert_legal(board, both, 150)
    # ... but two passenger routes still may not share
    assert_illegal(board, [net.claim("3P-0", "Tp", "Tf", "A"), net.claim("2P-0", "Tp", "Tf")], {"SHARED_TRACK"})


@pytest.mark.parametrize(("share", "expected"), [
    # without sharing each of the two gaps carries one route: 1H Tf-A (70) + a P on Tp-Tf (30) = 100,
    # better than 3P Tp-Tf-A alone (80); every P route needs Tp, so the second P runs nothing
    (False, 100),
    # with sharing the 1H reuses the 3P's track: 3P Tp-Tf-A 80 + 1H Tf-A 70 = 150; the 2P would
    # have to share with the 3P, which one class may not
    (True, 150),
])
def test_optimiser_classes_share_track_option(share: bool, expected: int) -> None:
    net, board = share_board(share)
    res = assert_optimum(board, expected)
    assert routes_by_train(res)["1H-0"] == {net["Tf"], net["A"]}
    if share:
        assert routes_by_train(res)["3P-0"] == {net["Tp"], net["Tf"], net["A"]}
