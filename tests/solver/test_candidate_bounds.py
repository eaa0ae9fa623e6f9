"""The candidate builder's upper bounds (`RouteBuilder.upper`, quick and tight) are never below what a
route earns once priced: the one-train search drops routes by them and the lazy build leaves routes
unpriced by them, so a bound below a route's value could lose the optimum unnoticed. The lazy build's
check before the tight bound (the bonuses spread over a route's stops and legs, `spread_bonus`) is
never below the tight bound, so it leaves unpriced only what the tight bound would, nor below the least
spread bonus of any route (`spread_least`), which is asked first.

Checked on real boards: the last positions of one game of every title (the late game, where the
routes are most and the bounds matter), every walked route and every train class it fits, and an
1867 board whose towns fill the cities' paying places (`CountedStops` "mandatory_first")."""

from __future__ import annotations

import copy

import pytest

from solver.input.snapshot import board_from_snapshot, read_positions
from solver.modifiers.candidate_values import candidate_pricer
from solver.packing.pack import train_classes
from solver.routes.leg_graph import build_leg_graph
from solver.routes.pricing import RouteBuilder, Scan
from solver.routes.walk import enumerate_routes, standard_walk_rules
from tests.conftest import CORPUS
from tests.support.corpus_files import TITLE_FILES, corpus_line, priced_positions
from tests.support.stress_boards import stress_snapshots

ROUTES_PER_BOARD = 4000


def _walked(board, cap: int = ROUTES_PER_BOARD, arrays: bool = False) -> RouteBuilder:
    """A builder over the board's walked routes (at most `cap`), as the solver walks them (with `arrays`, a
    compiled walk's kept as its arrays)."""
    classes = train_classes(board.trains)[0]
    graph = build_leg_graph(board)
    pricer = candidate_pricer(board, True)
    walk = standard_walk_rules(board, *pricer.walk_limits) if pricer is not None else None
    shapes, _ = enumerate_routes(board, graph, classes, cap=cap, rules=walk, arrays=arrays)
    return RouteBuilder(board, graph, classes, shapes, pricer)


def _too_high(raw: dict) -> list[tuple]:
    """(route, class, value, quick bound, tight bound, spread bound, lazy first bound) of every route whose
    value beats a bound, or whose spread bound is below its tight bound."""
    builder = _walked(board_from_snapshot(raw))
    classes, shapes = builder.classes, builder.shapes
    for ci in range(len(classes)):  # the one-train search's bounds, a block at a time, are `upper`'s
        assert builder.quick_uppers(ci, Scan(None, None)) == [builder.upper(k, ci) for k in range(len(shapes))]
    bad = []
    for k, shape in enumerate(shapes):
        fitting = builder.fitting(k)
        earned: dict[int, int] = {}
        for cand in builder.price(k, fitting):
            for ci, value in (cand.totals.items() if cand is not None else ()):
                earned[ci] = max(earned.get(ci, 0), value)
        for ci in fitting:
            value, quick, tight = earned.get(ci, 0), builder.upper(k, ci), builder.upper(k, ci, tight=True)
            # the lazy build's cheaper check before the tight bound: the bonuses spread over stops and legs
            spread = quick - builder.first_cap(k, ci) + builder.spread_bonus(k, ci)
            lazy = builder.lazy_upper(k, ci)  # the lazy build's first bound
            if value > min(quick, tight, lazy) or spread < tight or builder.spread_least(ci) > spread - quick + \
                    builder.first_cap(k, ci):  # the least spread bonus of any route: never above this one's
                bad.append((shape.nodes, classes[ci].name, value, quick, tight, spread, lazy))
    return bad


@pytest.mark.parametrize("path", TITLE_FILES, ids=[p.parent.name for p in TITLE_FILES])
def test_bounds_hold_on_the_late_positions_of_every_title(path) -> None:
    positions = priced_positions(path)
    checked = 0
    for raw in positions[-3:]:
        assert _too_high(raw) == []
        checked += 1
    if positions:
        assert checked > 0


def test_towns_filling_paying_places_are_bounded() -> None:
    """1867: a 6 train's towns pay where the cities leave paying places empty; the bounds used to
    count each kind in its own row only, and the town's revenue was missing from them."""
    path = CORPUS / "1867" / "hs_wuveadew_21268.jsonl.gz"
    raw = next(read_positions(path)).raw
    assert any(m["type"] == "CountedStops" for m in raw["modifiers"])
    assert _too_high(raw) == []


def test_minus_a_negative_stop_revenue_is_bounded() -> None:
    """Towns of negative revenue under a bonus of minus the stop's revenue (that bonus then adds): the
    bounds must count what it adds, not take it as nothing."""
    raw = copy.deepcopy(priced_positions(CORPUS / "1830" / "1830_game_end_bank.jsonl.gz")[-1])
    towns = [(h["id"], n) for h in raw["hexes"] for n in h.get("nodes", ()) if n["kind"] == "town"]
    assert len(towns) >= 4
    for _hex, node in towns:
        node["revenue"] = -30
    raw["modifiers"] = [{"type": "StopBonus", "source": "test", "label": "minus the stop",
                         "hexes": {hex_id: "-stop_revenue" for hex_id, _node in towns}, "count": "per_stop"}]
    raw["trains"] = [{"id": "4-0", "name": "4", "distance": 4, "distance_unit": "stops", "requires_token": True}]
    assert _too_high(raw) == []


def test_the_spread_bound_counts_path_hex_bonuses() -> None:
    """1817: a bonus per hex a route passes (and one per counted stop); the spread bound takes each
    leg's hexes, so it is positive on routes through them, and it stays above the tight bound."""
    raw = priced_positions(CORPUS / "1817" / "15528.jsonl.gz")[-1]
    board = board_from_snapshot(raw)
    assert any(m.scope == "path_hexes" for m in board.modifiers if hasattr(m, "scope"))
    builder = _walked(board)
    shapes = builder.shapes
    spreads = [builder.spread_bonus(k, 0) for k in range(len(shapes))]
    assert max(spreads) > 0 and min(spreads) < max(spreads)
    assert _too_high(raw) == []


def test_an_endpoint_bonus_is_bounded_by_the_route_ends() -> None:
    """1870: a destination bonus pays only where a route starts or ends (StopBonus `endpoint`), and this
    company has a token at its destination, so many routes pass it on the way. The bounds still hold,
    and on a train paying every stop a route with the destination in its middle gets no bonus in its
    tight bound (the lazy build may leave it unpriced where its stops alone cannot beat the floor)."""
    raw = stress_snapshots("1870")[1]
    board = board_from_snapshot(raw)
    ends_only = [m for m in board.modifiers if getattr(m, "endpoint", False)]
    assert ends_only and all(t["distance_unit"] == "stops" for t in raw["trains"])
    assert _too_high(raw) == []
    builder = _walked(board)
    shapes = builder.shapes
    hexes = {h for m in ends_only for h, _v in m.hexes}
    middle = [k for k, s in enumerate(shapes) if board.nodes[s.nodes[0]].hex not in hexes
              and board.nodes[s.nodes[-1]].hex not in hexes and any(board.nodes[n].hex in hexes for n in s.nodes)]
    assert len(middle) > 100
    assert all(builder.tight_bonus(k, 0) == 0 for k in middle)


def _late_1817() -> dict:
    """An 1817 position with a mine bonus per path hex and a bridge bonus, two trains, many routes."""
    return priced_positions(CORPUS / "1817" / "15528.jsonl.gz")[-1]


@pytest.mark.parametrize("which", ["1870-1", "1870-3", "1870-5", "1817"])
def test_the_lazy_builds_first_bounds_hold_on_a_compiled_walk(which: str) -> None:
    """The lazy build's first bounds, from a compiled walk's arrays (`RouteBuilder.walked_bounds`), are the
    routes' `lazy_upper`, never below what a route earns once priced, and below stops plus the bonus cap on
    many routes (so the tighter parts are what is checked): on 1870 a route whose stops miss the destination
    bonus (it pays at a route's ends only) is bounded by its stops alone, and on 1817 (path hex bonuses) a
    route by its stops and its spread bonus (`spread_bonus`)."""
    raw = _late_1817() if which == "1817" else stress_snapshots("1870")[int(which.split("-")[1])]
    builder = _walked(board_from_snapshot(raw), 50_000, arrays=True)
    shapes, classes = builder.shapes, builder.classes
    assert not isinstance(builder.shapes, list) and len(shapes) > 2000
    for ci in range(len(classes)):
        found = builder.walked_bounds(ci, shapes)
        assert found is not None
        bounds = found.tolist()
        stops = builder.stops_value(ci)
        loose = [stops(shapes[k].nodes) + builder.bonus_cap(ci, len(shapes[k].nodes)) for k in range(len(shapes))]
        assert sum(b < lo for b, lo in zip(bounds, loose)) > len(shapes) // 4
        assert bounds == [builder.lazy_upper(k, ci) for k in range(len(shapes))]
        for k in range(len(shapes)):
            earned = max((c.totals.get(ci, 0) for c in builder.price(k, [ci]) if c is not None), default=0)
            assert earned <= bounds[k], (shapes[k].nodes, earned, bounds[k])


@pytest.mark.parametrize("title, name, line", [("1867", "21268.jsonl.gz", 58), ("1867", "21268.jsonl.gz", 73),
                                               ("1847AE", "1847AE_game_end_bank.jsonl.gz", 66)])
def test_a_combination_counts_only_where_the_stops_hit_every_set(title: str, name: str, line: int) -> None:
    """ComboBonus: the first bounds (`first_cap`, and from a compiled walk's arrays `walked_bounds`) add a
    combination's amount only to a route whose stops are on every one of its sets, and the spread bonus (the
    walk's bound too) weighs it on the nodes of one set, not on every route. They are below the bonus cap on
    many routes that hit some bonus, equal to `upper` (or `lazy_upper`) route by route, and never below what
    a route earns once priced."""
    raw = corpus_line(f"{title}/{name}", line)
    assert any(m["type"] == "ComboBonus" for m in raw["modifiers"])
    assert _too_high(raw) == []
    builder = _walked(board_from_snapshot(raw), 20_000, arrays=True)
    shapes, classes = builder.shapes, builder.classes
    for ci in range(len(classes)):
        n = [len(shapes[k].nodes) for k in range(len(shapes))]
        cut = [k for k in range(len(shapes)) if not builder.misses_bonuses(k, ci)
               and builder.first_cap(k, ci) < builder.bonus_cap(ci, n[k])]
        assert len(cut) > len(shapes) // 10
        assert builder.spread_least(ci) == 0
        combos = builder.bonus_cap(ci, 0)  # the combinations alone
        assert sum(builder.spread_bonus(k, ci) < combos for k in range(len(shapes))) > len(shapes) // 10
        bounds = builder.walked_bounds(ci, shapes)
        if bounds is not None:
            first = builder.lazy_upper if builder.plain[ci] else builder.upper
            assert bounds.tolist() == [first(k, ci) for k in range(len(shapes))]

