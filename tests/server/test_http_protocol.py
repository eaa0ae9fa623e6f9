"""The HTTP side as a browser and an HTTP client meet it: CORS, the body limit, malformed JSON, deadlines, a
client that goes away, compression, gRPC-Web and Connect's binary protocol, health, and the documents it
serves. Real servers on free loopback ports, real clients."""

from __future__ import annotations

import gzip
import json
import logging
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass

import grpc
import pytest
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from google.protobuf import json_format
from grpc_health.v1 import health_pb2

from routemax.v1 import routemax_connect
from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from server.app import create_server
from server.config import ServerConfig
from server.http_server import HttpServer, start_http_server
from server.request_log import InFlight
from server.service import RouteService
from solver.examples import example_path
from tests.conftest import ALLOWED_ORIGIN, WebServers
from tests.support.boards import dense_board
from tests.support.http_client import JSON, as_message, post_json, request, without_timings

SMALL = example_path("1830").read_text(encoding="utf-8")
SOLVE_PATH = "/routemax.v1.RouteService/Solve"
LIMITED_BYTES = 2 * 1024 * 1024


@dataclass
class Limited:
    """A server with one worker, a 2 MiB message limit and no CORS origin (the defaults otherwise)."""

    grpc_port: int
    http_port: int
    in_flight: InFlight
    http: HttpServer


@pytest.fixture(scope="module")
def limited() -> Iterator[Limited]:
    config = ServerConfig(host="127.0.0.1", port=0, http_port=0, workers=1, max_message_bytes=LIMITED_BYTES)
    service, in_flight = RouteService(config), InFlight()
    grpc_server, grpc_port, health = create_server(config, in_flight, service)
    http = start_http_server(config, service, health, in_flight)
    yield Limited(grpc_port, http.port, in_flight, http)
    http.stop(None).wait(10)
    grpc_server.stop(None)


def _preflight(port: int, origin: str) -> tuple[int, dict[str, str]]:
    answer = request(port, "OPTIONS", SOLVE_PATH, headers={
        "origin": origin, "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,connect-protocol-version,connect-timeout-ms"})
    return answer.status, answer.headers


def test_cors_preflight_is_allowed_for_a_configured_origin(web: WebServers) -> None:
    status, headers = _preflight(web.http_port, ALLOWED_ORIGIN)
    assert status == 200
    assert headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    allowed = {h.strip() for h in headers["access-control-allow-headers"].lower().split(",")}
    assert {"content-type", "connect-protocol-version", "connect-timeout-ms"} <= allowed
    assert "POST" in headers["access-control-allow-methods"]
    answer = post_json(web.http_port, "ListRulesets", {}, headers={"origin": ALLOWED_ORIGIN})
    assert answer.status == 200 and answer.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "grpc-status" in answer.headers["access-control-expose-headers"]


def test_cors_preflight_is_refused_for_another_origin(web: WebServers) -> None:
    status, headers = _preflight(web.http_port, "https://elsewhere.example")
    assert status == 400 and "access-control-allow-origin" not in headers
    answer = post_json(web.http_port, "ListRulesets", {}, headers={"origin": "https://elsewhere.example"})
    assert "access-control-allow-origin" not in answer.headers  # the browser keeps the answer from the page


def test_no_origin_is_allowed_by_default(limited: Limited) -> None:
    for origin in (ALLOWED_ORIGIN, "http://localhost:3000", "null"):
        status, headers = _preflight(limited.http_port, origin)
        assert status == 400 and "access-control-allow-origin" not in headers


def test_an_oversized_body_is_refused_like_an_oversized_grpc_message(limited: Limited) -> None:
    padding = "x" * (LIMITED_BYTES + 1)
    answer = post_json(limited.http_port, "Solve", {"snapshotJson": padding})
    assert answer.status == 429  # Connect's status for resource_exhausted
    assert answer.json()["code"] == "resource_exhausted"
    assert str(LIMITED_BYTES) in answer.json()["message"]
    with grpc.insecure_channel(f"127.0.0.1:{limited.grpc_port}") as channel:
        with pytest.raises(grpc.RpcError) as err:
            pb_grpc.RouteServiceStub(channel).Solve(pb.SolveRequest(snapshot_json=padding), timeout=30)
    assert err.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED


def test_a_small_gzip_body_that_inflates_past_the_limit_is_refused(limited: Limited) -> None:
    bomb = gzip.compress(json.dumps({"snapshotJson": "0" * (4 * LIMITED_BYTES)}).encode())
    assert len(bomb) < LIMITED_BYTES // 100
    answer = request(limited.http_port, "POST", SOLVE_PATH, bomb, {**JSON, "content-encoding": "gzip"})
    assert answer.json()["code"] == "resource_exhausted"


@pytest.mark.parametrize(("body", "message"), [
    (b'{"snapshotJson": ', "request body: not valid JSON: Expecting value: line 1 column 18"),
    (b"", "request body: not valid JSON"),
    (b"[1, 2]", "request body: must be a JSON object (routemax.v1.SolveRequest), got list"),
    (b'{"snapshotJSON": "{}"}', "snapshotJSON: no such field in routemax.v1.SolveRequest"),
    (b'{"timeLimitS": "soon"}', "timeLimitS: Couldn't parse float: soon"),
    (b'{"objective": "MOST"}', "objective: Invalid enum value MOST for enum type routemax.v1.Objective"),
    (b'{"board": {"hexes": [{"nodes": [{"revenue": 2.5}]}]}}', "board.hexes[0].nodes[0].revenue: "),
    (b'{"board": {"hexes": [{"id": 4}]}}', "board.hexes.id: expected a string, got a number"),
    (b'{"board": {"trains": [{"nmae": "4"}]}}', "board.trains[0].nmae: no such field in routemax.v1.Train"),
    (b"\xff\xfe\x00", "request body: "),
    (b'{"snapshotJson": "{}", "board": {}}', "input: set one of its fields, not several"),
    (b'{"board": {"hexes": [{"paths": [{"a": {"edge": 1, "node": "E4.city0"}}]}]}}',
     "board.hexes[0].paths[0].a.end: set one of its fields, not several"),
    (b'{"snapshotJson": "\\ud800 lone"}', "snapshotJson: not Unicode text"),
    (b'{"timeLimitS": "\\ud800"}', "timeLimitS: not Unicode text"),  # a message quoting it could not be sent
    (b'{"bogus\\udc00": 1}', "<key>: not Unicode text"),
    (b'{"board": {"trains": [{"id": "\\ud800"}]}}', "board.trains[0].id: not Unicode text"),
    (b'{"snapshotJson": ["{}"]}', "snapshotJson: expected a string, got a list"),
])
def test_malformed_json_is_one_clear_error_naming_the_field(web: WebServers, body: bytes, message: str) -> None:
    answer = post_json(web.http_port, "Solve", body)
    assert answer.status == 400 and answer.headers["content-type"] == "application/json"
    error = answer.json()
    assert error["code"] == "invalid_argument"
    assert error["message"].startswith(message), error["message"]
    assert "\n" not in error["message"] and "Traceback" not in answer.body.decode()


def test_a_wrong_content_type_is_refused_with_the_accepted_ones(web: WebServers) -> None:
    answer = request(web.http_port, "POST", SOLVE_PATH, b"{}", {"content-type": "text/plain"})
    assert answer.status == 415 and "application/json" in answer.headers["accept-post"]


@pytest.mark.parametrize(("method", "path", "headers", "status", "code", "message"), [
    ("POST", SOLVE_PATH, {"content-type": "text/plain;charset=UTF-8"}, 415, "unknown",  # fetch's default
     "content-type 'text/plain;charset=UTF-8' is not accepted: send application/json, application/proto"),
    ("POST", SOLVE_PATH, {}, 415, "unknown", "no content-type: send application/json, application/proto"),
    ("POST", "/routemax.v1.RouteService/Audit", JSON, 415, "unknown",  # a stream takes Connect's stream types
     "content-type 'application/json' is not accepted by /routemax.v1.RouteService/Audit, a stream: send "
     "application/connect+json or application/connect+proto"),
    ("GET", SOLVE_PATH, {}, 405, "unknown", f"GET {SOLVE_PATH} is not allowed: call it with POST"),
    ("POST", "/routemax.v1.RouteService/solve", JSON, 404, "unimplemented",
     "routemax.v1.RouteService has no method 'solve' here; its methods: Solve, Evaluate, ListRulesets, "),
    ("POST", "/grpc.health.v1.Health/Watch", JSON, 404, "unimplemented",
     "grpc.health.v1.Health has no method 'Watch' here; its methods: Check"),
    ("POST", "/routemax.v2.RouteService/Solve", JSON, 404, "unimplemented",
     "no service 'routemax.v2.RouteService' here; the services: routemax.v1.RouteService, grpc.health.v1.Health"),
    ("GET", "/no/such/page", {}, 404, "not_found", "nothing at /no/such/page"),
    ("POST", "/", JSON, 405, "unknown", "POST / is not allowed: call it with "),  # GET, HEAD in any order
])
def test_every_refusal_is_a_json_error_a_page_can_read(web: WebServers, method: str, path: str,
                                                       headers: dict[str, str], status: int, code: str,
                                                       message: str) -> None:
    """connectrpc's own refusals (and starlette's) came with an empty or a text body."""
    body = json.dumps({"snapshotJson": SMALL}).encode() if method == "POST" else None
    answer = request(web.http_port, method, path, body, {**headers, "origin": ALLOWED_ORIGIN})
    assert answer.status == status and answer.headers["content-type"] == "application/json"
    assert answer.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    error = answer.json()
    assert error["code"] == code and error["message"].startswith(message), error


def test_a_deadline_that_expires_is_deadline_exceeded_on_both_sides(web: WebServers,
                                                                    web_stub: pb_grpc.RouteServiceStub) -> None:
    snapshot = json.dumps(dense_board(6).snapshot())
    answer = post_json(web.http_port, "Solve", {"snapshotJson": snapshot, "timeLimitS": 30},
                       headers={"connect-timeout-ms": "1"})
    assert answer.status == 504 and answer.json()["code"] == "deadline_exceeded"
    with pytest.raises(grpc.RpcError) as err:
        web_stub.Solve(pb.SolveRequest(snapshot_json=snapshot, time_limit_s=30), timeout=0.001)
    assert err.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED


def test_a_deadline_cuts_the_search_to_fit_on_both_sides(web: WebServers, web_stub: pb_grpc.RouteServiceStub) -> None:
    snapshot = json.dumps(dense_board(6).snapshot())
    answer = post_json(web.http_port, "Solve", {"snapshotJson": snapshot, "timeLimitS": 60},
                       headers={"connect-timeout-ms": "4000"})
    over_http = as_message(answer, pb.SolveResponse)
    over_grpc = web_stub.Solve(pb.SolveRequest(snapshot_json=snapshot, time_limit_s=60), timeout=4.0)
    for got in (over_http, over_grpc):
        assert got.status == pb.FEASIBLE and got.bound >= got.revenue > 0  # cut short: the best found so far


def test_a_client_that_disconnects_mid_solve_frees_the_worker_within_a_second(
        limited: Limited, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="routemax.request")
    body = json.dumps({"snapshotJson": json.dumps(dense_board(6).snapshot()), "timeLimitS": 60}).encode()
    with socket.create_connection(("127.0.0.1", limited.http_port)) as client:
        client.sendall(b"POST " + SOLVE_PATH.encode() + b" HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                       b"content-type: application/json\r\ncontent-length: " + str(len(body)).encode()
                       + b"\r\n\r\n" + body)
        end = time.monotonic() + 30
        while limited.in_flight.count == 0 and time.monotonic() < end:
            time.sleep(0.05)
        assert limited.in_flight.count == 1, "the long solve never started"
        time.sleep(1.0)  # well inside the search
    # the only worker must be free again within a second of the hang-up: a call allowed one second gets it
    answer = post_json(limited.http_port, "Solve", {"snapshotJson": SMALL}, headers={"connect-timeout-ms": "1000"})
    assert as_message(answer, pb.SolveResponse).status == pb.OPTIMAL
    end = time.monotonic() + 10
    while not any(getattr(r, "fields", {}).get("code") == "CANCELLED" for r in caplog.records) \
            and time.monotonic() < end:
        time.sleep(0.05)
    lines = [r.fields for r in caplog.records if r.name == "routemax.request"]
    assert any(f["method"] == "Solve" and f["code"] == "CANCELLED" and f["transport"] == "http" for f in lines), lines


def test_the_worker_limit_is_shared_by_both_sides(limited: Limited) -> None:
    """One worker: a long gRPC solve holds it, so an HTTP call that cannot wait gets the gRPC side's answer."""
    snapshot = json.dumps(dense_board(6).snapshot())
    with grpc.insecure_channel(f"127.0.0.1:{limited.grpc_port}") as channel:
        long_call = pb_grpc.RouteServiceStub(channel).Solve.future(
            pb.SolveRequest(snapshot_json=snapshot, time_limit_s=60), timeout=60)
        try:
            end = time.monotonic() + 30
            while limited.in_flight.count == 0 and time.monotonic() < end:
                time.sleep(0.05)
            answer = post_json(limited.http_port, "Solve", {"snapshotJson": SMALL},
                               headers={"connect-timeout-ms": "300"})
            assert answer.json()["code"] in ("resource_exhausted", "deadline_exceeded")
            if answer.json()["code"] == "resource_exhausted":
                assert answer.json()["message"] == "the server is busy: no worker free before the deadline"
        finally:
            long_call.cancel()


def test_time_limit_is_capped_and_checked_as_over_grpc(web: WebServers, web_stub: pb_grpc.RouteServiceStub) -> None:
    for bad in (0, -2):
        answer = post_json(web.http_port, "Solve", {"snapshotJson": SMALL, "timeLimitS": bad})
        assert answer.json() == {"code": "invalid_argument",
                                 "message": f"time_limit_s: must be a number of seconds above 0, got {float(bad)}"}
    for text in ("NaN", "Infinity"):
        answer = post_json(web.http_port, "Solve", {"snapshotJson": SMALL, "timeLimitS": text})
        assert answer.json()["code"] == "invalid_argument" and answer.json()["message"].startswith("time_limit_s:")


def test_compression_both_ways(web: WebServers, web_stub: pb_grpc.RouteServiceStub) -> None:
    body = gzip.compress(json.dumps({"snapshotJson": SMALL, "renderSvg": True}).encode())
    answer = request(web.http_port, "POST", SOLVE_PATH, body,
                     {**JSON, "content-encoding": "gzip", "accept-encoding": "gzip"})
    assert answer.status == 200 and answer.headers["content-encoding"] == "gzip"
    got = json_format.Parse(gzip.decompress(answer.body), pb.SolveResponse())
    expected = web_stub.Solve(pb.SolveRequest(snapshot_json=SMALL, render_svg=True), timeout=60)
    assert without_timings(got) == without_timings(expected)
    assert len(answer.body) * 3 < len(json_format.MessageToJson(got))  # the map compresses well


@pytest.mark.parametrize("protocol", [ProtocolType.GRPC_WEB, ProtocolType.CONNECT])
def test_grpc_web_and_connect_binary_give_the_grpc_answer(web: WebServers, web_stub: pb_grpc.RouteServiceStub,
                                                          protocol: ProtocolType) -> None:
    expected = web_stub.Solve(pb.SolveRequest(snapshot_json=SMALL), timeout=60)
    with routemax_connect.RouteServiceClientSync(f"http://127.0.0.1:{web.http_port}", protocol=protocol) as client:
        got = client.solve(pb.SolveRequest(snapshot_json=SMALL))
        assert without_timings(got) == without_timings(expected)
        with pytest.raises(ConnectError) as err:
            client.solve(pb.SolveRequest(snapshot_json="{}"))
    assert err.value.code.value == "invalid_argument"
    assert err.value.message == "snapshot_json.format: expected '18xx-route-snapshot/1', got null"


def test_audit_over_http_says_where_to_call_it(web: WebServers) -> None:
    with routemax_connect.RouteServiceClientSync(f"http://127.0.0.1:{web.http_port}",
                                                 protocol=ProtocolType.GRPC_WEB) as client:
        with pytest.raises(ConnectError) as err:
            list(client.audit(iter([pb.AuditRequest(source="x", snapshot_json=SMALL)])))
    assert err.value.code.value == "unimplemented" and "gRPC" in err.value.message


def test_health_over_http_follows_the_grpc_health(web: WebServers) -> None:
    answer = post_json(web.http_port, "Check", {}, service="grpc.health.v1.Health")
    assert answer.json() == {"status": "SERVING"}
    answer = post_json(web.http_port, "Check", {"service": "routemax.v1.RouteService"}, service="grpc.health.v1.Health")
    assert answer.json() == {"status": "SERVING"}
    answer = post_json(web.http_port, "Check", {"service": "no.such.Service"}, service="grpc.health.v1.Health")
    assert answer.json()["code"] == "not_found"
    web.health.set("test.Draining", health_pb2.HealthCheckResponse.NOT_SERVING)
    answer = post_json(web.http_port, "Check", {"service": "test.Draining"}, service="grpc.health.v1.Health")
    assert answer.json() == {"status": "NOT_SERVING"}


def test_unknown_paths_are_404(web: WebServers) -> None:
    assert post_json(web.http_port, "Optimise", {}).status == 404
    assert request(web.http_port, "GET", "/no/such/page").status == 404
    assert request(web.http_port, "GET", "/examples/1999").json()["code"] == "not_found"


def test_the_page_the_schema_and_the_examples_are_served(web: WebServers) -> None:
    page = request(web.http_port, "GET", "/", headers={"accept-encoding": "gzip"})
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    assert page.headers["content-encoding"] == "gzip"
    html = gzip.decompress(page.body).decode()
    assert '"/routemax.v1.RouteService/"' in html and 'id="solve"' in html and "<script src" not in html
    schema = request(web.http_port, "GET", "/openapi.json").json()
    assert "/routemax.v1.RouteService/Solve" in schema["paths"]
    listed = request(web.http_port, "GET", "/examples").json()
    assert set(listed["examples"]) >= {"1830", "1839", "1871", "1871sc"}
    example = request(web.http_port, "GET", listed["examples"]["1839"])
    assert example.body == example_path("1839").read_bytes()
