"""A node that lists a revenue group twice is out of spec: both input paths reject it naming the
field (INVALID_ARGUMENT over gRPC), never a route the evaluator then refuses (INTERNAL).

A node belongs to each revenue group once (FORMAT.md, `groups`); a repeated name is a broken export,
and reading it as a set would hide that."""

from __future__ import annotations

import json
from typing import Any

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from server.convert import board_from_proto, board_to_proto
from solver.examples import example_path
from solver.input.snapshot import board_from_snapshot
from solver.model.errors import BoardError
from solver.optimiser import solve
from tests.support.fuzz.to_proto import board_from_raw


def _with_groups(groups: list[str]) -> tuple[dict[str, Any], str, str]:
    """The 1830 example with `groups` on the first stop of its recorded run (a stop the optimum uses
    too), and that node's hex and id."""
    raw = json.loads(example_path("1830").read_text())
    node_id = raw["recorded"]["routes"][0]["nodes"][0]
    for hx in raw["hexes"]:
        for node in hx.get("nodes", []):
            if node["id"] == node_id:
                node["groups"] = groups
                return raw, hx["id"], node_id
    raise AssertionError(f"{node_id} not on the board")


REPEATS = [["E", "E"], ["E", "W", "E"], ["W", "E", "W", "E"]]


@pytest.mark.parametrize("groups", REPEATS)
def test_snapshot_reader_rejects_a_repeated_group(groups: list[str]) -> None:
    raw, hex_id, node_id = _with_groups(groups)
    with pytest.raises(BoardError) as info:
        board_from_snapshot(raw)
    assert info.value.field == f"hexes[{hex_id}].nodes[{node_id}].groups"
    assert "listed twice" in info.value.message and repr(groups[0]) in info.value.message


@pytest.mark.parametrize("groups", REPEATS)
def test_proto_board_rejects_a_repeated_group(groups: list[str]) -> None:
    raw, hex_id, node_id = _with_groups(groups)
    msg = board_from_raw(raw)
    assert msg is not None and list(msg.hexes[[h.id for h in msg.hexes].index(hex_id)].nodes[0].groups) != []
    with pytest.raises(BoardError) as info:
        board_from_proto(msg)
    assert info.value.field == f"board.hexes[{hex_id}].nodes[{node_id}].groups"
    assert "listed twice" in info.value.message


def test_distinct_groups_are_read_and_solved_alike_on_both_paths() -> None:
    raw, _, node_id = _with_groups(["E", "W"])
    by_json = board_from_snapshot(raw)
    by_proto = board_from_proto(board_to_proto(by_json))
    assert by_json.nodes[node_id].groups == by_proto.nodes[node_id].groups == ("E", "W")
    assert solve(by_json).revenue == solve(by_proto).revenue > 0


def _requests(raw: dict[str, Any]) -> list[tuple[str, pb.SolveRequest | pb.EvaluateRequest, str]]:
    msg = board_from_raw(raw)
    assert msg is not None
    route = raw["recorded"]["routes"][0]
    claimed = [pb.ClaimedRoute(train=route["train"], nodes=route["nodes"],
                               legs=[pb.Leg(paths=leg) for leg in route["legs"]])]
    text = json.dumps(raw)
    return [("Solve", pb.SolveRequest(snapshot_json=text, time_limit_s=10), "snapshot_json."),
            ("Solve", pb.SolveRequest(board=msg, time_limit_s=10), "board."),
            ("Evaluate", pb.EvaluateRequest(snapshot_json=text, routes=claimed), "snapshot_json."),
            ("Evaluate", pb.EvaluateRequest(board=msg, routes=claimed), "board.")]


def test_service_rejects_a_repeated_group_on_both_paths_naming_the_field(stub) -> None:
    raw, hex_id, node_id = _with_groups(["E", "E"])
    for method, request, prefix in _requests(raw):
        with pytest.raises(grpc.RpcError) as err:
            getattr(stub, method)(request, timeout=30)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (method, prefix, err.value.details())
        assert err.value.details().startswith(f"{prefix}hexes[{hex_id}].nodes[{node_id}].groups: "), \
            err.value.details()


def test_service_answers_the_same_node_with_distinct_groups_on_both_paths(stub) -> None:
    raw, _, _ = _with_groups(["E", "W"])
    answers = [getattr(stub, method)(request, timeout=30) for method, request, _ in _requests(raw)]
    assert answers[0].status == pb.OPTIMAL and answers[0].revenue == answers[1].revenue > 0
    assert answers[2].legal == answers[3].legal and answers[2].revenue == answers[3].revenue
