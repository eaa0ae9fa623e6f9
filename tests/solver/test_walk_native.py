"""The compiled route walk (`solver.routes.walk_native`, solver/native/routewalk.c) against the Python walk
(`walk.enumerate_routes` with the kernel off): the same routes in the same order, cut short alike, and the
same candidates and answers from the arrays it leaves.

Checked on real boards: the late positions of every title (terminal paths, node groups, one stop per hex,
tokens required or not), the stress boards whose long walks it serves (1870's three long trains and two
trains with floors, 1856's two D), and 1873's walk rules (routes of any length, one stop per hex)."""

from __future__ import annotations

import math
import time
from dataclasses import replace

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board, Train
from solver.model.cancel import CancelToken
from solver.model.legs import Leg
from solver.model.results import SolveOptions, SolveResult
from solver.optimiser import solve
from solver.routes import candidates, walk_native
from solver.routes.leg_graph import build_leg_graph
from solver.routes.route_bound import UNBOUNDED, ReachBound
from solver.routes.walk import enumerate_routes, standard_walk_rules
from solver.routes.walk_native import WalkedShapes
from solver.rulesets.r_1873.candidates import ANY_LENGTH, walk_rules
from solver.rulesets.r_1873.view import harzbahn
from tests.support.corpus_files import late_positions
from tests.support.stress_boards import stress_snapshots

pytestmark = pytest.mark.skipif(not walk_native.available(), reason="the compiled walk is not built here")


@pytest.fixture(autouse=True)
def _every_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel on every graph here, the small ones too (the solver leaves those to the Python walk)."""
    monkeypatch.setattr(walk_native, "NATIVE_FROM_LEGS", 0)

LATE = [board_from_snapshot(raw) for _title, raw in late_positions(2)]
LONG = [board_from_snapshot(stress_snapshots(title)[i]) for title, i in (("1870", 2), ("1856", 3))]
FLOORED = [board_from_snapshot(stress_snapshots("1870")[i]) for i in (1, 3)]  # two trains: a walk with floors


def _python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk_native, "_kernel", lambda: None)


def _walks(board: Board, monkeypatch: pytest.MonkeyPatch, trains: list[Train] | None = None, **kwargs) -> tuple:
    """The board's walk by the kernel and by the Python walk (each: the routes and whether complete)."""
    graph = build_leg_graph(board)
    trains = board.trains if trains is None else trains
    native = enumerate_routes(board, graph, trains, **kwargs)
    with monkeypatch.context() as mp:
        _python(mp)
        python = enumerate_routes(board, graph, trains, **kwargs)
    return native, python


def test_small_graphs_are_left_to_the_python_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk_native, "NATIVE_FROM_LEGS", 40)
    sizes = []
    for board in LATE:
        graph = build_leg_graph(board)
        found = walk_native.walk_natively(board, graph, board.trains, 10**6, None, standard_walk_rules(board), None)
        sizes.append((sum(map(len, graph.legs_from.values())), found))
    assert all(found is None for legs, found in sizes if legs < 40) and any(legs < 40 for legs, _f in sizes)
    assert any(found is not None for legs, found in sizes if legs >= 40)


def test_the_routes_are_the_python_walks(monkeypatch: pytest.MonkeyPatch) -> None:
    routes = groups = terminal = 0
    for board in LATE + LONG:
        for rules in (standard_walk_rules(board), standard_walk_rules(board, one_per_hex=True)):
            (native, complete), (python, python_complete) = _walks(board, monkeypatch, rules=rules)
            assert isinstance(native, list) and complete == python_complete
            assert native == python, board.label()
            routes += len(native)
            groups += sum(1 for r in native if any(board.nodes[n].groups for n in r.nodes))
            terminal += sum(1 for r in native if any(leg.has_terminal for leg in r.legs))
    assert routes > 100_000 and groups > 1_000 and terminal > 100  # every kind of step, on many routes


def test_routes_of_any_length_and_express_trains(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trains no distance limits (an express; 1873's routes of any length, one stop per hex): the gate is off."""
    board = LATE[-1]
    express = replace(board.trains[0], name="E", unit="express")
    (native, complete), (python, python_complete) = _walks(board, monkeypatch, trains=[express],
                                                           rules=standard_walk_rules(board, one_per_hex=True))
    assert native == python and complete and python_complete and len(native) > 100
    shapes = 0
    for raw in stress_snapshots("1873"):  # 1873's walks (its solver keeps them in Python: few routes, many legs)
        harz = board_from_snapshot(raw)
        ctx = harzbahn(harz)
        for diesel in (False, True):
            (found, complete), (python, python_complete) = _walks(harz, monkeypatch, trains=[ANY_LENGTH],
                                                                  rules=walk_rules(harz, ctx, diesel))
            assert found == python and complete == python_complete
            shapes += len(found)
    assert shapes > 500


def test_a_walk_cut_short_stops_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    board = LONG[1]
    (native, complete), (python, python_complete) = _walks(board, monkeypatch, cap=1_000)
    assert not complete and not python_complete and len(native) == 1_000 and native == python
    token = CancelToken()
    token.cancel()
    (cancelled, cancelled_complete), (python, python_complete) = _walks(board, monkeypatch, cancel=token)
    # the kernel stops as the Python walk does; the shapes made from its routes stop at the cancel too
    assert not cancelled_complete and not python_complete and cancelled == python[:len(cancelled)]
    assert len(cancelled) < 5_000
    # past its deadline: the first route (the kernel keeps no more than the Python walk would by then), made
    # though the deadline has passed
    (late, late_complete), (python, python_complete) = _walks(board, monkeypatch, deadline=time.monotonic() - 1)
    assert not late_complete and not python_complete and len(python) < 100
    assert len(late) == 1 and late == python[:1]
    # a deadline ahead: the routes the Python walk would keep by then at most (`PYTHON_ROUTES_PER_SECOND`)
    (paced, paced_complete), _python_walk = _walks(board, monkeypatch, deadline=time.monotonic() + 0.01)
    assert not paced_complete and 0 < len(paced) <= 0.01 * walk_native.PYTHON_ROUTES_PER_SECOND
    whole, whole_complete = enumerate_routes(board, build_leg_graph(board), board.trains)
    assert whole_complete and paced == whole[:len(paced)] and len(whole) > 10 * len(paced)


def _recorded(monkeypatch: pytest.MonkeyPatch, boards: list[Board], python: bool) -> dict[str, list]:
    """Solve the boards (by the kernel or the Python walk), recording the walks with floors (their routes),
    the lazy build's options and the candidates priced on read (their values, track and shapes)."""
    seen: dict[str, list] = {"floored": [], "options": [], "on_read": []}
    walk, options, on_read = candidates.enumerate_routes, candidates._bounded_options, candidates.every_route_on_read

    def walk_spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        found = walk(*args, **kwargs)
        if kwargs.get("floors"):
            seen["floored"].append((isinstance(found[0], WalkedShapes), list(found[0]), found[1]))
        return found

    def options_spy(builder, scan):  # type: ignore[no-untyped-def]
        found = options(builder, scan)
        seen["options"].append([a.tolist() for a in found])
        return found

    def on_read_spy(builder, scan):  # type: ignore[no-untyped-def]
        read = on_read(builder, scan)
        seen["on_read"].append((list(read.totals), list(read.masks), list(read.shape_of)))
        return read

    with monkeypatch.context() as mp:
        if python:
            _python(mp)
        mp.setattr(candidates, "enumerate_routes", walk_spy)
        mp.setattr(candidates, "_bounded_options", options_spy)
        mp.setattr(candidates, "every_route_on_read", on_read_spy)
        seen["answers"] = [_answer(solve(b, SolveOptions(time_limit_s=60))) for b in boards]
    return seen


def _answer(result: SolveResult) -> tuple:
    return result.revenue, result.subsidy, result.status, result.bound, \
        [(r.train, tuple(r.nodes), r.revenue) for r in result.routes]


def test_the_solver_reads_the_arrays_as_the_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walks with floors (two trains, `candidates._walk_floor`), the lazy build's options and the
    candidates priced on read, all read from the kernel's arrays, and the answers: as from the Python walk."""
    boards = FLOORED + LONG + LATE[::7]
    native = _recorded(monkeypatch, boards, python=False)
    python = _recorded(monkeypatch, boards, python=True)
    assert len(native["floored"]) == len(FLOORED) and all(arrays for arrays, _r, _c in native["floored"])
    assert not any(arrays for arrays, _r, _c in python["floored"])
    assert [(r, c) for _a, r, c in native["floored"]] == [(r, c) for _a, r, c in python["floored"]]
    assert sum(len(r) for _a, r, _c in native["floored"]) > 10_000
    assert len(native["options"]) >= len(FLOORED) and native["options"] == python["options"]
    assert len(native["on_read"]) == len(LONG) and native["on_read"] == python["on_read"]
    assert native["answers"] == python["answers"]


def test_caps_and_deadlines_beyond_64_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cap of 2**63 or more (or an infinite one) is no cap, and an infinite deadline none: as the Python walk."""
    board = LATE[0]
    for kwargs in ({"cap": 2**63}, {"cap": 2**64 + 3}, {"cap": math.inf}, {"deadline": math.inf}):
        (native, complete), (python, python_complete) = _walks(board, monkeypatch, **kwargs)
        assert complete and python_complete and native == python and native, kwargs
    result = solve(board, SolveOptions(time_limit_s=math.inf))
    assert result.status.name == "OPTIMAL"


def test_a_cancel_while_the_shapes_are_made_leaves_a_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk's shapes are made a block at a time; a cancel between blocks ends the making: the routes made
    so far (a prefix of the walk), and the walk is not complete."""
    board = LONG[1]
    token = CancelToken()
    made = walk_native.WalkedShapes.make

    def make_then_cancel(self, ks):  # type: ignore[no-untyped-def]
        made(self, ks)
        token.cancel()  # after the first block

    monkeypatch.setattr(walk_native.WalkedShapes, "make", make_then_cancel)
    cut, complete = enumerate_routes(board, build_leg_graph(board), board.trains, cancel=token)
    monkeypatch.undo()
    whole, whole_complete = enumerate_routes(board, build_leg_graph(board), board.trains)
    assert not complete and whole_complete and cut == whole[:len(cut)]
    assert len(cut) == walk_native.MAKE_BLOCK < len(whole)


def test_the_branch_and_bound_finds_the_python_walks_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """One train's best route by the branch and bound (`candidates._bounded_best`: plain stop trains, list
    trains with a limiting row, flat bounds for long trains; also beside another route's track, `avoid`):
    the kernel walks in the plain order and the Python walk most promising first, and both give the same
    route, the first in the plain order of those earning the most."""
    checked = list_trains = 0
    for board in LATE:
        for train in {t.name: t for t in board.trains}.values():
            one = replace(board, trains=[train])
            native = solve(one, SolveOptions(time_limit_s=60))
            with monkeypatch.context() as mp:
                _python(mp)
                python = solve(one, SolveOptions(time_limit_s=60))
            assert _answer(native) == _answer(python), (board.label(), train.name)
            checked += 1
            list_trains += train.unit == "stops_by_type"
    assert checked > 50 and list_trains > 5


def test_the_steps_ahead_are_each_steps_list() -> None:
    """`_aheads` converts each distinct list once (steps share them) and gives per step its list's first
    `distance + 1` values, as a per-step conversion would; False for a list too short, None beyond 64 bits."""
    legs = [Leg(a, b, (), frozenset(), (), 0, False, False, False) for a, b in
            (("x", "y"), ("x", "y"), ("y", "z"), ("z", "x"), ("z", "w"))]
    ahead = {("x", "y"): [5, 4, 3, 2], ("y", "z"): [9, 8, 7, 6], ("z", "x"): [1, 1, 1, 1]}
    bound = ReachBound({}, {}, ahead, 0, 2)  # ("z", "w") has no entry: the bound's `otherwise`
    found = walk_native._aheads(bound, legs)
    per_step = [bound.step_ahead(leg)[:3] for leg in legs]
    assert found.tolist() == [v for row in per_step for v in row] and found.dtype == "int64"
    assert walk_native._aheads(ReachBound({}, {}, {}, 0, 3, flat=True), legs).tolist() == [UNBOUNDED] * 20
    assert walk_native._aheads(bound, []).tolist() == [0]
    assert walk_native._aheads(ReachBound({}, {}, {("x", "y"): [1]}, 0, 2), legs) is False
    assert walk_native._aheads(ReachBound({}, {}, {("x", "y"): [1 << 70] * 3}, 0, 2), legs) is None


def test_node_numbers_for_the_tests_of_values() -> None:
    """`WalkedShapes.numbers`: a node id's number is its place in the walk's ids (what `values`' tests read), and a
    node no route of the walk has is left out; a test over those numbers meets exactly the routes with the node."""
    board = LONG[0]
    shapes, _complete = enumerate_routes(board, build_leg_graph(board), board.trains, cap=5_000, arrays=True)
    assert isinstance(shapes, WalkedShapes) and len(shapes) > 1000
    some = [shapes.ids[5], "no such node", shapes.ids[0]]
    assert shapes.numbers(some) == [5, 0]
    node = shapes.ids[5]
    _values, hits = shapes.values([], [(shapes.numbers([node]), False)])
    assert hits == [int(node in shapes[k].nodes) for k in range(len(shapes))]
