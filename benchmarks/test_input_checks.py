"""What the strict input checks cost: reading a real snapshot, refusing a 100,000-hex chain, and
judging a claimed route of 40 repeated stops."""

from __future__ import annotations

import json
from typing import Any

from routemax.v1 import routemax_pb2 as pb
from server.convert import board_from_request
from solver.evaluator import evaluate
from solver.input.snapshot import board_from_snapshot
from solver.model.errors import BoardError
from solver.model.results import ClaimedRoute
from tests.solver.test_input_limits import chain
from tests.support.fuzz import corpus


def test_read_a_real_snapshot(benchmark: Any) -> None:
    text = json.dumps(corpus.position(7))  # 1870, 154 hexes: the largest board of the sample
    board = benchmark(lambda: board_from_request(pb.SolveRequest(snapshot_json=text)))
    assert len(board.hexes) == 154


def test_refuse_a_100000_hex_chain(benchmark: Any) -> None:
    text = json.dumps(chain(100_000), separators=(",", ":"))

    def refuse() -> str:
        try:
            board_from_request(pb.SolveRequest(snapshot_json=text))
        except BoardError as exc:
            return exc.field
        return ""

    assert benchmark(refuse) == "snapshot_json.hexes"


def test_judge_40_repeated_stops(benchmark: Any) -> None:
    board = board_from_snapshot(corpus.position(3))  # 18AL: list trains and a StopBonus
    stop = next(n.id for n in board.nodes.values() if n.tokened_by_company)
    path = next(iter(board.paths))
    claims = [ClaimedRoute(train=t.id, nodes=[stop] * 40, legs=[[path]] * 39) for t in board.trains]
    evaluation = benchmark(lambda: evaluate(board, claims))
    assert not evaluation.legal
