"""Health checks and small solves beside large searches, against a real `routemax serve` process:
their latency (median and max, in `extra_info`) while 1 or 3 large solves on a dense board run."""

from __future__ import annotations

import json
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from tests.support.boards import dense_board

REPO = Path(__file__).resolve().parent.parent
PROBES = 30


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("large", [1, 3])
def test_health_and_small_solves_beside_large_ones(benchmark, tmp_path: Path, large: int) -> None:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "routemax", "serve", "--port", str(port)], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={"PYTHONPATH": str(REPO)})
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
            stub, health = pb_grpc.RouteServiceStub(channel), health_pb2_grpc.HealthStub(channel)
            big = json.dumps(dense_board(6).snapshot())
            small = json.dumps(dense_board(2).snapshot())
            searches = [stub.Solve.future(pb.SolveRequest(snapshot_json=big, time_limit_s=30)) for _ in range(large)]
            time.sleep(1.0)
            health_ms: list[float] = []
            solve_ms: list[float] = []

            def probe() -> None:
                for i in range(PROBES):
                    t0 = time.perf_counter()
                    health.Check(health_pb2.HealthCheckRequest(), timeout=5)
                    health_ms.append((time.perf_counter() - t0) * 1000)
                    if i % 5 == 0:
                        t0 = time.perf_counter()
                        stub.Solve(pb.SolveRequest(snapshot_json=small, time_limit_s=5), timeout=10)
                        solve_ms.append((time.perf_counter() - t0) * 1000)
                    time.sleep(0.1)

            benchmark.pedantic(probe, rounds=1, iterations=1)
            for call in searches:
                call.cancel()
            benchmark.extra_info.update({
                "large_solves": large,
                "health_median_ms": round(statistics.median(health_ms), 1), "health_max_ms": round(max(health_ms), 1),
                "small_solve_median_ms": round(statistics.median(solve_ms), 1),
                "small_solve_max_ms": round(max(solve_ms), 1)})
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
