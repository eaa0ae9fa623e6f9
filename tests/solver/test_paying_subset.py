"""A list train's paying stops with route bonuses (`route_value._best_list_subset`): the search tries the
subsets of each size by what they may earn at most (`_Search.ceiling`), best first, and stops when the
rest cannot reach the best found. It must choose what the search through every subset in order chooses
(the first subset, in `combinations` order, of those worth the most), and the ceiling must be at least
what every subset earns.

Checked on the random modifier boards of tests/solver/test_bruteforce.py that run a list train, and on
corpus boards whose list trains meet bonuses (1846's east-west sums, 18FL's candidates rule, 18 Los
Angeles' exclusive combos, 1817's path-hex bonuses)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.board import Board, DistanceRow, Node, Train
from solver.modifiers import route_value as rv
from solver.modifiers.model import MINUS_STOP_REVENUE, ComboBonus, StopBonus
from solver.modifiers.route_value import path_hexes_of, route_mods, route_value
from solver.routes.leg_graph import build_leg_graph
from solver.routes.walk import enumerate_routes, standard_walk_rules
from tests.conftest import CORPUS
from tests.solver.test_bruteforce import MOD_SEEDS, make_snapshot_modifiers

ROUTES_PER_BOARD = 3000


def _list_train_boards() -> Iterator[Board]:
    for seed in range(MOD_SEEDS):
        board = board_from_snapshot(make_snapshot_modifiers(seed))
        if any(t.unit == "stops_by_type" for t in board.trains):
            yield board
    for title, every in (("1846", 6), ("18FL", 8), ("18LosAngeles1", 4), ("1817", 25)):
        raws = [p.raw for f in sorted((CORPUS / title).glob("*.jsonl.gz")) for p in read_positions(f)
                if p.raw is not None and p.raw.get("modifiers")]
        yield from (board_from_snapshot(r) for r in raws[::every])


def _prices(board: Board) -> Iterator[tuple[tuple, rv.RouteValue]]:
    """Every walked route of the board's list trains, priced: ((train, nodes), its RouteValue)."""
    mods = route_mods(board.modifiers)
    if mods is None:
        return
    shapes, _ = enumerate_routes(board, build_leg_graph(board), board.trains, cap=ROUTES_PER_BOARD,
                                 rules=standard_walk_rules(board))
    for train in {t.name: t for t in board.trains if t.unit == "stops_by_type"}.values():
        for shape in shapes:
            hexes = path_hexes_of(shape.legs, [board.nodes[n] for n in shape.nodes])
            yield (train.name, shape.nodes), route_value(board, train, shape.nodes, mods, hexes)


BOARDS = list(_list_train_boards())


def _search_every_combination(monkeypatch: pytest.MonkeyPatch) -> None:
    """Route every stop choice with a combination bonus through the search (no per-stop shortcut)."""
    real_per_stop = rv.RouteBonuses.per_stop

    def per_stop(self: rv.RouteBonuses, nodes: list[Node]) -> object:
        return None if any(isinstance(m, ComboBonus) for m in self.modifiers) else real_per_stop(self, nodes)

    monkeypatch.setattr(rv.RouteBonuses, "per_stop", per_stop)


def test_the_ordered_search_chooses_what_the_search_in_order_chooses(monkeypatch: pytest.MonkeyPatch) -> None:
    searched = {"subsets": 0}
    real_best_of_size = rv._best_of_size

    def counted_best_of_size(*args: object) -> object:
        searched["subsets"] += 1
        return real_best_of_size(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(rv, "_best_of_size", counted_best_of_size)
    _search_every_combination(monkeypatch)
    ordered = {(b, key): value for b, board in enumerate(BOARDS) for key, value in _prices(board)}
    assert searched["subsets"] >= 2000  # many routes go through the ordered search
    monkeypatch.setattr(rv._Search, "ceiling", lambda self, rows: None)  # every subset, in order
    for b, board in enumerate(BOARDS):
        for key, value in _prices(board):
            assert ordered[(b, key)] == value, (board.source, key)


def test_a_combination_the_route_cannot_complete_skips_the_search_and_chooses_as_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Stops that reach only some sets of every combination: each stop adds what it adds alone, so the best
    stops per row (`_separable`) are the search's choice; the same prices, stop by stop, as the search."""
    shortcut = {"taken": 0}
    real_separable = rv._separable

    def counted_separable(train: Train, nodes: list[Node], bonuses: rv.RouteBonuses) -> object:
        found = real_separable(train, nodes, bonuses)
        if found is not None and any(isinstance(m, ComboBonus) for m in bonuses.modifiers):
            shortcut["taken"] += 1
        return found

    monkeypatch.setattr(rv, "_separable", counted_separable)
    quick = {(b, key): value for b, board in enumerate(BOARDS) for key, value in _prices(board)}
    assert shortcut["taken"] >= 2000  # many routes meet a combination they cannot complete
    _search_every_combination(monkeypatch)
    for b, board in enumerate(BOARDS):
        for key, value in _prices(board):
            assert quick[(b, key)] == value, (board.source, key)


def test_no_subset_earns_more_than_the_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = []
    real_value, real_ceiling = rv._Search.value, rv._Search.ceiling

    def value_below_ceiling(self: rv._Search, counted: list) -> int:
        got = real_value(self, counted)
        ceiling = real_ceiling(self, sorted(self.train.rows, key=lambda r: len(r.kinds)))
        if ceiling is not None:
            most, bonus = ceiling
            at = {id(n): i for i, n in enumerate(self.nodes)}
            checked.append(got <= sum(most[at[id(n)]] for n, _pay in counted) + bonus)
        return got

    monkeypatch.setattr(rv._Search, "value", value_below_ceiling)
    monkeypatch.setattr(rv._Search, "ceiling", lambda self, rows: None)  # the search in order: every subset valued
    _search_every_combination(monkeypatch)
    for board in BOARDS:
        for _priced in _prices(board):
            pass
    assert len(checked) >= 5000
    assert all(checked)


def test_a_stop_paying_less_in_another_row_bounds_a_minus_its_revenue_bonus(monkeypatch: pytest.MonkeyPatch) -> None:
    """Towns of negative revenue that pay nothing in a second row: a bonus of minus the stop's revenue
    adds most where the stop pays least (in the first row), twice with two such bonuses. The ceiling must
    count that, or the ordered search stops before the best subset."""
    tokened = Node("C", "h1", "city", revenue=30, tokened_by_company=True)
    city = Node("C2", "h2", "city", revenue=35)
    towns = [Node(f"T{i}", f"h{i + 3}", "town", revenue=-50) for i in range(2)]
    train = Train("t", "2+1", unit="stops_by_type",
                  rows=(DistanceRow(("city", "town"), 2, 2, 1), DistanceRow(("town",), 1, 1, 0)))
    minus = ((towns[0].hex, MINUS_STOP_REVENUE), (towns[1].hex, MINUS_STOP_REVENUE))
    bonuses = rv.RouteBonuses((StopBonus("s", "a", hexes=minus, count="per_stop"),
                               StopBonus("s", "b", hexes=minus, count="per_stop")))

    def best() -> object:
        return rv._best_list_subset(rv._Search(train, [tokened, city, *towns], rv.TrainMods(bonuses, None, ()),
                                               None, ()))
    ordered = best()
    monkeypatch.setattr(rv._Search, "ceiling", lambda self, rows: None)  # every subset, in order
    assert ordered == best() == ({0: 30, 2: 0, 3: -50}, 80)


def _priced_both_ways(monkeypatch: pytest.MonkeyPatch, train: Train, nodes: list[Node], mods: tuple) -> tuple:
    """The route priced as it is, and by the search alone (no per-stop shortcut for a combination)."""
    board = Board(ruleset="standard", company="CO", hexes={}, nodes={n.id: n for n in nodes}, paths={},
                  trains=[train])
    ids = [n.id for n in nodes]
    quick = route_value(board, train, ids, route_mods(mods))
    with monkeypatch.context() as patched:
        _search_every_combination(patched)
        searched = route_value(board, train, ids, route_mods(mods))
    return quick, searched


def test_a_token_swap_keeps_the_search_for_a_combination_the_route_cannot_complete(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The best stop of each row holds no token: the best rows' stops and the search break the tie of
    the swap apart (a found review case), so such a route keeps the search, subsidy included."""
    nodes = [Node("C1", "H0", "city", revenue=10), Node("T1", "H1", "town", revenue=10),
             Node("C2", "H2", "city", revenue=5, tokened_by_company=True),
             Node("T2", "H3", "town", revenue=5, tokened_by_company=True)]
    train = Train("t", "2+2", unit="stops_by_type", distance=4,
                  rows=(DistanceRow(("city",), 1, 2), DistanceRow(("town",), 1, 2)))
    mods = (ComboBonus("s", "half", sets=((("H0", 10),), (("H9", 20),))),
            StopBonus("s", "subsidy", hexes=(("H3", 7),), count="per_stop", target="subsidy"))
    quick, searched = _priced_both_ways(monkeypatch, train, nodes, mods)
    assert quick == searched and quick.subsidy == 7 and quick.counted == ["C1", "T2"]


def test_a_route_too_long_to_search_keeps_the_search_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thirty cities: the search gives up (MAX_SUBSET_SEARCH) and falls back to the plain paying stops;
    a combination the route cannot complete does not change that."""
    nodes = [Node(f"C{i}", f"H{i}", "city", revenue=10 + i % 3) for i in range(30)]
    train = Train("t", "8/30", unit="stops_by_type", distance=30, rows=(DistanceRow(("city",), 8, 30),),
                  requires_token=False)
    mods = (StopBonus("s", "b", hexes=(("H0", 50),), count="per_stop"),
            ComboBonus("s", "half", sets=((("H1", 10),), (("H99", 20),))))
    quick, searched = _priced_both_ways(monkeypatch, train, nodes, mods)
    assert quick == searched
