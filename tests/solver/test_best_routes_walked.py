"""A one-train company's best route (`best_only`) for a train the walk cannot bound (a list train, an n+m train),
taken best quick bound first from the arrays of a compiled walk (`candidates._walked_by_bound`: the bounds of
`RouteBuilder.walked_bounds`, the shapes made a block ahead of the scan) against the shapes made and bounded one
at a time (`RouteBuilder.quick_uppers`): the same route, priced alike, and the same scan (also when it is
cancelled).

Checked on real boards: 1867 (list trains whose towns pay nothing), 1847AE (n+m trains with combo bonuses), 1837,
1846, 1828Games and Steam Over Holland."""

from __future__ import annotations

import pytest

from solver.routes import candidates, walk_native
from solver.routes.pricing import Candidate, RouteBuilder, Scan
from solver.routes.walk_native import WalkedShapes
from tests.support.cancel_after import CancelAfter
from tests.support.corpus_files import corpus_line
from tests.support.spied_solve import solve_spied

pytestmark = pytest.mark.skipif(not walk_native.available(), reason="the compiled walk is not built here")

POSITIONS = [("1867/21268.jsonl.gz", 64), ("1867/21268.jsonl.gz", 68), ("1867/21268.jsonl.gz", 56),
             ("1847AE/1847AE_game_end_bank.jsonl.gz", 74), ("1847AE/1847AE_game_end_bank.jsonl.gz", 68),
             ("1837/1837_game_end_bank.jsonl.gz", 207), ("1846/1846_game_end_reason_all_closed.jsonl.gz", 34),
             ("1828Games/1828Games_game_end_stock_market.jsonl.gz", 78),
             ("SteamOverHolland/SteamOverHolland_game_end_fixed_round.jsonl.gz", 28)]  # (game, line: 1 the first)


def _seen(cands: list[Candidate], scan: Scan) -> tuple:
    """What a best-only scan gives: its route, priced, and what it counted."""
    return [(c.nodes, c.legs, c.mask, c.revenue, c.subsidy, c.totals) for c in cands], scan.walked, scan.cut


def _scan(reads: int | None) -> Scan:
    """A scan without a deadline, cancelled from the `reads`-th look on (None: never)."""
    return Scan(None, None if reads is None else CancelAfter(reads))  # type: ignore[arg-type]


def _both_ways(monkeypatch: pytest.MonkeyPatch, raw: dict, reads: int | None = None) -> list[tuple[tuple, ...]]:
    """Per best-only scan of the solve: what it gives from the arrays, from the shapes made and listed first (as
    before the arrays), from the compiled walk's shapes when the arrays are refused (made then), each scan
    cancelled from its `reads`-th look on; and whether the arrays bounded it."""
    found = []
    best_routes = candidates._best_routes

    def spy(builder: RouteBuilder, scan: Scan) -> list[Candidate]:
        shapes = builder.shapes
        arrays = isinstance(shapes, WalkedShapes) and \
            candidates._walked_by_bound(builder.over(shapes), shapes, Scan(None, None)) is not None
        scans = [_scan(reads) for _ in range(3)]
        fast = best_routes(builder.over(shapes), scans[0])
        listed = best_routes(builder.over(list(shapes)), scans[1])
        with monkeypatch.context() as mp:
            mp.setattr(candidates, "_walked_by_bound", lambda builder, shapes, scan: None)
            refused = best_routes(builder.over(shapes), scans[2])
        found.append((*(_seen(c, s) for c, s in zip((fast, listed, refused), scans)), arrays))
        return best_routes(builder, scan)

    solve_spied(monkeypatch, raw, "_best_routes", spy)
    return found


@pytest.mark.parametrize(("game", "line"), POSITIONS)
def test_the_best_route_from_the_arrays(monkeypatch: pytest.MonkeyPatch, game: str, line: int) -> None:
    scans = _both_ways(monkeypatch, corpus_line(game, line))
    assert scans and all(arrays for *_seen, arrays in scans)
    for fast, listed, refused, _arrays in scans:
        assert fast[0] and fast[1] > 100 and fast == listed == refused


@pytest.mark.parametrize("reads", [0, 1, 2, 3, 4, 8, 40, 49])
def test_a_cancelled_scan_from_the_arrays(monkeypatch: pytest.MonkeyPatch, reads: int) -> None:
    """Cancelled while the bounds are read (12,145 routes: three blocks) or while the scan counts them (a look
    every 256, the last at the 49th): the same route, count and cut as the shapes listed first. (Fewer than 256
    routes are priced here, so the scan looks no more while it prices.)"""
    scans = _both_ways(monkeypatch, corpus_line("1867/21268.jsonl.gz", 64), reads)
    assert scans and all(arrays for *_seen, arrays in scans)
    for fast, listed, _refused, _arrays in scans:
        assert fast == listed and fast[2]
