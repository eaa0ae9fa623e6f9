"""Worker slots on a real one-worker server: a call queued for the worker gets the deadline left when the
worker frees, so it answers within it; the calls that may wait at once and the Audit streams that may stay
open are bounded, so health checks and light calls always find a thread; an objective the enum does not
hold is refused."""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from server.app import create_server
from server.config import ServerConfig
from server.service import MAX_AUDIT_STREAMS, MAX_WAITING
from solver.examples import example_path
from tests.conftest import WebServers
from tests.support.boards import dense_board
from tests.support.http_client import post_json

DENSE = json.dumps(dense_board(6).snapshot())  # a board no search finishes in seconds
SMALL = example_path("1830").read_text(encoding="utf-8")


@pytest.fixture()
def channel() -> Iterator[grpc.Channel]:
    """A channel to a fresh one-worker server."""
    server, port, _health = create_server(ServerConfig(host="127.0.0.1", port=0, workers=1))
    with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
        grpc.channel_ready_future(ch).result(timeout=10)
        yield ch
    server.stop(grace=None)


def _healthy(channel: grpc.Channel) -> bool:
    answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
    return answer.status == health_pb2.HealthCheckResponse.SERVING


def _busy(stub: pb_grpc.RouteServiceStub, seconds: float) -> grpc.Future:
    """The worker held by a long solve for about `seconds`."""
    held = stub.Solve.future(pb.SolveRequest(snapshot_json=DENSE, time_limit_s=seconds), timeout=seconds + 30)
    time.sleep(0.5)  # it has the worker
    return held


def test_a_call_queued_for_the_worker_answers_within_its_deadline(channel: grpc.Channel) -> None:
    """Its search time is what its deadline leaves once the worker frees, not what it left on arrival (that
    answer would come after the deadline)."""
    stub = pb_grpc.RouteServiceStub(channel)
    held = _busy(stub, 3.0)
    start = time.monotonic()
    queued = stub.Solve(pb.SolveRequest(snapshot_json=DENSE, time_limit_s=60), timeout=5.0)
    assert queued.status in (pb.FEASIBLE, pb.OPTIMAL) and queued.revenue > 0
    assert time.monotonic() - start < 5.0
    assert held.result().revenue > 0


def test_calls_beyond_the_waiting_room_are_turned_away_and_health_answers(channel: grpc.Channel) -> None:
    stub = pb_grpc.RouteServiceStub(channel)
    held = _busy(stub, 20.0)
    waiting = [stub.Solve.future(pb.SolveRequest(snapshot_json=SMALL), timeout=30) for _ in range(MAX_WAITING)]
    time.sleep(1.0)
    start = time.monotonic()
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(snapshot_json=SMALL), timeout=30)
    assert err.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED and "wait" in err.value.details()
    assert time.monotonic() - start < 2.0 and _healthy(channel)
    assert not any(w.done() for w in waiting)  # they wait still
    for w in waiting:  # clients that leave free their places within a step of the wait
        w.cancel()
    time.sleep(1.0)
    again = [stub.Solve.future(pb.SolveRequest(snapshot_json=SMALL), timeout=60) for _ in range(MAX_WAITING)]
    held.cancel()
    assert all(a.result().status == pb.OPTIMAL for a in again)


def test_audit_streams_beyond_the_limit_are_turned_away_and_health_answers(channel: grpc.Channel) -> None:
    stub = pb_grpc.RouteServiceStub(channel)
    feeds: list[queue.Queue] = [queue.Queue() for _ in range(MAX_AUDIT_STREAMS)]

    def requests(feed: queue.Queue) -> Iterator[pb.AuditRequest]:
        while (item := feed.get()) is not None:
            yield item

    streams = [stub.Audit(requests(feed), timeout=60) for feed in feeds]
    results: list[list] = [[] for _ in streams]
    readers = [threading.Thread(target=lambda s=s, out=out: out.extend(s), daemon=True)
               for s, out in zip(streams, results)]
    for r in readers:
        r.start()
    time.sleep(1.0)  # every stream open and idle
    with pytest.raises(grpc.RpcError) as err:
        list(stub.Audit(iter([pb.AuditRequest(source="x", snapshot_json=SMALL)]), timeout=10))
    assert err.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED and "audit streams" in err.value.details()
    assert _healthy(channel)
    for feed in feeds:
        feed.put(pb.AuditRequest(source="x", snapshot_json=SMALL))
        feed.put(None)
    for r in readers:
        r.join(30)
    assert all(len(out) == 1 for out in results)  # the open streams were served
    assert len(list(stub.Audit(iter([pb.AuditRequest(source="x", snapshot_json=SMALL)]), timeout=30))) == 1


def test_an_objective_the_enum_does_not_hold_is_refused(web: WebServers,
                                                        web_stub: pb_grpc.RouteServiceStub) -> None:
    for value in (7, -3):
        with pytest.raises(grpc.RpcError) as err:
            web_stub.Solve(pb.SolveRequest(snapshot_json=SMALL, objective=value), timeout=30)
        assert err.value.code() is grpc.StatusCode.INVALID_ARGUMENT and "objective" in err.value.details()
    answer = post_json(web.http_port, "Solve", {"snapshotJson": SMALL, "objective": 7})
    assert answer.status == 400 and "objective" in answer.json()["message"]
    assert web_stub.Solve(pb.SolveRequest(snapshot_json=SMALL, objective=pb.REVENUE_ONLY), timeout=30).revenue > 0


def test_a_call_whose_deadline_passes_while_it_waits_is_not_logged_as_cancelled(
        channel: grpc.Channel, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="routemax.request")
    stub = pb_grpc.RouteServiceStub(channel)
    held = _busy(stub, 10.0)
    seen = []
    for timeout in (1.0, 1.3):
        with pytest.raises(grpc.RpcError) as err:
            stub.Solve(pb.SolveRequest(snapshot_json=SMALL), timeout=timeout)
        seen.append(err.value.code().name)
    held.cancel()
    end = time.monotonic() + 10
    while time.monotonic() < end:
        logged = [r.fields["code"] for r in caplog.records
                  if r.name == "routemax.request" and r.fields.get("method") == "Solve" and r.fields["code"] != "OK"]
        if len(logged) >= 3:
            break
        time.sleep(0.05)
    assert all(code in ("DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED") for code in seen)  # whichever saw it first
    # the held call, cancelled, is the one CANCELLED; a waiting call is not (the server may see the deadline
    # come before grpc does: no worker free before the deadline)
    assert len(logged) == 3 and logged.count("CANCELLED") == 1
    assert all(code in ("DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED", "CANCELLED") for code in logged)
