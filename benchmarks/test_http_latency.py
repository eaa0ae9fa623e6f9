"""A small solve over HTTP JSON beside the same solve over gRPC, against one real `routemax serve --http-port`
process: the latency of one call at a time (the median is the comparison; HTTP keeps its connection open, as a
page's fetch() does) and the throughput of four clients at once (calls per second in `extra_info`)."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from solver.examples import example_path

REPO = Path(__file__).resolve().parent.parent
SNAPSHOT = example_path("1830").read_text(encoding="utf-8")
ROUNDS = 200
CLIENTS = 4
CALLS_PER_CLIENT = 50


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    grpc_port, http_port = _free_port(), _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "routemax", "serve", "--port", str(grpc_port), "--http-port",
                             str(http_port), "--log-level", "WARNING"], cwd=tmp_path_factory.mktemp("serve"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={"PYTHONPATH": str(REPO)})
    try:
        with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
        yield grpc_port, http_port
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _grpc_caller(grpc_port: int) -> tuple[Callable[[], int], Callable[[], None]]:
    channel = grpc.insecure_channel(f"127.0.0.1:{grpc_port}")
    stub = pb_grpc.RouteServiceStub(channel)
    request = pb.SolveRequest(snapshot_json=SNAPSHOT, time_limit_s=10)
    return (lambda: stub.Solve(request, timeout=30).revenue), channel.close


def _http_caller(http_port: int) -> tuple[Callable[[], int], Callable[[], None]]:
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=30)
    body = json.dumps({"snapshotJson": SNAPSHOT, "timeLimitS": 10}).encode()
    headers = {"content-type": "application/json", "connect-timeout-ms": "30000"}

    def call() -> int:
        conn.request("POST", "/routemax.v1.RouteService/Solve", body=body, headers=headers)
        response = conn.getresponse()
        answer = json.loads(response.read())
        assert response.status == 200, answer
        return int(answer["revenue"])

    return call, conn.close


CALLERS = {"grpc": _grpc_caller, "http_json": _http_caller}


def _port(ports: tuple[int, int], protocol: str) -> int:
    return ports[0] if protocol == "grpc" else ports[1]


@pytest.mark.parametrize("protocol", list(CALLERS))
def test_small_solve_latency(benchmark, ports: tuple[int, int], protocol: str) -> None:
    call, close = CALLERS[protocol](_port(ports, protocol))
    try:
        for _ in range(20):  # warm the connection and the server
            assert call() == 440
        revenue = benchmark.pedantic(call, rounds=ROUNDS, iterations=1)
        assert revenue == 440
    finally:
        close()


@pytest.mark.parametrize("protocol", list(CALLERS))
def test_small_solve_throughput(benchmark, ports: tuple[int, int], protocol: str) -> None:
    callers = [CALLERS[protocol](_port(ports, protocol)) for _ in range(CLIENTS)]
    for call, _close in callers:
        call()

    def burst() -> None:
        threads = [threading.Thread(target=lambda c=call: [c() for _ in range(CALLS_PER_CLIENT)])
                   for call, _close in callers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    try:
        t0 = time.perf_counter()
        benchmark.pedantic(burst, rounds=3, iterations=1)
        elapsed = time.perf_counter() - t0
        benchmark.extra_info["calls_per_s"] = round(3 * CLIENTS * CALLS_PER_CLIENT / elapsed, 1)
        benchmark.extra_info["clients"] = CLIENTS
    finally:
        for _call, close in callers:
            close()
