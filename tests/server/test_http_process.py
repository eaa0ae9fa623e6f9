"""`routemax serve --http-port` as an operator runs it: a real process answering HTTP JSON beside gRPC, started by
the flag or by ROUTEMAX_HTTP_PORT, refusing a port in use in one line, and draining both sides on SIGTERM."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading

import grpc

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from tests.conftest import REPO
from tests.server.test_server_process import _env, _slow_snapshot, start  # noqa: F401 - `start` is a fixture
from tests.support.http_client import Answer, as_message, post_json, without_timings

SMALL_REQUEST = {"snapshotJson": (REPO / "solver" / "examples" / "1839_example.json").read_text(encoding="utf-8")}


def _ports(server) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    started = server.wait_for("start")
    return int(started["address"].rsplit(":", 1)[1]), int(started["http_address"].rsplit(":", 1)[1])


def test_the_flag_serves_http_json_with_the_grpc_answer(start) -> None:  # noqa: F811
    server = start("--port", "0", "--http-port", "0")
    grpc_port, http_port = _ports(server)
    assert server.wait_for("start")["http_address"] == f"127.0.0.1:{http_port}"  # loopback by default
    answer = post_json(http_port, "Solve", SMALL_REQUEST)
    with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        expected = pb_grpc.RouteServiceStub(channel).Solve(pb.SolveRequest(snapshot_json=SMALL_REQUEST["snapshotJson"]),
                                                           timeout=60)
    assert without_timings(as_message(answer, pb.SolveResponse)) == without_timings(expected)
    line = server.wait_for("request", transport="http")
    assert line["method"] == "Solve" and line["code"] == "OK" and line["revenue"] == expected.revenue


def test_the_variable_starts_the_http_side_too(start) -> None:  # noqa: F811
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    server = start("--port", "0", env={"ROUTEMAX_HTTP_PORT": str(free)})
    assert _ports(server)[1] == free
    assert post_json(free, "ListRulesets", {}).json()["serverVersion"]


def test_an_http_port_in_use_is_one_line_and_exit_3() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "routemax", "serve", "--port", "0", "--http-port", str(port)],
                              cwd=REPO, env=_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 3
    assert done.stderr.splitlines() == [f"routemax serve: cannot listen on 127.0.0.1:{port}: address in use"]


def test_sigterm_drains_an_inflight_http_solve(start) -> None:  # noqa: F811
    server = start("--port", "0", "--http-port", "0", "--grace", "30", "--log-level", "debug")
    _grpc_port, http_port = _ports(server)
    answers: list[Answer] = []
    call = threading.Thread(target=lambda: answers.append(
        post_json(http_port, "Solve", {"snapshotJson": _slow_snapshot(), "timeLimitS": 3})))
    call.start()
    server.wait_for("request_start", method="Solve", transport="http")
    server.proc.send_signal(signal.SIGTERM)
    call.join(timeout=60)
    result = as_message(answers[0], pb.SolveResponse)
    assert result.status in (pb.OPTIMAL, pb.FEASIBLE) and result.revenue > 0
    assert server.proc.wait(timeout=60) == 0
    events = server.events()
    assert next(e for e in events if e["event"] == "stopping")["in_flight"] == 1
    assert events[-1]["event"] == "stopped" and events[-1]["unfinished"] == 0
    assert not [e for e in events if e["level"] in ("WARNING", "ERROR")]
    assert "Traceback" not in server.log_path.read_text()
    assert json.loads(answers[0].body)["status"] == pb.Status.Name(result.status)
