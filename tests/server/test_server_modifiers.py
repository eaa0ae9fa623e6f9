"""Modifiers through a real gRPC server: typed messages in, bonus lines and run lines out."""

from __future__ import annotations

import json

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from server.convert import board_from_proto, board_to_proto
from solver.input.snapshot import board_from_snapshot
from tests.conftest import CORPUS

EXAMPLES = CORPUS / "examples"


def _snap(name: str) -> dict:
    return json.loads(next(EXAMPLES.glob(f"{name}*.json")).read_text())


def _claims(snap: dict) -> list[pb.ClaimedRoute]:
    return [pb.ClaimedRoute(train=r["train"], nodes=r["nodes"], legs=[pb.Leg(paths=leg) for leg in r["legs"]])
            for r in snap["engine"]["routes"]]


@pytest.mark.parametrize("name", ["1846_10264", "1870_40469", "18AL_bankrupt", "18TN_7818"])
def test_modifiers_round_trip_and_price_the_engine_routes(stub, name: str) -> None:
    snap = _snap(name)
    board = board_from_snapshot(snap)
    msg = board_to_proto(board)
    assert len(msg.modifiers) == len(snap["modifiers"]) > 0
    assert board_from_proto(msg).modifiers == board.modifiers
    resp = stub.Evaluate(pb.EvaluateRequest(board=msg, routes=_claims(snap)))
    assert resp.legal, [f.message for f in resp.findings]
    assert resp.revenue == snap["engine"]["routes_revenue"]
    assert [r.revenue for r in resp.routes] == [r["revenue"] for r in snap["engine"]["routes"]]
    for route in resp.routes:
        assert sum(s.revenue for s in route.stops) + sum(b.amount for b in route.bonuses) == route.revenue
    assert sum(r.revenue for r in resp.routes) + sum(x.amount for x in resp.run_lines) == resp.revenue
    solved = stub.Solve(pb.SolveRequest(board=msg, time_limit_s=30))
    assert solved.status == pb.OPTIMAL and solved.revenue >= resp.revenue


def test_bonus_lines_are_reported(stub) -> None:
    snap = _snap("1846_10264")
    resp = stub.Evaluate(pb.EvaluateRequest(snapshot_json=json.dumps(snap), routes=_claims(snap)))
    lines = [(b.label, b.source) for r in resp.routes for b in r.bonuses]
    assert lines and all(label and source for label, source in lines)


def test_dropped_route_is_a_run_line(stub) -> None:
    snap = _snap("18TN_7818")
    resp = stub.Evaluate(pb.EvaluateRequest(snapshot_json=json.dumps(snap), routes=_claims(snap)))
    if len(resp.routes) >= snap["modifiers"][0]["min_routes"]:
        assert len(resp.run_lines) == 1 and resp.run_lines[0].amount == -min(r.revenue for r in resp.routes)
    else:
        assert not resp.run_lines


def test_unset_modifier_kind_is_invalid_argument(stub) -> None:
    msg = board_to_proto(board_from_snapshot(_snap("1846_10264")))
    msg.modifiers.add(source="x", label="nothing")
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(board=msg))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert f"board.modifiers[{len(msg.modifiers) - 1}].kind" in err.value.details()


def test_unspecified_enum_is_invalid_argument(stub) -> None:
    msg = board_to_proto(board_from_snapshot(_snap("1846_10264")))
    bad = msg.modifiers.add(source="x", label="y")
    bad.stop_bonus.hexes["D6"].amount = 10  # count left unspecified
    with pytest.raises(grpc.RpcError) as err:
        stub.Evaluate(pb.EvaluateRequest(board=msg))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "count" in err.value.details() and "board.modifiers" in err.value.details()
