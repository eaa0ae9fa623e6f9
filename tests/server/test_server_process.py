"""`routemax serve` as an operator runs it: a real process, its signals, its logs, its limits."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

import routemax
from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from server.app import SERVICE_NAME
from solver.examples import example_path
from tests.conftest import REPO
from tests.support.boards import dense_board

NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
SERVING = health_pb2.HealthCheckResponse.SERVING


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROUTEMAX_")}
    env["PYTHONPATH"] = str(REPO)
    env.update(extra or {})
    return env


class ServerProcess:
    """`python -m routemax serve ...` with its stderr (the JSON log) in a file."""

    def __init__(self, log_path: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.log_path = log_path
        self._log = log_path.open("wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "routemax", "serve", *args], cwd=REPO,
                                     stdout=subprocess.DEVNULL, stderr=self._log, env=_env(env))

    def events(self) -> list[dict[str, Any]]:
        lines = self.log_path.read_text().splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]

    def wait_for(self, event: str, timeout: float = 60.0, **fields: Any) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for e in self.events():
                if e["event"] == event and all(e.get(k) == v for k, v in fields.items()):
                    return e
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited {self.proc.returncode}: {self.log_path.read_text()}")
            time.sleep(0.05)
        raise AssertionError(f"no {event} {fields} in the log: {self.log_path.read_text()}")

    def wait_for_all_requests(self, n: int, timeout: float = 30.0) -> list[dict[str, Any]]:
        """The request lines, once there are n of them."""
        end = time.monotonic() + timeout
        while True:
            found = [e for e in self.events() if e["event"] == "request"]
            if len(found) >= n or time.monotonic() > end:
                return found
            time.sleep(0.05)

    def port(self) -> int:
        return int(self.wait_for("start")["address"].rsplit(":", 1)[1])

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self._log.close()


@pytest.fixture()
def start(tmp_path: Path) -> Iterator:
    started: list[ServerProcess] = []

    def _start(*args: str, env: dict[str, str] | None = None) -> ServerProcess:
        server = ServerProcess(tmp_path / f"serve{len(started)}.log", *args, env=env)
        started.append(server)
        return server

    yield _start
    for server in started:
        server.close()


def _slow_snapshot() -> str:
    """A dense board of two trains whose search uses all of a 3 s limit (the stress set's boards are proven in
    a fraction of a second now)."""
    return json.dumps(dense_board(6).snapshot())


def test_second_server_on_the_same_port_is_refused(start) -> None:
    first = start("--port", "0")
    port = first.port()
    second = subprocess.run([sys.executable, "-m", "routemax", "serve", "--port", str(port)], cwd=REPO, env=_env(),
                            capture_output=True, text=True, timeout=120)
    assert second.returncode == 3
    assert second.stderr.splitlines() == [f"routemax serve: cannot listen on 127.0.0.1:{port}: address in use"]
    assert first.proc.poll() is None


def test_sigterm_drains_an_inflight_solve(start) -> None:
    server = start("--port", "0", "--grace", "30", "--log-level", "debug")
    with grpc.insecure_channel(f"127.0.0.1:{server.port()}") as channel:
        watches = [health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=name))
                   for name in ("", SERVICE_NAME)]
        assert [next(w).status for w in watches] == [SERVING, SERVING]
        call = pb_grpc.RouteServiceStub(channel).Solve.future(
            pb.SolveRequest(snapshot_json=_slow_snapshot(), time_limit_s=3), timeout=120)
        server.wait_for("request_start", method="Solve")
        t_signal = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        assert [next(w).status for w in watches] == [NOT_SERVING, NOT_SERVING]
        for w in watches:
            w.cancel()
        result = call.result()
        assert result.status in (pb.OPTIMAL, pb.FEASIBLE) and result.revenue > 0
        assert server.proc.wait(timeout=60) == 0
    assert time.monotonic() - t_signal < 30, "the drain took longer than the grace period"
    events = server.events()
    stopping = next(e for e in events if e["event"] == "stopping")
    assert stopping["signal"] == "SIGTERM" and stopping["in_flight"] == 1
    assert any(e["event"] == "request" and e["method"] == "Solve" and e["code"] == "OK" for e in events)
    assert events[-1]["event"] == "stopped" and events[-1]["unfinished"] == 0
    assert not [e for e in events if e["level"] in ("WARNING", "ERROR")], "the health update or the drain stalled"
    assert "Traceback" not in server.log_path.read_text()


def test_sigint_stops_without_a_traceback(start) -> None:
    server = start("--port", "0")
    server.port()
    server.proc.send_signal(signal.SIGINT)
    assert server.proc.wait(timeout=60) == 0
    text = server.log_path.read_text()
    assert "Traceback" not in text and '"event": "stopped"' in text


def test_log_has_startup_and_request_lines(start) -> None:
    server = start("--port", "0", "--workers", "2", "--default-time-limit", "5", "--max-time-limit", "20")
    snapshot = example_path("1839").read_text()
    with grpc.insecure_channel(f"127.0.0.1:{server.port()}") as channel:
        stub = pb_grpc.RouteServiceStub(channel)
        solved = stub.Solve(pb.SolveRequest(snapshot_json=snapshot, time_limit_s=20), timeout=60)
        stub.ListRulesets(pb.ListRulesetsRequest(), timeout=10)
        with pytest.raises(grpc.RpcError):
            stub.Solve(pb.SolveRequest(snapshot_json="{", time_limit_s=1), timeout=10)
        audit = list(stub.Audit(iter([pb.AuditRequest(source="a", snapshot_json=snapshot, time_limit_s=5),
                                      pb.AuditRequest(source="b", snapshot_json=snapshot, time_limit_s=5)]),
                                timeout=120))
        health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
    assert len(audit) == 2
    first = server.events()[0]
    assert first["event"] == "start" and first["version"] == routemax.__version__
    assert (first["workers"], first["default_time_limit_s"], first["max_time_limit_s"]) == (2, 5.0, 20.0)
    requests = server.wait_for_all_requests(4)
    by_method = {(e["method"], e["code"]): e for e in requests}
    ok = by_method[("Solve", "OK")]
    assert ok["ruleset"] == "1839" and ok["revenue"] == solved.revenue and ok["duration_ms"] > 0
    assert by_method[("Solve", "INVALID_ARGUMENT")]["details"]
    assert ("ListRulesets", "OK") in by_method
    assert by_method[("Audit", "OK")]["positions"] == 2
    assert ("Check", "OK") not in by_method, "health probes are logged at DEBUG only"


def test_oversized_request_is_resource_exhausted(start) -> None:
    server = start("--port", "0", "--max-message-bytes", "20000")
    small, large = example_path("1839").read_text(), example_path("1830").read_text()
    assert len(small) < 20000 < len(large)
    with grpc.insecure_channel(f"127.0.0.1:{server.port()}") as channel:
        stub = pb_grpc.RouteServiceStub(channel)
        with pytest.raises(grpc.RpcError) as err:
            stub.Solve(pb.SolveRequest(snapshot_json=large, time_limit_s=5), timeout=30)
        assert err.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert stub.Solve(pb.SolveRequest(snapshot_json=small, time_limit_s=20), timeout=60).revenue > 0


@pytest.mark.parametrize(("args", "env", "names"), [
    (["--port", "http"], {}, "--port"),
    (["--grace", "-1"], {}, "--grace"),
    ([], {"ROUTEMAX_MAX_TIME_LIMIT_S": "nan"}, "ROUTEMAX_MAX_TIME_LIMIT_S"),
    (["--default-time-limit", "30"], {"ROUTEMAX_MAX_TIME_LIMIT_S": "20"}, "--default-time-limit"),
    (["--workers", "4"], {"ROUTEMAX_WORKERS": "x"}, "ROUTEMAX_WORKERS"),
])
def test_config_errors_are_one_line_and_exit_3(args: list[str], env: dict[str, str], names: str) -> None:
    done = subprocess.run([sys.executable, "-m", "routemax", "serve", *args], cwd=REPO, env=_env(env),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 3
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith(f"routemax serve: {names}: ")
