"""The gRPC request log says what the client saw: a call cancelled, past its deadline or cut off by the
shutdown is not logged OK, although the search answers its best run so far and the handler returns.
Real servers on free loopback ports, real clients."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from server.app import create_server
from server.config import ServerConfig
from server.request_log import InFlight
from solver.examples import example_path
from tests.support.boards import dense_board

LONG = pb.SolveRequest(snapshot_json=json.dumps(dense_board(6).snapshot()), time_limit_s=60)
SMALL = example_path("1830").read_text(encoding="utf-8")
Served = tuple[grpc.Server, int, InFlight]


@pytest.fixture()
def served() -> Iterator[Served]:
    in_flight = InFlight()
    server, port, _health = create_server(ServerConfig(host="127.0.0.1", port=0), in_flight)
    yield server, port, in_flight
    server.stop(None)


def _logged(caplog: pytest.LogCaptureFixture, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first request line `done` accepts (waiting up to 20 s for it)."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        for record in caplog.records:
            fields = getattr(record, "fields", {})
            if record.name == "routemax.request" and done(fields):
                return fields
        time.sleep(0.05)
    raise AssertionError([getattr(r, "fields", r.getMessage()) for r in caplog.records])


def _started(in_flight: InFlight) -> None:
    end = time.monotonic() + 30
    while in_flight.count == 0 and time.monotonic() < end:
        time.sleep(0.05)
    assert in_flight.count == 1, "the long solve never started"
    time.sleep(0.5)  # inside the search


def _audit_requests(n: int) -> Iterator[pb.AuditRequest]:
    """n small positions (the 1830 example): an audit of them all runs well past a second."""
    for i in range(n):
        yield pb.AuditRequest(source=f"example-{i}", snapshot_json=SMALL, time_limit_s=5)


def test_a_cancelled_call_is_logged_cancelled(served: Served, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="routemax.request")
    _server, port, in_flight = served
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = pb_grpc.RouteServiceStub(channel)
        call = stub.Solve.future(LONG, timeout=60)
        _started(in_flight)
        call.cancel()
        assert call.cancelled()
        line = _logged(caplog, lambda f: f.get("method") == "Solve")
        assert line["code"] == "CANCELLED" and "revenue" not in line, line
        audit = stub.Audit(_audit_requests(1000), timeout=60)
        assert next(audit).source == "example-0"
        audit.cancel()
        line = _logged(caplog, lambda f: f.get("method") == "Audit")
    assert line["code"] == "CANCELLED" and line["lines"] >= 1, line


def test_a_call_past_its_deadline_is_logged_deadline_exceeded(served: Served,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """The audit stops at the deadline between two positions; its handler ends without an error."""
    caplog.set_level(logging.INFO, logger="routemax.request")
    _server, port, _in_flight = served
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = pb_grpc.RouteServiceStub(channel)
        with pytest.raises(grpc.RpcError) as err:
            for _line in stub.Audit(_audit_requests(1000), timeout=1.0):
                pass
        assert err.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
        line = _logged(caplog, lambda f: f.get("method") == "Audit")
        assert line["code"] == "DEADLINE_EXCEEDED" and line["lines"] >= 1, line
        # a what-if with every token placement may answer a little past its deadline: the log says what the client saw
        try:
            stub.WhatIf(pb.WhatIfRequest(snapshot_json=LONG.snapshot_json, tokens=True, trains=["D"],
                                         time_limit_s=60), timeout=0.1)
            seen = grpc.StatusCode.OK
        except grpc.RpcError as exc:
            seen = exc.code()
        line = _logged(caplog, lambda f: f.get("method") == "WhatIf")
    assert line["code"] == seen.name, line


def test_a_call_the_shutdown_cuts_off_is_logged_unavailable(served: Served, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="routemax.request")
    server, port, in_flight = served
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = pb_grpc.RouteServiceStub(channel).Solve.future(LONG, timeout=60)
        _started(in_flight)
        in_flight.stopping(0.2)  # as the lifecycle does before it stops the server
        server.stop(0.2).wait(10)
        with pytest.raises(grpc.RpcError) as err:
            call.result(timeout=10)
        line = _logged(caplog, lambda f: f.get("method") == "Solve")
    assert err.value.code() is grpc.StatusCode.UNAVAILABLE
    assert line["code"] == "UNAVAILABLE" and "revenue" not in line, line
