"""1839 and 1871 Steel Cities through the real gRPC server and the command line: the typed board
(classes, markers, countries, options) round-trips, answers match the library, errors are named."""

from __future__ import annotations

import json

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from server.convert import board_to_proto
from server.main import main
from solver.examples import example_path
from solver.input.snapshot import board_from_snapshot
from solver.optimiser import solve


def _invalid(stub, msg: pb.Board) -> str:
    """Solve a board the service must refuse: the error's details."""
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(board=msg))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    return err.value.details()


def _board(name: str):
    return board_from_snapshot(json.loads(example_path(name).read_text()))


@pytest.mark.parametrize("name", ["1839", "1871sc"])
def test_example_board_over_grpc_equals_the_library(stub, name: str) -> None:
    board = _board(name)
    direct = solve(board)
    msg = board_to_proto(board)
    assert msg.ruleset == name
    resp = stub.Solve(pb.SolveRequest(board=msg))
    assert resp.status == pb.OPTIMAL and direct.status == "OPTIMAL"
    assert resp.revenue == direct.revenue > 0
    claimed = [pb.ClaimedRoute(train=r.train, nodes=r.nodes, legs=r.legs) for r in resp.routes if r.legs]
    ev = stub.Evaluate(pb.EvaluateRequest(board=msg, routes=claimed))
    assert ev.legal and ev.revenue == resp.revenue


def test_1839_reports_foreign_income_and_honours_options(stub) -> None:
    msg = board_to_proto(_board("1839"))
    assert msg.options.towns_plus_10 and msg.options.port_token
    resp = stub.Solve(pb.SolveRequest(board=msg))
    income = {f.node: f.income for f in resp.foreign_income}
    assert income and all(v == resp.revenue * 20 // 100 for v in income.values())
    msg.options.towns_plus_10 = False
    msg.options.port_token = ""
    plain = stub.Solve(pb.SolveRequest(board=msg))
    assert plain.revenue < resp.revenue


@pytest.mark.parametrize(("name", "option"), [("1839", "towns_plus_10"), ("1871sc", "classes_share_track")])
def test_an_option_of_another_ruleset_is_invalid_argument(stub, name: str, option: str) -> None:
    """An option the board's ruleset never reads is refused, not silently ignored."""
    msg = board_to_proto(_board(name))
    setattr(msg.options, option, True)
    assert stub.Solve(pb.SolveRequest(board=msg)).status == pb.OPTIMAL  # its own ruleset reads it
    msg.ruleset = "standard" if name == "1839" else "1839"
    details = _invalid(stub, msg)
    assert details.startswith(f"board.options.{option}: an option of ruleset '{name}'")


def test_1871sc_minor_with_both_classes_is_invalid_argument(stub) -> None:
    msg = board_to_proto(_board("1871sc"))
    msg.company.type = "minor"
    details = _invalid(stub, msg)
    assert "board.trains" in details


def test_1871sc_train_class_must_be_known(stub) -> None:
    """The field is named as the proto names it (`train_class`, the snapshot's `class`)."""
    msg = board_to_proto(_board("1871sc"))
    msg.trains[0].train_class = "coal"
    details = _invalid(stub, msg)
    assert "board.trains[0].train_class:" in details


def test_a_node_token_class_is_named_by_its_own_field(stub) -> None:
    msg = board_to_proto(_board("1871sc"))
    hx = next(h for h in msg.hexes if h.nodes)
    hx.nodes[0].token_class = "coal"
    details = _invalid(stub, msg)
    assert details.startswith(f"board.hexes[{hx.id}].nodes[{hx.nodes[0].id}].token_class:")


def test_a_distance_row_is_named_by_its_proto_path(stub) -> None:
    """The snapshot's `distance[0].multiplier` is the proto's `distance.stops_by_type.rows[0].multiplier`."""
    msg = board_to_proto(_board("1871sc"))
    train = msg.trains[0]
    train.distance.stops_by_type.rows.add(kinds=["city"], pay=2, visit=2, multiplier=-1)
    details = _invalid(stub, msg)
    assert details.startswith("board.trains[0].distance.stops_by_type.rows[0].multiplier:")


@pytest.mark.parametrize("name", ["1839", "1871sc"])
def test_cli_example_shows_a_full_answer(capsys, name: str) -> None:
    assert main(["solve", "--example", name, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "OPTIMAL" and out["revenue"] == sum(r["revenue"] for r in out["routes"])
    assert len(out["routes"]) >= 2
