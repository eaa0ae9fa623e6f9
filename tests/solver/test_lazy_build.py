"""The lazy candidate build (`candidates._lazy`) prices only the routes that may still be in a run beating
the best it knows; the optimum must be the one the build pricing every route gives.

Checked on the late positions of every title's game and on stress boards of six titles, wherever a company with
several trains has at least `LAZY_FROM` options (route, train class): solved as the solver does, and
again with the lazy build switched off."""

from __future__ import annotations

import numpy as np
import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.routes import candidates
from solver.rulesets.r_standard import solve as standard_solve
from solver.rulesets.r_standard.solve import LAZY_TRAINS
from tests.support.corpus_files import corpus_line, late_positions
from tests.support.stress_boards import stress_snapshots

STRESS_TITLES = ("1830", "1846", "1882", "18AL", "18Chesapeake", "18TN")  # the heavier ones take seconds unpriced
RAWS = [raw for _title, raw in late_positions(3)] + [raw for t in STRESS_TITLES for raw in stress_snapshots(t)]


@pytest.mark.parametrize("first", [candidates.LAZY_FIRST, 20])
def test_the_lazy_build_gives_the_optimum_of_pricing_every_route(monkeypatch: pytest.MonkeyPatch, first: int) -> None:
    """As shipped, and with only 20 options priced first (the later rounds then find most of the run)."""
    monkeypatch.setattr(candidates, "LAZY_FIRST", first)
    lazy: dict[int, tuple[int, int]] = {}
    for i, raw in enumerate(RAWS):
        board = board_from_snapshot(raw)
        if len(board.trains) < 2:
            continue
        answer = solve(board, SolveOptions(time_limit_s=60))
        if answer.stats.get("never_priced", 0) > 0:  # the lazy build left routes unpriced
            lazy[i] = (answer.revenue, answer.subsidy)
    assert len(lazy) >= 15
    monkeypatch.setattr(candidates, "LAZY_FROM", 10**12)  # every route priced
    for i, value in lazy.items():
        full = solve(board_from_snapshot(RAWS[i]), SolveOptions(time_limit_s=60))
        assert full.stats.get("never_priced", 0) == 0
        assert (full.revenue, full.subsidy) == value, RAWS[i].get("source")


def test_with_more_trains_every_route_is_priced() -> None:
    """With more than LAZY_TRAINS trains the others' best routes leave almost every route able to matter, so the
    rounds of the lazy build would cost more than they save: every route is priced (and the answer is the
    one the lazy build gave, checked on the corpus)."""
    many = 0
    for raw in stress_snapshots("1882"):
        board = board_from_snapshot(raw)
        answer = solve(board, SolveOptions(time_limit_s=60))
        if len(board.trains) > LAZY_TRAINS and answer.stats["candidates"] >= candidates.LAZY_FROM:
            many += 1
            assert answer.stats.get("never_priced", 0) == 0
    assert many >= 3


def test_trains_that_may_visit_every_stop_price_every_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two D: the other train's best route takes in most of the board, so no route falls below a floor and the
    lazy rounds would only cost time. Two 12s on a board of more stops are priced lazily."""
    seen: list[tuple[tuple[str, ...], bool]] = []

    def spy(board, *args, lazy=None, **kwargs):
        seen.append((tuple(t.name for t in board.trains), lazy is not None))
        return candidates.candidate_routes(board, *args, lazy=lazy, **kwargs)

    monkeypatch.setattr(standard_solve, "candidate_routes", spy)
    two_d = board_from_snapshot(stress_snapshots("1856")[3])
    two_12 = board_from_snapshot(stress_snapshots("1870")[3])
    assert [t.distance for t in two_d.trains] == [999, 999] and [t.distance for t in two_12.trains] == [12, 12]
    for board in (two_d, two_12):
        assert solve(board, SolveOptions(time_limit_s=60)).status.name == "OPTIMAL"
    assert seen == [(("D", "D"), False), (("12", "12"), True)]


def test_the_best_pairs_by_bound_are_priced_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """1870 (an 8 and a 12 counting stops): the optimum pairs two routes deep among many tied bounds. The
    lazy build prices the best pairs by bound that share no track with the first options (`_paired`), so its
    first lower bound is the optimum (without them it is 839 of 870), and each pair's routes share no track."""
    board = board_from_snapshot(stress_snapshots("1870")[1])
    paired, lowers = candidates._paired, []
    pairs: list[list[tuple[int, int]]] = []

    def paired_spy(shapes, options, counts):  # type: ignore[no-untyped-def]
        found = paired(shapes, options, counts)
        _bounds, ks, cis = options
        firsts = ks[cis == next(ci for ci, n in enumerate(counts) if n)].tolist()
        pairs.append([(k, p) for p in ks[found].tolist() for k in firsts if not shapes.mask(k) & shapes.mask(p)][:1])
        return found

    def first_lower(lazy_bound):  # type: ignore[no-untyped-def]
        def lower_of(cands):  # type: ignore[no-untyped-def]
            lowers.append(lazy_bound(cands))
            return lowers[-1]
        return lower_of

    real_lazy = candidates._lazy

    def lazy_spy(builder, options, lazy, *args):  # type: ignore[no-untyped-def]
        return real_lazy(builder, options, candidates.LazyBound(lazy.counts, first_lower(lazy.lower_of),
                                                                lazy.must_keep), *args)
    monkeypatch.setattr(candidates, "_paired", paired_spy)
    monkeypatch.setattr(candidates, "_lazy", lazy_spy)
    assert solve(board, SolveOptions(time_limit_s=60)).revenue == 870
    assert lowers[0] == 870 and pairs and pairs[0]
    monkeypatch.setattr(candidates, "_paired", lambda *_a: np.zeros(0, dtype=np.int64))
    lowers.clear()
    assert solve(board, SolveOptions(time_limit_s=60)).revenue == 870
    assert lowers[0] < 870


BESIDE_BOARDS = [("18FL/18FL_game_end_bank.jsonl.gz", 62), ("1867/21268.jsonl.gz", 58), ("1870", 1)]


@pytest.mark.parametrize(("game", "line"), BESIDE_BOARDS)
def test_each_class_best_route_and_the_best_beside_it_are_priced_first(monkeypatch: pytest.MonkeyPatch, game: str,
                                                                      line: int) -> None:
    """For two trains, the lazy build prices each class's best route alone and the other train's best route
    sharing no track with it (`_alone_and_beside`): each search's pick earns what the best of its options
    earns, every one of them priced (18FL: list trains; 1867: a `CountedStops` choice, a route rule and a
    bonus; 1870: trains counting stops)."""
    raw = stress_snapshots(game)[line] if game == "1870" else corpus_line(game, line)
    searches: list[tuple[np.ndarray, np.ndarray, int | None]] = []
    builders = []
    best_placed, real_lazy = candidates._best_placed, candidates._lazy

    def best_spy(bounds, at, price, usable=None):  # type: ignore[no-untyped-def]
        found = best_placed(bounds, at, price, usable)
        searches.append((bounds, at if usable is None else at[usable(at)], found))
        return found

    def lazy_spy(builder, options, *args):  # type: ignore[no-untyped-def]
        builders.append((builder, options))
        return real_lazy(builder, options, *args)
    monkeypatch.setattr(candidates, "_best_placed", best_spy)
    monkeypatch.setattr(candidates, "_lazy", lazy_spy)
    solve(board_from_snapshot(raw), SolveOptions(time_limit_s=60))
    assert len(builders) == 1 and len(searches) == 4
    builder, options = builders[0]
    order = np.argsort(-options[0], kind="stable")
    ks, cis = options[1][order], options[2][order]

    def value(place: int) -> int:
        candidates._make_shapes(builder, [int(ks[place])])
        made = builder.price(int(ks[place]), [int(cis[place])])
        return max((c.totals.get(int(cis[place]), 0) for c in made if c is not None), default=0)
    for _bounds, places, found in searches:
        values = [value(p) for p in places.tolist()]
        assert found is not None and value(found) == max(values) > 0


@pytest.mark.parametrize(("game", "line", "cheap"), [("18FL/18FL_game_end_bank.jsonl.gz", 62, [True, False]),
                                                     ("1867/21268.jsonl.gz", 58, [False, False])])
def test_classes_priced_from_their_table_are_priced_without_a_tight_bound(
        monkeypatch: pytest.MonkeyPatch, game: str, line: int, cheap: list[bool]) -> None:
    """18FL's 4 (a list train paying every stop from its table, v1 bonuses) prices its options without asking
    their tight bounds (`RouteBuilder.priced_cheaply`), its 3E (other modifiers) asks them, and so does 1867 (a
    `CountedStops` choice of the paying stops, a route rule); the solve is the same with every route priced."""
    builders = []
    real_lazy = candidates._lazy

    def lazy_spy(builder, *args):  # type: ignore[no-untyped-def]
        builders.append(builder)
        return real_lazy(builder, *args)
    monkeypatch.setattr(candidates, "_lazy", lazy_spy)
    board = board_from_snapshot(corpus_line(game, line))
    lazy = solve(board, SolveOptions(time_limit_s=60))
    assert len(builders) == 1 and builders[0].priced_cheaply == cheap
    monkeypatch.setattr(candidates, "LAZY_FROM", 10**12)  # every route priced
    full = solve(board, SolveOptions(time_limit_s=60))
    assert lazy.stats["never_priced"] > 0 and (full.revenue, full.routes) == (lazy.revenue, lazy.routes)
