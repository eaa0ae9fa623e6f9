"""The WhatIf RPC on a real gRPC server: the same answers as the library and as separate Solve calls,
scenario errors in the answer with their field, malformed requests INVALID_ARGUMENT naming the field."""

from __future__ import annotations

import json

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from solver.input.snapshot import board_from_snapshot
from solver.whatif import WhatIfOptions, run_whatif
from tests.support.whatif_boards import snapshot, with_token

TIMEOUT_S = 300.0


def test_whatif_tokens_and_trains_equal_the_library_and_separate_solves(stub: pb_grpc.RouteServiceStub) -> None:
    raw = snapshot("1846one")
    text = json.dumps(raw)
    response = stub.WhatIf(pb.WhatIfRequest(snapshot_json=text, tokens=True, trains=["5", "6", "D"],
                                            time_limit_s=60), timeout=TIMEOUT_S)
    local = run_whatif(board_from_snapshot(raw), [], WhatIfOptions(time_limit_s=60), tokens=True,
                       trains=["5", "6", "D"])
    got = [(a.scenario.kind, a.scenario.node, a.scenario.train, a.scenario.replaces, a.revenue, a.delta)
           for a in response.answers]
    want = [(d["kind"], d.get("node", ""), d.get("train", ""), d.get("replaces", ""), a.revenue, a.delta)
            for a in local.all for d in [a.scenario.describe()]]
    assert sorted(got) == sorted(want)
    assert got[0][0] == "base"
    deltas = [a.delta for a in response.answers[1:]]
    assert deltas == sorted(deltas, reverse=True)
    for a in response.answers:
        assert a.status == pb.OPTIMAL and a.routes or a.revenue == 0
        if a.scenario.kind == "token":
            alone = stub.Solve(pb.SolveRequest(snapshot_json=json.dumps(with_token(raw, a.scenario.node)),
                                               time_limit_s=60), timeout=TIMEOUT_S)
            assert alone.revenue == a.revenue


def test_illegal_scenario_is_answered_with_its_field(stub: pb_grpc.RouteServiceStub) -> None:
    request = pb.WhatIfRequest(snapshot_json=json.dumps(snapshot("1830")),
                               scenarios=[pb.Scenario(add_trains=["Zeppelin"]), pb.Scenario(add_trains=["D"])])
    response = stub.WhatIf(request, timeout=TIMEOUT_S)
    assert [a.scenario.kind for a in response.answers] == ["base", "add_train", "add_train"]
    bad = response.answers[-1]
    assert bad.error_field == "scenarios[0].add_trains[0]" and "Zeppelin" in bad.error
    assert response.answers[1].delta > 0 and response.answers[1].index == 1


@pytest.mark.parametrize(("request_message", "field"), [
    (pb.WhatIfRequest(trains=["5=fast"]), "trains[0]"),
    (pb.WhatIfRequest(scenarios=[pb.Scenario(hexes_json="[1]")]), "scenarios[0].hexes_json"),
    (pb.WhatIfRequest(tokens=True, time_limit_s=0), "time_limit_s"),
    (pb.WhatIfRequest(tokens=True, snapshot_json="{}"), "snapshot_json.format"),
])
def test_malformed_whatif_is_invalid_argument_naming_the_field(stub: pb_grpc.RouteServiceStub,
                                                               request_message: pb.WhatIfRequest, field: str) -> None:
    if not request_message.snapshot_json:
        request_message.snapshot_json = json.dumps(snapshot("1830"))
    with pytest.raises(grpc.RpcError) as err:
        stub.WhatIf(request_message, timeout=TIMEOUT_S)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.value.details().startswith(field), err.value.details()
