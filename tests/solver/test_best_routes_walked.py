"""A one-train company's best route (`best_only`) for a train the walk cannot bound (a list train, an n+m train),
taken best quick bound first from the arrays of a compiled walk (`candidates._walked_by_bound`: the bounds and
fits of `RouteBuilder.walked_bounds` and `walked_fit_masks`, the shapes made a block ahead of the scan) against
the shapes made and bounded one at a time (`RouteBuilder.quick_uppers`): the same route, priced alike, and the
same scan.

Checked on real boards: 1867 (a 6 and a 5 whose towns pay nothing), 1847AE (a 6+6 and a 5+5 with combo bonuses),
1837, 1846, 1828Games and Steam Over Holland."""

from __future__ import annotations

import gzip
import json

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.routes import candidates, walk_native
from solver.routes.pricing import Candidate, RouteBuilder, Scan
from solver.routes.walk_native import WalkedShapes
from tests.conftest import CORPUS

pytestmark = pytest.mark.skipif(not walk_native.available(), reason="the compiled walk is not built here")

POSITIONS = [("1867/21268.jsonl.gz", 64), ("1867/21268.jsonl.gz", 68), ("1867/21268.jsonl.gz", 56),
             ("1847AE/1847AE_game_end_bank.jsonl.gz", 74), ("1847AE/1847AE_game_end_bank.jsonl.gz", 68),
             ("1837/1837_game_end_bank.jsonl.gz", 207), ("1846/1846_game_end_reason_all_closed.jsonl.gz", 34),
             ("1828Games/1828Games_game_end_stock_market.jsonl.gz", 78),
             ("SteamOverHolland/SteamOverHolland_game_end_fixed_round.jsonl.gz", 28)]  # (game, line: 1 the first)


def _snapshot(game: str, line: int) -> dict:
    with gzip.open(CORPUS / game, "rt") as f:
        return json.loads(f.read().splitlines()[line - 1])


def _seen(cands: list[Candidate], scan: Scan) -> tuple:
    """What a best-only scan gives: its route, priced, and what it counted."""
    return [(c.nodes, c.legs, c.mask, c.revenue, c.subsidy, c.totals) for c in cands], scan.walked, scan.cut


def _both_ways(monkeypatch: pytest.MonkeyPatch, raw: dict) -> list[tuple[tuple, tuple, bool]]:
    """Per best-only scan of the solve: what it gives from the arrays, from the shapes made one at a time, and
    whether the arrays bounded it."""
    found = []
    best_routes = candidates._best_routes

    def spy(builder: RouteBuilder, scan: Scan) -> list[Candidate]:
        shapes = builder.shapes
        arrays = isinstance(shapes, WalkedShapes) and \
            candidates._walked_by_bound(builder.over(shapes), shapes, Scan(None, None)) is not None
        slow_scan = Scan(None, None)
        with monkeypatch.context() as mp:
            mp.setattr(candidates, "_walked_by_bound", lambda builder, shapes, scan: None)
            slow = best_routes(builder.over(shapes), slow_scan)
        fast = best_routes(builder, scan)
        found.append((_seen(fast, scan), _seen(slow, slow_scan), arrays))
        return fast

    with monkeypatch.context() as mp:
        mp.setattr(candidates, "_best_routes", spy)
        solve(board_from_snapshot(raw), SolveOptions(time_limit_s=60))
    return found


@pytest.mark.parametrize(("game", "line"), POSITIONS)
def test_the_best_route_from_the_arrays(monkeypatch: pytest.MonkeyPatch, game: str, line: int) -> None:
    scans = _both_ways(monkeypatch, _snapshot(game, line))
    assert scans and all(arrays for _fast, _slow, arrays in scans)
    for fast, slow, _arrays in scans:
        assert fast[0] and fast[1] > 100 and fast == slow
