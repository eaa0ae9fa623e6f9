"""The lazy build's options read from the arrays of a compiled walk (`RouteBuilder.walked_bounds` and
`walked_fit_masks` over `WalkedShapes`) against the options of the shapes made one at a time (`quick_bound` and
`fitting`): the same bounds, shapes and classes in the same order.

Checked on real boards whose trains are list trains not paid at every stop: 18FL (a 4 and a 3E, rows of their
own), 1867 (a 5 and a 7 or a 2+2, a `CountedStops` choice of the paying stops, a route rule and a bonus),
1846 and 18LosAngeles (list trains beside others)."""

from __future__ import annotations

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.routes import candidates, walk_native
from solver.routes.pricing import RouteBuilder, Scan
from solver.routes.walk_native import WalkedShapes
from tests.support.cancel_after import CancelAfter
from tests.support.corpus_files import corpus_line
from tests.support.spied_solve import solve_spied

pytestmark = pytest.mark.skipif(not walk_native.available(), reason="the compiled walk is not built here")

POSITIONS = [("18FL/18FL_game_end_bank.jsonl.gz", 68), ("18FL/18FL_game_end_bank.jsonl.gz", 63),
             ("1867/21268.jsonl.gz", 58), ("1867/21268.jsonl.gz", 73), ("1846/10264.jsonl.gz", 62),
             ("18LosAngeles1/19984.jsonl.gz", 35)]  # (game, line: 1 the first)


def _both_ways(monkeypatch: pytest.MonkeyPatch, raw: dict) -> list[tuple[list, list, bool]]:
    """Per lazy build of the solve: its options from the arrays, from the shapes made one at a time, and whether
    every class was bounded and fitted from the arrays."""
    found = []
    options = candidates._bounded_options

    def spy(builder: RouteBuilder, scan: Scan) -> candidates.Options:
        shapes = builder.shapes
        arrays = isinstance(shapes, WalkedShapes) and builder.walked_fit_masks(shapes) is not None and all(
            builder.walked_bounds(ci, shapes) is not None for ci in range(len(builder.classes)))
        fast = options(builder, scan)
        with monkeypatch.context() as mp:
            mp.setattr(RouteBuilder, "walked_bounds", lambda self, ci, shapes: None)
            slow = options(builder.over(shapes), Scan(None, None))
        found.append(([a.tolist() for a in fast], [a.tolist() for a in slow], arrays))
        return fast

    solve_spied(monkeypatch, raw, "_bounded_options", spy)
    return found


@pytest.mark.parametrize(("game", "line"), POSITIONS)
def test_list_trains_options_from_the_arrays(monkeypatch: pytest.MonkeyPatch, game: str, line: int) -> None:
    builds = _both_ways(monkeypatch, corpus_line(game, line))
    assert builds and all(arrays for _fast, _slow, arrays in builds)
    for fast, slow, _arrays in builds:
        assert len(fast[0]) > 500 and fast == slow


@pytest.mark.parametrize(("n", "reads"), [(0, 0), (255, 0), (256, 0), (1000, 0), (1000, 2), (1000, 9), (768, 2)])
def test_a_scan_takes_at_once_what_it_gives_one_by_one(n: int, reads: int) -> None:
    one_by_one, at_once = Scan(None, CancelAfter(reads)), Scan(None, CancelAfter(reads))  # type: ignore[arg-type]
    assert at_once.taken(n) == len(list(one_by_one.shapes(n)))
    assert (at_once.walked, at_once.cut) == (one_by_one.walked, one_by_one.cut)


@pytest.mark.parametrize(("game", "line"), POSITIONS)
def test_the_stops_part_of_a_first_bound(monkeypatch: pytest.MonkeyPatch, game: str, line: int) -> None:
    """What the lazy build takes for an option's stops from its first bound, before it asks the tight bound
    (`RouteBuilder.first_stops`), is at least what the route's stops pay and at most the bound: a list
    train's first bound is its best stops and `first_cap` (nothing where the stops miss every bonus)."""
    seen = []
    options = candidates._bounded_options

    def spy(builder: RouteBuilder, scan: Scan) -> candidates.Options:
        seen.append((builder, options(builder, scan)))
        return seen[-1][1]

    monkeypatch.setattr(candidates, "_bounded_options", spy)
    solve(board_from_snapshot(corpus_line(game, line)), SolveOptions(time_limit_s=60))
    assert seen
    for builder, (bounds, ks, cis) in seen:
        for bound, k, ci in list(zip(bounds.tolist(), ks.tolist(), cis.tolist()))[::7]:
            assert builder.stops_value(ci)(builder.shapes[k].nodes) <= builder.first_stops(k, ci, bound) <= bound
