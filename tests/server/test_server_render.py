"""Route maps from the real gRPC service: `render_svg` on Solve and Evaluate, and `Board.axes` both ways."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from server.convert import board_from_proto, board_to_proto
from solver.examples import example_path
from solver.input.snapshot import board_from_snapshot
from tests.conftest import REPO

NS = "{http://www.w3.org/2000/svg}"


def _snapshot() -> dict:
    return json.loads(example_path("1830").read_text())


def _legs(svg: str) -> list[tuple[int, list[str], bool]]:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == NS + "svg"
    return [(int(el.attrib["data-route"]), el.attrib["data-paths"].split(), el.attrib.get("data-bad") == "1")
            for el in root.iter() if "data-leg" in el.attrib]


def test_solve_draws_the_answer_only_when_asked(stub) -> None:
    board = board_to_proto(board_from_snapshot(_snapshot()))
    plain = stub.Solve(pb.SolveRequest(board=board))
    assert plain.svg == ""
    drawn = stub.Solve(pb.SolveRequest(board=board, render_svg=True))
    assert drawn.revenue == plain.revenue
    legs = _legs(drawn.svg)
    assert {ri for ri, _, _ in legs} == set(range(len(drawn.routes)))
    assert {p for _, paths, _ in legs for p in paths} == {p for r in drawn.routes for leg in r.legs for p in leg.paths}
    assert len(drawn.SerializeToString()) > len(plain.SerializeToString()) + 10_000


def test_evaluate_draws_the_claimed_routes_with_their_broken_legs(stub) -> None:
    snap = _snapshot()
    first = snap["recorded"]["routes"][0]
    second = snap["recorded"]["routes"][1]
    claims = [pb.ClaimedRoute(train=first["train"], nodes=first["nodes"],
                              legs=[pb.Leg(paths=leg) for leg in first["legs"]]),
              pb.ClaimedRoute(train=second["train"], nodes=first["nodes"],
                              legs=[pb.Leg(paths=leg) for leg in first["legs"]])]
    request = pb.EvaluateRequest(snapshot_json=json.dumps(snap), routes=claims)
    assert stub.Evaluate(request).svg == ""
    request.render_svg = True
    resp = stub.Evaluate(request)
    assert not resp.legal
    legs = _legs(resp.svg)
    assert [bad for ri, _, bad in legs if ri == 1] == [True] * len(first["legs"])
    assert not any(bad for ri, _, bad in legs if ri == 0)
    assert "reuses track" in resp.svg


def test_a_board_with_bad_axes_is_invalid_naming_the_field(stub) -> None:
    board = board_to_proto(board_from_snapshot(_snapshot()))
    board.axes = "x=number,y=number"
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(board=board, render_svg=True))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "board.axes" in err.value.details()


@pytest.mark.parametrize("axes, text", [({"x": "number", "y": "letter"}, "x=number,y=letter"),
                                        ({"x": "letter", "y": "number"}, "x=letter,y=number")])
def test_axes_map_both_ways(axes: dict, text: str) -> None:
    snap = {**_snapshot(), "axes": axes}
    msg = board_to_proto(board_from_snapshot(snap))
    assert msg.axes == text
    assert board_from_proto(msg).extra["axes"] == axes


def test_solving_without_a_picture_never_imports_the_renderer() -> None:
    code = ("import sys, grpc; from server.app import create_server; from routemax.v1 import routemax_pb2 as pb, "
            "routemax_pb2_grpc as g; from solver.examples import example_path; from server.config import ServerConfig\n"
            "server, port, _ = create_server(ServerConfig(host='127.0.0.1', port=0))\n"
            "with grpc.insecure_channel(f'127.0.0.1:{port}') as ch:\n"
            "    r = g.RouteServiceStub(ch).Solve(pb.SolveRequest(snapshot_json=example_path('1830').read_text()))\n"
            "server.stop(None)\n"
            "print('REVENUE', r.revenue, 'RENDER', sorted(m for m in sys.modules "
            "if m.startswith(('solver.render', 'drawsvg'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "RENDER []" in done.stdout and "REVENUE 0 " not in done.stdout
