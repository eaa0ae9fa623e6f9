"""One train: the best run is the best single route, found by a scan over the candidates
(`one_train_phase`) instead of the packing search. On real one-train positions with run rules (a
required connection run, the lowest route dropped, a best-route award) the scan earns what the packing
search earns, with the same status and bound; a route that a rule makes worth nothing is still shown,
and no route at all is run only when none makes a legal run."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

import solver.rulesets.r_standard.solve as standard_solve
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.board import Board
from solver.model.results import SolveOptions, Status
from solver.modifiers.model import RequiredRoute
from solver.modifiers.packing_terms import run_terms
from solver.optimiser import solve
from solver.packing.budget import Budget
from solver.packing.pack import train_classes
from tests.conftest import CORPUS


def _one_train_boards(title: str) -> list[tuple[str, Board]]:
    """The title's positions with one train and some run rule."""
    out = []
    for path in sorted((CORPUS / title).glob("*.jsonl.gz")):
        for i, pos in enumerate(read_positions(path)):
            if pos.raw.get("revenue_model") not in ("generic", "modifiers"):
                continue
            board = board_from_snapshot(pos.raw)
            if len(board.trains) == 1 and run_terms(board, train_classes(board.trains)[0]) is not None:
                out.append((f"{path.name}:{i}", board))
    return out


def _by_packing(board: Board, monkeypatch: pytest.MonkeyPatch) -> object:
    """The answer of the packing search (greedy, pruning, branch and bound, CP-SAT), without the scan."""
    with monkeypatch.context() as m:
        m.setattr(standard_solve, "one_train_phase", lambda run: None)
        return solve(board, SolveOptions(time_limit_s=30))


@pytest.mark.parametrize("title", ["1870", "18TN", "1846"])
def test_the_scan_earns_what_the_packing_search_earns(title: str, monkeypatch: pytest.MonkeyPatch) -> None:
    boards = _one_train_boards(title)
    assert boards
    scanned = 0
    real = standard_solve.one_train_phase

    def counted(run):  # type: ignore[no-untyped-def]
        nonlocal scanned
        found = real(run)
        scanned += found is not None
        return found

    for name, board in boards:
        with monkeypatch.context() as m:
            m.setattr(standard_solve, "one_train_phase", counted)
            fast = solve(board, SolveOptions(time_limit_s=30))
        slow = _by_packing(board, monkeypatch)
        assert (fast.revenue, fast.status, fast.bound) == (slow.revenue, slow.status, slow.bound), name  # type: ignore[attr-defined]
        assert fast.evaluation.legal, name
    assert scanned == len(boards)  # every one of them took the scan


def test_a_route_whose_revenue_a_rule_drops_is_still_run() -> None:
    """18TN's Civil War drops a company's lowest route: with one train the run earns 0, and the answer
    still shows a route to run (the one whose stops earn most), as the players ran it."""
    civil_war = [(n, b) for n, b in _one_train_boards("18TN")
                 if any(type(m).__name__ == "DropLowestRoute" for m in b.modifiers)]
    assert civil_war
    for name, board in civil_war:
        result = solve(board)
        assert result.revenue == 0 and result.status == Status.OPTIMAL, name
        assert len(result.routes) == 1 and result.routes[0].revenue > 0, name


def test_no_route_is_run_when_none_makes_the_required_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A connection run between two hexes no track joins: no route makes a legal run alone, so the best
    run is none, as the packing search finds too."""
    name, board = next((n, b) for n, b in _one_train_boards("1870")
                       if any(isinstance(m, RequiredRoute) for m in b.modifiers))
    cut_off = tuple(replace(m, endpoint_hexes=("NOWHERE1", "NOWHERE2")) if isinstance(m, RequiredRoute) else m
                    for m in board.modifiers)
    board = replace(board, modifiers=cut_off)
    result = solve(board)
    assert (result.revenue, result.status, list(result.routes)) == (0, Status.OPTIMAL, []), name
    slow = _by_packing(board, monkeypatch)
    assert slow.revenue == 0  # type: ignore[attr-defined]


def test_a_scan_out_of_time_leaves_the_answer_to_the_packing_search() -> None:
    """A scan past the search's end hands back None (the packing search answers under its deadlines)."""
    _name, board = next((n, b) for n, b in _one_train_boards("1870"))
    run = standard_solve.enumerate_phase(board, SolveOptions(time_limit_s=30), standard_solve.one_group)
    assert run.cands and standard_solve.one_train_phase(run) is not None
    run.cands = run.cands * (2048 // len(run.cands) + 1)  # past the first look at the clock
    run.budget = Budget(start=time.monotonic() - 60.0, limit=30.0)  # its time is up
    assert standard_solve.one_train_phase(run) is None
