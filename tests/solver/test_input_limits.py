"""The classes of bad input an outside probe found, each explicitly: nulls, wrong types, unhashable
values, deep JSON, non-finite and out-of-range numbers, bad multipliers, wrong-type groups, boards
past the size limits, a claimed route of 40 repeated stops; and boards at the limits that must work."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from server.convert import board_from_request, board_to_proto
from solver.input.snapshot import board_from_snapshot
from solver.model import limits
from solver.model.board import Board, Hex, Path, PathEnd, Train
from solver.model.errors import BoardError
from solver.model.legs import walk_legs
from tests.support.fuzz import corpus
from tests.support.fuzz.to_proto import board_from_raw


def chain(n: int, trains: int = 1) -> dict[str, Any]:
    """A snapshot of `n` hexes in a row joined by track (each linked to the next), a city at each end, D trains."""
    hexes = []
    for i in range(n):
        hid = f"{i:x}"
        hx: dict[str, Any] = {"id": hid, "neighbors": {"4": f"{i + 1:x}"} if i < n - 1 else {}}
        if i in (0, n - 1):
            node = {"id": f"{hid}c", "kind": "city", "revenue": 10, "slots": 1, "tokens": [None]}
            if i == 0:
                node.update(tokens=[{"corp": "CO"}], tokened_by_company=True)
            hx["nodes"] = [node]
            hx["paths"] = [{"id": f"{hid}p", "a": 4 if i == 0 else 1, "b": f"{hid}c"}]
        else:
            hx["paths"] = [{"id": f"{hid}p", "a": 1, "b": 4}]
        hexes.append(hx)
    return {"format": "18xx-route-snapshot/1", "layout": "pointy", "company": {"id": "CO", "tokens": []},
            "hexes": hexes, "trains": [{"id": f"D-{k}", "name": "D", "distance": 999} for k in range(trains)]}


def grid_proto(width: int, height: int) -> pb.Board:
    """A dense grid of hexes, each with a city joined to all six edges, and three D trains."""
    msg = pb.Board(ruleset="standard", company=pb.Company(id="CO"))
    for q in range(width):
        for r in range(height):
            hm = msg.hexes.add(id=f"{q}.{r}")
            hm.nodes.add(id=f"{q}.{r}c", kind="city", revenue=10)
            for e in range(6):
                hm.paths.add(id=f"{q}.{r}p{e}", a=pb.PathEnd(edge=e), b=pb.PathEnd(node=f"{q}.{r}c"))
    for k in range(3):
        msg.trains.add(id=f"D-{k}", name="D", distance=pb.Distance(unlimited=pb.Unlimited()))
    return msg


def rejected(stub: Any, request: Any) -> str:
    with pytest.raises(grpc.RpcError) as info:
        (stub.Evaluate if isinstance(request, pb.EvaluateRequest) else stub.Solve)(request, timeout=120)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, info.value.details()[:300]
    return info.value.details()


def test_a_100000_hex_chain_is_refused_by_the_size_limit(stub: Any) -> None:
    raw = chain(100_000)
    text = json.dumps(raw, separators=(",", ":"))
    msg = board_from_raw(raw)
    assert msg is not None and msg.ByteSize() < 4 * 2**20
    details = rejected(stub, pb.SolveRequest(board=msg))
    assert details.startswith("board.hexes: at most 2,000 hexes") and "limit" in details
    with pytest.raises(BoardError, match="at most 2,000") as info:
        board_from_snapshot(raw)
    assert info.value.field == "hexes"
    if len(text) < 4 * 2**20:
        assert rejected(stub, pb.SolveRequest(snapshot_json=text)).startswith("snapshot_json.hexes: at most")


def test_a_16800_hex_grid_with_three_d_trains_is_refused(stub: Any) -> None:
    msg = grid_proto(140, 120)
    assert len(msg.hexes) == 16_800 and msg.ByteSize() < 4 * 2**20
    details = rejected(stub, pb.SolveRequest(board=msg))
    assert details.startswith("board.hexes: at most 2,000 hexes") and "limit" in details


def test_the_leg_walk_follows_a_100000_path_chain_without_recursion() -> None:
    n = 100_000
    hexes = {f"h{i}": Hex(id=f"h{i}", neighbors={**({1: f"h{i - 1}"} if i else {}), **({4: f"h{i + 1}"})})
             for i in range(n)}
    paths = {f"p{i}": Path(id=f"p{i}", hex=f"h{i}", a=PathEnd(edge=1), b=PathEnd(edge=4)) for i in range(1, n - 1)}
    board = board_from_snapshot(chain(3))
    nodes = {"h0.city0": replace(board.nodes["0c"], id="h0.city0", hex="h0"),
             f"h{n - 1}.city0": replace(board.nodes["2c"], id=f"h{n - 1}.city0", hex=f"h{n - 1}")}
    paths["p0"] = Path(id="p0", hex="h0", a=PathEnd(edge=4), b=PathEnd(node="h0.city0"))
    paths["pz"] = Path(id="pz", hex=f"h{n - 1}", a=PathEnd(edge=1), b=PathEnd(node=f"h{n - 1}.city0"))
    for pid, path in paths.items():  # each hex lists its paths, as a board read from a snapshot does
        hexes[path.hex].paths.append(pid)
    big = Board(ruleset="standard", company="CO", hexes=hexes, nodes=nodes, paths=paths,
                trains=[Train(id="D", name="D", distance=999)])
    legs = walk_legs(big, "h0.city0")
    assert len(legs) == 1 and legs[0].b == f"h{n - 1}.city0" and len(legs[0].paths) == n


def test_boards_at_the_size_limits_solve(stub: Any) -> None:
    """A chain as long as the hex limit, and a route past as many stops as the node limit allows."""
    response = stub.Solve(pb.SolveRequest(snapshot_json=json.dumps(chain(limits.MAX_HEXES)), time_limit_s=30),
                          timeout=300)
    assert response.revenue == 20 and response.status == pb.OPTIMAL
    n = limits.MAX_NODES
    raw = chain(n)
    for i, hx in enumerate(raw["hexes"][1:-1], start=1):  # a town in every hex: a route of n stops
        hx["nodes"] = [{"id": f"h{i}.town0", "kind": "town", "revenue": 10}]
        hx["paths"] = [{"id": f"h{i}.p0", "a": 1, "b": f"h{i}.town0"}, {"id": f"h{i}.p1", "a": f"h{i}.town0", "b": 4}]
    response = stub.Solve(pb.SolveRequest(snapshot_json=json.dumps(raw), time_limit_s=30), timeout=300)
    assert response.status in (pb.OPTIMAL, pb.FEASIBLE) and response.revenue == 10 * n


@pytest.mark.parametrize("text, expected", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (json.dumps({"format": "18xx-route-snapshot/1", "x": json.loads("[" * 70 + "]" * 70)}), "nested too deeply"),
    ('{"format": "18xx-route-snapshot/1", "hexes": [{"id": "A", "nodes": [{"id": "A.c", "kind": "city", '
     '"revenue": Infinity}]}]}', "Infinity is not a number JSON allows"),
    ('{"format": "18xx-route-snapshot/1", "x": NaN}', "NaN is not a number JSON allows"),
    ("9" * 5000, "not valid JSON"),
])
def test_bad_json_text_is_named(text: str, expected: str) -> None:
    with pytest.raises(BoardError, match=expected) as info:
        board_from_request(pb.SolveRequest(snapshot_json=text))
    assert info.value.field == "snapshot_json"


def _mutated(path: list[Any], value: Any, position: int = 0) -> dict[str, Any]:
    raw = corpus.position(position)
    parent = raw
    for k in path[:-1]:
        parent = parent[k]
    parent[path[-1]] = value
    return raw


def _node_path(raw: dict[str, Any]) -> tuple[int, int]:
    return next((i, j) for i, h in enumerate(raw["hexes"]) for j, n in enumerate(h.get("nodes", []))
                if n["kind"] == "city")


@pytest.mark.parametrize("field, value, expected", [
    ("revenue", None, "must not be null"),
    ("revenue", 10**20, "must be in -100,000..100,000"),
    ("revenue", float("inf"), "must be an integer"),
    ("revenue", 100_001, "must be in -100,000..100,000"),
    ("revenue", True, "must be an integer, got a boolean"),
    ("groups", "E", "must be a list, got the string 'E'"),
    ("groups", [["E"]], "must be a string, got a list"),
    ("groups", None, "must not be null"),
    ("tokens", "x", "must be a list"),
    ("tokens", [[1]], "must be an object, got a list"),
    ("revenue_by_train", [], "must be an object, got a list"),
    ("revenue_by_train", {"D": "60"}, "must be an integer"),
    ("visit_cost", 1000, "must be in 0..999"),
    ("kind", "castle", "unknown node kind"),
    ("route", "sometimes", "must be one of mandatory, optional, never"),
])
def test_node_fields_are_checked(field: str, value: Any, expected: str) -> None:
    raw = corpus.position(0)
    i, j = _node_path(raw)
    raw["hexes"][i]["nodes"][j][field] = value
    with pytest.raises(BoardError, match=expected) as info:
        board_from_snapshot(raw)
    node = raw["hexes"][i]["nodes"][j]["id"]
    assert info.value.field.startswith(f"hexes[{raw['hexes'][i]['id']}].nodes[{node}].")


@pytest.mark.parametrize("field, value, expected", [
    ("multiplier", 0, "must be in 1..100"), ("multiplier", "2", "must be an integer"),
    ("multiplier", 2.5, "must be an integer"), ("multiplier", 1000, "must be in 1..100"),
    ("multiplier", None, "must not be null"), ("distance", 1000, "must be in 0..999"),
    ("distance", "2", "must be an integer"), ("distance_unit", "parsecs", "unknown unit"),
])
def test_train_fields_are_checked(field: str, value: Any, expected: str) -> None:
    raw = _mutated(["trains", 0, field], value, 2)  # 1889: a train of plain stops
    with pytest.raises(BoardError, match=expected) as info:
        board_from_snapshot(raw)
    assert info.value.field.startswith("trains[0]")


@pytest.mark.parametrize("path, value, field", [
    (["hexes"], "E4", "hexes"), (["hexes"], {"a": 1}, "hexes"), (["hexes", 0], None, "hexes[0]"),
    (["hexes", 0, "neighbors"], ["E4"], "hexes[{h}].neighbors"), (["trains"], None, "trains"),
    (["company"], [], "company"), (["phase"], None, "phase"), (["modifiers"], {}, "modifiers"),
    (["modifiers"], [{"type": "Teleport"}], "modifiers[0].type"), (["axes"], {"x": [1], "y": {}}, "axes"),
])
def test_wrong_types_name_the_field(path: list[Any], value: Any, field: str) -> None:
    raw = corpus.position(0)
    raw = _mutated(path, value)
    with pytest.raises(BoardError) as info:
        board_from_snapshot(raw)
    assert info.value.field == field.format(h=corpus.position(0)["hexes"][0]["id"])


def test_a_bad_multiplier_is_refused_on_both_paths() -> None:
    for multiplier in (1000, -1):
        raw = _mutated(["trains", 0, "multiplier"], multiplier, 2)
        msg = board_from_raw(raw)
        assert msg is not None
        for request in (pb.SolveRequest(snapshot_json=json.dumps(raw)), pb.SolveRequest(board=msg)):
            with pytest.raises(BoardError) as info:
                board_from_request(request)
            assert info.value.field.endswith("trains[0].multiplier")
    raw = _mutated(["trains", 0, "multiplier"], 0, 2)
    assert board_from_raw(raw) is None  # the protocol reads 0 as 1: it cannot say 0
    with pytest.raises(BoardError, match="must be in 1..100"):
        board_from_snapshot(raw)


def test_a_claimed_route_of_40_repeated_stops_is_judged_quickly(stub: Any) -> None:
    raw = corpus.position(3)  # 18AL: list trains and a StopBonus
    board = board_from_snapshot(raw)
    stop = next(n.id for n in board.nodes.values() if n.tokened_by_company)
    path = next(iter(board.paths))
    for train in (t.id for t in board.trains):
        route = pb.ClaimedRoute(train=train, nodes=[stop] * 40, legs=[pb.Leg(paths=[path])] * 39)
        response = stub.Evaluate(pb.EvaluateRequest(board=board_to_proto(board), routes=[route]), timeout=30)
        assert not response.legal
        assert any(f.code == "NODE_TWICE" for f in response.findings)
    too_long = pb.ClaimedRoute(train=board.trains[0].id, nodes=[stop] * 201, legs=[pb.Leg(paths=[path])] * 200)
    details = rejected(stub, pb.EvaluateRequest(board=board_to_proto(board), routes=[too_long]))
    assert details.startswith("routes[0].nodes: at most 200 stops")


def test_recorded_null_of_a_stress_board_is_accepted() -> None:
    raw = corpus.position(corpus.count() - 1)
    assert raw["recorded"] is None
    assert board_from_snapshot(raw).trains


def crossing_grid(size: int) -> dict[str, Any]:
    """A small grid whose every hex joins every pair of its edges, a city in two corners: the leg walk
    between them branches without end."""
    dirs = {0: (-1, 1), 1: (-1, 0), 2: (0, -1), 3: (1, -1), 4: (1, 0), 5: (0, 1)}
    cells = {(q, r) for q in range(size) for r in range(size)}
    hexes = []
    for q, r in sorted(cells):
        hid = f"{q}_{r}"
        hx: dict[str, Any] = {"id": hid, "neighbors": {str(e): f"{q + dq}_{r + dr}" for e, (dq, dr) in dirs.items()
                                                       if (q + dq, r + dr) in cells}}
        if (q, r) in ((0, 0), (size - 1, size - 1)):
            hx["nodes"] = [{"id": hid + "c", "kind": "city", "revenue": 10, "slots": 1, "tokens": [{"corp": "CO"}],
                            "tokened_by_company": True}]
            hx["paths"] = [{"id": f"{hid}p{e}", "a": e, "b": hid + "c"} for e in range(6)]
        else:
            hx["paths"] = [{"id": f"{hid}p{a}{b}", "a": a, "b": b} for a in range(6) for b in range(a + 1, 6)]
        hexes.append(hx)
    return {"format": "18xx-route-snapshot/1", "company": {"id": "CO"}, "hexes": hexes,
            "trains": [{"id": "D", "name": "D", "distance": 999}]}


def test_track_that_branches_past_the_walk_limit_is_refused(stub: Any) -> None:
    raw = crossing_grid(5)
    details = rejected(stub, pb.SolveRequest(snapshot_json=json.dumps(raw), time_limit_s=5))
    assert details.startswith("hexes[0_0].nodes[0_0c]: the track branches") and "(limit)" in details
    route = pb.ClaimedRoute(train="D", nodes=["0_0c", "4_4c"], legs=[pb.Leg(hexes=["0_0", "4_4"])])
    details = rejected(stub, pb.EvaluateRequest(snapshot_json=json.dumps(raw), routes=[route]))
    assert "(limit)" in details
