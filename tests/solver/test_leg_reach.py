"""The leg graph within reach of the company's stations (`token_reach`, `build_leg_graph(reach=...)`):
when every train needs a token, the walk over it finds exactly the routes, in the same order, that the
walk over the whole board's leg graph finds; only stops no route of the company can reach are left out.

Checked on the last positions of one game of every title, once with the company's own trains and once
with each train made unbounded (a D: the reach then is every stop connected to a station); and on the
positions of list trains that visit any number of towns ("n + any towns") and of boards with free stops,
where the reach counts only the stops the trains can visit a limited number of. A stop a route may only
end at (a full city of another company, an off-board) stops the reach there."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.board import UNLIMITED, Board
from solver.modifiers.candidate_values import candidate_pricer
from solver.packing.pack import train_classes
from solver.routes.leg_graph import build_leg_graph
from solver.routes.station_reach import token_reach
from solver.routes.walk import enumerate_routes, standard_walk_rules
from tests.support.boards import chain_board
from tests.support.corpus_files import TITLE_FILES, late_positions, priced_positions

ROUTES = 20_000  # routes compared per board, at most


def _boards() -> list[tuple[str, Board]]:
    out = []
    for title, raw in late_positions(2):
        board = board_from_snapshot(raw)
        unbounded = [replace(t, distance=UNLIMITED) if t.unit == "stops" else t for t in board.trains]
        out += [(title, board), (f"{title}-D", replace(board, trains=unbounded))]
    return out


BOARDS = _boards()


def _walk(board: Board, reach: list | None) -> tuple[list[tuple], int]:
    """The routes walked (nodes and legs' paths, in order) over the graph within `reach`, and its stops."""
    classes = train_classes(board.trains)[0]
    graph = build_leg_graph(board, reach=reach)
    pricer = candidate_pricer(board, True)
    walk = standard_walk_rules(board, *pricer.walk_limits) if pricer is not None else None
    shapes, _done = enumerate_routes(board, graph, classes, cap=ROUTES, rules=walk)
    return [(s.nodes, tuple(leg.paths for leg in s.legs)) for s in shapes], len(graph.legs_from)


@pytest.mark.parametrize(("title", "board"), BOARDS, ids=[t for t, _b in BOARDS])
def test_the_walk_within_reach_finds_the_same_routes(title: str, board: Board) -> None:
    reach = token_reach(board, train_classes(board.trains)[0])
    if reach is None:  # a train that needs no token: the whole board is walked
        assert not all(t.requires_token for t in board.trains)
        return
    within, stops_within = _walk(board, reach)
    whole, stops = _walk(board, None)
    assert within == whole
    assert stops_within <= stops


def test_the_reach_leaves_stops_out() -> None:
    """On most boards some stops are out of every route's reach, so the comparison above is not empty talk."""
    smaller = 0
    for _title, board in BOARDS:
        reach = token_reach(board, train_classes(board.trains)[0])
        if reach is not None:
            smaller += len(build_leg_graph(board, reach=reach).legs_from) < len(build_leg_graph(board).legs_from)
    assert smaller >= len(BOARDS) // 2


def _counted_boards() -> list[tuple[str, Board]]:
    """Every tenth priced position of the games of titles whose trains take any number of towns (18GA,
    18AL, 18MS) or whose board has free stops (1882)."""
    return [(f"{path.parent.name}-{i}", board_from_snapshot(raw)) for path in TITLE_FILES
            if path.parent.name in ("18GA", "18AL", "18MS", "1882")
            for i, raw in enumerate(priced_positions(path)) if i % 10 == 0]


COUNTED = _counted_boards()


@pytest.mark.parametrize(("name", "board"), COUNTED, ids=[n for n, _b in COUNTED])
def test_a_reach_that_counts_the_limited_stops_finds_the_same_routes(name: str, board: Board) -> None:
    reach = token_reach(board, train_classes(board.trains)[0])
    assert reach is not None
    within, _stops = _walk(board, reach)
    whole, _ = _walk(board, None)
    assert within == whole


def test_a_reach_that_counts_the_limited_stops_leaves_stops_out() -> None:
    """Against every stop joined to a station through stops a route may pass (what these trains reached
    before their stops were counted), on every priced position of those titles: blocked cities and
    off-boards end most reaches of these games early, and counting the limited stops leaves out more on
    about one position in five (42 of 204 when this was written); it never takes in a stop the other
    leaves out."""
    fewer = total = 0
    for path in TITLE_FILES:
        if path.parent.name not in ("18GA", "18AL", "18MS", "1882"):
            continue
        for raw in priced_positions(path):
            board = board_from_snapshot(raw)
            reach = token_reach(board, train_classes(board.trains)[0])
            assert reach is not None
            stations = [None] * len(reach)
            counted = build_leg_graph(board, reach=reach).legs_from
            joined = build_leg_graph(board, reach=stations).legs_from
            assert set(counted) <= set(joined)
            fewer += len(counted) < len(joined)
            total += 1
    assert fewer >= total // 8


def test_a_blocking_stop_ends_the_reach() -> None:
    """A row of cities, the company's token in the first, another company's city full in the third: no route
    passes the full city, so the stops beyond it are out of reach whatever the train's length, while the full
    city itself (a route may end there) and its legs back are in; the routes walked are the whole board's."""
    builder, cities = chain_board([20, 30, 40, 50, 60])
    builder.hexes["H2"]["nodes"][0].update(blocks=True, terminal=True, tokens=[{"corp": "OTHER"}])
    builder.train("D-0", 999, name="D")
    board = builder.board()
    reach = token_reach(board, train_classes(board.trains)[0])
    graph = build_leg_graph(board, reach=reach)
    assert set(graph.legs_from) == set(cities[:3])
    within, _stops = _walk(board, reach)
    whole, _stops = _walk(board, None)
    assert within == whole
    assert any(nodes[-1] == cities[2] or nodes[0] == cities[2] for nodes, _legs in within)


def test_the_search_from_stations_goes_on_only_through_stops_it_may_pass() -> None:
    """`reached_from` on a star: start s with legs to a (which may not be passed) and to b; a leads to c, b
    to d to e. All of it but c within any number of legs; s, a, b within one leg, and then the legs of a
    and b are still asked for (the leg graph walks the farthest stops too); a start is left even where it
    may not be passed."""
    from types import SimpleNamespace

    from solver.routes.station_reach import reached_from

    ends = {"s": ["a", "b"], "a": ["c", "s"], "b": ["d", "s"], "d": ["e", "b"], "c": ["a"], "e": ["d"]}
    asked: list[str] = []

    def legs_of(nid: str) -> list[SimpleNamespace]:
        asked.append(nid)
        return [SimpleNamespace(a=nid, b=b) for b in ends[nid]]

    assert reached_from(["s"], legs_of, lambda nid: nid != "a") == {"s", "a", "b", "d", "e"}
    asked.clear()
    assert reached_from(["s"], legs_of, lambda nid: nid != "a", most=1) == {"s", "a", "b"}
    assert sorted(asked) == ["a", "b", "s"]
    assert reached_from(["s"], legs_of, lambda nid: False, most=1) == {"s", "a", "b"}
    assert reached_from(["s"], legs_of, lambda nid: nid != "a", most=0) == {"s"}
