"""An 1873 company's complete route lists are kept beside the board (`candidates.company_routes`): the service
check's solve and the optimiser's of one position list the routes once. Asked again on that board under equal
1873 facts, the very lists; on other track or other facts, or after a walk cut short, listed anew."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver.input.snapshot import board_from_snapshot, read_positions
from solver.rulesets.r_1873 import candidates
from solver.rulesets.r_1873.candidates import company_routes, leg_graph_1873, route_shapes
from solver.rulesets.r_1873.view import harzbahn
from tests.conftest import CORPUS

POSITIONS = [p for f in sorted((CORPUS / "1873").glob("*.jsonl.gz")) for p in read_positions(f)][::8]


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.source.rsplit("/", 1)[-1])
def test_complete_lists_are_given_again_on_the_board(position) -> None:
    board = board_from_snapshot(position.raw)
    mining, diesel, complete = company_routes(board, harzbahn(board))
    assert complete
    fresh = board_from_snapshot(position.raw)
    ctx, graph = harzbahn(fresh), leg_graph_1873(fresh)
    assert mining == (route_shapes(fresh, ctx, graph, False)[0] if ctx.mining_trains else [])
    assert diesel == (route_shapes(fresh, ctx, graph, True)[0] if ctx.diesel_train else [])
    again = company_routes(board, harzbahn(board))
    assert again[0] is mining and again[1] is diesel and again[2]


def test_other_track_or_facts_list_anew() -> None:
    board = board_from_snapshot(POSITIONS[0].raw)
    ctx = harzbahn(board)
    mining, _, _ = company_routes(board, ctx)
    assert mining
    assert company_routes(board, replace(ctx, terminus=frozenset()))[0] == []
    copied = replace(board, nodes=dict(board.nodes))
    assert copied.ruleset_memo is None  # `replace` never copies what is kept
    assert company_routes(copied, ctx)[0] is not mining


def test_a_walk_cut_short_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    board = board_from_snapshot(POSITIONS[0].raw)
    walk = candidates.route_shapes
    monkeypatch.setattr(candidates, "route_shapes", lambda *a, **k: (walk(*a, **k)[0][:1], False))
    mining, _, complete = company_routes(board, harzbahn(board))
    assert not complete and len(mining) == 1
    assert board.ruleset_memo is None
    monkeypatch.undo()
    assert len(company_routes(board, harzbahn(board))[0]) > 1
