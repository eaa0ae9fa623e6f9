"""The two-train walk's floor (`candidates._walk_floor`): the walk keeps every route that may be in a run
beating the run it knows, in the order of the whole walk, and the answer is the one without a floor.

Checked on real boards: the last positions of one game of every title, each run by two trains of its
company that count plain stops (its own two, or two of its strongest), and on the stress boards. A floor
too high would drop a route of the optimum unnoticed: the first test compares the kept routes with
every route of the whole walk that earns some train its floor; the last compares the answers."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.results import SolveOptions
from solver.modifiers.candidate_values import candidate_pricer
from solver.modifiers.packing_terms import run_terms
from solver.optimiser import solve
from solver.packing.pack import greedy, run_value, train_classes
from solver.routes import candidates
from solver.routes.candidates import _bound_weights, _walk_floor
from solver.routes.leg_graph import build_leg_graph
from solver.routes.pricing import RouteBuilder
from solver.routes.route_bound import plain_bounded
from solver.routes.station_reach import token_reach
from solver.routes.walk import enumerate_routes, standard_walk_rules
from tests.support.boards import BoardBuilder, line
from tests.support.corpus_files import late_positions
from tests.support.stress_boards import stress_snapshots

WHOLE_WALK = 60_000  # boards whose whole walk is longer are not compared


def _two_trains(raw: dict) -> Board | None:
    """The board run by two of its company's trains that count plain stops: its own two when it has two,
    else its strongest such train twice (None without one)."""
    board = board_from_snapshot(raw)
    plain = [t for t in board.trains if plain_bounded(t)]
    if len(board.trains) == 2 and len(plain) == 2:
        return board
    if not plain:
        return None
    best = max(plain, key=lambda t: t.distance)
    return replace(board, trains=[best, replace(best, id=best.id + "-twin")])


def _boards() -> list[tuple[str, Board]]:
    out = []
    for title, raw in late_positions(2):
        board = _two_trains(raw)
        if board is not None:
            out.append((title, board))
    for title in ("1870", "1856", "1846", "1882"):
        for raw in stress_snapshots(title)[:2]:
            board = _two_trains(raw)
            if board is not None:
                out.append((f"stress-{title}", board))
    return out


BOARDS = _boards()


def _lower_of(counts: list[int], groups: list[str]):
    """A legal run of some candidates (a greedy packing): what the solver's lazy build is given."""
    return lambda some: run_value(some, greedy(some, counts, groups, 3)) or 0


def _floored(board: Board):
    """The board's classes, walk rules, builder, the whole walk (None when too long), the floored walk and
    the floor (`_walk_floor`'s bound, floors per class and the run it knows), or None without a floor."""
    reps, members = train_classes(board.trains)
    counts = [len(m) for m in members]
    graph = build_leg_graph(board, reach=token_reach(board, reps))
    if run_terms(board, reps) is not None:
        return None  # run rules: no floor
    pricer = candidate_pricer(board, True)
    walk = standard_walk_rules(board, *pricer.walk_limits) if pricer is not None else standard_walk_rules(board)
    builder = RouteBuilder(board, graph, reps, [], pricer)
    weights = [_bound_weights(builder, ci) for ci in range(len(reps))]
    if any(w is None for w in weights):
        return None
    floor = _walk_floor(board, graph, builder, walk, counts, _lower_of(counts, [""] * len(reps)), weights,
                        WHOLE_WALK, None, None)
    if floor is None:
        return None
    whole, done = enumerate_routes(board, graph, reps, cap=WHOLE_WALK, rules=walk)
    kept, kept_done = enumerate_routes(board, graph, reps, rules=walk, bound=floor[0], floors=floor[1])
    assert kept_done
    return reps, graph, walk, builder, whole if done else None, kept, floor


def _key(shape) -> tuple:
    """A walked route: its stops and the paths of its legs (parallel track makes routes over the same stops)."""
    return shape.nodes, tuple(leg.paths for leg in shape.legs)


def _check_floored(board: Board) -> bool:
    """On a board with a floor and a walk short enough to compare, assert that the floored walk keeps, in
    the whole walk's order, every route that earns some class its floor, and that no floor is above the
    argument's; whether the board was checked."""
    found = _floored(board)
    if found is None or found[4] is None:
        return False
    reps, _graph, _walk, builder, whole, kept, (_bound, floors, lower) = found
    builder.shapes = whole
    places = {_key(shape): k for k, shape in enumerate(whole)}
    order = [places[_key(shape)] for shape in kept]
    assert order == sorted(order)  # the kept routes are routes of the whole walk, in its order
    must, best = [], [0] * len(reps)
    for k, shape in enumerate(whole):
        for cand in builder.price(k, builder.fitting(k)):
            if cand is None:
                continue
            for ci, v in cand.totals.items():
                best[ci] = max(best[ci], v)
            if any(shape.cost <= floors[ci][0] and v >= floors[ci][1] for ci, v in cand.totals.items()):
                must.append(_key(shape))
    assert set(must) <= set(order_kept := {_key(shape) for shape in kept}), \
        [m for m in must if m not in order_kept][:3]
    # no floor is above the argument's: the run known, less the best route of the other train
    counts = [len(m) for m in train_classes(board.trains)[1]]
    every = sum(b * n for b, n in zip(best, counts))
    assert all(f <= lower - (every - best[ci]) for ci, (_d, f) in enumerate(floors))
    return True


def test_the_floored_walk_keeps_every_route_earning_a_floor() -> None:
    checked = sum(_check_floored(board) for _title, board in BOARDS)
    assert checked >= len(BOARDS) // 2  # most of these boards have a floor and a walk short enough to compare


def test_the_floor_cuts_many_walks_short() -> None:
    """The floor applies to most of these boards and keeps far fewer routes than the whole walk."""
    floored = shorter = 0
    for _title, board in BOARDS:
        found = _floored(board)
        if found is None or found[4] is None:
            continue
        floored += 1
        shorter += len(found[5]) * 2 < len(found[4])
    assert floored >= len(BOARDS) // 3
    assert shorter >= floored // 3


def test_the_known_run_is_a_lower_bound_on_the_answer() -> None:
    checked = 0
    for _title, board in BOARDS:
        found = _floored(board)
        if found is None:
            continue
        result = solve(board, SolveOptions(time_limit_s=60))
        assert found[6][2] <= result.revenue + result.subsidy
        checked += 1
    assert checked >= 10


def test_a_walk_that_avoids_track_keeps_exactly_the_routes_off_it() -> None:
    checked = 0
    for _title, board in BOARDS[:12]:
        reps = train_classes(board.trains)[0]
        graph = build_leg_graph(board, reach=token_reach(board, reps))
        whole, done = enumerate_routes(board, graph, reps, cap=WHOLE_WALK)
        if not done or len(whole) < 10:
            continue
        avoid = whole[len(whole) // 2].mask
        off, _ = enumerate_routes(board, graph, reps, avoid=avoid)
        assert [_key(s) for s in off] == [_key(s) for s in whole if not s.mask & avoid]
        assert len(off) < len(whole)
        checked += 1
    assert checked >= 6


def test_the_answer_is_the_one_without_a_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solved with the floor and again with it turned off (a walk never long enough to look for one):
    the same revenue, subsidy and status on every board."""
    floored = [board for _title, board in BOARDS if _floored(board) is not None]
    with_floor = [solve(b, SolveOptions(time_limit_s=60)) for b in floored]
    monkeypatch.setattr(candidates, "FLOOR_FROM", 10**9)
    without = [solve(b, SolveOptions(time_limit_s=60)) for b in floored]
    assert [(r.revenue, r.subsidy, r.status) for r in with_floor] == \
        [(r.revenue, r.subsidy, r.status) for r in without]
    assert len(floored) >= 10


def _cluster_behind_one_city(size: int = 5, distance: int = 8, classes: int = 1) -> Board:
    """A grid of cities paying 100..580 reached only through the home city, and apart a short line of
    small towns with a token of its own: two trains of eight stops (one class, or two of 8 and 7). The
    walk's known run takes the best grid route for one train and the best beside it for the other; the
    optimum is such a run, whose routes may come late in the lazy build's order."""
    rng = random.Random(0)
    b = BoardBuilder()
    ids = {(q, r): f"Q{q}R{r}" for q in range(size) for r in range(size)}
    for (q, r), hid in ids.items():
        b.hex(hid)
        for edge, (dq, dr) in {4: (1, 0), 5: (0, 1), 0: (-1, 1)}.items():
            if (q + dq, r + dr) in ids:
                b.link(hid, edge, ids[(q + dq, r + dr)])
    b.link(f"Q0R{size // 2}", 1, "HOME")
    pays = rng.sample(range(100, 100 + 20 * size * size, 10), size * size)
    for i, hid in enumerate(ids.values()):
        city = b.city(hid, pays[i])
        for edge in sorted(int(e) for e in b.hex(hid)["neighbors"]):
            b.path(hid, city, edge)
    b.path("HOME", b.city("HOME", 50, token=True), 4)
    towns = [f"L{i}" for i in range(5)]
    line(b, towns)
    for i, h in enumerate(towns):
        c = b.city(h, 10 + i, token=i == 0)
        if i > 0:
            b.path(h, 1, c)
        if i < len(towns) - 1:
            b.path(h, c, 4)
    b.train("A-0", distance, name="A")
    if classes == 1:
        b.train("A-1", distance, name="A")
    else:
        b.train("B-0", distance - 1, name="B")
    return b.board()


@pytest.mark.parametrize("classes", [1, 2])
def test_a_run_the_walk_knows_stays_in_reach_of_the_lazy_build(monkeypatch: pytest.MonkeyPatch, classes: int) -> None:
    """The lazy build is told the value of the walk's run, whose routes it may not have priced: an option
    that can only tie it must still be priced (else the packing misses the only run worth that much)."""
    board = _cluster_behind_one_city(classes=classes)
    with_floor = solve(board, SolveOptions(time_limit_s=60))
    monkeypatch.setattr(candidates, "FLOOR_FROM", 10**9)
    without = solve(board, SolveOptions(time_limit_s=60))
    assert (with_floor.revenue, with_floor.status) == (without.revenue, without.status)
