"""End to end through a real gRPC server on a free loopback port, with a real client."""

from __future__ import annotations

import json
import logging
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from routemax.v1 import routemax_pb2 as pb
from server.convert import board_to_proto
from solver.examples import example_path
from solver.input.snapshot import board_from_snapshot
from tests.support.boards import chain_board, dense_board


def _example() -> dict:
    return json.loads(example_path("1830").read_text())


def _board_msg() -> pb.Board:
    return board_to_proto(board_from_snapshot(_example()))


def test_solve_example_board_matches_recorded_run(stub) -> None:
    snap = _example()
    resp = stub.Solve(pb.SolveRequest(board=_board_msg(), time_limit_s=10))
    assert resp.status == pb.OPTIMAL
    assert resp.revenue >= snap["recorded"]["routes_revenue"]
    assert resp.bound == resp.revenue
    assert sum(r.revenue for r in resp.routes) == resp.revenue
    for route in resp.routes:
        assert len(route.legs) == len(route.nodes) - 1
        assert [s.node for s in route.stops] == list(route.nodes)
        assert sum(s.revenue for s in route.stops) == route.revenue
        assert all(leg.paths and leg.hexes for leg in route.legs)
    assert resp.stats.solve_ms > 0


def test_solve_by_snapshot_json_equals_solve_by_board(stub) -> None:
    by_board = stub.Solve(pb.SolveRequest(board=_board_msg()))
    by_json = stub.Solve(pb.SolveRequest(snapshot_json=json.dumps(_example())))
    assert by_json.revenue == by_board.revenue
    assert by_json.status == pb.OPTIMAL


def test_evaluate_recorded_routes_and_a_route_set_sharing_track(stub) -> None:
    snap = _example()
    claimed = [pb.ClaimedRoute(train=r["train"], nodes=r["nodes"], legs=[pb.Leg(paths=leg) for leg in r["legs"]])
               for r in snap["recorded"]["routes"]]
    ok = stub.Evaluate(pb.EvaluateRequest(board=_board_msg(), routes=claimed))
    assert ok.legal
    assert ok.revenue == snap["engine"]["routes_revenue"]
    assert not ok.findings
    # the same route claimed for two trains reuses every piece of its track
    first = claimed[0]
    other_train = next(t["id"] for t in snap["trains"] if t["id"] != first.train)
    twice = [first, pb.ClaimedRoute(train=other_train, nodes=first.nodes, legs=first.legs)]
    bad = stub.Evaluate(pb.EvaluateRequest(board=_board_msg(), routes=twice))
    assert not bad.legal
    assert "SHARED_TRACK" in {f.code for f in bad.findings}
    assert all(f.message for f in bad.findings)


def test_evaluate_resolves_legs_given_by_hexes(stub) -> None:
    snap = _example()
    claimed = [pb.ClaimedRoute(train=r["train"], nodes=r["nodes"],
                               legs=[pb.Leg(hexes=[p.split(".")[0] for p in dict.fromkeys(leg)]) for leg in r["legs"]])
               for r in snap["recorded"]["routes"]]
    resp = stub.Evaluate(pb.EvaluateRequest(board=_board_msg(), routes=claimed))
    assert resp.legal, [f.message for f in resp.findings]
    assert resp.revenue == snap["engine"]["routes_revenue"]


def test_list_rulesets_health_and_reflection(stub, channel) -> None:
    names = {r.name for r in stub.ListRulesets(pb.ListRulesetsRequest()).rulesets}
    assert "standard" in names
    health = health_pb2_grpc.HealthStub(channel)
    status = health.Check(health_pb2.HealthCheckRequest(service="routemax.v1.RouteService")).status
    assert status == health_pb2.HealthCheckResponse.SERVING
    refl = reflection_pb2_grpc.ServerReflectionStub(channel)
    answers = list(refl.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")])))
    services = {s.name for s in answers[0].list_services_response.service}
    assert "routemax.v1.RouteService" in services


GARBAGE = b"\xff\xff\xff\xff"  # not a protobuf message: a field tag that never ends


@pytest.mark.parametrize("method", ["Solve", "Evaluate", "WhatIf", "ListRulesets", "MineProduction"])
def test_a_body_that_is_not_protobuf_is_invalid_argument_naming_the_request(
        channel, method: str, caplog: pytest.LogCaptureFixture) -> None:
    """grpcio's own answer, INTERNAL with a traceback logged at ERROR, is the README's optimiser disagreement."""
    call = channel.unary_unary(f"/routemax.v1.RouteService/{method}")  # bytes as they are, both ways
    with pytest.raises(grpc.RpcError) as err:
        call(GARBAGE, timeout=10)
    assert err.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    name = "WhatIfRequest" if method == "WhatIf" else f"{method}Request"
    assert err.value.details() == f"request: not a routemax.v1.{name} message in protobuf's binary encoding"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records


def test_each_audit_message_is_parsed_as_it_comes(channel) -> None:
    good = pb.AuditRequest(source="first", snapshot_json=example_path("1830").read_text(), time_limit_s=5)
    audit = channel.stream_stream("/routemax.v1.RouteService/Audit", response_deserializer=pb.AuditLine.FromString)
    answers = audit(iter([good.SerializeToString(), GARBAGE, good.SerializeToString()]), timeout=30)
    assert next(answers).source == "first"
    with pytest.raises(grpc.RpcError) as err:
        next(answers)
    assert err.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert err.value.details() == "request: not a routemax.v1.AuditRequest message in protobuf's binary encoding"


def _invalid(stub, board: pb.Board) -> str:
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(board=board))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    return err.value.details()


def _small_board() -> pb.Board:
    b, _ = chain_board([10, 20, 30])
    b.train("2-0", 2)
    return board_to_proto(b.board())


def test_empty_board_is_invalid_argument(stub) -> None:
    msg = pb.Board(ruleset="standard", company=pb.Company(id="A"))
    assert "board.hexes" in _invalid(stub, msg)


def test_unknown_node_in_path_end_is_invalid_argument(stub) -> None:
    msg = _small_board()
    msg.hexes[1].paths[0].b.node = "H9.city0"
    details = _invalid(stub, msg)
    assert "board.hexes[H1].paths[H1.p0].b" in details and "H9.city0" in details


def test_path_end_on_missing_edge_is_invalid_argument(stub) -> None:
    msg = _small_board()
    msg.hexes[0].paths[0].b.edge = 7
    assert "board.hexes[H0].paths[H0.p0].b" in _invalid(stub, msg)


def test_path_without_end_is_invalid_argument(stub) -> None:
    msg = _small_board()
    msg.hexes[0].paths[0].ClearField("a")
    assert "board.hexes[H0].paths[H0.p0].a" in _invalid(stub, msg)


def test_negative_distance_is_invalid_argument(stub) -> None:
    msg = _small_board()
    msg.trains[0].distance.stops = -1
    assert "board.trains[0].distance" in _invalid(stub, msg)


def test_unknown_ruleset_is_invalid_argument(stub) -> None:
    msg = _small_board()
    msg.ruleset = "1999"
    assert "board.ruleset" in _invalid(stub, msg)


def test_unknown_neighbour_hex_is_invalid_argument(stub) -> None:
    msg = _small_board()
    msg.hexes[0].neighbors[2] = "Z99"
    assert "board.hexes[H0].neighbors[2]" in _invalid(stub, msg)


def test_bad_snapshot_json_is_invalid_argument(stub) -> None:
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(snapshot_json="{not json"))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "snapshot_json" in err.value.details()


def test_missing_board_is_invalid_argument(stub) -> None:
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest())
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_evaluate_unknown_train_is_a_finding_not_a_crash(stub) -> None:
    resp = stub.Evaluate(pb.EvaluateRequest(board=_small_board(), routes=[
        pb.ClaimedRoute(train="9-9", nodes=["H0.city0", "H1.city0"], legs=[pb.Leg(paths=["H0.p0", "H1.p0"])])]))
    assert not resp.legal
    assert [f.code for f in resp.findings] == ["UNKNOWN_TRAIN"]


def _slow_board() -> pb.Board:
    """Two unlimited trains on a dense 6x6 patch: far more routes than a short deadline allows."""
    return board_to_proto(dense_board(6).board())


def test_time_limit_cuts_the_search_and_returns_feasible_with_bound(stub) -> None:
    cut = stub.Solve(pb.SolveRequest(board=_slow_board(), time_limit_s=0.3))
    assert cut.status == pb.FEASIBLE
    assert 0 < cut.revenue <= cut.bound
    assert sum(r.revenue for r in cut.routes) == cut.revenue
    check = stub.Evaluate(pb.EvaluateRequest(board=_slow_board(), routes=[
        pb.ClaimedRoute(train=r.train, nodes=r.nodes, legs=r.legs) for r in cut.routes]))
    assert check.legal and check.revenue == cut.revenue


def test_solve_answers_within_a_short_grpc_deadline(stub) -> None:
    board = _slow_board()
    t0 = time.monotonic()
    resp = stub.Solve(pb.SolveRequest(board=board, time_limit_s=60), timeout=3.0)
    assert time.monotonic() - t0 < 3.0
    assert resp.status == pb.FEASIBLE
    assert resp.bound >= resp.revenue > 0
