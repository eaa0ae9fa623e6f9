"""Candidates made when read (`solver.routes.priced_on_read`): the same candidates, in the same order, as
pricing every route (`candidates._every_route`), and the same answers from the solver that reads them.

Checked on real boards: the last positions of every title's game (modifiers of every kind, routes a bonus
may hit made at once) and stress boards whose long lists the solver reads so (1870's 10, 10 and 12 with a
stop bonus, 1856's two D)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.results import SolveOptions, SolveResult
from solver.optimiser import solve
from solver.packing.pack import _class_tops, _columns_tops, train_classes
from solver.packing.setpack import _option_rows, _options_read, option_keys, packing_options
from solver.routes import candidates
from solver.routes.leg_graph import build_leg_graph
from solver.routes.priced_on_read import PricedOnRead, candidate_masks, candidate_totals, every_route_on_read
from solver.routes.pricing import Candidate, Scan, combined_key
from solver.routes.station_reach import token_reach
from tests.support.corpus_files import late_positions
from tests.support.stress_boards import stress_snapshots

LATE = [board_from_snapshot(raw) for _title, raw in late_positions(2)]
LONG = [board_from_snapshot(stress_snapshots(title)[i]) for title, i in (("1870", 2), ("1856", 3), ("1856", 5))]


def _doubled(board: Board) -> Board:
    """The board with its last train paying double (a table of its own beside the others')."""
    last = board.trains[-1]
    return replace(board, trains=[*board.trains[:-1], replace(last, name=last.name + "x2", multiplier=2)])


TWO_TABLES = _doubled(LONG[2])


def _both(board: Board, cap: int = 200_000) -> tuple[list[Candidate], PricedOnRead]:
    """The board's walk (its first `cap` routes) priced in full and priced on read."""
    reps, _members = train_classes(board.trains)
    graph = build_leg_graph(board, reach=token_reach(board, reps))
    builder, _complete, _known = candidates._walk(board, graph, reps, cap, None, None, True)
    return candidates._every_route(builder, Scan(None, None)), every_route_on_read(builder, Scan(None, None))


def _content(cand: Candidate) -> tuple:
    return cand.nodes, cand.legs, cand.mask, cand.revenue, cand.totals, cand.subsidy


def test_the_candidates_are_those_of_pricing_every_route() -> None:
    on_read = at_once = two_tables = 0
    for board, cap in [(b, 5_000) for b in LATE] + [(b, 200_000) for b in [*LONG, TWO_TABLES]]:
        full, read = _both(board, cap)
        two_tables += sum(1 for c in full if len(set(c.totals.values())) > 1)  # classes paid from two tables
        assert len(read) == len(full)
        assert list(candidate_totals(read)) == [c.totals for c in full]  # read before any candidate is made
        assert list(candidate_masks(read)) == [c.mask for c in full]
        on_read += sum(1 for k in read.shape_of if k >= 0)
        at_once += sum(1 for k in read.shape_of if k < 0)
        assert [_content(c) for c in read] == [_content(c) for c in full], board.label()
    assert on_read > 50_000 and at_once > 1_000 and two_tables > 1_000  # every kind, on many routes


def test_a_walk_cut_short_is_priced_at_once() -> None:
    """A walk cut short leaves a list the greedy packing and the pruning read whole: its candidates are made
    at once, within the deadline (on read, the making would come after it)."""
    board = LONG[1]
    reps, _members = train_classes(board.trains)
    graph = build_leg_graph(board, reach=token_reach(board, reps))
    whole, complete = candidates.candidate_routes(board, graph, reps, on_read=True)
    cut, cut_complete = candidates.candidate_routes(board, graph, reps, cap=candidates.ON_READ_FROM + 100,
                                                    on_read=True)
    assert complete and isinstance(whole, PricedOnRead) and len(whole) > candidates.ON_READ_FROM + 100
    assert not cut_complete and isinstance(cut, list)
    assert [_content(c) for c in cut] == [_content(c) for c in whole[:len(cut)]]


def test_a_candidate_read_twice_is_one_object() -> None:
    full, read = _both(LONG[2])
    first = read[2]
    assert read[2] is first and read[-1] is read[len(read) - 1]
    assert read[1:3] == [read[1], read[2]] and read[1:3][1] is first
    assert [id(c) for c in read] == [id(read[r]) for r in range(len(read))]
    made = sum(1 for c in read.made if c is not None)
    read.extend([full[0]])
    assert len(read) == len(full) + 1 and read[-1] is full[0]
    assert sum(1 for c in read.made if c is not None) == made + 1
    with pytest.raises(IndexError):
        read[len(read)]


def test_only_the_answer_is_made() -> None:
    """On a long list of routes priced as usual, the solver makes few candidates: those of the answer, and
    the routes a bonus may hit (made at once)."""
    seen: list[PricedOnRead] = []

    def spy(builder, scan):  # type: ignore[no-untyped-def]
        seen.append(every_route_on_read(builder, scan))
        return seen[-1]

    mp = pytest.MonkeyPatch()
    mp.setattr(candidates, "every_route_on_read", spy)
    try:
        result = solve(LONG[1], SolveOptions(time_limit_s=60))  # 1856: two D, no bonus
    finally:
        mp.undo()
    assert len(seen) == 1 and len(seen[0]) > 30_000
    made = [seen[0].made[r] for r in range(len(seen[0])) if seen[0].made[r] is not None]
    assert len(made) <= len(result.routes)
    assert sorted(tuple(c.nodes) for c in made) == sorted(tuple(r.nodes) for r in result.routes)


def _answer(result: SolveResult) -> tuple:
    return result.revenue, result.subsidy, result.status, result.bound, \
        [(r.train, tuple(r.nodes), r.revenue) for r in result.routes]


def test_the_answer_is_the_one_of_pricing_every_route(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def spy(builder, scan):  # type: ignore[no-untyped-def]
        calls.append(len(builder.shapes))
        return every_route_on_read(builder, scan)

    monkeypatch.setattr(candidates, "every_route_on_read", spy)
    boards = LONG + [board_from_snapshot(stress_snapshots("1870")[0])]
    read = [_answer(solve(b, SolveOptions(time_limit_s=60))) for b in boards]
    assert len(calls) == len(boards) and min(calls) >= candidates.ON_READ_FROM
    monkeypatch.setattr(candidates, "ON_READ_FROM", 10**12)  # every route priced
    assert [_answer(solve(b, SolveOptions(time_limit_s=60))) for b in boards] == read
    assert len(calls) == len(boards)


def test_the_packing_reads_the_arrays_as_the_values() -> None:
    """The packing's options and the conflict-free bound's best values per class, read from the values per class as
    arrays (`PricedOnRead.class_values`), are those read from the candidates' values: on the long boards (two
    tables, merged classes and classes apart) and in every track grouping."""
    for board in [*LONG, TWO_TABLES]:
        _full, read = _both(board)
        found = read.class_values()
        assert found is not None and found[0].shape == (len(read.builder.classes), len(read))
        counts = [len(m) for m in train_classes(board.trains)[1]]
        assert _columns_tops(*found, counts) == _class_tops(list(candidate_totals(read)), counts)[0]
        plain = list(read)  # the same candidates in a list: read by their values
        n = len(counts)
        for groups in (["one"] * n, [f"own{ci}" for ci in range(n)], [f"g{ci % 2}" for ci in range(n)]):
            for merge in (True, False):
                assert packing_options(read, groups, merge) == packing_options(plain, groups, merge)
                expected, expected_values, expected_fits = packing_options(plain, groups, merge)
                options, routes, values, fits = _options_read(read, groups, merge)  # as `exact_packing` reads them
                assert list(options) == expected and routes.tolist() == [r for r, _ci in expected]
                assert list(values) == expected_values and list(fits) == expected_fits
                assert [options[i] for i in range(0, len(options), 101)] == list(options)[::101]


def test_a_combined_key_is_equal_exactly_when_every_column_is() -> None:
    """`pricing.combined_key` (the walked fits' key per route): small columns packed side by side, and columns too
    wide for one int64 numbered by their values first."""
    rng = np.random.default_rng(7)
    for high in (3, 1 << 20, 1 << 40, 1 << 62):
        columns = [rng.integers(-high, high, 2000) // max(1, high // 4) * max(1, high // 4) for _ in range(4)]
        rows = list(zip(*(c.tolist() for c in columns)))
        key = combined_key(columns).tolist()
        same_rows = {(a, b) for a in range(0, 2000, 7) for b in range(0, 2000, 11) if rows[a] == rows[b]}
        same_keys = {(a, b) for a in range(0, 2000, 7) for b in range(0, 2000, 11) if key[a] == key[b]}
        assert same_rows == same_keys and len(set(rows)) == len(set(key)) > 1


def test_the_tracks_read_from_the_walk_are_the_candidates() -> None:
    """A candidate's track read alone or with the others (`WalkMasks`), and the packing's keys as rows of words
    (`setpack._option_rows`, one track group), are those of the candidates priced in full."""
    for board in LONG:
        full, read = _both(board)
        picked = range(0, len(read), 97)
        assert [read.masks[r] for r in picked] == [full[r].mask for r in picked]  # each read alone first
        n = len(read.builder.classes)
        options = packing_options(read, ["one"] * n, True)[0]
        routes = np.asarray([r for r, _ci in options], dtype=np.int64)
        rows = _option_rows(read, routes, ["one"] * n)
        assert rows is not None and [int.from_bytes(row.tobytes(), "little") for row in rows] == \
            option_keys(full, options, ["one"] * n)
        assert _option_rows(read, routes, [f"own{ci}" for ci in range(n)]) is None or n == 1
        assert list(read.masks) == [c.mask for c in full]
        read.extend([full[-1]])  # a candidate added after the walk's
        rows = read.mask_rows()
        assert rows is not None and len(rows) == len(read) and int.from_bytes(rows[-1].tobytes(), "little") == \
            full[-1].mask
