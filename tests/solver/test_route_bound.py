"""The one-train walk's branch and bound (`solver.routes.route_bound`): the bound is never below what
a route earns, on any prefix of it, and the bounded walk keeps the best route the whole walk gives.

Checked on real boards: the last positions of one game of every title, each run by one of its
company's trains that counts plain stops (alone, as a company with one train), and on the stress
boards. A bound below a route's value would drop the optimum unnoticed: the first test catches
it on every walked route; the second compares the answers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board, DistanceRow, Train
from solver.modifiers.candidate_values import CandidatePricer, candidate_pricer
from solver.packing.pack import train_classes
from solver.routes.candidates import _bound_weights, candidate_routes
from solver.routes.leg_graph import LegGraph, build_leg_graph
from solver.routes.pricing import RouteBuilder
from solver.routes.route_bound import (
    ReachBound,
    _free_forest,
    flat_bound,
    limiting_row,
    plain_bounded,
    reach_bound,
    reach_left,
)
from solver.routes.route_shape import WalkRules
from solver.routes.walk import _takes_most, enumerate_routes, standard_walk_rules
from tests.support.boards import chain_board
from tests.support.corpus_files import late_positions
from tests.support.stress_boards import stress_snapshots

ROUTES_PER_BOARD = 4000  # routes whose every prefix is checked, per board
WHOLE_WALK = 30_000  # boards whose whole walk is longer are not compared


def _one_train_boards(raw: dict) -> list[Board]:
    """The board once per distinct train of the company that counts plain stops, as its only train."""
    board = board_from_snapshot(raw)
    out, seen = [], set()
    for t in board.trains:
        if t.unit == "stops" and not t.klass and not t.local and t.spec_key() not in seen:
            seen.add(t.spec_key())
            out.append(replace(board, trains=[t]))
    return out


LATE = [(title, b) for title, raw in late_positions(2) for b in _one_train_boards(raw)]


def _list_train_boards(raw: dict) -> list[Board]:
    """The board once per distinct list train of the company with one row that limits it (`limiting_row`:
    "4 cities and any towns"), as its only train."""
    board = board_from_snapshot(raw)
    out, seen = [], set()
    for t in board.trains:
        if limiting_row(t) is not None and t.spec_key() not in seen:
            seen.add(t.spec_key())
            out.append(replace(board, trains=[t]))
    return out


LISTED = [(title, b) for title, raw in late_positions(3) for b in _list_train_boards(raw)]


def _table(board: Board) -> tuple[list[Train], LegGraph, CandidatePricer | None, WalkRules, ReachBound | None]:
    """The board's train classes, leg graph, pricer and walk rules, and the one-train walk's table for its train
    (None where no table bounds it)."""
    classes = train_classes(board.trains)[0]
    graph = build_leg_graph(board)
    pricer = candidate_pricer(board, True)
    walk = standard_walk_rules(board, *pricer.walk_limits) if pricer is not None else standard_walk_rules(board)
    weights = _bound_weights(RouteBuilder(board, graph, classes, [], pricer), 0)
    reach = reach_bound(board, graph.legs_from, walk.visitable, walk.passable, classes[0], *weights) \
        if weights is not None else None
    return classes, graph, pricer, walk, reach


def _bound_breaks(board: Board) -> tuple[int, list[tuple]]:
    """How many routes were checked, and every (route, prefix length, value, bound) whose value beats it."""
    classes, graph, pricer, walk, reach = _table(board)
    if reach is None:
        return 0, []
    shapes, _ = enumerate_routes(board, graph, classes, cap=ROUTES_PER_BOARD, rules=walk)
    builder = RouteBuilder(board, graph, classes, shapes, pricer)
    bad = []
    for k, shape in enumerate(shapes):
        value = max((v for c in builder.price(k, builder.fitting(k)) if c is not None for v in c.totals.values()),
                    default=0)
        nodes = [board.nodes[n] for n in shape.nodes]
        costs = [reach.cost[n.id] if reach.cost is not None else n.visit_cost for n in nodes]  # what the table counts
        so_far, cost = reach.node[shape.nodes[0]], costs[0]
        ahead = reach.start_ahead(shape.nodes[0])
        for i in range(len(nodes)):
            if i:
                so_far += reach.node[shape.nodes[i]] + reach.leg[id(shape.legs[i - 1])]
                cost += costs[i]
                ahead = reach.step_ahead(shape.legs[i - 1])
            bound = so_far + ahead[reach.distance - cost] + reach.const
            if value > bound:
                bad.append((shape.nodes, i + 1, value, bound))
    return len(shapes), bad


@pytest.mark.parametrize(("title", "board"), LATE, ids=[f"{t}-{b.trains[0].name}" for t, b in LATE])
def test_no_route_earns_more_than_the_bound_of_a_prefix(title: str, board: Board) -> None:
    _checked, bad = _bound_breaks(board)
    assert bad == []


@pytest.mark.parametrize(("title", "board"), LISTED, ids=[f"{t}-{b.trains[0].name}" for t, b in LISTED])
def test_no_list_train_route_earns_more_than_the_bound_of_a_prefix(title: str, board: Board) -> None:
    """The same for a list train with one row that limits it: the table counts that row's stops, the others
    (free) add their pay where a walk passes them."""
    _checked, bad = _bound_breaks(board)
    assert bad == []


def test_list_trains_of_many_titles_are_bounded() -> None:
    """The table bounds list trains with one limiting row on boards of several titles (free stops with no
    cycle among them), so the test above checks it on many routes."""
    checked = [(title, _bound_breaks(board)[0]) for title, board in LISTED]
    assert len({title for title, n in checked if n}) >= 3
    assert sum(n for _title, n in checked) >= 5_000


def test_a_list_train_is_limited_by_its_one_short_row_of_its_own() -> None:
    """`limiting_row`: the one row visiting fewer than any number of stops, whose kinds no other row takes."""
    row = DistanceRow(kinds=("city", "offboard"), pay=4, visit=4)
    towns = DistanceRow(kinds=("town",), pay=99, visit=99)

    def listed(*rows: DistanceRow, **kw: object) -> Train:
        return Train(id="t", name="t", unit="stops_by_type", distance=sum(r.visit for r in rows), rows=rows, **kw)

    assert limiting_row(listed(row, towns)) == row
    assert limiting_row(listed(row)) == row
    assert limiting_row(listed(row, DistanceRow(kinds=("town", "city"), pay=99, visit=99))) is None  # cities pour on
    assert limiting_row(listed(row, DistanceRow(kinds=("town",), pay=2, visit=2))) is None  # two rows limit it
    assert limiting_row(listed(DistanceRow(kinds=("city",), pay=13, visit=13), towns)) is None  # too long a table
    assert limiting_row(listed(row, towns, klass="freight")) is None
    assert limiting_row(Train(id="t", name="4", unit="stops", distance=4)) is None
    assert plain_bounded(Train(id="t", name="4", unit="stops", distance=4))


def test_free_stops_on_a_cycle_are_found() -> None:
    """`_free_forest`: free stops joined in a ring (a walk could go round it in the table) are no forest; a
    chain, parallel track between two of them, and a stop the walk may not pass through break no ring."""
    class _Leg:
        def __init__(self, b: str) -> None:
            self.b = b

    def legs(*pairs: str) -> dict[str, list[_Leg]]:
        out: dict[str, list[_Leg]] = {}
        for pair in pairs:
            a, b = pair.split("-")
            out.setdefault(a, []).append(_Leg(b))
            out.setdefault(b, []).append(_Leg(a))
        return out

    assert _free_forest(legs("a-b", "b-c", "c-d"), {"a", "b", "c", "d"})  # type: ignore[arg-type]
    assert _free_forest(legs("a-b", "a-b", "b-c"), {"a", "b", "c"})  # type: ignore[arg-type]
    assert not _free_forest(legs("a-b", "b-c", "c-a"), {"a", "b", "c"})  # type: ignore[arg-type]
    assert _free_forest(legs("a-b", "b-c", "c-a"), {"a", "b"})  # type: ignore[arg-type]


def test_most_late_boards_are_bounded() -> None:
    """The bound applies to most of these trains (plain stops, at most 12, no free stop), so the test
    above checks it on many boards."""
    bounded = sum(_bound_breaks(board)[0] > 0 for _title, board in LATE)
    assert bounded >= len(LATE) // 2


def _first_best(board: Board) -> tuple[list, int, int] | None:
    """The whole walk's best route (the first in walk order of those earning the most) as (nodes, its
    value, how many routes the walk priced), None when the walk is too long to compare."""
    classes = train_classes(board.trains)[0]
    graph = build_leg_graph(board)
    every, done = candidate_routes(board, graph, classes, cap=WHOLE_WALK)
    if not done:
        return None
    values = [max(c.totals.values()) for c in every]
    if not values:
        return [], 0, 0
    best = max(values)
    return list(every[values.index(best)].nodes), best, len(every)


BOARDS = LATE + [(f"stress-{t}", b) for t in ("1856", "1870", "1882", "1846") for raw in stress_snapshots(t)[:2]
                 for b in _one_train_boards(raw)]


def _against_the_whole_walk(boards: list[tuple[str, Board]]) -> list[tuple[float, int]]:
    """On each board whose whole walk is short enough to compare, the best-only walk's route is the whole
    walk's first best route (asserted); per board compared, the routes the best-only walk priced and the
    routes of the whole walk."""
    out = []
    for title, board in boards:
        whole = _first_best(board)
        if whole is None:
            continue
        stats: dict[str, float] = {}
        kept, done = candidate_routes(board, build_leg_graph(board), train_classes(board.trains)[0],
                                      best_only=True, stats=stats)
        assert done
        got = (list(kept[0].nodes), max(kept[0].totals.values())) if kept else ([], 0)
        assert got == whole[:2], (title, board.trains[0].name)
        out.append((stats["routes_walked"], whole[2]))
    return out


def test_the_bounded_walk_keeps_the_whole_walks_best_route() -> None:
    compared = _against_the_whole_walk(BOARDS)
    assert len(compared) >= 40
    assert sum(priced < whole for priced, whole in compared) >= 20  # the bound cuts the walk short on many


def test_the_bounded_walk_of_a_list_train_keeps_the_whole_walks_best_route() -> None:
    compared = _against_the_whole_walk(LISTED)
    assert len(compared) >= 20
    walked_by_table = [(title, b) for title, b in LISTED if _paid_by_every_stop(b) and _table(b)[-1] is not None]
    by_table = _against_the_whole_walk(walked_by_table)
    assert len(by_table) >= 12
    assert sum(priced * 4 < whole for priced, whole in by_table) >= len(by_table) * 2 // 3  # a fraction priced


def _long_train_boards(raw: dict) -> list[Board]:
    """The board once per distinct train of the company that no table bounds on it (a D, a list train with
    free stops and no table, `_table`), as its only train."""
    board = board_from_snapshot(raw)
    out, seen = [], set()
    for t in board.trains:
        if t.unit in ("stops", "stops_by_type") and not plain_bounded(t) and not t.klass and not t.local \
                and t.spec_key() not in seen:
            seen.add(t.spec_key())
            alone = replace(board, trains=[t])
            if _table(alone)[-1] is None:
                out.append(alone)
    return out


LONG = [(title, b) for title, raw in late_positions(3) for b in _long_train_boards(raw)]


def _flat_bound_breaks(board: Board) -> tuple[int, list[tuple]]:
    """For a train walked with a `flat_bound`: how many routes were checked, and every (route, prefix length,
    value, bound) where the prefix's stops and `reach_left` of its last stop fall below the route's value."""
    classes = train_classes(board.trains)[0]
    graph = build_leg_graph(board)
    pricer = candidate_pricer(board, True)
    walk = standard_walk_rules(board, *pricer.walk_limits) if pricer is not None else standard_walk_rules(board)
    builder = RouteBuilder(board, graph, classes, [], pricer)
    weights = _bound_weights(builder, 0)
    if weights is None or not builder.plain[0]:
        return 0, []
    longest = max(classes[0].distance, sum(board.nodes[n].visit_cost for n in walk.visitable))
    flat = flat_bound(graph.legs_from, walk.visitable, longest, *weights)
    node_bit = {nid: 1 << i for i, nid in enumerate(board.nodes)}
    left = reach_left(graph.legs_from, walk.passable, flat, node_bit)
    shapes, _ = enumerate_routes(board, graph, classes, cap=ROUTES_PER_BOARD, rules=walk)
    builder.shapes = shapes
    bad = []
    for k, shape in enumerate(shapes):
        value = max((v for c in builder.price(k, builder.fitting(k)) if c is not None for v in c.totals.values()),
                    default=0)
        so_far, seen = flat.node[shape.nodes[0]], node_bit[shape.nodes[0]]
        for i, nid in enumerate(shape.nodes):
            if i:
                so_far += flat.node[nid] + flat.leg[id(shape.legs[i - 1])]
                seen |= node_bit[nid]
            bound = so_far + left(nid, seen) + flat.const
            if value > bound:
                bad.append((shape.nodes, i + 1, value, bound))
    return len(shapes), bad


def test_no_long_route_earns_more_than_its_prefix_and_the_stops_in_reach() -> None:
    """`reach_left`: what a route earns is at most its prefix's stops and legs, and each stop the rest may
    still reach (one stop it may not pass at most), on every prefix of every walked route."""
    checked = 0
    for _title, board in LONG:
        n, bad = _flat_bound_breaks(board)
        assert bad == [], (board.source, bad[:3])
        checked += n
    assert checked >= 20_000


def _paid_by_every_stop(board: Board) -> bool:
    """Whether the board's train is paid by every stop it visits (`RouteBuilder.plain`): then it is walked flat."""
    classes = train_classes(board.trains)[0]
    return RouteBuilder(board, build_leg_graph(board), classes, [], candidate_pricer(board, True)).plain[0]


def test_the_flat_walk_of_a_long_train_keeps_the_whole_walks_best_route() -> None:
    """A D or a list train paid by every stop is walked with a `flat_bound`: only the routes that may earn
    the best price so far are priced, and the answer is the whole walk's first best route."""
    compared = _against_the_whole_walk([(title, b) for title, b in LONG if _paid_by_every_stop(b)])
    assert len(compared) >= 15
    assert sum(priced * 4 < whole for priced, whole in compared) >= len(compared) // 2  # a fraction priced


def test_reach_left_is_asked_for_list_trains_that_take_most_stops_in_reach() -> None:
    """`reach_left` adds every stop still in reach, so it is worth its search only where the train may take
    most of them: a "2 cities + any towns" train on a row of eight cities is walked without it, a "6 cities +
    any towns" train on the same row with it, and a train counting plain stops always may."""
    towns_free = {"nodes": ["town"], "pay": 99, "visit": 99}
    builder, _cities = chain_board([10 * (i + 1) for i in range(8)])
    builder.train("2+-0", [{"nodes": ["city", "offboard"], "pay": 2, "visit": 2}, towns_free], name="2+")
    builder.train("6+-0", [{"nodes": ["city", "offboard"], "pay": 6, "visit": 6}, towns_free], name="6+")
    builder.train("D-0", 999, name="D")
    board = builder.board()
    graph = build_leg_graph(board)
    short, long_, diesel = board.trains
    assert not _takes_most(board, graph, short)
    assert _takes_most(board, graph, long_)
    assert _takes_most(board, graph, diesel)
