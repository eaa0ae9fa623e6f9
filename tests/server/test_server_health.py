"""The health service tells every watcher of a status change, even when watchers hang up meanwhile
(grpcio-health-checking's own servicer hangs the server then: see server/health.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from server.app import SERVICE_NAME, create_server
from server.config import ServerConfig
from server.health import HealthServicer

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
WATCHERS = 8
ROUNDS = 20


@pytest.fixture()
def served() -> Iterator[tuple[HealthServicer, health_pb2_grpc.HealthStub]]:
    server, port, servicer = create_server(ServerConfig(port=0, workers=2))
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield servicer, health_pb2_grpc.HealthStub(channel)
    finally:
        channel.close()
        server.stop(None)


def _rounds(servicer: HealthServicer, stub: health_pb2_grpc.HealthStub, seen: list[int]) -> None:
    """Each round: watchers open, the status flips, each watcher reads the change and hangs up at once."""
    for r in range(ROUNDS):
        watches = [stub.Watch(health_pb2.HealthCheckRequest(service=SERVICE_NAME)) for _ in range(WATCHERS)]
        for w in watches:
            next(w)
        status = NOT_SERVING if r % 2 == 0 else SERVING
        setter = threading.Thread(target=servicer.set, args=(SERVICE_NAME, status), daemon=True)
        setter.start()
        for w in watches:
            seen.append(next(w).status)
            w.cancel()
        setter.join(10)
        assert not setter.is_alive(), f"set() still blocked in round {r}"


def test_status_changes_survive_watchers_hanging_up(served) -> None:
    servicer, stub = served
    seen: list[int] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            _rounds(servicer, stub, seen)
        except BaseException as exc:  # reported below
            errors.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), f"the health service hung after {len(seen)} updates"
    assert not errors, errors
    assert seen == [NOT_SERVING if r % 2 == 0 else SERVING for r in range(ROUNDS) for _ in range(WATCHERS)]


def test_graceful_shutdown_tells_watchers_of_every_service(served) -> None:
    servicer, stub = served
    watches = [stub.Watch(health_pb2.HealthCheckRequest(service=name)) for name in ("", SERVICE_NAME)]
    assert [next(w).status for w in watches] == [SERVING, SERVING]
    servicer.enter_graceful_shutdown()
    assert [next(w).status for w in watches] == [NOT_SERVING, NOT_SERVING]
    for w in watches:
        w.cancel()
    servicer.set(SERVICE_NAME, SERVING)
    assert stub.Check(health_pb2.HealthCheckRequest(service=SERVICE_NAME), timeout=5).status == NOT_SERVING
