"""HTTP JSON and gRPC give the same answers, field by field, and the same errors (code and message): on every
built-in example, on one position of every corpus title, and on bad requests. Both sides run on one server
(one RouteService) on free loopback ports."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from solver.examples import EXAMPLES, example_path
from tests.conftest import CORPUS, WebServers
from tests.support.http_client import as_message, post_json, without_timings

# titles whose snapshots carry "vocabulary v2" modifiers the reader does not accept yet (added in parallel);
# their positions may be answered INVALID_ARGUMENT, identically on both sides, until it does
PENDING_V2 = {"1817", "1817NA", "18Hiawatha", "1824", "1828Games", "1837", "1841", "1847AE", "1850", "1867",
              "1877StockholmTramways", "1888", "18ChristmasEve", "18FL", "18LosAngeles1", "18Tokaido",
              "SteamOverHolland"}
TIME_LIMIT_S = 30.0
RPC_TIMEOUT_S = 120.0


def _grpc_call(stub: pb_grpc.RouteServiceStub, rpc: str, request: Message) -> tuple[Message | None, tuple[str, str]]:
    """gRPC's answer, or (None, (code, message)) for an error."""
    try:
        return getattr(stub, rpc)(request, timeout=RPC_TIMEOUT_S), ("ok", "")
    except grpc.RpcError as err:
        return None, (err.code().name.lower(), err.details() or "")


def _same(web: WebServers, stub: pb_grpc.RouteServiceStub, rpc: str, request: Message,
          response_class: type[Message]) -> Message | tuple[str, str]:
    """Call both sides with `request`; assert the same answer (or error); return it."""
    expected, error = _grpc_call(stub, rpc, request)
    answer = post_json(web.http_port, rpc, json_format.MessageToDict(request))
    if expected is None:
        assert answer.status != 200, answer.body[:300]
        assert "traceback" not in answer.body.decode().lower()
        assert (answer.json()["code"], answer.json()["message"]) == error
        return error
    got = as_message(answer, response_class)
    assert without_timings(got) == without_timings(expected)
    return got


def _claims(response: pb.SolveResponse) -> list[pb.ClaimedRoute]:
    return [pb.ClaimedRoute(train=r.train, nodes=list(r.nodes), legs=list(r.legs)) for r in response.routes]


@pytest.mark.parametrize("name", sorted(set(EXAMPLES.values())))
def test_every_built_in_example_solves_and_evaluates_alike(web: WebServers, web_stub: pb_grpc.RouteServiceStub,
                                                           name: str) -> None:
    snapshot = (example_path("default").parent / name).read_text(encoding="utf-8")
    solved = _same(web, web_stub, "Solve", pb.SolveRequest(snapshot_json=snapshot, time_limit_s=TIME_LIMIT_S,
                                                           render_svg=True), pb.SolveResponse)
    assert isinstance(solved, pb.SolveResponse)
    assert solved.status == pb.OPTIMAL and solved.revenue > 0 and solved.routes and solved.svg.startswith("<")
    judged = _same(web, web_stub, "Evaluate", pb.EvaluateRequest(snapshot_json=snapshot, routes=_claims(solved),
                                                                 render_svg=True), pb.EvaluateResponse)
    assert isinstance(judged, pb.EvaluateResponse)
    assert judged.legal and judged.revenue == solved.revenue


def test_list_rulesets_and_mine_production_alike(web: WebServers, web_stub: pb_grpc.RouteServiceStub) -> None:
    listed = _same(web, web_stub, "ListRulesets", pb.ListRulesetsRequest(), pb.ListRulesetsResponse)
    assert isinstance(listed, pb.ListRulesetsResponse) and len(listed.rulesets) >= 4
    mines = pb.MineProductionRequest(public_company=True, mines=[
        pb.MineState(id="M1", connected=True, machine=2, switcher=3, machine_revenue=[10, 20, 30, 40, 50],
                     switcher_revenue=[10, 20, 30, 40]),
        pb.MineState(id="M2", connected=False, machine=1, machine_revenue=[10, 20, 30, 40, 50],
                     switcher_revenue=[10, 20, 30, 40])])
    produced = _same(web, web_stub, "MineProduction", mines, pb.MineProductionResponse)
    assert isinstance(produced, pb.MineProductionResponse) and produced.revenue > 0


def test_whatif_alike(web: WebServers, web_stub: pb_grpc.RouteServiceStub) -> None:
    """WhatIf is unary: the same ranked answers (tokens, trains, an illegal scenario) over HTTP JSON."""
    request = pb.WhatIfRequest(snapshot_json=example_path("1830").read_text(), tokens=True, trains=["4", "D"],
                               scenarios=[pb.Scenario(tokens=["Z1.city0"])], time_limit_s=TIME_LIMIT_S)
    answer = _same(web, web_stub, "WhatIf", request, pb.WhatIfResponse)
    assert isinstance(answer, pb.WhatIfResponse)
    assert answer.answers[0].scenario.kind == "base" and len(answer.answers) > 4
    assert answer.answers[-1].error_field == "scenarios[0].tokens[0]"


BAD_REQUESTS = [
    ("Solve", pb.SolveRequest(snapshot_json="{}")),
    ("Solve", pb.SolveRequest(snapshot_json="not json")),
    ("Solve", pb.SolveRequest(snapshot_json=example_path("1830").read_text(), time_limit_s=-1)),
    ("Solve", pb.SolveRequest()),
    ("Solve", pb.SolveRequest(board=pb.Board(hexes=[pb.Hex(id="E4", paths=[
        pb.Path(id="E4.p1", a=pb.PathEnd(edge=7), b=pb.PathEnd(edge=0))])]))),
    ("Evaluate", pb.EvaluateRequest(snapshot_json=example_path("1830").read_text(),
                                    routes=[pb.ClaimedRoute(train="", nodes=["G19.city1"])])),
    ("Evaluate", pb.EvaluateRequest(snapshot_json=example_path("1830").read_text(),
                                    routes=[pb.ClaimedRoute(train="4-0", nodes=[])])),
    ("MineProduction", pb.MineProductionRequest(mines=[pb.MineState(id="M1", machine=9)])),
    ("WhatIf", pb.WhatIfRequest(snapshot_json=example_path("1830").read_text(), trains=["5=fast"])),
    ("WhatIf", pb.WhatIfRequest(snapshot_json="{}", tokens=True)),
    ("WhatIf", pb.WhatIfRequest(snapshot_json=example_path("1830").read_text(),
                                scenarios=[pb.Scenario(hexes_json="{\"id\": 1}")])),
]


@pytest.mark.parametrize(("rpc", "request_message"), BAD_REQUESTS, ids=[f"{r}-{i}" for i, (r, _) in
                                                                        enumerate(BAD_REQUESTS)])
def test_bad_requests_give_the_same_error(web: WebServers, web_stub: pb_grpc.RouteServiceStub, rpc: str,
                                          request_message: Message) -> None:
    response_class = {"Solve": pb.SolveResponse, "Evaluate": pb.EvaluateResponse,
                      "MineProduction": pb.MineProductionResponse, "WhatIf": pb.WhatIfResponse}[rpc]
    error = _same(web, web_stub, rpc, request_message, response_class)
    assert error[0] == "invalid_argument" and error[1], error


def _titles() -> list[Path]:
    return sorted(p for p in CORPUS.iterdir() if p.is_dir() and any(p.glob("*.jsonl.gz"))) if CORPUS.is_dir() else []


def _middle_position(title: Path) -> str:
    """The middle position of the title's first game (past the first trains, small enough to solve at once)."""
    with gzip.open(sorted(title.glob("*.jsonl.gz"))[0], "rt", encoding="utf-8") as fh:
        lines = [line for line in fh if line.strip()]
    return lines[len(lines) // 2]


def test_corpus_is_present() -> None:
    assert len(_titles()) >= 30, f"corpus not found at {CORPUS}"


def test_one_position_of_every_corpus_title_alike(web: WebServers, web_stub: pb_grpc.RouteServiceStub) -> None:
    """The middle position of each title's first game: the same Solve answer, then the same Evaluate answer of
    the solved routes, on both sides; or the same refusal. Refusals are allowed for the pending v2 titles only
    (counted); once the reader accepts vocabulary v2 they are compared like the rest, with no change here."""
    titles = _titles()
    answered, pending = [], []
    for title in titles:
        snapshot = _middle_position(title)
        assert json.loads(snapshot)["format"] == "18xx-route-snapshot/1"
        solved = _same(web, web_stub, "Solve", pb.SolveRequest(snapshot_json=snapshot, time_limit_s=TIME_LIMIT_S),
                       pb.SolveResponse)
        if isinstance(solved, tuple):  # both sides refused the position, alike
            assert solved[0] == "invalid_argument" and title.name in PENDING_V2, (title.name, solved)
            pending.append(title.name)
            continue
        assert solved.status == pb.OPTIMAL, title.name
        judged = _same(web, web_stub, "Evaluate", pb.EvaluateRequest(snapshot_json=snapshot, routes=_claims(solved)),
                       pb.EvaluateResponse)
        assert isinstance(judged, pb.EvaluateResponse) and judged.legal and judged.revenue == solved.revenue
        answered.append(title.name)
    assert len(answered) + len(pending) == len(titles) >= 30
    assert len(pending) <= len(PENDING_V2)
    print(f"corpus parity: {len(answered)} titles answered alike, {len(pending)} pending v2 titles refused alike")
