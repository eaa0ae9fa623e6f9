"""Cancelling: a cancel token stops a solve in every phase (the route walk, the packing, CP-SAT) with
the best legal answer so far; a cancelled gRPC call frees the server's CPU while health answers."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from solver.evaluator import evaluate
from solver.model.cancel import CancelToken
from solver.model.results import ClaimedRoute, SolveOptions
from solver.optimiser import solve
from tests.support.boards import dense_board

REPO = Path(__file__).resolve().parents[2]


def test_the_token_runs_callbacks_once_and_at_once_when_late() -> None:
    token, calls = CancelToken(), []
    undo = token.on_cancel(lambda: calls.append("a"))
    token.on_cancel(lambda: calls.append("b"))
    undo()
    token.cancel()
    token.cancel()
    assert calls == ["b"] and token.cancelled
    token.on_cancel(lambda: calls.append("late"))
    assert calls == ["b", "late"]


def _solve_and_cancel_after(board, seconds: float, limit: float = 60.0):
    token = CancelToken()
    timer = threading.Timer(seconds, token.cancel)
    timer.start()
    t0 = time.monotonic()
    try:
        result = solve(board, SolveOptions(time_limit_s=limit, cancel=token))
    finally:
        timer.cancel()
    return result, time.monotonic() - t0


def test_a_cancelled_solve_returns_its_best_legal_answer_long_before_its_limit() -> None:
    board = dense_board(6).board()
    for after in (0.3, 3.0):  # during the route walk, and during the packing's search
        result, elapsed = _solve_and_cancel_after(board, after)
        assert elapsed < 20.0, (after, elapsed)  # the limit is 60 s
        assert result.status == "FEASIBLE" and result.bound >= result.revenue
        claims = [ClaimedRoute(train=r.train, nodes=list(r.nodes), legs=[list(leg.paths) for leg in r.legs])
                  for r in result.routes]
        check = evaluate(board, claims)
        assert check.legal and check.revenue == result.revenue


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_cancelled_large_solve_frees_the_cpu_and_health_answers_throughout(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "routemax", "serve", "--port", str(port), "--workers", "4"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
            stub = pb_grpc.RouteServiceStub(channel)
            health = health_pb2_grpc.HealthStub(channel)
            snapshot = json.dumps(dense_board(6).snapshot())
            calls = [stub.Solve.future(pb.SolveRequest(snapshot_json=snapshot, time_limit_s=60)) for _ in range(2)]
            time.sleep(3.0)  # both searches are running
            busy = health.Check(health_pb2.HealthCheckRequest(), timeout=1.0)
            assert busy.status == health_pb2.HealthCheckResponse.SERVING
            for call in calls:
                call.cancel()
            time.sleep(1.0)  # within a second of the cancel, the CPU is free again
            before = _cpu_seconds(proc.pid)
            time.sleep(1.0)
            used = _cpu_seconds(proc.pid) - before
            assert used < 0.3, f"{used:.2f} CPU seconds in the second after the cancel"
            after = health.Check(health_pb2.HealthCheckRequest(), timeout=1.0)
            assert after.status == health_pb2.HealthCheckResponse.SERVING
            small = stub.Solve(pb.SolveRequest(snapshot_json=json.dumps(dense_board(2).snapshot()), time_limit_s=5),
                               timeout=10)
            assert small.status == pb.OPTIMAL
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
