"""The candidate pricer remembers each route's price by its train, stops, what they pay and (where a
modifier reads them) the hexes its track passes. Routes over parallel track share the price; a route
whose price depends on its track must never take another's: every price the memo gives equals the
price of a pricer that has seen no route before (18FL, 1867, and 1817 whose mines pay by path hex)."""

from __future__ import annotations

import pytest

from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.board import Board, Train
from solver.modifiers.candidate_values import candidate_pricer
from solver.packing.pack import train_classes
from solver.routes.leg_graph import build_leg_graph
from solver.routes.walk import enumerate_routes, standard_walk_rules
from solver.rules.train_rules import stop_revenue
from tests.conftest import CORPUS

ROUTES = 3000


def _last_modifiers_board(title: str) -> tuple[Board, list[Train]]:
    """The last `modifiers` position of the title's first game, and its train classes (one train each)."""
    path = sorted((CORPUS / title).glob("*.jsonl.gz"))[0]
    raw = [p.raw for p in read_positions(path) if p.raw.get("revenue_model") == "modifiers"][-1]
    board = board_from_snapshot(raw)
    return board, train_classes(board.trains)[0]


def _as_priced(price: object, paid: list[int]) -> object:
    """A price as the candidate builder reads it: None (priced as usual) is what the stops pay, ahead."""
    return (paid, False, 0) if price is None else price


@pytest.mark.parametrize("title", ["18FL", "1867", "1817"])
def test_a_remembered_price_is_the_price(title: str) -> None:
    board, classes = _last_modifiers_board(title)
    memo = candidate_pricer(board)
    assert memo is not None
    walk = standard_walk_rules(board, *memo.walk_limits)
    shapes, _ = enumerate_routes(board, build_leg_graph(board), classes, cap=ROUTES, rules=walk)
    by_stops: dict[tuple[str, ...], int] = {}
    for shape in shapes:
        by_stops[shape.nodes] = by_stops.get(shape.nodes, 0) + 1
    assert max(by_stops.values()) > 1  # parallel track: the memo is asked again for the same stops
    for shape in shapes:
        for train in classes:
            fresh = candidate_pricer(board)
            assert fresh is not None
            assert memo.price(train, shape.nodes, None, shape.legs) == fresh.price(train, shape.nodes, None, shape.legs)


def _shortcut_against_the_full_pricing(title: str, shortcut: str, off: object) -> list[tuple]:
    """The last `modifiers` position of the title's first game, its routes priced by a pricer with a shortcut
    of `_Direction` (the field `shortcut`) and by one with it set to `off` (asking the bonuses): every price
    is the same, as the candidate builder reads it. Returns the (route, train, stops a bonus reads) of the
    trains the shortcut applies to."""
    board, classes = _last_modifiers_board(title)
    quick, slow = candidate_pricer(board), candidate_pricer(board)
    assert quick is not None and slow is not None
    applies = [t for t in classes if (d := quick.train_mods(t.name)) is not None and getattr(d, shortcut) != off]
    assert applies
    for train in applies:
        setattr(slow.train_mods(train.name), shortcut, off)
    shapes, _ = enumerate_routes(board, build_leg_graph(board), classes, cap=ROUTES,
                                 rules=standard_walk_rules(board, *quick.walk_limits))
    out = []
    for shape in shapes:
        for train in applies:
            paid = [stop_revenue(board.nodes[n], train) for n in shape.nodes]
            assert _as_priced(quick.price(train, shape.nodes, paid, shape.legs), paid) == \
                _as_priced(slow.price(train, shape.nodes, paid, shape.legs), paid)
            out.append((shape, train, quick.train_mods(train.name).read_stops))  # type: ignore[union-attr]
    return out


@pytest.mark.parametrize("title", ["1846", "1870", "1882", "18MS"])
def test_a_route_away_from_every_bonus_stop_is_priced_as_the_bonuses_would(title: str) -> None:
    """With vocabulary v1 bonuses only, a route that stops at none of the stops a bonus reads is priced as
    usual without asking the bonuses (`read_stops`): the price equals that of a pricer that asks them for
    every route, and the shortcut is taken for some routes and not for others."""
    priced = _shortcut_against_the_full_pricing(title, "read_stops", None)
    away = sum(read.isdisjoint(shape.nodes) for shape, _train, read in priced)
    assert 0 < away < len(priced)


def test_a_route_ending_away_from_every_end_bonus_is_priced_as_the_bonuses_would() -> None:
    """1870's destination bonus reads a route's ends only (`endpoint`): a route whose first and last stops
    are not ones a bonus reads is priced as usual, even when it passes such a stop (`ends_only`); the price
    equals that of a pricer that asks the bonuses, and the shortcut is taken for some such routes."""
    priced = _shortcut_against_the_full_pricing("1870", "ends_only", False)
    passing = sum(not read.isdisjoint(shape.nodes) and shape.nodes[0] not in read and shape.nodes[-1] not in read
                  for shape, _train, read in priced)
    assert passing > 0


@pytest.mark.parametrize("title", ["1846", "1870", "1882", "18MS", "18FL", "1867"])
def test_the_builders_test_says_priced_as_usual_only_where_the_pricer_does(title: str) -> None:
    """`CandidatePricer.as_usual`, asked by the candidate builder before the pricer, says a route is priced as
    usual only where `price` gives None for it, for trains paying every stop (their pay given) or not."""
    board, classes = _last_modifiers_board(title)
    pricer = candidate_pricer(board)
    assert pricer is not None
    shapes, _ = enumerate_routes(board, build_leg_graph(board), classes, cap=ROUTES,
                                 rules=standard_walk_rules(board, *pricer.walk_limits))
    usual = 0
    for train in classes:
        for pays_every in (True, False):
            test = pricer.as_usual(train, pays_every)
            for shape in shapes if test is not None else ():
                if test(shape.nodes):
                    paid = [stop_revenue(board.nodes[n], train) for n in shape.nodes] if pays_every else None
                    assert pricer.price(train, shape.nodes, paid, shape.legs) is None, (train.name, shape.nodes)
                    usual += 1
    assert usual > 0 or title == "1867"  # 1867's trains all have modifiers beyond v1 bonuses: `price` is asked
