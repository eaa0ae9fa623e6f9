"""1873 through the real gRPC server: the typed board extension, objectives, the service-rule
finding, mine production, and field-named errors."""

from __future__ import annotations

import gzip
import json

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from server.convert import board_from_proto, board_to_proto
from solver.input.snapshot import board_from_snapshot
from solver.rulesets.r_1873.view import harzbahn
from tests.conftest import CORPUS


def _snapshot(action_id: int) -> dict:
    with gzip.open(CORPUS / "1873" / "hs_gwlftpex_33770.jsonl.gz", "rt") as fh:
        for line in fh:
            snap = json.loads(line)
            if snap["source"]["action_id"] == action_id:
                return snap
    raise KeyError(action_id)


def test_board_extension_gives_the_same_answer_as_the_snapshot(stub) -> None:
    snap = _snapshot(1813)  # NWE: two concession routes, a 4T, a 5T and a diesel
    msg = board_to_proto(board_from_snapshot(snap))
    assert msg.HasField("h1873") and len(msg.h1873.concession_routes) == 2
    by_board = stub.Solve(pb.SolveRequest(board=msg, objective=pb.REVENUE_ONLY))
    by_json = stub.Solve(pb.SolveRequest(snapshot_json=json.dumps(snap), objective=pb.REVENUE_ONLY))
    assert by_board.status == by_json.status == pb.OPTIMAL
    assert by_board.revenue == by_json.revenue >= snap["engine"]["routes_revenue"]
    assert by_board.summary.net_revenue == by_board.revenue - by_board.summary.maintenance
    assert {t.status for t in by_board.summary.tokens} <= {"active", "flipped"}


def test_rulebook_services_more_routes_and_evaluate_flags_the_recorded_run(stub) -> None:
    snap = _snapshot(1813)
    rules = stub.Solve(pb.SolveRequest(snapshot_json=json.dumps(snap)))  # RULEBOOK is the 1873 default
    money = stub.Solve(pb.SolveRequest(snapshot_json=json.dumps(snap), objective=pb.REVENUE_ONLY))
    assert rules.summary.routes_serviced == len(rules.routes) > len(money.routes)
    assert rules.summary.routes_possible == len(rules.routes)
    assert rules.revenue < snap["engine"]["routes_revenue"] <= money.revenue
    claimed = [pb.ClaimedRoute(train=r["train"], nodes=r["nodes"], legs=[pb.Leg(paths=leg) for leg in r["legs"]])
               for r in snap["recorded"]["routes"]]
    ev = stub.Evaluate(pb.EvaluateRequest(snapshot_json=json.dumps(snap), routes=claimed))
    assert ev.legal and ev.revenue == snap["engine"]["routes_revenue"]
    advisory = [f for f in ev.findings if f.code == "UNDERSERVICED"]
    assert len(advisory) == 1 and not advisory[0].hard
    assert ev.summary.routes_serviced == len(claimed) < ev.summary.routes_possible


def test_a_run_without_the_concession_route_is_illegal(stub) -> None:
    snap = _snapshot(1813)
    claimed = [pb.ClaimedRoute(train=r["train"], nodes=r["nodes"], legs=[pb.Leg(paths=leg) for leg in r["legs"]])
               for r in snap["recorded"]["routes"] if not r["train"].startswith("D")][1:]
    ev = stub.Evaluate(pb.EvaluateRequest(snapshot_json=json.dumps(snap), routes=claimed))
    assert not ev.legal
    assert "CONCESSION_NOT_RUN" in {f.code for f in ev.findings}


def test_1873_board_without_its_extension_is_invalid_argument(stub) -> None:
    msg = board_to_proto(board_from_snapshot(_snapshot(1813)))
    msg.ClearField("h1873")
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(board=msg))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "board.h1873" in err.value.details()


def test_a_diesel_left_without_its_allocated_subtrains_reads_the_same_by_both_paths(stub) -> None:
    """The protobuf board states the diesel pool only, the allocated ids being the diesel's subtrains: a snapshot
    that leaves them out reads so too (it used to read an empty pool, the protobuf board the subtrains: a random
    input fuzz found the two boards differ), and one that allocates other ids is refused, naming the field."""
    snap = _snapshot(1813)
    diesel = next(t for t in snap["super_trains"] if t["diesel"])
    assert snap["h1873"]["diesel"]["allocated_subtrains"] == diesel["subtrains"]
    stated = harzbahn(board_from_snapshot(snap)).diesel_pool
    snap["h1873"]["diesel"]["allocated_subtrains"] = []
    left_out = board_from_snapshot(snap)
    assert harzbahn(left_out).diesel_pool == stated
    again = board_from_proto(pb.Board.FromString(board_to_proto(left_out).SerializeToString()))
    assert harzbahn(again) == harzbahn(left_out)
    snap["h1873"]["diesel"]["allocated_subtrains"] = diesel["subtrains"][:1] + ["D-99"]
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(snapshot_json=json.dumps(snap)))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.value.details().startswith("snapshot_json.h1873.diesel.allocated_subtrains: ")


def _refused_as_standard(stub, how: str, snap: dict, msg: pb.Board) -> str:
    """Send a 1873 position whose title is lost (a standard board) by one input path: the error's details."""
    snap["source"]["title"] = ""
    msg.ruleset = "standard"
    request = pb.SolveRequest(snapshot_json=json.dumps(snap)) if how == "snapshot" else pb.SolveRequest(board=msg)
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(request)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    return err.value.details()


@pytest.mark.parametrize("how", ["snapshot", "board"])
def test_1873_data_on_a_board_of_another_ruleset_is_invalid_argument(stub, how: str) -> None:
    """A 1873 position whose title is lost reads as a standard board: its 1873 data is refused, never ignored."""
    snap = _snapshot(1813)
    details = _refused_as_standard(stub, how, snap, board_to_proto(board_from_snapshot(snap)))
    field = "snapshot_json.h1873" if how == "snapshot" else "board.h1873"
    assert details.startswith(f"{field}: data of ruleset '1873'")


@pytest.mark.parametrize("how", ["snapshot", "board"])
def test_1873_train_fields_on_a_board_of_another_ruleset_are_invalid_argument(stub, how: str) -> None:
    """Without its 1873 data, a 1873 position's trains still carry their super-train: refused by its proto name."""
    snap = _snapshot(1813)
    msg = board_to_proto(board_from_snapshot(snap))
    for key in ("h1873", "super_trains"):
        snap.pop(key, None)
    for hx in snap["hexes"]:
        hx.pop("h1873", None)
        for node in hx.get("nodes", []):
            node.pop("h1873", None)
    msg.ClearField("h1873")
    details = _refused_as_standard(stub, how, snap, msg)
    field = "snapshot_json.trains[0].super" if how == "snapshot" else "board.trains[0].super_train"
    assert details.startswith(f"{field}: train data of ruleset '1873'")


def test_unknown_subtrain_in_extension_is_invalid_argument(stub) -> None:
    msg = board_to_proto(board_from_snapshot(_snapshot(1813)))
    msg.h1873.super_trains[0].subtrains.append("9T-99")
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(board=msg))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "board.h1873.super_trains[0].subtrains" in err.value.details()


def _mine(mine_id: str, connected: bool, machine: int, switcher: int) -> pb.MineState:
    return pb.MineState(id=mine_id, connected=connected, machine=machine, switcher=switcher,
                        machine_revenue=[40, 60, 80, 100, 120], switcher_revenue=[20, 30, 40, 50])


def test_mine_production_moves_switchers_to_connected_mines(stub) -> None:
    # mine B is unconnected: it earns its fixed 40 whatever it holds, so the 4S must move to a
    # connected mine; A (machine 3: 80) and C (machine 1: 40) take the 4S (40) and the 2S (20).
    req = pb.MineProductionRequest(public_company=True, harzer_werke=True, mines=[
        _mine("A", True, 3, 0), _mine("B", False, 2, 4), _mine("C", True, 1, 2)])
    resp = stub.MineProduction(req)
    per = {m.id: m for m in resp.mines}
    assert per["B"].revenue == 40 and per["B"].switcher == 0
    assert {per["A"].switcher, per["C"].switcher} == {4, 2}
    assert resp.bonus == 50
    assert resp.revenue == 80 + 40 + 40 + 40 + 20 + 50


def test_independent_mine_keeps_its_switcher(stub) -> None:
    resp = stub.MineProduction(pb.MineProductionRequest(mines=[_mine("A", True, 2, 3)]))
    assert resp.revenue == 60 + 30 and resp.bonus == 0


def test_mine_production_rejects_a_machine_size_without_revenue(stub) -> None:
    with pytest.raises(grpc.RpcError) as err:
        stub.MineProduction(pb.MineProductionRequest(mines=[_mine("A", True, 7, 0)]))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "mines[0].machine" in err.value.details()
